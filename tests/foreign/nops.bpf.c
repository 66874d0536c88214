// SPDX-License-Identifier: GPL-2.0
/*
 * nops.bpf.c - a NOP loop for mainline's hook, written the way liburing's
 * tests write theirs: how many NOPs to run is an ordinary global in .bss
 * that the application sets after load (`--set reqs_to_run=1000`), the
 * ring geometry comes from `const volatile` globals (loop_defs.h).
 *
 * What it shows: a program that keeps up to 8 NOPs in flight from inside
 * one io_uring_enter(): each step reaps the CQEs, queues NOPs up to the
 * budget, submits them and asks to be woken at the next CQE. It stops
 * when reqs_to_run NOPs have completed (reqs_done) or one failed
 * (reqs_failed, the first bad result in first_error).
 *
 * Run:  iouring-bpf run nops.bpf.o --set reqs_to_run=1000
 *       iouring-bpf load nops.bpf.o --ring PID:FD --set reqs_to_run=1000
 * Expect: enter returns 0, reqs_done=1000, reqs_failed=0, no CQE left.
 */
#include "loop_defs.h"

char LICENSE[] SEC("license") = "GPL";

#define IN_FLIGHT	8

int reqs_to_run;
int reqs_issued, reqs_done, reqs_failed, first_error;
unsigned int steps;

SEC("struct_ops.s/loop_step")
int BPF_PROG(nops_step, struct io_ring_ctx *ring, struct iou_loop_params *lp)
{
	__u32 head, tail, i, n = 0;
	struct ring r;

	steps++;
	if (ring_map(ring, &r))
		return IOU_LOOP_STOP;
	head = *(volatile __u32 *)ring_u32(&r, cq_head_offset);
	tail = *(volatile __u32 *)ring_u32(&r, cq_tail_offset);
	for (i = 0; i < cq_entries && i < 64 && head != tail; i++, head++) {
		struct io_uring_cqe *cqe = (void *)(r.hdr + cqes_offset +
			(head & (cq_entries - 1)) * sizeof(*cqe));

		if (cqe->res < 0 && !reqs_failed++)
			first_error = cqe->res;
		reqs_done++;
	}
	*(volatile __u32 *)ring_u32(&r, cq_head_offset) = head;
	if (reqs_done >= reqs_to_run || reqs_failed)
		return IOU_LOOP_STOP;

	for (i = 0; i < IN_FLIGHT && i < sq_entries; i++) {
		struct io_uring_sqe *sqe;

		if (reqs_issued - reqs_done >= IN_FLIGHT ||
		    reqs_issued >= reqs_to_run)
			break;
		sqe = ring_sqe(&r, n);
		sqe->opcode = IORING_OP_NOP;
		sqe->user_data = reqs_issued;
		reqs_issued++;
		n++;
	}
	if (n) {
		ring_sq_push(&r, n);
		if (bpf_io_uring_submit_sqes(ring, n) != n) {
			first_error = -1;
			reqs_failed++;
			return IOU_LOOP_STOP;
		}
	}
	lp->cq_wait_idx = head + 1;
	return IOU_LOOP_CONTINUE;
}

SEC(".struct_ops.link")
struct io_uring_bpf_ops nops_ops = {
	.loop_step = (void *)nops_step,
};
