// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * copy: the catalogue entry of progs/copy/prog.bpf.c (`iouring-bpf list`,
 * iouring_bpf_prog_find()): its name and parameters with their ranges;
 * its description, example and notes are its workload's (run.c). The
 * build embeds the object through its skeleton (loader/Makefile).
 */
#include "unit.h"

/* name, type, valid range (checked for --set, options, the library), help */
#define PARAMS(P)							\
	P("block", "__u32", 1, 64 << 20,				\
	  "bytes per read")						\
	P("stream_in", "__u32", 0, 1,					\
	  "1: read from a pipe fed in odd-sized chunks")		\
	P("fd_in", "__s32", -1, INT32_MAX,				\
	  "set by the loader")						\
	P("fd_out", "__s32", -1, INT32_MAX,				\
	  "set by the loader")						\
	P("buf", "__u64", 0, INT64_MAX,					\
	  "set by the loader")

IOU_UNIT(PARAMS,
	 .name = "copy");
