// SPDX-License-Identifier: GPL-2.0
/*
 * batch-wait: the workload `iouring-bpf run batch-wait` drives (loader/workloads/
 * workload.h) and its checks, on the program's skeleton (struct iou_unit).
 * --count: the timer reads (at most 256).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "workload.h"
#include IOU_UNIT_SKEL

/* a timer and a buffer per request, a batch at most a CQ's worth */
static int args_batch_wait(struct run_ctx *rc)
{
	struct iou_unit s;

	if (rc_count(rc) > 256 || RC_VIEW(rc, &s, rodata)->batch > 32)
		return rc_fail(rc, IOURING_BPF_USAGE, ERANGE,
			       "--count at most 256, batch at most 32");
	return 0;
}

static int run_batch_wait(struct run_ctx *rc)
{
	struct iou_unit s;
	long long n = rc_count(rc), batch = RC_VIEW(rc, &s, rodata)->batch;
	long long maxwait = s.rodata->max_wait_us * 1000;
	long long got = 0, waits = 0, bad = 0, partial = 0, total;
	long long late0, late, t0, dt;
	__u64 (*bufs)[1];
	int *fds, ret;

	RC_VIEW(rc, &s, bss);
	total = n + (batch > 1 ? batch - 1 : 0);
	fds = calloc(total + 1, sizeof(*fds));
	bufs = calloc(total + 1, sizeof(*bufs));
	if (!fds || !bufs)
		goto out;
	for (long long i = 0; i <= total; i++)
		fds[i] = -1;
	/* timers expiring every 100 us from 1 ms on, each read once */
	for (long long i = 0; i < n; i++) {
		fds[i] = rc_timer_in(-1, 1000000 + i * 100000);
		if (!rc_check(rc, fds[i] >= 0, "timerfd: %s", strerror(errno)))
			goto out;
		ring_prep_rw(ring_get_sqe(&rc->ring), IORING_OP_READ, fds[i],
			     bufs[i], 8, 0, i + 1);
		if ((i + 1) % 32 == 0 || i == n - 1) {
			ret = ring_submit(&rc->ring);
			if (!rc_check(rc, ret >= 0, "submit: %s", strerror(-ret)))
				goto out;
		}
	}
	while (got < n) {
		unsigned int ready;

		late0 = s.bss->wakes_late;
		t0 = now_ns();
		ret = ring_wait(&rc->ring, 1, 10 * SEC_NS);
		dt = now_ns() - t0;
		late = s.bss->wakes_late - late0;
		ready = ring_cq_ready(&rc->ring);
		waits++;
		if (ready < batch)
			partial++;
		if (ret == -ETIME && !ready) {
			rc_check(rc, 0, "wait %lld timed out (10 s) with nothing ready",
				 waits);
			break;
		}
		if (ret && ret != -ETIME) {
			rc_check(rc, 0, "io_uring_enter: %s", strerror(-ret));
			break;
		}
		/* fewer than a batch: only after the deadline */
		if (!ret && ready < batch && !late && dt < maxwait && !bad++)
			rc_check(rc, 0, "wait %lld returned with %u CQEs, fewer than batch=%lld, after %lld us, before the deadline (%lld us)",
				 waits, ready, batch, dt / 1000, maxwait / 1000);
		for (unsigned int i = 0; i < ready; i++) {
			struct io_uring_cqe *c = ring_peek_cqe(&rc->ring);

			if (c->res != 8 && !bad++)
				rc_check(rc, 0, "timer read %llu: res %d, want 8",
					 (unsigned long long)c->user_data, c->res);
			ring_cq_advance(&rc->ring, 1);
			got++;
		}
	}

	/*
	 * batch - 1 more: they can never make a batch, so the wait must end
	 * on the deadline, max_wait_us after the first is seen.
	 */
	if (batch > 1 && got == n && !rc->failed) {
		unsigned int ready;

		for (long long i = n; i < total; i++) {
			fds[i] = rc_timer_in(-1, 1000000);
			ring_prep_rw(ring_get_sqe(&rc->ring), IORING_OP_READ,
				     fds[i], bufs[i], 8, 0, i + 1);
		}
		ring_submit(&rc->ring);
		t0 = now_ns();
		ret = ring_wait(&rc->ring, 1, 10 * SEC_NS);
		dt = now_ns() - t0;
		ready = ring_cq_ready(&rc->ring);
		/* the kernel says -ETIME only when the CQ is empty */
		rc_check(rc, (ret == 0 || ret == -ETIME) && ready >= 1 &&
			 ready < batch && dt >= maxwait && dt < 5 * SEC_NS,
			 "a partial batch: wait returned %d with %u ready after %lld us, want 0 with 1..%lld after >= %lld us",
			 ret, ready, dt / 1000, batch - 1, maxwait / 1000);
		rc_out(rc, "partial_batch", "%u of %lld CQEs, returned after %lld us",
		       ready, batch, dt / 1000);
		partial++;
		while (got < total) {
			struct io_uring_cqe c;

			if (rc_reap(rc, &c, 1))
				break;
			got++;
		}
		n = total;
	}
	rc_num(rc, "requests", n);
	rc_num(rc, "batch", batch);
	RC_NUM(rc, s.rodata, max_wait_us);
	rc_num(rc, "waits", waits);
	rc_num(rc, "woken_by_deadline", partial);
	RC_NUM(rc, s.bss, wakes_batch);
	RC_NUM(rc, s.bss, steps);
	rc_check(rc, got == n, "reaped %lld CQEs, want %lld", got, n);
	rc_check(rc, !bad, "%lld wrong results", bad);
out:
	for (long long i = 0; fds && i <= total; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	free(bufs);
	return 0;
}

IOU_WORKLOAD(.desc = "loop: wake the app for >= batch CQEs or after max_wait_us",
	     .mainline_note =
		"no timeout in the hook: the rest of a batch is waited for by polling (CPU busy up to max_wait_us); a call that finds SQEs submits them and returns at once; on an SQ_REWIND ring the app stores how many SQEs it queued in the SQ tail",
	     .example = "iouring-bpf run batch-wait --count 64 --set batch=8",
	     .takes_count = 1,
	     .count = 66,
	     .args = args_batch_wait,
	     .run = run_batch_wait);
