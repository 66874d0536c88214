// SPDX-License-Identifier: GPL-2.0
/*
 * hybrid-poll: the workload `iouring-bpf run hybrid-poll` drives (loader/workloads/
 * workload.h) and its checks, on the program's skeleton (struct iou_unit).
 * --count: the timer reads, one per wait.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "workload.h"
#include IOU_UNIT_SKEL

static int run_hybrid_poll(struct run_ctx *rc)
{
	long long n = rc_count(rc), bad = 0, lat_sum = 0;
	struct iou_unit s;
	struct io_uring_cqe c;
	__u64 tbuf;
	int ret, tfd = -1;

	RC_VIEW(rc, &s, rodata);
	RC_VIEW(rc, &s, bss);
	for (long long i = 0; i < n; i++) {
		long long t0;

		/* alternate a 20 us and a 2 ms timer */
		tfd = rc_timer_in(tfd, i % 2 ? 2000000 : 20000);
		if (!rc_check(rc, tfd >= 0, "timerfd: %s", strerror(errno)))
			return 0;
		ring_prep_rw(ring_get_sqe(&rc->ring), IORING_OP_READ, tfd,
			     &tbuf, 8, 0, i + 1);
		/* mainline: io_uring_enter() returns 0 after STOP */
		ret = ring_submit(&rc->ring);
		if (!rc_check(rc, ret == (rc->mainline ? 0 : 1), "submit: %d",
			      ret))
			return 0;
		/* min_complete 0: the program runs at once and waits `want` */
		t0 = now_ns();
		ret = ring_wait(&rc->ring, 0, 10 * SEC_NS);
		lat_sum += now_ns() - t0;
		if (ret != 0 || ring_cq_ready(&rc->ring) != 1) {
			if (!bad++)
				rc_check(rc, 0, "wait %lld: returned %d with %u CQEs, want 0 with 1",
					 i, ret, ring_cq_ready(&rc->ring));
			if (ret != 0 && ret != -ETIME)
				break;
		}
		if (rc_reap(rc, &c, 1))
			break;
		if (c.res != 8 && !bad++)
			rc_check(rc, 0, "timer read %lld: res %d, want 8", i, c.res);
	}
	if (tfd >= 0)
		close(tfd);
	rc_num(rc, "requests", n);
	RC_NUM(rc, s.rodata, spin_us);
	RC_NUM(rc, s.rodata, want);
	RC_NUM(rc, s.bss, waits);
	RC_NUM(rc, s.bss, done_polling);
	RC_NUM(rc, s.bss, done_sleeping);
	RC_NUM(rc, s.bss, polls);
	RC_NUM(rc, s.bss, sleeps);
	if (n)
		rc_out(rc, "mean_wait_us", "%lld", lat_sum / n / 1000);
	rc_check(rc, !bad, "%lld waits went wrong", bad);
	rc_check(rc, s.bss->waits == (__u64)n, "the program saw %lld waits, want %lld",
		 (long long)s.bss->waits, n);
	rc_check(rc, s.bss->done_polling + s.bss->done_sleeping == (__u64)n,
		 "done_polling + done_sleeping = %lld, want %lld",
		 (long long)(s.bss->done_polling + s.bss->done_sleeping), n);
	/* half the timers take 2 ms: longer than a short spin */
	if (n >= 2 && s.rodata->spin_us < 500)
		rc_check(rc, s.bss->done_sleeping >= 1,
			 "no wait ever went to sleep, with spin_us=%lld and 2 ms timers",
			 (long long)s.rodata->spin_us);
	if (n >= 2)
		rc_check(rc, s.bss->polls >= 1, "the program never polled");
	return 0;
}

IOU_WORKLOAD(.desc = "loop: poll the CQ up to spin_us before sleeping",
	     .mainline_note =
		"the hook hides min_complete: every wait is for `want` CQEs; a call that finds SQEs submits them and returns at once; on an SQ_REWIND ring the app stores how many SQEs it queued in the SQ tail",
	     .example = "iouring-bpf run hybrid-poll --count 200 --set spin_us=200",
	     .takes_count = 1,
	     .count = 200,
	     .run = run_hybrid_poll);
