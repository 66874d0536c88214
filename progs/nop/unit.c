// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * nop: the catalogue entry of progs/nop/prog.bpf.c (`iouring-bpf list`,
 * iouring_bpf_prog_find()): its name and parameters with their ranges;
 * its description, example and notes are its workload's (run.c). The
 * build embeds the object through its skeleton (loader/Makefile).
 */
#include "unit.h"

IOU_UNIT(IOU_NO_PARAMS,
	 .name = "nop");
