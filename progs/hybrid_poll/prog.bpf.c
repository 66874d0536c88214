// SPDX-License-Identifier: GPL-2.0
/*
 * hybrid-poll - poll the CQ for a bounded time before going to sleep.
 *
 * What it shows: the loop hook (v3's `io_uring_ops` on our kernel,
 * mainline's `io_uring_bpf_ops` on Linux 7.1+) as a latency policy, and how the wait target steers the
 * kernel. While the completions the application waits for are not there,
 * the program keeps the waiter awake for up to `spin_us` microseconds: it
 * sets the wait target to the current CQ tail, which is already reached,
 * so the kernel runs pending task work and calls the program again at once
 * instead of sleeping. After `spin_us` it sets the real target and lets the
 * task sleep. It returns STOP as soon as the target is met and never
 * consumes a CQE: the application reaps everything itself.
 *
 * The program runs on wake-ups only: a wait that starts with
 * io_uring_enter(fd, 0, k, GETEVENTS) first sleeps until k CQEs are there,
 * and then there is nothing left to poll for. So the application enters
 * with min_complete 0, which wakes the program at once, and the program
 * waits for `want` CQEs (the target it adapts); with min_complete k > 0 the
 * target is k, as usual.
 *
 * A fresh wait is recognised by the kernel's initial wait index differing
 * from the last target the program set. Counters: waits, polls (wake-ups
 * spent spinning), sleeps, done_polling / done_sleeping (STOPs while
 * still spinning / after sleeping), submits.
 *
 * On mainline (7.1+) the hook hides io_uring_enter()'s arguments and
 * submits nothing itself: a call that finds new SQEs submits them and
 * returns at once (counted in `submits`, not a wait), and every wait is
 * for `want` CQEs past the CQ head, whatever min_complete says. With the
 * application entering with min_complete 0, as `run` does, the meaning
 * is the same on both hooks.
 *
 * On an SQ_REWIND ring (Linux 7.0+) the kernel ignores the SQ head and
 * tail, so the new SQEs are the ones the application counted in the SQ
 * tail before it entered (iouring_bpf.h, "The application's SQEs on an
 * SQ_REWIND ring"); the program submits them from index 0 and zeroes it.
 *
 * Run:   iouring-bpf run hybrid-poll --count 200 --set spin_us=200
 *        (200 timerfd reads, alternately 20 us and 2 ms away, each waited
 *        for with min_complete 0; every wait must return with its CQE, and
 *        the 2 ms ones must have gone to sleep after polling)
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

const volatile __u64 spin_us = 200;
const volatile __u32 want = 1;	/* CQEs to wait for when min_complete is 0 */

__u32 in_wait, app_target, last_target, spinning;
__u64 wait_start;
__u64 waits, polls, sleeps, done_polling, done_sleeping, submits, steps;

IOU_LOOP_PROG(hybrid_poll_loop)
{
	struct iou_ring r;
	__u32 cur, head, tail, target;
	__u64 now;
	int sub;

	steps++;
	sub = iou_loop_ring(L, &r, 0);
	if (sub < 0)
		return IOU_STOP;
	if (sub > 0) {
		submits++;
		return IOU_STOP;
	}
	now = iou_now_ns();
	head = iou_cq_head_get(&r);
	cur = iou_wait_target_get(L);
	if (!in_wait || cur != last_target) {
		in_wait = 1;
		/*
		 * min_complete 0 leaves the target at the head: use `want`;
		 * mainline does not say min_complete at all
		 */
		app_target = iou_sees_enter_args() && cur != head ? cur :
			     head + want;
		wait_start = now;
		spinning = 1;
		waits++;
	}

	tail = iou_cq_tail_get(&r);
	if ((__s32)(tail - app_target) >= 0) {
		in_wait = 0;
		if (spinning)
			done_polling++;
		else
			done_sleeping++;
		return IOU_STOP;
	}

	if (now - wait_start < spin_us * IOU_NSEC_PER_USEC) {
		polls++;
		target = tail;		/* reached: re-check without sleeping */
	} else {
		if (spinning)
			sleeps++;
		spinning = 0;
		target = app_target;
	}
	last_target = target;
	iou_wait_target(L, target);
	return IOU_WAIT;
}

IOU_LOOP_OPS(hybrid_poll_ops, hybrid_poll_loop);
