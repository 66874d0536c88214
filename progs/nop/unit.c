// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * nop: the catalogue entry of progs/nop/prog.bpf.c (`iouring-bpf list`,
 * iouring_bpf_prog_find()): its description and parameters;
 * the build embeds the object through its skeleton (loader/Makefile).
 */
#include "unit.h"

IOU_UNIT(IOU_NO_PARAMS,
	 .name = "nop",
	 .desc = "IORING_OP_BPF op that completes with res 0");
