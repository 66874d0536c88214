// SPDX-License-Identifier: GPL-2.0
/*
 * nop_chain_inner - bench experiment: nop-chain (progs/nop_chain.bpf.c)
 * with an inner loop. Same interface (rodata nr, depth; globals issued,
 * completed, errors, steps, max_inflight; exit info), same rule: the next
 * NOP is submitted only once the previous one's CQE has been seen (depth
 * 1). The difference: a NOP completes inline, so its CQE is already in
 * the CQ when bpf_io_uring_submit_sqes() returns; instead of returning
 * IOU_WAIT (a trip around the kernel's wait loop, a new program
 * invocation, two bpf_io_uring_get_region() calls) for every NOP, one
 * invocation keeps reaping and submitting, up to 64 times, and
 * waits only when nothing is ready.
 *
 * Depth 1 only (the case the nops scenario measures).
 *
 * Not in the catalogue: `iouring-bpf bench nops --chain-prog
 * build/bench-experiments/nop_chain_inner.bpf.o` runs it as mode c.
 */
#include "iouring_bpf.h"

char LICENSE[] SEC("license") = "GPL";

IOU_EXIT_INFO_DEFINE();

const volatile __u64 nr = 1000;
const volatile __u32 depth = 1;

__u64 issued, completed, errors, steps, max_inflight;

#define OUTER	64

IOU_LOOP_PROG(nop_chain_inner_loop)
{
	struct iou_ring r;
	struct io_uring_sqe *sqe;
	__u32 k, head;
	int ret;

	steps++;
	if (depth != 1) {
		IOU_EXIT_ERROR(-EINVAL, depth, "this experiment does depth 1 only");
		return IOU_STOP;
	}
	if (iou_ring_init(L, &r)) {
		IOU_EXIT_ERROR(-EFAULT, 0, "cannot map the ring regions");
		return IOU_STOP;
	}
	for (k = 0; k < OUTER; k++) {
		/* reap the one NOP in flight, if it is done */
		head = iou_cq_head_get(&r);
		if (iou_cq_ready(&r)) {
			struct io_uring_cqe *cqe = iou_cqe_at(&r, head);

			if (cqe->res != 0) {
				errors++;
				iou_cq_advance(&r, 1);
				IOU_EXIT_ERROR(cqe->res, cqe->user_data,
					       "a NOP completed with an error");
				return IOU_STOP;
			}
			iou_cq_advance(&r, 1);
			completed++;
		}
		if (completed >= nr) {
			IOU_EXIT_DONE(completed, "all NOPs completed");
			return IOU_STOP;
		}
		/* still in flight: wait for it */
		if (issued != completed)
			break;
		sqe = iou_sqe_get(&r);
		if (!sqe)
			break;
		iou_prep_nop(sqe, issued);
		issued++;
		ret = iou_submit(L, iou_sq_commit(&r));
		if (ret != 1) {
			IOU_EXIT_ERROR(ret < 0 ? ret : -EAGAIN, ret,
				       "bpf_io_uring_submit_sqes() fell short");
			return IOU_STOP;
		}
		max_inflight = 1;
	}
	iou_wait_target(L, iou_cq_head_get(&r) + 1);
	return IOU_WAIT;
}

IOU_LOOP_OPS(nop_chain_inner_ops, nop_chain_inner_loop);
