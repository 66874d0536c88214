// SPDX-License-Identifier: GPL-2.0
/*
 * loop.bpf.c - the loop hook (struct io_uring_ops) for test_loop.
 *
 * User space fills the ring layout (from io_uring_params) and the mode into
 * .rodata before load, sets the struct_ops map's ring_fd, loads, attaches.
 * Modes:
 *   M_NOPS     run `target` NOPs one after the other, all from BPF: consume
 *              the CQEs, queue one NOP, bpf_io_uring_submit_sqes(ring, 1),
 *              cq_tail = cq head + 1, WAIT; STOP once `target` completed
 *   M_STOP     count the invocation, STOP (detach / close / EXT_ARG tests)
 *   M_WAIT     WAIT for a CQE that never comes, with a safety timeout of
 *              wait_ms (signal test: the signal must end the wait first)
 *   M_TIMEOUT  same, the timeout IS the test (wait_ms = 50)
 *   M_RET7     return 7 (neither WAIT nor STOP)
 *   M_REGIONS  call bpf_io_uring_get_region() with the sizes below and
 *              record NULL (0) / non-NULL (1) for each, then STOP
 * Results in .bss.
 */
#include "t_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

enum { M_NOPS, M_STOP, M_WAIT, M_TIMEOUT, M_RET7, M_REGIONS };

/* ring layout, from io_uring_params (set before load) */
const volatile __u32 sq_tail_off, sq_mask;
const volatile __u32 cq_head_off, cq_tail_off, cq_mask, cqes_off;
const volatile __u32 rings_size;	/* cqes_off + cq_entries * 16 */
const volatile __u32 sqes_size;		/* sq_entries * 64 */
const volatile __u32 mode;
const volatile __u32 wait_ms = 50;
/* M_REGIONS: sizes and ids to probe */
const volatile __u32 past_size = 4097;		/* > one page */
const volatile __u32 huge_size = 1 << 20;
const volatile __u32 small_size = 8;

/* set before attach / between runs */
__u32 target;

/* results */
__u32 invocations;
__u32 submitted, completed;
__u32 cqe_errors;		/* CQEs with res != 0 */
int first_bad_res;
__u32 bad_user_data;		/* CQEs out of order */
__u32 submit_errors;
int last_submit_ret;
__u32 region_null;		/* get_region(0|1, right size) returned NULL */
__u64 deadline;
__u32 last_cq_tail_set;
/* M_REGIONS: 1 = non-NULL, 0 = NULL, -1 = not called */
int r0_exact = -1, r1_exact = -1, r0_past = -1, r1_past = -1;
int r0_huge = -1, r1_huge = -1, r2_small = -1, r3_small = -1, r255_small = -1;

SEC("struct_ops.s/loop")
int BPF_PROG(test_loop, struct io_ring_ctx *ring, struct iou_loop_state *ls)
{
	__u8 *rings, *sqes, *cqe;
	__u32 head, tail, i;
	int ret;

	invocations++;

	if (mode == M_STOP)
		return T_RES_STOP;
	if (mode == M_RET7)
		return 7;
	if (mode == M_REGIONS) {
		__u8 *p;

		p = bpf_io_uring_get_region(ring, 0, rings_size);
		r0_exact = p != NULL;
		p = bpf_io_uring_get_region(ring, 1, sqes_size);
		r1_exact = p != NULL;
		p = bpf_io_uring_get_region(ring, 0, past_size);
		r0_past = p != NULL;
		p = bpf_io_uring_get_region(ring, 1, past_size);
		r1_past = p != NULL;
		p = bpf_io_uring_get_region(ring, 0, huge_size);
		r0_huge = p != NULL;
		p = bpf_io_uring_get_region(ring, 1, huge_size);
		r1_huge = p != NULL;
		p = bpf_io_uring_get_region(ring, 2, small_size);
		r2_small = p != NULL;
		p = bpf_io_uring_get_region(ring, 3, small_size);
		r3_small = p != NULL;
		p = bpf_io_uring_get_region(ring, 255, small_size);
		r255_small = p != NULL;
		return T_RES_STOP;
	}

	rings = bpf_io_uring_get_region(ring, 0, rings_size);
	if (!rings) {
		region_null++;
		return T_RES_STOP;
	}

	if (mode == M_WAIT || mode == M_TIMEOUT) {
		if (!deadline)
			deadline = bpf_ktime_get_ns() + (__u64)wait_ms * 1000000ULL;
		ls->timeout = deadline;
		ls->cq_tail = rd32(rings, cq_head_off) + 1;
		last_cq_tail_set = ls->cq_tail;
		return T_RES_WAIT;
	}

	/* M_NOPS */
	sqes = bpf_io_uring_get_region(ring, 1, sqes_size);
	if (!sqes) {
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
		if (res) {
			if (!cqe_errors)
				first_bad_res = res;
			cqe_errors++;
		}
		if (ud != (__u64)completed + 1)
			bad_user_data++;
		completed++;
		head++;
	}
	wr32(rings, cq_head_off, head);

	if (completed >= target)
		return T_RES_STOP;

	if (submitted == completed) {
		/* queue one NOP at the SQ tail (NO_SQARRAY: index = tail) */
		tail = rd32(rings, sq_tail_off);
		t_sqe_prep(sqes, tail, sq_mask, T_OP_NOP, 0,
			   (__u64)submitted + 1);
		wr32(rings, sq_tail_off, tail + 1);
		ret = bpf_io_uring_submit_sqes(ring, 1);
		last_submit_ret = ret;
		if (ret != 1) {
			submit_errors++;
			return T_RES_STOP;
		}
		submitted++;
	}
	ls->cq_tail = head + 1;
	last_cq_tail_set = head + 1;
	return T_RES_WAIT;
}

SEC(".struct_ops.link")
struct io_uring_ops ops = {
	.loop = (void *)test_loop,
};
