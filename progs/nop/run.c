// SPDX-License-Identifier: GPL-2.0
/*
 * nop: the workload `iouring-bpf run nop` drives (loader/workloads/
 * workload.h) and its checks, on the program's skeleton (struct iou_unit).
 * --count: the BPF NOPs (then as many IORING_OP_NOPs, to compare).
 */
#include "workload.h"
#include IOU_UNIT_SKEL

#define BATCH		32

/* nop: N BPF NOPs, then as many IORING_OP_NOPs to compare the cost */
static int run_nop(struct run_ctx *rc)
{
	long long n = rc_count(rc), done, bad = 0, t[2];
	struct io_uring_cqe cqes[BATCH];
	struct iou_unit s;
	unsigned int i, k;

	RC_VIEW(rc, &s, bss);

	for (int pass = 0; pass < 2; pass++) {
		long long t0 = now_ns();

		for (done = 0; done < n; done += k) {
			k = n - done < BATCH ? n - done : BATCH;
			for (i = 0; i < k; i++) {
				struct io_uring_sqe *sqe = ring_get_sqe(&rc->ring);

				if (pass == 0)
					ring_prep_bpf(sqe, rc_opf(rc, 0, 0, 0),
						      0, 0, 0, 0, 0, done + i);
				else
					ring_prep_nop(sqe, done + i);
			}
			if (rc_reap(rc, cqes, k))
				return -1;
			for (i = 0; i < k; i++)
				if (cqes[i].res != 0 && !bad++)
					rc_check(rc, 0, "%s request %llu: res %d, want 0",
						 pass ? "IORING_OP_NOP" : "BPF",
						 (unsigned long long)cqes[i].user_data,
						 cqes[i].res);
		}
		t[pass] = now_ns() - t0;	/* 0: BPF, 1: IORING_OP_NOP */
	}
	rc_num(rc, "requests", n);
	rc_num(rc, "bad_res", bad);
	RC_NUM(rc, s.bss, nr_prep);
	RC_NUM(rc, s.bss, nr_issue);
	if (n) {
		rc_out(rc, "ns_per_bpf_nop", "%lld", t[0] / n);
		rc_out(rc, "ns_per_iouring_nop", "%lld", t[1] / n);
	}
	rc_check(rc, !bad, "%lld requests completed with res != 0", bad);
	rc_check(rc, s.bss->nr_prep == (__u64)n, "prep_fn ran %lld times, want %lld",
		 (long long)s.bss->nr_prep, n);
	rc_check(rc, s.bss->nr_issue == (__u64)n, "issue_fn ran %lld times, want %lld",
		 (long long)s.bss->nr_issue, n);
	return 0;
}

IOU_WORKLOAD(.desc = "IORING_OP_BPF op that completes with res 0",
	     .example = "iouring-bpf run nop --count 1000",
	     .takes_count = 1,
	     .count = 1000,
	     .run = run_nop);
