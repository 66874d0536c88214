// SPDX-License-Identifier: GPL-2.0
/*
 * hybrid-poll - poll the CQ for a bounded time before going to sleep.
 *
 * What it shows: the loop hook (Pavel Begunkov's v3, struct_ops
 * `io_uring_ops`) as a latency policy. When the application waits and its
 * completions are not there yet, the program keeps the waiter awake for up
 * to `spin_us` microseconds: it sets the wait target to the current CQ
 * tail, which is already reached, so the kernel runs pending task work and
 * calls the program again at once instead of sleeping. After `spin_us` it
 * restores the application's own target (cq.head + min_complete) and lets
 * the task sleep. It returns STOP as soon as that target is met; it never
 * consumes a CQE, so the application sees exactly what it would without the
 * program, only sooner or with fewer sleeps.
 *
 * A fresh wait is recognised by the kernel's initial ls->cq_tail differing
 * from the last target the program set. Counters: waits, polls (wake-ups
 * spent spinning), sleeps, done_polling / done_sleeping (STOPs found while
 * spinning / after sleeping).
 *
 * Run:   iouring-bpf run hybrid-poll --count 200 --set spin_us=200
 *        (200 short timeouts waited for one at a time; all are seen,
 *        res -ETIME each, and the counters show how many were caught
 *        while polling)
 */
#include "iouring_bpf.h"

char LICENSE[] SEC("license") = "GPL";

IOU_EXIT_INFO_DEFINE();

const volatile __u64 spin_us = 50;

__u32 in_wait, app_target, last_target, spinning;
__u64 wait_start;
__u64 waits, polls, sleeps, done_polling, done_sleeping, steps;

IOU_LOOP_PROG(hybrid_poll_loop)
{
	struct iou_ring r;
	__u32 cur, tail, target;
	__u64 now;

	steps++;
	if (iou_ring_init(L, &r)) {
		IOU_EXIT_ERROR(-EFAULT, 0, "cannot map the ring regions");
		return IOU_STOP;
	}
	now = iou_now_ns();
	cur = iou_wait_target_get(L);
	if (!in_wait || cur != last_target) {
		in_wait = 1;
		app_target = cur;
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
