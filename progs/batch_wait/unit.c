// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * batch-wait: the catalogue entry of progs/batch_wait/prog.bpf.c (`iouring-bpf list`,
 * iouring_bpf_prog_find()): its description, example and parameters;
 * the build embeds the object through its skeleton (loader/Makefile).
 */
#include "unit.h"

IOU_UNIT(.name = "batch-wait",
	 .desc = "loop: wake the app for >= batch CQEs or after max_wait_us",
	 .example = "iouring-bpf run batch-wait --count 64 --set batch=8",
	 .mainline_note = "no timeout in the hook: the rest of a batch is waited for by polling (CPU busy up to max_wait_us); a call that finds SQEs submits them and returns at once; not on an SQ_REWIND ring (it cannot see how many SQEs the app queued there: refused at attach)",
	 .params = {
		 { "batch", "__u32",
		   "CQEs that make a batch" },
		 { "max_wait_us", "__u64",
		   "deadline after the first CQE of a batch" },
	 });
