// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * errinject: the catalogue entry of progs/errinject/prog.bpf.c (`iouring-bpf list`,
 * iouring_bpf_prog_find()): its name and parameters with their ranges;
 * its description, example and notes are its workload's (run.c). The
 * build embeds the object through its skeleton (loader/Makefile).
 */
#include "unit.h"

/* name, type, valid range (checked for --set, options, the library), help */
#define PARAMS(P)							\
	P("mode", "__u32", 0, 3,					\
	  "0 always, 1 every nth, 2 probability, 3 user_data in map fail_ud") \
	P("nth", "__u32", 1, UINT32_MAX,				\
	  "mode 1: fail the nth, 2nth, ... request")			\
	P("prob_pct", "__u32", 0, 100,					\
	  "mode 2: percent of requests to fail")			\
	P("err", "__u32", 1, 4095,					\
	  "positive errno to inject (5: EIO)")

IOU_UNIT(PARAMS,
	 .name = "errinject");
