// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * nop-chain: the catalogue entry of progs/nop_chain/prog.bpf.c (`iouring-bpf list`,
 * iouring_bpf_prog_find()): its name and parameters with their ranges;
 * its description, example and notes are its workload's (run.c). The
 * build embeds the object through its skeleton (loader/Makefile).
 */
#include "unit.h"

/* name, type, valid range (checked for --set, options, the library), help */
#define PARAMS(P)							\
	P("nr", "__u64", 0, 1LL << 40,					\
	  "NOPs to complete")				\
	P("depth", "__u32", 1, 4096,					\
	  "NOPs in flight at most (1: strictly sequential)")

IOU_UNIT(PARAMS,
	 .name = "nop-chain");
