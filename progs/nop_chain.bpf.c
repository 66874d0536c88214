// SPDX-License-Identifier: GPL-2.0
/*
 * nop-chain - issue N NOPs from BPF, each as the previous ones complete.
 *
 * What it shows: the loop hook of Pavel Begunkov's "BPF controlled
 * io_uring" (v3): a struct_ops of type `io_uring_ops` attached to one ring
 * (by ring_fd) whose `loop` callback runs inside io_uring_enter() every
 * time the waiter wakes. It reaps CQEs, fills SQEs and submits them with
 * bpf_io_uring_submit_sqes() without going back to user space: the whole
 * workload is one io_uring_enter(fd, 0, 0, IORING_ENTER_GETEVENTS). This is
 * Pavel's benchmark, done in BPF instead of as 2-NOP links.
 *
 * Parameters (rodata): nr = NOPs to complete in total, depth = how many
 * may be in flight (1 = strictly sequential: the next NOP is queued only
 * after the previous one's CQE was seen). Each step consumes the CQEs it
 * sees (user space sees none), tops the queue up to `depth`, and waits for
 * one more completion (cq_tail = head + 1). It returns STOP when all nr are
 * done, or on the first CQE with res != 0 (exit info says which).
 *
 * Ring: SINGLE_ISSUER | DEFER_TASKRUN (required by the hook).
 *
 * Run:   iouring-bpf run nop-chain --count 100000 --depth 1
 *        (checks completed == issued == 100000, no errors, in one
 *        io_uring_enter; prints the rate)
 */
#include "iouring_bpf.h"

char LICENSE[] SEC("license") = "GPL";

IOU_EXIT_INFO_DEFINE();

const volatile __u64 nr = 1000;
const volatile __u32 depth = 1;

__u64 issued, completed, errors, steps, max_inflight;

IOU_LOOP_PROG(nop_chain_loop)
{
	struct iou_ring r;
	__u32 i, head, n, queued;
	int ret;

	steps++;
	if (iou_ring_init(L, &r)) {
		IOU_EXIT_ERROR(-EFAULT, 0, "cannot map the ring regions");
		return IOU_STOP;
	}
	if (!iou_ring_can_submit(&r)) {
		IOU_EXIT_ERROR(-EINVAL, 0, "the ring's SQ layout is not the one given");
		return IOU_STOP;
	}

	/* reap */
	head = iou_cq_head_get(&r);
	n = iou_cq_ready(&r);
	iou_for_each_cqe(i, n) {
		struct io_uring_cqe *cqe = iou_cqe_at(&r, head + i);

		if (cqe->res != 0) {
			errors++;
			iou_cq_advance(&r, i + 1);
			IOU_EXIT_ERROR(cqe->res, cqe->user_data,
				       "a NOP completed with an error");
			return IOU_STOP;
		}
		completed++;
	}
	iou_cq_advance(&r, i);

	if (completed >= nr) {
		IOU_EXIT_DONE(completed, "all NOPs completed");
		return IOU_STOP;
	}

	/* top up to `depth` in flight */
	for (i = 0; i < IOU_MAX_BATCH; i++) {
		struct io_uring_sqe *sqe;

		if (issued >= nr || issued - completed >= depth)
			break;
		sqe = iou_sqe_get(&r);
		if (!sqe)
			break;
		iou_prep_nop(sqe, issued);
		issued++;
	}
	queued = iou_sq_commit(&r);
	if (queued) {
		ret = iou_submit(L, queued);
		if (ret != queued) {
			IOU_EXIT_ERROR(ret < 0 ? ret : -EAGAIN, ret,
				       "bpf_io_uring_submit_sqes() fell short");
			return IOU_STOP;
		}
	}
	if (issued - completed > max_inflight)
		max_inflight = issued - completed;

	/* sleep until one more CQE is posted */
	iou_wait_target(L, iou_cq_head_get(&r) + 1);
	return IOU_WAIT;
}

IOU_LOOP_OPS(nop_chain_ops, nop_chain_loop);
