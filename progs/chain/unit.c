// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * chain: the catalogue entry of progs/chain/prog.bpf.c (`iouring-bpf list`,
 * iouring_bpf_prog_find()): its description and parameters;
 * the build embeds the object through its skeleton (loader/Makefile).
 */
#include "unit.h"

/* name, type, valid range (checked for --set, options, the library), help */
#define PARAMS(P)							\
	P("max_len", "__u32", 0, 4096,					\
	  "bytes of buffer 1 summed at most (<= 4096)")

IOU_UNIT(PARAMS,
	 .name = "chain",
	 .desc = "IORING_OP_BPF ops passing a checksum along a link chain");
