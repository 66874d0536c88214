// SPDX-License-Identifier: GPL-2.0
/*
 * op_sleepable_cleanup.bpf.c - a uring_bpf_ops whose cleanup_fn is
 * sleepable (op id 42). cleanup_fn and fail_fn run from completion and
 * freeing paths that may not sleep, so the kernel must refuse to load this
 * (test_op_memcpy/sleepable_only_prep_and_issue); a sleepable prep_fn and
 * issue_fn, as in op_memcpy.bpf.c, are fine.
 */
#include "t_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

int cleanups;

SEC("struct_ops.s/prep_fn")
int BPF_PROG(sc_prep, struct uring_bpf_data *data,
	     const struct io_uring_sqe *sqe)
{
	return 0;
}

SEC("struct_ops/issue_fn")
int BPF_PROG(sc_issue, struct uring_bpf_data *data)
{
	return 0;
}

SEC("struct_ops.s/cleanup_fn")
void BPF_PROG(sc_cleanup, struct uring_bpf_data *data)
{
	cleanups++;
}

SEC(".struct_ops.link")
struct uring_bpf_ops sleepable_cleanup_op = {
	.id = 42,
	.prep_fn = (void *)sc_prep,
	.issue_fn = (void *)sc_issue,
	.cleanup_fn = (void *)sc_cleanup,
};
