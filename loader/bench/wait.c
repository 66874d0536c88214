// SPDX-License-Identifier: GPL-2.0
/*
 * wait.c - `bench wait`: how often the application is woken, and how
 * late it sees completions, for a stream of completions T us apart.
 *
 * The stream: a second thread, with a ring of its own, sleeps until
 * start + (i + 1) * T (clock_nanosleep, absolute) and then posts one CQE to
 * the measured ring with IORING_OP_MSG_RING (IORING_MSG_DATA: res = i,
 * user_data = the time of posting), K times. On a DEFER_TASKRUN ring such a
 * CQE arrives as task work that wakes the waiter only when enough are
 * pending (what min_complete asks for), like any completion.
 * (IORING_OP_TIMEOUTs would not do: any expired timeout ends every wait,
 * whatever min_complete says.)
 *
 * The application waits and reaps until it has all K, in one of five ways
 * (each on its own ring, SINGLE_ISSUER | DEFER_TASKRUN | NO_SQARRAY |
 * CQSIZE, 64 SQ / 2048 CQ; every wait passes a 10 s timeout through
 * IORING_ENTER_EXT_ARG, the same for all modes):
 *
 *   min1        io_uring_enter(min_complete = 1)
 *   min8        min_complete = 8 (fewer at the end)
 *   min8-wait   min_complete = 8 and min_wait_usec = W (6.12's
 *               IORING_FEAT_MIN_TIMEOUT): after W us, return with what is
 *               there (or with the next one)
 *   batch-wait  the batch-wait loop program, batch=8 max_wait_us=W,
 *               min_complete = 1: about the same policy, written in BPF
 *               (its deadline runs from the first CQE of a batch)
 *   hybrid-poll the hybrid-poll loop program, spin_us=S, min_complete = 1
 *
 * Reported per mode: returns to user space per 1000 completions (the
 * application's wake-ups), voluntary context switches of the waiting
 * thread per 1000 completions (it went to sleep; getrusage(RUSAGE_THREAD)),
 * the CPU time the waiting thread used as % of the wall time, and the
 * added latency: when user space has the CQE in hand minus when it was
 * posted (mean, p50, p99, in us).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <time.h>
#include <sys/resource.h>
#include "bench.h"

#define W_CQ		2048
#define W_SPACING_US	100
#define W_BATCH		8
#define W_MIN_WAIT_US	500
#define W_SPIN_US	200
#define W_LEAD_NS	5000000LL
#define W_LATE_NS	(W_SPACING_US * 1000LL)

enum { W_MIN1, W_MIN8, W_MINWAIT, W_BATCHWAIT, W_HYBRID, NMODES };

static const struct {
	const char *mode, *label, *prog;
} modes[NMODES] = {
	{ "min1", "min_complete=1", NULL },
	{ "min8", "min_complete=8", NULL },
	{ "min8-wait", "min_complete=8 + min_wait_usec", NULL },
	{ "batch-wait", "batch-wait prog (batch 8, deadline)", "batch-wait" },
	{ "hybrid-poll", "hybrid-poll prog (spin then sleep)", "hybrid-poll" },
};

struct wmode {
	struct ring		ring;
	struct iouring_bpf	*h;
	long long		last[4];	/* program counters after the last run */
};

struct sender {
	pthread_t	thread;
	int		target_fd;
	long long	k, start;
	int		err;		/* -errno of the first failure */
	long long	late;		/* posts more than W_LATE_NS after due */
	long long	late_sum;	/* ns after due, summed */
};

static long long tv_us(struct timeval tv)
{
	return tv.tv_sec * 1000000LL + tv.tv_usec;
}

static void *sender_fn(void *arg)
{
	struct sender *snd = arg;
	struct ring r;
	int ret;

	/* wake up at the time asked, not up to 50 us later */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	ret = ring_init(&r, 4, 8, 0);
	if (ret) {
		snd->err = ret;
		return NULL;
	}
	for (long long i = 0; i < snd->k; i++) {
		long long due = snd->start + (i + 1) * W_SPACING_US * 1000LL;
		struct timespec ts = { due / SEC_NS, due % SEC_NS };
		struct io_uring_sqe *sqe;
		long long now;

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		now = now_ns();
		if (now - due > W_LATE_NS)
			snd->late++;
		snd->late_sum += now - due;
		sqe = ring_get_sqe(&r);
		sqe->opcode = IORING_OP_MSG_RING;
		sqe->fd = snd->target_fd;
		sqe->addr = IORING_MSG_DATA;
		sqe->len = i;
		sqe->off = now;
		sqe->flags = IOSQE_CQE_SKIP_SUCCESS;
		ret = ring_submit(&r);
		if (ret != 1 || ring_cq_ready(&r)) {
			struct io_uring_cqe *c = ring_peek_cqe(&r);

			snd->err = ret < 0 ? ret : c ? c->res : -EIO;
			if (!snd->err)
				snd->err = -EIO;
			break;
		}
	}
	ring_exit(&r);
	return NULL;
}

static int wait_enter(struct ring *r, unsigned int min, unsigned int min_wait_us)
{
	struct __kernel_timespec ts = { .tv_sec = 10 };
	struct iou_getevents_arg arg;

	memset(&arg, 0, sizeof(arg));
	arg.ts = (__u64)(unsigned long)&ts;
	arg.min_wait_usec = min_wait_us;
	return io_uring_enter_raw(r->fd, 0, min,
				  IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG,
				  &arg, sizeof(arg));
}

/* a metric of mode m without a size */
static void add(struct bench_scn *s, int m, const char *what,
		const char *unit, double v)
{
	bench_add(s, modes[m].mode, modes[m].label, what, unit, -1, v);
}

static int one_run(struct bench_scn *s, int m, struct wmode *w, long long k,
		   double *lat, int run)
{
	struct sender snd = { 0 };
	struct ring *r = &w->ring;
	long long start, got = 0, enters = 0, etime = 0, empty = 0, t0, t1;
	struct rusage ru0, ru1;
	double sum = 0;
	int ret;

	snd.target_fd = r->fd;
	snd.k = k;
	snd.start = start = now_ns() + W_LEAD_NS;
	ret = pthread_create(&snd.thread, NULL, sender_fn, &snd);
	if (ret) {
		bench_fail(s, "pthread_create: %s", strerror(ret));
		return -1;
	}

	snprintf(s->cur, sizeof(s->cur), "%s run %d", modes[m].mode, run);
	getrusage(RUSAGE_THREAD, &ru0);
	t0 = bench_t0(s);
	while (got < k) {
		unsigned int ready, want = 1, min_wait = 0;
		long long now;

		if (m == W_MIN8 || m == W_MINWAIT)
			want = k - got < W_BATCH ? k - got : W_BATCH;
		if (m == W_MINWAIT)
			min_wait = W_MIN_WAIT_US;
		ret = wait_enter(r, want, min_wait);
		now = now_ns();
		enters++;
		if (ret == -ETIME)
			etime++;
		else if (ret < 0 && ret != -EINTR) {
			bench_fail(s, "%s: io_uring_enter: %s", modes[m].mode,
				   strerror(-ret));
			goto fail;
		}
		ready = ring_cq_ready(r);
		if (!ready) {
			empty++;
			if (now - t0 > 30 * SEC_NS || snd.err) {
				bench_fail(s, "%s: only %lld of %lld completions after %.1f s (sender: %s)",
					   modes[m].mode, got, k, (now - t0) / 1e9,
					   strerror(-snd.err));
				goto fail;
			}
		}
		for (unsigned int i = 0; i < ready; i++) {
			struct io_uring_cqe *c = ring_peek_cqe(r);
			long long ud = c->user_data;

			if (c->res != got || ud < start) {
				bench_fail(s, "%s: CQE res %d user_data %lld, want res %lld, a time",
					   modes[m].mode, c->res, ud, got);
				goto fail;
			}
			lat[got] = (now - ud) / 1e3;
			sum += lat[got];
			got++;
			ring_cq_advance(r, 1);
		}
	}
	t1 = t0 + bench_t1(s, t0);
	getrusage(RUSAGE_THREAD, &ru1);
	pthread_join(snd.thread, NULL);
	if (snd.err) {
		bench_fail(s, "%s: the sender failed: %s", modes[m].mode,
			   strerror(-snd.err));
		return -1;
	}

	add(s, m, "wakeups_per_1000", "returns", enters * 1000.0 / k);
	add(s, m, "sleeps_per_1000", "ctxsw",
	    (ru1.ru_nvcsw - ru0.ru_nvcsw) * 1000.0 / k);
	add(s, m, "lat_mean", "us", sum / k);
	add(s, m, "lat_p50", "us", stat_pct(lat, k, 50));
	add(s, m, "lat_p99", "us", stat_pct(lat, k, 99));
	add(s, m, "cpu", "%", 100.0 * (tv_us(ru1.ru_utime) + tv_us(ru1.ru_stime) -
				       tv_us(ru0.ru_utime) - tv_us(ru0.ru_stime)) /
	    ((t1 - t0) / 1e3));
	add(s, m, "etime_per_1000", "returns", etime * 1000.0 / k);
	if (empty)
		add(s, m, "empty_per_1000", "returns", empty * 1000.0 / k);
	/* what the programs saw (their counters, this run only) */
	for (int i = 0; i < 4 && w->h; i++) {
		static const char *const bw[] = { "wakes_batch", "wakes_late", "steps", NULL };
		static const char *const hp[] = { "polls", "sleeps", "done_polling", "done_sleeping" };
		const char *name = m == W_BATCHWAIT ? bw[i] : hp[i];
		long long v;

		if (!name)
			break;
		if (!iouring_bpf_var_int(w->h, name, &v)) {
			char what[40];

			snprintf(what, sizeof(what), "prog_%s_per_1000", name);
			add(s, m, what, "count", (v - w->last[i]) * 1000.0 / k);
			w->last[i] = v;
		}
	}
	/* how regular the stream was: the sender overslept by this much */
	add(s, m, "post_delay_mean", "us", snd.late_sum / 1e3 / k);
	add(s, m, "posts_late_per_1000", "posts", snd.late * 1000.0 / k);
	return 0;
fail:
	/* the sender ends on its own: K posts, or its first error */
	pthread_join(snd.thread, NULL);
	return -1;
}

int bench_wait(struct bench_scn *s)
{
	long long k = s->count > 0 ? s->count : 2000;
	struct wmode w[NMODES];
	double *lat;
	int status = 0, ret, m;
	char p1[32], p2[32], p3[32];
	const char *bw_params[] = { p1, p2, NULL };
	const char *hp_params[] = { p3, NULL };

	s->count = k;
	memset(w, 0, sizeof(w));
	for (m = 0; m < NMODES; m++)
		w[m].ring.fd = -1;
	lat = calloc(k, sizeof(*lat));
	if (!lat) {
		bench_fail(s, "out of memory");
		goto out;
	}
	snprintf(p1, sizeof(p1), "batch=%d", W_BATCH);
	snprintf(p2, sizeof(p2), "max_wait_us=%d", W_MIN_WAIT_US);
	snprintf(p3, sizeof(p3), "spin_us=%d", W_SPIN_US);
	for (m = 0; m < NMODES; m++) {
		ret = ring_init(&w[m].ring, BENCH_SQ, W_CQ, BENCH_LOOP_FLAGS);
		if (ret) {
			bench_fail(s, "io_uring_setup: %s", strerror(-ret));
			goto out;
		}
		if (!modes[m].prog)
			continue;
		w[m].h = bench_attach(modes[m].prog, &w[m].ring,
				      m == W_BATCHWAIT ? bw_params : hp_params,
				      &status);
		if (!w[m].h)
			goto out;
	}
	bench_param(s, "stream", "%lld CQEs posted by IORING_OP_MSG_RING from a second thread, one every %d us",
		    k, W_SPACING_US);
	bench_param(s, "ring", "%s, %u SQ / %u CQ entries, one ring per mode",
		    bench_ring_flags(BENCH_LOOP_FLAGS), BENCH_SQ, W_CQ);
	bench_param(s, "waits", "EXT_ARG, timeout 10 s; batch %d; min_wait_usec = max_wait_us = %d; spin_us = %d",
		    W_BATCH, W_MIN_WAIT_US, W_SPIN_US);
	bench_param(s, "latency", "time the CQE is in user space's hands minus the time it was posted");
	bench_param(s, "order", "min1 min8 min8-wait batch-wait hybrid-poll repeated %d times (no warm-up)",
		    s->runs);

	for (int run = 0; run < s->runs; run++)
		for (m = 0; m < NMODES; m++)
			if (one_run(s, m, &w[m], k, lat, run))
				goto out;
out:
	for (m = 0; m < NMODES; m++) {
		iouring_bpf_close(w[m].h);
		if (w[m].ring.fd >= 0)
			ring_exit(&w[m].ring);
	}
	free(lat);
	if (status)
		return status;
	return s->failed ? EXIT_FAIL : 0;
}
