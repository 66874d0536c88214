// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * cq-stats: the catalogue entry of progs/cq_stats/prog.bpf.c (`iouring-bpf list`,
 * iouring_bpf_prog_find()): its description and parameters;
 * the build embeds the object through its skeleton (loader/Makefile).
 */
#include "unit.h"

/* name, type, valid range (checked for --set, options, the library), help */
#define PARAMS(P)							\
	P("ud_is_ts", "__u32", 0, 1,					\
	  "1: user_data is the submit time (ns), histogram latency (run sets 1)") \
	P("wait_nr", "__u32", 1, 65536,					\
	  "mainline only: new CQEs a wait waits for (v3 keeps the caller's min_complete)")

IOU_UNIT(PARAMS,
	 .name = "cq-stats",
	 .desc = "loop: count completions by result and latency, change nothing",
	 .mainline_note = "the hook hides io_uring_enter()'s arguments: the program submits the app's SQEs and returns at once; a call with none waits for wait_nr new CQEs (or nothing in flight); enter returns 0, not the count submitted; on an SQ_REWIND ring the app stores how many SQEs it queued in the SQ tail");
