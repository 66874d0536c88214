// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * hybrid-poll: the catalogue entry of progs/hybrid_poll/prog.bpf.c (`iouring-bpf list`,
 * iouring_bpf_prog_find()): its name and parameters with their ranges;
 * its description, example and notes are its workload's (run.c). The
 * build embeds the object through its skeleton (loader/Makefile).
 */
#include "unit.h"

/* name, type, valid range (checked for --set, options, the library), help */
#define PARAMS(P)							\
	P("spin_us", "__u64", 0, 1000000,				\
	  "microseconds to poll before sleeping")			\
	P("want", "__u32", 1, 65536,					\
	  "CQEs to wait for when io_uring_enter's min_complete is 0")

IOU_UNIT(PARAMS,
	 .name = "hybrid-poll");
