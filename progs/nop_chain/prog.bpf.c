// SPDX-License-Identifier: GPL-2.0
/*
 * nop-chain - issue N NOPs from BPF, each as the previous ones complete.
 *
 * What it shows: the loop hook of Pavel Begunkov's "BPF controlled
 * io_uring": a struct_ops attached to one ring (by ring_fd) whose callback
 * runs inside io_uring_enter() -- v3's `io_uring_ops` (`loop`, run in the
 * wait) on our kernel, mainline's `io_uring_bpf_ops` (`loop_step`, run
 * instead of the submit-and-wait) on Linux 7.1+; the same object runs on
 * both, with the same meaning. It reaps CQEs, fills SQEs and submits
 * them with bpf_io_uring_submit_sqes() without going back to user space:
 * the whole workload is one io_uring_enter(fd, 0, 0,
 * IORING_ENTER_GETEVENTS). This is Pavel's benchmark, done in BPF instead
 * of as 2-NOP links.
 *
 * Parameters (rodata): nr = NOPs to complete in total, depth = how many
 * may be in flight (1 = strictly sequential: the next NOP is queued only
 * after the previous one's CQE was seen). User space sees no CQE. It
 * returns STOP when all nr are done, or on the first CQE with res != 0
 * (exit info says which). NOPs complete in order, so when all are done
 * the last CQE must be the last NOP's: another one means the CQE was not
 * where the program looked, i.e. a wrong ring layout. That is checked
 * once, at the end: checking every CQE's user_data cost 4 instructions
 * per NOP (docs/performance.md), 1% of the whole.
 *
 * Why it loops inside one call: a NOP completes inline, so its CQE is
 * already in the CQ when bpf_io_uring_submit_sqes() returns. Returning
 * WAIT after every NOP would cost a trip around the kernel's wait loop and
 * a new program call per NOP, about as much as the system call it saves.
 * So one call runs up to IOU_MAX_BATCH (64) steps. A step reaps one CQE if
 * there is one and queues one NOP if fewer than `depth` are in flight; when
 * no CQE is left to reap and no room to queue, it submits what it queued
 * (all at once: depth D costs one submission per D NOPs). With nothing
 * queued it returns WAIT for one more CQE. One loop level, not nested
 * reap and top-up loops: those exceed the verifier's 1M-instruction limit.
 *
 * Ring: SINGLE_ISSUER | DEFER_TASKRUN (required by the hook).
 *
 * Run:   iouring-bpf run nop-chain --count 100000 --depth 1
 *        (checks completed == issued == 100000, no errors, at most depth
 *        in flight, in one io_uring_enter; prints the rate and `steps`,
 *        the program calls: about one per 64 NOPs).
 * Expect: `iouring-bpf bench nops` at depth 1 against one NOP per enter
 * and 2-NOP links: about 2.1x and 1.6x counting instructions, more in real
 * time (docs/performance.md).
 */
#define IOU_LOOP_PROGRAM
#include "iouring_bpf.h"

char LICENSE[] SEC("license") = "GPL";

IOU_EXIT_INFO_DEFINE();

const volatile __u64 nr = 1000;
const volatile __u32 depth = 1;

__u64 issued, completed, errors, steps, max_inflight;

IOU_LOOP_PROG(nop_chain_loop)
{
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	struct iou_ring r;
	__u32 k, n;
	int ret;

	steps++;
	if (iou_loop_ring(L, &r, 1) < 0)
		return IOU_STOP;

	for (k = 0; k < IOU_MAX_BATCH; k++) {
		/* reap one */
		cqe = iou_cqe_peek(&r);
		if (cqe) {
			if (cqe->res != 0) {
				errors++;
				IOU_EXIT_ERROR(cqe->res, cqe->user_data,
					       "a NOP completed with an error");
				iou_cq_advance(&r, 1);
				return IOU_STOP;
			}
			iou_cq_advance(&r, 1);
			completed++;
		}
		if (completed >= nr) {
			/* in order: the last CQE is the last NOP's */
			if (cqe && cqe->user_data != nr - 1) {
				errors++;
				IOU_EXIT_ERROR(cqe->res, cqe->user_data,
					       "the last CQE is not the last NOP's: wrong ring layout?");
				return IOU_STOP;
			}
			IOU_EXIT_DONE(completed, "all NOPs completed");
			return IOU_STOP;
		}

		/* queue one, if fewer than `depth` are in flight */
		sqe = NULL;
		if (issued < nr && issued - completed < depth)
			sqe = iou_sqe_get(&r);
		if (sqe) {
			iou_prep_nop(sqe, issued);
			iou_sq_commit(&r);	/* at once: see iou_sq_commit() */
			issued++;
			if (issued - completed > max_inflight)
				max_inflight = issued - completed;
		}
		/* more to reap, or room for more: submit them together */
		if (iou_cq_ready(&r) ||
		    (sqe && issued < nr && issued - completed < depth))
			continue;

		/* submit what is queued; with nothing queued, wait */
		n = iou_sq_pending(&r);
		if (!n)
			break;
		ret = iou_submit_all(L, n);
		if (ret)
			goto submit_failed;
	}
	ret = iou_submit_all(L, iou_sq_pending(&r));
	if (ret)
		goto submit_failed;

	/* sleep until one more CQE is posted */
	iou_wait_target(L, iou_cq_head_get(&r) + 1);
	return IOU_WAIT;

submit_failed:
	IOU_EXIT_ERROR(ret, issued, "bpf_io_uring_submit_sqes() fell short");
	return IOU_STOP;
}

IOU_LOOP_OPS(nop_chain_ops, nop_chain_loop);
