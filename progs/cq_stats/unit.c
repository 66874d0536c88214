// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * cq-stats: the catalogue entry of progs/cq_stats/prog.bpf.c (`iouring-bpf list`,
 * iouring_bpf_prog_find()): its name and parameters with their ranges;
 * its description, example and notes are its workload's (run.c). The
 * build embeds the object through its skeleton (loader/Makefile).
 */
#include "unit.h"

/* name, type, valid range (checked for --set, options, the library), help */
#define PARAMS(P)							\
	P("ud_is_ts", "__u32", 0, 1,					\
	  "1: user_data is the submit time (ns), histogram latency (run sets 1)") \
	P("wait_nr", "__u32", 1, 65536,					\
	  "mainline only: new CQEs a wait waits for (v3 keeps the caller's min_complete)")

IOU_UNIT(PARAMS,
	 .name = "cq-stats");
