// SPDX-License-Identifier: GPL-2.0
/*
 * op_trust.bpf.c - two registrations of one op id, for test_op_trust.
 *
 * What it teaches: an op id is global, and a registration is not the id.
 * old_op and new_op take the same id (set from user space, both 90
 * here). A request belongs to the registration it was prepared with:
 * once that registration is gone, none of its callbacks - nor those of a
 * new registration of the same id - may run for the request any more,
 * and the id must be free for the new one at once, whoever keeps such a
 * request queued. Each op counts its calls per callback and completes
 * with its own result (OLD_RES, NEW_RES), so user space can tell which
 * programs, if any, ran for a request.
 *
 * issue_fn is not sleepable: the kernel pins a request's plain buffers at
 * prep for it, and must unpin them whatever becomes of the op.
 */
#include "t_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define OLD_RES	1111
#define NEW_RES	2222

/* counters read by user space: [0] old_op, [1] new_op */
int prep_calls[2], issue_calls[2], fail_calls[2], cleanup_calls[2];

static __always_inline void count(int *c, int i)
{
	__sync_fetch_and_add(&c[i & 1], 1);
}

SEC("struct_ops/prep_fn")
int BPF_PROG(old_prep, struct uring_bpf_data *data,
	     const struct io_uring_sqe *sqe)
{
	count(prep_calls, 0);
	return 0;
}

SEC("struct_ops/issue_fn")
int BPF_PROG(old_issue, struct uring_bpf_data *data)
{
	count(issue_calls, 0);
	uring_bpf_set_result(data, OLD_RES);
	return 0;
}

SEC("struct_ops/fail_fn")
void BPF_PROG(old_fail, struct uring_bpf_data *data)
{
	count(fail_calls, 0);
}

SEC("struct_ops/cleanup_fn")
void BPF_PROG(old_cleanup, struct uring_bpf_data *data)
{
	count(cleanup_calls, 0);
}

SEC("struct_ops/prep_fn")
int BPF_PROG(new_prep, struct uring_bpf_data *data,
	     const struct io_uring_sqe *sqe)
{
	count(prep_calls, 1);
	return 0;
}

SEC("struct_ops/issue_fn")
int BPF_PROG(new_issue, struct uring_bpf_data *data)
{
	count(issue_calls, 1);
	uring_bpf_set_result(data, NEW_RES);
	return 0;
}

SEC("struct_ops/fail_fn")
void BPF_PROG(new_fail, struct uring_bpf_data *data)
{
	count(fail_calls, 1);
}

SEC("struct_ops/cleanup_fn")
void BPF_PROG(new_cleanup, struct uring_bpf_data *data)
{
	count(cleanup_calls, 1);
}

SEC(".struct_ops.link")
struct uring_bpf_ops old_op = {
	.id = 90,
	.prep_fn = (void *)old_prep,
	.issue_fn = (void *)old_issue,
	.fail_fn = (void *)old_fail,
	.cleanup_fn = (void *)old_cleanup,
};

SEC(".struct_ops.link")
struct uring_bpf_ops new_op = {
	.id = 90,
	.prep_fn = (void *)new_prep,
	.issue_fn = (void *)new_issue,
	.fail_fn = (void *)new_fail,
	.cleanup_fn = (void *)new_cleanup,
};
