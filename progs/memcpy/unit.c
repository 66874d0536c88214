// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * memcpy: the catalogue entry of progs/memcpy/prog.bpf.c (`iouring-bpf list`,
 * iouring_bpf_prog_find()): its name and parameters with their ranges;
 * its description, example and notes are its workload's (run.c). The
 * build embeds the object through its skeleton (loader/Makefile).
 */
#include "unit.h"

/* name, type, valid range (checked for --set, options, the library), help */
#define PARAMS(P)							\
	P("reverse", "__u32", 0, 1,					\
	  "1: copy buffer 2 -> buffer 1 by default (flag bit 0 flips it)") \
	P("max_len", "__u32", 0, UINT32_MAX,				\
	  "copy at most this many bytes (0: min of the two lengths)")

IOU_UNIT(PARAMS,
	 .name = "memcpy");
