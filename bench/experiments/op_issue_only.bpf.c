// SPDX-License-Identifier: GPL-2.0
/*
 * op_issue_only - bench experiment: an IORING_OP_BPF op with issue_fn
 * only, which just returns 0. With kernel patch 0036 an op without
 * prep_fn is called once per request (no prep trampoline) and, without
 * fail_fn and cleanup_fn, its requests skip the cleanup path: what is
 * left over IORING_OP_NOP is one trampoline and the op's lookup. Before
 * 0036 its requests fail with -EOPNOTSUPP.
 *
 *   iouring-bpf bench op-overhead --prog build/bench-experiments/op_issue_only.bpf.o
 */
#include "iouring_bpf.h"

char LICENSE[] SEC("license") = "GPL";

IOU_EXIT_INFO_DEFINE();

IOU_OP_ISSUE(issue_only)
{
	return 0;
}

SEC(".struct_ops.link") struct uring_bpf_ops issue_only_ops = {
	.id = 1,
	.issue_fn = (void *)issue_only,
};
