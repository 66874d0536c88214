// SPDX-License-Identifier: GPL-2.0
/*
 * stress.bpf.c - the programs iou-stress (tests/stress/stress.c) keeps
 * registering, unregistering, attaching and killing under load.
 *
 * What this teaches: an IORING_OP_BPF op is global (one id, any ring may
 * submit for it), so registering and unregistering it races with every
 * ring's submissions: a request either finds the op at prep (and then
 * keeps it until it completes) or completes with -EOPNOTSUPP; a link
 * behind a failed request completes with -ECANCELED. Nothing else may
 * happen, whatever the timing. A loop program runs inside io_uring_enter()
 * holding the ring's lock, so killing the task, closing the ring or
 * destroying the link while it waits must all end the wait cleanly.
 *
 *   st_op_a, st_op_b  two maps with the SAME op id (set before load): two
 *                     registrars race for it, one of them gets -EBUSY
 *   st_loop           waits until the CQ tail reaches the waiter's target
 *                     (min_complete), like a plain wait, then stops
 */
#include "t_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* ring geometry, from io_uring_params (every stress ring has the same) */
const volatile __u32 cq_tail_off;
const volatile __u32 rings_size;

__u64 op_issues, loop_calls;

SEC("struct_ops/prep_fn")
int BPF_PROG(st_prep, struct uring_bpf_data *data,
	     const struct io_uring_sqe *sqe)
{
	/* the request's expected result travels in the pdu */
	*(__u32 *)data->pdu = data->opf & T_CUSTOM_MASK;
	return 0;
}

SEC("struct_ops/issue_fn")
int BPF_PROG(st_issue, struct uring_bpf_data *data)
{
	__sync_fetch_and_add(&op_issues, 1);
	uring_bpf_set_result(data, *(__u32 *)data->pdu);
	return 0;
}

SEC(".struct_ops.link")
struct uring_bpf_ops st_op_a = {
	.id = 77,
	.prep_fn = (void *)st_prep,
	.issue_fn = (void *)st_issue,
};

SEC(".struct_ops.link")
struct uring_bpf_ops st_op_b = {
	.id = 77,
	.prep_fn = (void *)st_prep,
	.issue_fn = (void *)st_issue,
};

SEC("struct_ops.s/loop")
int BPF_PROG(st_loop_fn, struct io_ring_ctx *ring, struct iou_loop_state *ls)
{
	__u8 *rings = bpf_io_uring_get_region(ring, 0, rings_size);

	__sync_fetch_and_add(&loop_calls, 1);
	if (!rings)
		return T_RES_STOP;
	if ((int)(rd32(rings, cq_tail_off) - ls->cq_tail) >= 0)
		return T_RES_STOP;
	return T_RES_WAIT;
}

SEC(".struct_ops.link")
struct io_uring_ops st_loop = {
	.loop = (void *)st_loop_fn,
};
