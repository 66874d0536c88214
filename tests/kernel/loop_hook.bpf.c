// SPDX-License-Identifier: GPL-2.0
/*
 * loop_hook.bpf.c - a loop program for test_loop_hook: the behaviour both
 * loop hooks share (v3's io_uring_ops on our kernel, mainline's
 * io_uring_bpf_ops on a stock 7.1+ kernel). Built with progs/iouring_bpf.h,
 * so one object carries both struct_ops maps and the library creates the
 * kernel's. Modes (.rodata `mode`):
 *   H_NOPS  run `nr` NOPs one after the other from BPF, reaping each CQE:
 *           queue one, submit it, wait for the CQ tail to pass it; STOP
 *           when `nr` completed
 *   H_WAIT  wait for one CQE more than the CQ has; none ever comes, so
 *           only a signal ends the call
 *   H_RET7  return 7, neither WAIT/CONTINUE nor STOP
 *   H_STOP  count the call, STOP
 */
#define IOU_LOOP_PROGRAM
#include "iouring_bpf.h"

char LICENSE[] SEC("license") = "GPL";

enum { H_NOPS, H_WAIT, H_RET7, H_STOP };

const volatile __u32 mode;
const volatile __u32 nr = 8;

__u32 calls, issued, completed, cqe_errors, submit_errors;

IOU_LOOP_PROG(hook_loop)
{
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct iou_ring r;
	__u32 i;

	calls++;
	if (mode == H_RET7)
		return 7;
	if (mode == H_STOP || iou_ring_init(L, &r))
		return IOU_STOP;
	if (mode == H_WAIT) {
		iou_wait_target(L, iou_cq_tail_get(&r) + 1);
		return IOU_WAIT;
	}
	if (!iou_ring_can_submit(L, &r))
		return IOU_STOP;
	for (i = 0; i < IOU_MAX_BATCH; i++) {
		cqe = iou_cqe_peek(&r);
		if (!cqe)
			break;
		if (cqe->res)
			cqe_errors++;
		completed++;
		iou_cq_advance(&r, 1);
	}
	if (completed >= nr)
		return IOU_STOP;
	if (issued == completed) {
		sqe = iou_sqe_get(&r);
		if (!sqe)
			return IOU_STOP;
		iou_prep_nop(sqe, issued);
		iou_sq_commit(&r);
		if (iou_submit(L, 1) != 1) {
			submit_errors++;
			return IOU_STOP;
		}
		issued++;
	}
	iou_wait_target(L, iou_cq_head_get(&r) + 1);
	return IOU_WAIT;
}

IOU_LOOP_OPS(hook_ops, hook_loop);
