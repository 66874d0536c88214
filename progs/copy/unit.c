// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * copy: the catalogue entry of progs/copy/prog.bpf.c (`iouring-bpf list`,
 * iouring_bpf_prog_find()): its description, example and parameters;
 * the build embeds the object through its skeleton (loader/Makefile).
 */
#include "unit.h"

IOU_UNIT(.name = "copy",
	 .desc = "loop: copy a file, each write sized by the read before it",
	 .example = "iouring-bpf run copy --set block=65536",
	 .params = {
		 { "block", "__u32",
		   "bytes per read" },
		 { "stream_in", "__u32",
		   "1: read from a pipe fed in odd-sized chunks" },
		 { "fd_in", "__s32",
		   "set by the loader" },
		 { "fd_out", "__s32",
		   "set by the loader" },
		 { "buf", "__u64",
		   "set by the loader" },
	 });
