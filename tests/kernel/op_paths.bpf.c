// SPDX-License-Identifier: GPL-2.0
/*
 * op_paths.bpf.c - one IORING_OP_BPF op per way the kernel can call its
 * programs, for test_op_paths. Since patch 0038 a non-sleepable prep_fn or
 * issue_fn is run directly (bpf_prog_run() under rcu_read_lock()), a
 * sleepable one through its trampoline under SRCU, and a request with a
 * plain buffer for a non-sleepable issue_fn is prepared on the slow path
 * (its buffers are pinned first).
 *
 * Op V (id 100 + V, V = 0..5):
 *   0 ns_ns   prep_fn non-sleepable, issue_fn non-sleepable
 *   1 s_ns    prep_fn sleepable,     issue_fn non-sleepable
 *   2 ns_s    prep_fn non-sleepable, issue_fn sleepable
 *   3 s_s     prep_fn sleepable,     issue_fn sleepable
 *   4 x_ns    no prep_fn,            issue_fn non-sleepable
 *   5 x_s     no prep_fn,            issue_fn sleepable
 *
 * prep_fn keeps sqe->off in the pdu; issue_fn completes the request with
 * res = pdu value + buffer 1's length (PREPPED_BIAS + length without
 * prep_fn), so a wrong program, a lost pdu or a wrong buffer shows.
 */
#include "t_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define NR_PATHS	6
#define PREPPED_BIAS	7

int prep_calls[NR_PATHS], issue_calls[NR_PATHS];

static __always_inline int do_prep(int v, struct uring_bpf_data *data,
				   const struct io_uring_sqe *sqe)
{
	__sync_fetch_and_add(&prep_calls[v], 1);
	*(__u32 *)&data->pdu[0] = (__u32)sqe->off;
	return 0;
}

static __always_inline int do_issue(int v, struct uring_bpf_data *data,
				    bool prepped)
{
	__u32 base = prepped ? *(__u32 *)&data->pdu[0] : PREPPED_BIAS;

	__sync_fetch_and_add(&issue_calls[v], 1);
	uring_bpf_set_result(data, (int)(base + data->buf1_len));
	return 0;
}

#define PATH_PREP(v, sec)						\
SEC(sec "/prep_fn")							\
int BPF_PROG(prep_##v, struct uring_bpf_data *data,			\
	     const struct io_uring_sqe *sqe)				\
{									\
	return do_prep(v, data, sqe);					\
}

#define PATH_ISSUE(v, sec, prepped)					\
SEC(sec "/issue_fn")							\
int BPF_PROG(issue_##v, struct uring_bpf_data *data)			\
{									\
	return do_issue(v, data, prepped);				\
}

PATH_PREP(0, "struct_ops")
PATH_ISSUE(0, "struct_ops", true)
PATH_PREP(1, "struct_ops.s")
PATH_ISSUE(1, "struct_ops", true)
PATH_PREP(2, "struct_ops")
PATH_ISSUE(2, "struct_ops.s", true)
PATH_PREP(3, "struct_ops.s")
PATH_ISSUE(3, "struct_ops.s", true)
PATH_ISSUE(4, "struct_ops", false)
PATH_ISSUE(5, "struct_ops.s", false)

#define PATH_OP(v)							\
SEC(".struct_ops.link")							\
struct uring_bpf_ops path_op_##v = {					\
	.id = 100 + (v),							\
	.prep_fn = (void *)prep_##v,					\
	.issue_fn = (void *)issue_##v,					\
}

#define PATH_OP_NOPREP(v)						\
SEC(".struct_ops.link")							\
struct uring_bpf_ops path_op_##v = {					\
	.id = 100 + (v),							\
	.issue_fn = (void *)issue_##v,					\
}

PATH_OP(0);
PATH_OP(1);
PATH_OP(2);
PATH_OP(3);
PATH_OP_NOPREP(4);
PATH_OP_NOPREP(5);
