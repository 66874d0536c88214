// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * memcpy: the catalogue entry of progs/memcpy/prog.bpf.c (`iouring-bpf list`,
 * iouring_bpf_prog_find()): its description and parameters;
 * the build embeds the object through its skeleton (loader/Makefile).
 */
#include "unit.h"

/* name, type, valid range (checked for --set, options, the library), help */
#define PARAMS(P)							\
	P("reverse", "__u32", 0, 1,					\
	  "1: copy buffer 2 -> buffer 1 by default (flag bit 0 flips it)") \
	P("max_len", "__u32", 0, UINT32_MAX,				\
	  "copy at most this many bytes (0: min of the two lengths)")

IOU_UNIT(PARAMS,
	 .name = "memcpy",
	 .desc = "IORING_OP_BPF op copying buffer 1 <-> buffer 2 (kfunc)");
