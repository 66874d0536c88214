// SPDX-License-Identifier: GPL-2.0
/*
 * nop-chain: the workload `iouring-bpf run nop-chain` drives (loader/workloads/
 * workload.h) and its checks, on the program's skeleton (struct iou_unit).
 * --count: the NOPs the program issues (its nr; default: the object's).
 */
#include <string.h>
#include "workload.h"
#include IOU_UNIT_SKEL

static int run_nop_chain(struct run_ctx *rc)
{
	struct iou_unit s;
	long long nr = RC_VIEW(rc, &s, rodata)->nr, depth = s.rodata->depth;
	long long t0, t;
	int ret;

	RC_VIEW(rc, &s, bss);
	t0 = now_ns();
	ret = ring_wait(&rc->ring, 0, 10 * SEC_NS + nr * 100000LL);
	t = now_ns() - t0;

	rc_num(rc, "nops", nr);
	rc_num(rc, "depth", depth);
	rc_num(rc, "io_uring_enter_calls", 1);
	RC_NUM(rc, s.bss, completed);
	RC_NUM(rc, s.bss, issued);
	RC_NUM(rc, s.bss, errors);
	RC_NUM(rc, s.bss, steps);
	RC_NUM(rc, s.bss, max_inflight);
	if (nr)
		rc_out(rc, "ns_per_nop", "%lld", t / nr);
	rc_check(rc, ret == 0, "io_uring_enter returned %d (%s), want 0", ret,
		 ret < 0 ? strerror(-ret) : "");
	RC_CHECK_EQ(rc, s.bss, completed, nr);
	RC_CHECK_EQ(rc, s.bss, issued, nr);
	rc_check(rc, s.bss->errors == 0, "%lld NOPs failed",
		 (long long)s.bss->errors);
	rc_check(rc, (long long)s.bss->max_inflight <= depth,
		 "%lld NOPs were in flight, depth is %lld",
		 (long long)s.bss->max_inflight, depth);
	rc_check(rc, ring_cq_ready(&rc->ring) == 0,
		 "%u CQEs left for user space; the program should consume all",
		 ring_cq_ready(&rc->ring));
	rc_check(rc, rc_exit_kind(rc) == IOU_EXIT_KIND_DONE,
		 "the program did not report done");
	return 0;
}

/* --count NOPs (nr), --depth in flight: they win over a --set of the same */
IOU_WORKLOAD(.desc = "loop: N NOPs issued from BPF as each completes",
	     .example = "iouring-bpf run nop-chain --count 100000 --depth 1",
	     .takes_count = 1,
	     .takes_depth = 1,
	     .count_param = "nr",
	     .depth_param = "depth",
	     .run = run_nop_chain);
