// SPDX-License-Identifier: GPL-2.0
/*
 * op_bare - bench experiment: the nop IORING_OP_BPF op (progs/nop.bpf.c)
 * without its two counters: prep_fn and issue_fn just return 0. What is
 * left of the cost over IORING_OP_NOP is the kernel's: dispatch through
 * the op table, the op slot's reference count, two struct_ops trampolines,
 * the cleanup path.
 *
 *   iouring-bpf bench op-overhead --prog build/bench-experiments/op_bare.bpf.o
 */
#include "iouring_bpf.h"

char LICENSE[] SEC("license") = "GPL";

IOU_EXIT_INFO_DEFINE();

IOU_OP_PREP(bare_prep)
{
	return 0;
}

IOU_OP_ISSUE(bare_issue)
{
	return 0;
}

IOU_OP_OPS(bare_ops, 1, bare_prep, bare_issue);
