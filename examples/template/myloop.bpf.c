// SPDX-License-Identifier: GPL-2.0
/*
 * myloop.bpf.c - the start of your own loop program, built outside the
 * iouring-bpf tree against the installed header <iouring_bpf.h> and the
 * vmlinux.h of the kernel you run.
 *
 * What it shows: the smallest program that uses the header's ring
 * helpers. Each step reaps the NOPs that completed, queues one more until
 * `count` have run, and sleeps until the next CQE; then it records why it
 * stopped (exit info) and returns STOP. IOU_LOOP_OPS() makes one object
 * for both hooks: v3's struct io_uring_ops (the project's kernel) and
 * mainline's struct io_uring_bpf_ops (Linux 7.1+); the loader creates
 * the one the kernel has and fills the ring globals (iou_*) before load.
 *
 * Run:   iouring-bpf run myloop.bpf.o --set count=100
 * Expect: enter returns 0, done=100, exit=done.
 */
#define IOU_LOOP_PROGRAM
#include <iouring_bpf.h>

char LICENSE[] SEC("license") = "GPL";

IOU_EXIT_INFO_DEFINE();

const volatile __u32 count = 10;	/* NOPs to run: --set count=N */

__u32 done, failed;

IOU_LOOP_PROG(myloop)
{
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	struct iou_ring r;

	if (iou_loop_ring(L, &r, 1) < 0)
		return IOU_STOP;
	cqe = iou_cqe_peek(&r);
	if (cqe) {
		if (cqe->res)
			failed++;
		done++;
		iou_cq_advance(&r, 1);
	}
	if (failed) {
		IOU_EXIT_ERROR(-EIO, done, "a NOP failed");
		return IOU_STOP;
	}
	if (done >= count) {
		IOU_EXIT_DONE(done, "all NOPs completed");
		return IOU_STOP;
	}
	if (!cqe && done)	/* woken before the CQE: keep waiting */
		goto wait;
	sqe = iou_sqe_get(&r);
	if (!sqe) {
		IOU_EXIT_ERROR(-EBUSY, done, "the SQ is full");
		return IOU_STOP;
	}
	iou_prep_nop(sqe, done);
	if (iou_submit_all(L, iou_sq_commit(&r))) {
		IOU_EXIT_ERROR(-EAGAIN, done, "the NOP was not submitted");
		return IOU_STOP;
	}
wait:
	iou_wait_target(L, iou_cq_head_get(&r) + 1);
	return IOU_WAIT;
}

IOU_LOOP_OPS(myloop_ops, myloop);
