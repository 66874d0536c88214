// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * batch-wait: the catalogue entry of progs/batch_wait/prog.bpf.c (`iouring-bpf list`,
 * iouring_bpf_prog_find()): its description and parameters;
 * the build embeds the object through its skeleton (loader/Makefile).
 */
#include "unit.h"

/* name, type, valid range (checked for --set, options, the library), help */
#define PARAMS(P)							\
	P("batch", "__u32", 1, 65536,					\
	  "CQEs that make a batch")					\
	P("max_wait_us", "__u64", 0, 10000000,				\
	  "deadline after the first CQE of a batch")

IOU_UNIT(PARAMS,
	 .name = "batch-wait",
	 .desc = "loop: wake the app for >= batch CQEs or after max_wait_us",
	 .mainline_note = "no timeout in the hook: the rest of a batch is waited for by polling (CPU busy up to max_wait_us); a call that finds SQEs submits them and returns at once; on an SQ_REWIND ring the app stores how many SQEs it queued in the SQ tail");
