// SPDX-License-Identifier: GPL-2.0
/*
 * cq-stats - watch every completion without changing what the app sees.
 *
 * What it shows: the loop hook (v3's `io_uring_ops` on our kernel,
 * mainline's `io_uring_bpf_ops` on Linux 7.1+) as an observer. Each time the waiter wakes, the program
 * reads the CQEs posted since it last looked (without consuming them: the
 * CQ head is the application's) and counts them by result and by latency.
 * It keeps the kernel's wait target (cq.head + min_complete) and returns
 * STOP exactly when that target is met, so io_uring_enter() returns when
 * it would have without the program. (Only when more than IOU_MAX_BATCH
 * CQEs arrive at once does it ask to be called again at once, to count
 * the rest, and then restores the target.)
 *
 * Counts: nr_cqes, nr_zero (res == 0), nr_pos (res > 0), nr_neg (res < 0),
 * errno_count[e] for res == -e (e < 256, else errno_count[0]), and, when
 * `ud_is_ts` is 1 (the application puts the CLOCK_MONOTONIC ns of
 * submission in user_data), lat_hist[b]: completions whose latency, in
 * microseconds, has its highest bit at b (bucket 0: < 2 us).
 *
 * On mainline (7.1+) "change nothing" cannot fully hold: the hook runs
 * the program on every io_uring_enter() instead of submitting, and hides
 * to_submit, min_complete and the timeout. So the program submits the
 * application's SQEs itself and guesses what the call was for: a call
 * that finds new SQEs is a submission (submit them, return at once, as
 * io_uring_submit() would); a call that finds none is a wait, which
 * returns once `wait_nr` CQEs (default 1) have been posted since the call
 * began, or at once when none of the requests it submitted is still in
 * flight (so that a wait for nothing does not sleep forever: mainline has
 * no timeout). Each wait makes progress, so liburing's wait loops end. An
 * io_uring_submit_and_wait() thus returns after submitting (liburing's
 * wait calls enter again), and io_uring_enter() returns 0, not the count
 * submitted.
 *
 * On an SQ_REWIND ring (Linux 7.0+) the kernel ignores the SQ head and
 * tail, so the new SQEs are the ones the application counted in the SQ
 * tail before it entered (iouring_bpf.h, "The application's SQEs on an
 * SQ_REWIND ring"); the program submits them from index 0 and zeroes it.
 *
 * Attach it to your own application's ring while it runs:
 *        iouring-bpf load cq-stats --ring PID:FD
 *        iouring-bpf show
 *
 * Run:   iouring-bpf run cq-stats --count 256
 *        (NOPs, reads of /dev/zero, of a write-only fd (-EBADF) and of
 *        a directory (-EISDIR; on mainline, where the program submits,
 *        of /dev/zero into NULL: -EFAULT, inline), waited for in batches
 *        of 32; the counts the program reports must equal what user
 *        space reaped itself)
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

#define ERRNO_MAX	256	/* a power of two: the index is masked */
#define LAT_BUCKETS	32

const volatile __u32 ud_is_ts;
const volatile __u32 wait_nr = 1;	/* mainline: CQEs a wait waits for */

__u32 seen, seen_valid;
__u32 app_target, last_set, overridden;
__u64 nr_cqes, nr_zero, nr_pos, nr_neg, steps, stops;
__s64 inflight;		/* mainline: requests it submitted, not yet done */
__u64 submits;		/* mainline: calls that submitted the app's SQEs */
__u32 enter_tail;	/* mainline: the CQ tail when this call began */
__u64 errno_count[ERRNO_MAX];
__u64 lat_hist[LAT_BUCKETS];

/* floor(log2(v)), 0 for v < 2: five steps, no loop (the verifier is
 * happier with branches than with a loop nested in the CQE loop) */
static __always_inline __u32 log2_bucket(__u64 v)
{
	__u32 b = 0;

	if (v >> 32) {
		v >>= 32;
		b += 32;
	}
	if (v >> 16) {
		v >>= 16;
		b += 16;
	}
	if (v >> 8) {
		v >>= 8;
		b += 8;
	}
	if (v >> 4) {
		v >>= 4;
		b += 4;
	}
	if (v >> 2) {
		v >>= 2;
		b += 2;
	}
	if (v >> 1)
		b += 1;
	return b < LAT_BUCKETS ? b : LAT_BUCKETS - 1;
}

static __always_inline void observe(struct io_uring_cqe *cqe, __u64 now)
{
	__s32 res = cqe->res;
	__u64 ud = cqe->user_data;
	__u32 e, b;

	nr_cqes++;
	if (!(cqe->flags & IOU_CQE_F_MORE))
		inflight--;
	if (res == 0) {
		nr_zero++;
	} else if (res > 0) {
		nr_pos++;
	} else {
		nr_neg++;
		e = -res;
		if (e >= ERRNO_MAX)
			e = 0;
		errno_count[e & (ERRNO_MAX - 1)]++;
	}
	if (ud_is_ts && ud && ud <= now) {
		b = log2_bucket((now - ud) / IOU_NSEC_PER_USEC);
		lat_hist[b & (LAT_BUCKETS - 1)]++;
	}
}

IOU_LOOP_PROG(cq_stats_loop)
{
	struct iou_ring r;
	__u32 i, head, tail, from, n;
	__u64 now;
	int sub;

	steps++;
	sub = iou_loop_ring(L, &r, 0);
	if (sub < 0)
		return IOU_STOP;
	inflight += sub;
	head = iou_cq_head_get(&r);
	tail = iou_cq_tail_get(&r);
	from = seen_valid && (__s32)(seen - head) > 0 ? seen : head;
	n = tail - from;
	now = iou_now_ns();
	iou_for_each_cqe(i, n)
		observe(iou_cqe_at(&r, from + i), now);
	seen = from + i;
	seen_valid = 1;

	if (!iou_sees_enter_args()) {
		/*
		 * mainline: a submission returns, a wait waits (see above);
		 * the wait index is 0 on the first step of a call only
		 */
		if (!iou_wait_target_get(L))
			enter_tail = tail;
		if (sub > 0)
			submits++;
		if (sub > 0 || tail - enter_tail >= wait_nr || inflight <= 0) {
			stops++;
			return IOU_STOP;
		}
		/* more to look at than one batch: come back at once */
		iou_wait_target(L, i < n ? tail : enter_tail + wait_nr);
		return IOU_WAIT;
	}

	/* the application's target, unless it is the one we set last time */
	if (!overridden || iou_wait_target_get(L) != last_set)
		app_target = iou_wait_target_get(L);
	overridden = 0;

	if ((__s32)(tail - app_target) >= 0) {
		stops++;
		return IOU_STOP;
	}
	/* more to look at than one batch: come back at once */
	if (i < n) {
		overridden = 1;
		last_set = tail;
		iou_wait_target(L, tail);
		return IOU_WAIT;
	}
	iou_wait_target(L, app_target);
	return IOU_WAIT;
}

IOU_LOOP_OPS(cq_stats_ops, cq_stats_loop);
