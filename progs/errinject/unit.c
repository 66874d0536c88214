// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * errinject: the catalogue entry of progs/errinject/prog.bpf.c (`iouring-bpf list`,
 * iouring_bpf_prog_find()): its description, example and parameters;
 * the build embeds the object through its skeleton (loader/Makefile).
 */
#include "unit.h"

IOU_UNIT(.name = "errinject",
	 .desc = "IORING_OP_BPF op failing requests on purpose",
	 .example = "iouring-bpf run errinject --count 100 --set mode=1 --set nth=10",
	 .params = {
		 { "mode", "__u32",
		   "0 always, 1 every nth, 2 probability, 3 user_data in map fail_ud" },
		 { "nth", "__u32",
		   "mode 1: fail the nth, 2nth, ... request" },
		 { "prob_pct", "__u32",
		   "mode 2: percent of requests to fail" },
		 { "err", "__u32",
		   "positive errno to inject (5: EIO)" },
	 });
