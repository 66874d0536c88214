// SPDX-License-Identifier: GPL-2.0
/*
 * errinject: the workload `iouring-bpf run errinject` drives (loader/workloads/
 * workload.h) and its checks, on the program's skeleton (struct iou_unit).
 * --count: the requests, failed as the mode says.
 */
#include <errno.h>
#include <bpf/libbpf.h>
#include "workload.h"
#include IOU_UNIT_SKEL

enum { MODE_ALWAYS, MODE_NTH, MODE_PROB, MODE_UD };

static int run_errinject(struct run_ctx *rc)
{
	long long n = rc_count(rc), failed = 0, want_failed = -1;
	struct iou_unit s = { 0 };
	long long mode = RC_VIEW(rc, &s, rodata)->mode, nth = s.rodata->nth;
	long long prob = s.rodata->prob_pct, err = s.rodata->err;
	long long submitted = 0, bad = 0;
	struct bpf_map *fail_ud;
	struct io_uring_cqe cqe[2];
	__u32 special = 28;	/* ENOSPC for one chosen user_data */

	RC_VIEW(rc, &s, bss);
	fail_ud = bpf_object__find_map_by_name(iouring_bpf_object(rc->h),
					       "fail_ud");
	if (mode == MODE_UD) {
		/* fail every third request, and request 1 with ENOSPC */
		for (__u64 ud = 0; ud < (__u64)n; ud++) {
			__u32 e = ud == 1 ? special : 0;

			if ((ud % 3 && ud != 1) || !fail_ud)
				continue;
			if (bpf_map__update_elem(fail_ud, &ud, sizeof(ud), &e,
						 sizeof(e), BPF_ANY)) {
				rc_check(rc, 0, "cannot fill map fail_ud");
				return -1;
			}
		}
	}

	for (long long i = 0; i < n; i++) {
		long long want = 0;

		ring_prep_bpf(ring_get_sqe(&rc->ring), rc_opf(rc, 0, 0, 0),
			      0, 0, 0, 0, 0, i);
		if (rc_reap(rc, cqe, 1))
			return -1;
		submitted++;
		switch (mode) {
		case MODE_ALWAYS:
			want = -err;
			break;
		case MODE_NTH:
			want = nth && (i + 1) % nth == 0 ? -err : 0;
			break;
		case MODE_UD:
			want = i == 1 ? -(long long)special :
			       i % 3 == 0 ? -err : 0;
			break;
		case MODE_PROB:
			want = cqe[0].res;	/* checked in bulk below */
			if (cqe[0].res != 0 && cqe[0].res != -err)
				want = -err;
			break;
		}
		if (cqe[0].res != 0)
			failed++;
		if (cqe[0].res != want && !bad++)
			rc_check(rc, 0, "request %lld: res %d, want %lld", i,
				 cqe[0].res, want);
	}
	if (mode == MODE_ALWAYS)
		want_failed = n;
	else if (mode == MODE_NTH)
		want_failed = nth ? n / nth : 0;
	else if (mode == MODE_UD)
		want_failed = n > 1 ? (n + 2) / 3 + 1 : (n + 2) / 3;

	/* a failed op breaks its link chain: the NOP after it is cancelled */
	if (mode == MODE_ALWAYS || mode == MODE_UD) {
		struct io_uring_sqe *sqe = ring_get_sqe(&rc->ring);

		ring_prep_bpf(sqe, rc_opf(rc, 0, 0, 0), 0, 0, 0, 0, 0, 0);
		sqe->flags |= IOSQE_IO_LINK;
		ring_prep_nop(ring_get_sqe(&rc->ring), 1000000);
		if (rc_reap(rc, cqe, 2))
			return -1;
		submitted++;
		failed++;
		rc_check(rc, cqe[0].res == -err && cqe[1].res == -ECANCELED,
			 "link: injected res %d (want %lld), linked NOP res %d (want -ECANCELED)",
			 cqe[0].res, -err, cqe[1].res);
		rc_out(rc, "link_chain", "errinject %d -> nop %d", cqe[0].res,
		       cqe[1].res);
		if (want_failed >= 0)
			want_failed++;
	}

	rc_num(rc, "requests", submitted);
	rc_num(rc, "failed", failed);
	RC_NUM(rc, s.bss, nr_injected);
	RC_NUM(rc, s.bss, nr_passed);
	rc_check(rc, !bad, "%lld requests had the wrong result", bad);
	if (want_failed >= 0)
		rc_check(rc, failed == want_failed, "%lld failed, want %lld",
			 failed, want_failed);
	if (mode == MODE_PROB && n >= 100) {
		/* loose: within 6 sigma of n * p */
		double mean = n * prob / 100.0;
		double sd = __builtin_sqrt(n * prob / 100.0 * (1 - prob / 100.0));

		rc_check(rc, failed >= mean - 6 * sd - 1 && failed <= mean + 6 * sd + 1,
			 "%lld of %lld failed with prob_pct=%lld", failed, n, prob);
	}
	RC_CHECK_EQ(rc, s.bss, nr_injected, failed);
	rc_check(rc, s.bss->nr_injected + s.bss->nr_passed == (__u64)submitted,
		 "nr_injected + nr_passed = %lld, want %lld",
		 (long long)(s.bss->nr_injected + s.bss->nr_passed), submitted);
	return 0;
}

IOU_WORKLOAD(.desc = "IORING_OP_BPF op failing requests on purpose",
	     .example = "iouring-bpf run errinject --count 100 --set mode=1 --set nth=10",
	     .takes_count = 1,
	     .count = 100,
	     .run = run_errinject);
