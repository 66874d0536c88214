// SPDX-License-Identifier: GPL-2.0
/*
 * loop_spin - bench experiment: the cost of one trip around the kernel's
 * wait loop with a loop program attached, and nothing else. Each invocation
 * counts itself (steps, and completed = steps so that `bench nops
 * --chain-prog` can drive it), returns IOU_WAIT with the wait target
 * already reached (so the kernel does not sleep and calls it again), and
 * IOU_STOP after nr invocations. With map_rings=1 it also maps the ring
 * regions every time, as every real program does (two
 * bpf_io_uring_get_region() calls).
 */
#define IOU_LOOP_PROGRAM
#include "iouring_bpf.h"

char LICENSE[] SEC("license") = "GPL";

IOU_EXIT_INFO_DEFINE();

const volatile __u64 nr = 1000;
const volatile __u32 depth = 1;		/* unused; for --chain-prog */
const volatile __u32 map_rings = 0;

__u64 issued, completed, errors, steps, max_inflight;

IOU_LOOP_PROG(loop_spin_loop)
{
	struct iou_ring r;

	steps++;
	completed = steps - 1;
	if (map_rings && iou_ring_init(L, &r)) {
		IOU_EXIT_ERROR(-EFAULT, 0, "cannot map the ring regions");
		return IOU_STOP;
	}
	if (completed >= nr) {
		IOU_EXIT_DONE(completed, "done");
		return IOU_STOP;
	}
	/* the kernel's initial target (cq.head + 0): reached */
	return IOU_WAIT;
}

IOU_LOOP_OPS(loop_spin_ops, loop_spin_loop);
