// SPDX-License-Identifier: GPL-2.0
/*
 * both.bpf.c - both features on one kernel (test_both): a loop program on
 * an IORING_SETUP_BPF | SINGLE_ISSUER | DEFER_TASKRUN ring submits
 * IORING_OP_BPF requests one after the other; the op they run is a NOP
 * registered by the other struct_ops map of this object (uring_bpf_ops).
 * sqe_op_flags (rodata) is the bpf_op_flags of every request; sqe_flags
 * its IOSQE_ flags (e.g. IOSQE_ASYNC).
 */
#include "t_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* ring layout, from io_uring_params (set before load) */
const volatile __u32 sq_tail_off, sq_mask;
const volatile __u32 cq_head_off, cq_tail_off, cq_mask, cqes_off;
const volatile __u32 rings_size, sqes_size;
const volatile __u32 sqe_op_flags;
const volatile __u8 sqe_flags;

__u32 target;
__u32 invocations, submitted, completed, submit_errors, region_null;
__u32 res_mismatch;
int first_res;			/* res of the first CQE */
int expect_res;			/* every CQE must have this res */
__u32 bad_user_data;
int op_prep_calls, op_issue_calls;

/* ---- the IORING_OP_BPF op: a NOP that counts ---------------------------- */

SEC("struct_ops/prep_fn")
int BPF_PROG(nop_prep, struct uring_bpf_data *data,
	     const struct io_uring_sqe *sqe)
{
	__sync_fetch_and_add(&op_prep_calls, 1);
	return 0;
}

SEC("struct_ops/issue_fn")
int BPF_PROG(nop_issue, struct uring_bpf_data *data)
{
	__sync_fetch_and_add(&op_issue_calls, 1);
	return 0;
}

SEC(".struct_ops.link")
struct uring_bpf_ops nop_op = {
	.id = 60,
	.prep_fn = (void *)nop_prep,
	.issue_fn = (void *)nop_issue,
};

/* ---- the loop -------------------------------------------------------------- */

SEC("struct_ops.s/loop")
int BPF_PROG(both_loop, struct io_ring_ctx *ring, struct iou_loop_state *ls)
{
	__u8 *rings, *sqes, *sqe, *cqe;
	__u32 head, tail, i;
	int ret;

	invocations++;
	rings = bpf_io_uring_get_region(ring, 0, rings_size);
	sqes = bpf_io_uring_get_region(ring, 1, sqes_size);
	if (!rings || !sqes) {
		region_null++;
		return T_RES_STOP;
	}

	head = rd32(rings, cq_head_off);
	tail = rd32(rings, cq_tail_off);
	for (i = 0; i < 64 && head != tail; i++) {
		int res;
		__u64 ud;

		cqe = t_cqe_at(rings, cqes_off, head, cq_mask);
		ud = t_cqe_user_data(cqe);
		res = t_cqe_res(cqe);
		if (!completed)
			first_res = res;
		if (res != expect_res)
			res_mismatch++;
		if (ud != (__u64)completed + 1)
			bad_user_data++;
		completed++;
		head++;
	}
	wr32(rings, cq_head_off, head);

	if (completed >= target)
		return T_RES_STOP;

	if (submitted == completed) {
		tail = rd32(rings, sq_tail_off);
		sqe = t_sqe_prep(sqes, tail, sq_mask, T_OP_BPF, sqe_flags,
				 (__u64)submitted + 1);
		*(__u32 *)(sqe + T_SQE_OP_FLAGS) = sqe_op_flags;
		wr32(rings, sq_tail_off, tail + 1);
		ret = bpf_io_uring_submit_sqes(ring, 1);
		if (ret != 1) {
			submit_errors++;
			return T_RES_STOP;
		}
		submitted++;
	}
	ls->cq_tail = head + 1;
	return T_RES_WAIT;
}

SEC(".struct_ops.link")
struct io_uring_ops loop_ops = {
	.loop = (void *)both_loop,
};
