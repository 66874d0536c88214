// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * nop-chain: the catalogue entry of progs/nop_chain/prog.bpf.c (`iouring-bpf list`,
 * iouring_bpf_prog_find()): its description, example and parameters;
 * the build embeds the object through its skeleton (loader/Makefile).
 */
#include "unit.h"

IOU_UNIT(.name = "nop-chain",
	 .desc = "loop: N NOPs issued from BPF as each completes",
	 .example = "iouring-bpf run nop-chain --count 100000 --depth 1",
	 .params = {
		 { "nr", "__u64",
		   "NOPs to complete (run: --count)" },
		 { "depth", "__u32",
		   "NOPs in flight at most (1: strictly sequential; run: --depth)" },
	 });
