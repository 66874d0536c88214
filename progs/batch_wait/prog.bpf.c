// SPDX-License-Identifier: GPL-2.0
/*
 * batch-wait - wake the application only for a batch, or after a deadline.
 *
 * What it shows: the loop hook (v3's `io_uring_ops` on our kernel,
 * mainline's `io_uring_bpf_ops` on Linux 7.1+) used as a wait policy
 * rather than a submitter. The application calls io_uring_enter(fd, 0, 1,
 * IORING_ENTER_GETEVENTS) as usual; the program decides when that returns:
 *
 *   - when at least `batch` CQEs are ready, or
 *   - when `max_wait_us` microseconds have passed since the program first
 *     saw a CQE of this batch (the wait's timeout; io_uring_enter() still
 *     returns 0, as CQEs are ready: -ETIME only comes with an empty CQ).
 *
 * It consumes nothing: the application reaps every CQE itself. It sets the
 * waiter's target (cq_tail = head + batch) and deadline (ls->timeout =
 * first seen + max_wait_us, never later than the caller's own timeout).
 * With min_complete 1 the kernel wakes the program at the first CQE, so
 * "first seen" is when that CQE was posted, give or take a wake-up.
 *
 * On mainline (7.1+) the meaning holds, the means differ: the hook has
 * no timeout and runs the program on every io_uring_enter() instead of
 * submitting. So a call that finds new SQEs in the SQ submits them and
 * returns at once (a submission: the hook hides min_complete, so it
 * cannot tell io_uring_submit() from a wait); a call that finds none
 * waits for the first CQE asleep, and then for the rest of a batch by
 * polling (the CPU stays busy until the batch or the deadline, at most
 * max_wait_us); with no CQE ever coming it waits until a signal, not the
 * caller's timeout. Counters: wakes_batch (returned with a full batch),
 * wakes_late (found the deadline already passed), polls (mainline: calls
 * spent polling), submits (mainline: calls that submitted), steps.
 *
 * On an SQ_REWIND ring (Linux 7.0+) the kernel ignores the SQ head and
 * tail, so the new SQEs are the ones the application counted in the SQ
 * tail before it entered (iouring_bpf.h, "The application's SQEs on an
 * SQ_REWIND ring"); the program submits them from index 0 and zeroes it.
 *
 * Run:   iouring-bpf run batch-wait --count 64 --set batch=8 \
 *            --set max_wait_us=20000
 *        (64 timerfd reads complete 100 us apart; a return with fewer
 *        than 8 CQEs must come after the deadline; 7 more that can never
 *        make a batch must come back after max_wait_us; all are seen)
 */
#define IOU_LOOP_PROGRAM
#include "iouring_bpf.h"

char LICENSE[] SEC("license") = "GPL";

IOU_EXIT_INFO_DEFINE();
/*
 * it submits the application's SQEs (mainline); on an SQ_REWIND ring the
 * application stores how many in the SQ tail (iouring_bpf.h)
 */
IOU_APP_SQES();

const volatile __u32 batch = 4;
const volatile __u64 max_wait_us = 1000;

__u64 first_ns;		/* when the oldest unreaped CQE was first seen */
__u32 first_head;	/* cq head at that time (the batch it belongs to) */
__u32 have_first;
__u64 wakes_batch, wakes_late, polls, submits, steps;

IOU_LOOP_PROG(batch_wait_loop)
{
	struct iou_ring r;
	__u32 head, ready;
	__u64 now, deadline;
	int sub;

	steps++;
	sub = iou_loop_ring(L, &r, 0);
	if (sub < 0)
		return IOU_STOP;
	if (sub > 0) {
		submits++;
		return IOU_STOP;
	}
	head = iou_cq_head_get(&r);
	ready = iou_cq_ready(&r);
	now = iou_now_ns();

	if (!ready) {
		have_first = 0;
		iou_wait_target(L, head + 1);
		return IOU_WAIT;
	}
	/* a new batch starts when the application has reaped the old one */
	if (!have_first || first_head != head) {
		have_first = 1;
		first_head = head;
		first_ns = now;
	}
	if (ready >= batch) {
		wakes_batch++;
		have_first = 0;
		return IOU_STOP;
	}
	deadline = first_ns + max_wait_us * IOU_NSEC_PER_USEC;
	if (now >= deadline) {
		wakes_late++;
		have_first = 0;
		return IOU_STOP;
	}
	if (!iou_has_wait_timeout()) {
		/* no timeout to sleep with: be called again at once */
		polls++;
		iou_wait_target(L, iou_cq_tail_get(&r));
		return IOU_WAIT;
	}
	iou_wait_target(L, head + batch);
	if ((__s64)deadline < (__s64)iou_wait_timeout_get(L))
		iou_wait_timeout(L, deadline);
	return IOU_WAIT;
}

IOU_LOOP_OPS(batch_wait_ops, batch_wait_loop);
