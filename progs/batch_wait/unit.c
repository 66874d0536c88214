// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * batch-wait: the catalogue entry of progs/batch_wait/prog.bpf.c (`iouring-bpf list`,
 * iouring_bpf_prog_find()): its name and parameters with their ranges;
 * its description, example and notes are its workload's (run.c). The
 * build embeds the object through its skeleton (loader/Makefile).
 */
#include "unit.h"

/* name, type, valid range (checked for --set, options, the library), help */
#define PARAMS(P)							\
	P("batch", "__u32", 1, 65536,					\
	  "CQEs that make a batch")					\
	P("max_wait_us", "__u64", 0, 10000000,				\
	  "deadline after the first CQE of a batch")

IOU_UNIT(PARAMS,
	 .name = "batch-wait");
