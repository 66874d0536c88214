// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * chain: the catalogue entry of progs/chain/prog.bpf.c (`iouring-bpf list`,
 * iouring_bpf_prog_find()): its name and parameters with their ranges;
 * its description, example and notes are its workload's (run.c). The
 * build embeds the object through its skeleton (loader/Makefile).
 */
#include "unit.h"

/* name, type, valid range (checked for --set, options, the library), help */
#define PARAMS(P)							\
	P("max_len", "__u32", 0, 4096,					\
	  "bytes of buffer 1 summed at most (<= 4096)")

IOU_UNIT(PARAMS,
	 .name = "chain");
