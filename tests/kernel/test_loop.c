// SPDX-License-Identifier: GPL-2.0
/*
 * test_loop - the io_uring loop hook (struct io_uring_ops, Pavel Begunkov's
 * v3 as ported to our 6.12): attach by ring fd, N NOPs driven from BPF in
 * one io_uring_enter(), detach, ring requirements, bad ring fds, closing
 * the ring with ops attached, signals, regions, timeouts, EXT_ARG
 * min_wait, bad return values, verifier rejections and ops without a loop
 * program. Programs: loop.bpf.c (modes), loop_bad_ls.bpf.c,
 * loop_bad_ctx.bpf.c, loop_noprog.bpf.c.
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/time.h>

#include "t_helpers.h"
#include "loop.skel.h"
#include "loop_bad_ls.skel.h"
#include "loop_bad_ctx.skel.h"
#include "loop_noprog.skel.h"

enum { M_NOPS, M_STOP, M_WAIT, M_TIMEOUT, M_RET7, M_REGIONS };

/* a ring with a loop program attached (or just loaded) */
struct lp {
	struct uring r;
	struct loop *s;
	struct bpf_link *link;
};

/* open + configure + load a loop skeleton for ring r (ring_fd, rodata) */
static struct loop *loop_load(struct uring *r, int ring_fd, unsigned int mode,
			      unsigned int wait_ms)
{
	struct loop *s = loop__open();
	int err;

	if (!CHECK_PTR(s, "loop__open"))
		return NULL;
	if (r)
		T_SET_RING_RODATA(s->rodata, r);
	s->rodata->mode = mode;
	if (wait_ms)
		s->rodata->wait_ms = wait_ms;
	s->struct_ops.ops->ring_fd = ring_fd;
	err = loop__load(s);
	if (!CHECK_EQ(err, 0, "loop__load")) {
		loop__destroy(s);
		return NULL;
	}
	return s;
}

static bool loop_ring(struct uring *r, unsigned int extra_flags)
{
	int ret = uring_init(r, 8, T_LOOP_RING_FLAGS | extra_flags, 8);

	return CHECK_EQ(ret, 0, "io_uring_setup(SINGLE_ISSUER|DEFER_TASKRUN|"
			"NO_SQARRAY|CQSIZE, 8 SQ / 8 CQ)");
}

/* ring + skeleton in `mode` + attached; false (and cleaned up) on failure */
static bool lp_open(struct lp *l, unsigned int mode, unsigned int wait_ms)
{
	memset(l, 0, sizeof(*l));
	l->r.fd = -1;
	if (!loop_ring(&l->r, 0))
		return false;
	l->s = loop_load(&l->r, l->r.fd, mode, wait_ms);
	if (!l->s)
		goto fail;
	if (!CHECK_EQ(t_attach(l->s->maps.ops, &l->link), 0,
		      "attach io_uring_ops to the ring"))
		goto fail;
	return true;
fail:
	if (l->s)
		loop__destroy(l->s);
	uring_exit(&l->r);
	l->s = NULL;
	return false;
}

static void lp_close(struct lp *l)
{
	t_detach(&l->link);
	if (l->s)
		loop__destroy(l->s);
	if (l->r.fd >= 0)
		uring_exit(&l->r);
}

static int enter_getevents(int fd, unsigned int to_submit, unsigned int min)
{
	return t_io_uring_enter(fd, to_submit, min, IORING_ENTER_GETEVENTS, NULL, 0);
}

/* io_uring_enter(fd, 0, min, GETEVENTS | EXT_ARG) with a timeout of
 * timeout_ms (< 0: none) and min_wait_usec */
static int enter_ext_arg(int fd, unsigned int min, int timeout_ms,
			 unsigned int min_wait_usec)
{
	struct __kernel_timespec ts;
	struct t_getevents_arg arg;

	memset(&arg, 0, sizeof(arg));
	arg.min_wait_usec = min_wait_usec;
	if (timeout_ms >= 0) {
		t_ms_to_ts(&ts, timeout_ms);
		arg.ts = (uint64_t)(uintptr_t)&ts;
	}
	return t_io_uring_enter(fd, 0, min, IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG,
				&arg, sizeof(arg));
}

/* a NOP at the SQ tail, published for the next enter to submit */
static void queue_nop(struct uring *r, uint64_t user_data)
{
	sqe_nop(uring_get_sqe(r), user_data);
	uring_flush(r);
}

/* one NOP from user space, waited for normally; true if res 0 */
static bool user_nop(struct uring *r, const char *what)
{
	struct io_uring_sqe *sqe = uring_get_sqe(r);
	struct io_uring_cqe cqe;
	char msg[128];
	int ret;

	snprintf(msg, sizeof(msg), "%s: get SQE", what);
	if (!CHECK_PTR(sqe, msg))
		return false;
	sqe_nop(sqe, 0xfeed);
	uring_flush(r);
	ret = t_io_uring_enter(r->fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0);
	snprintf(msg, sizeof(msg), "%s: io_uring_enter(1, 1, GETEVENTS)", what);
	if (!CHECK_EQ(ret, 1, msg))
		return false;
	ret = uring_peek_cqe(r, &cqe);
	snprintf(msg, sizeof(msg), "%s: CQE after the enter", what);
	if (!CHECK_EQ(ret, 0, msg))
		return false;
	snprintf(msg, sizeof(msg), "%s: NOP res", what);
	return CHECK_EQ(cqe.res, 0, msg) & CHECK_EQ(cqe.user_data, 0xfeed, msg);
}

/* ------------------------------------------------------------------------- */

static void run_nops(struct lp *l, unsigned int target, const char *what)
{
	struct loop__bss *b = l->s->bss;
	unsigned int c0 = b->completed, i0 = b->invocations;
	char msg[128];
	double t0;
	int ret;

	b->target = target;
	t0 = t_now_ms();
	ret = enter_getevents(l->r.fd, 0, 0);
	snprintf(msg, sizeof(msg), "%s: io_uring_enter(fd, 0, 0, GETEVENTS)", what);
	CHECK_EQ(ret, 0, msg);
	T_DEBUG("%s: %u NOPs in %.1f ms, %u invocations", what, target - c0,
		t_now_ms() - t0, b->invocations - i0);
	CHECK_EQ(b->region_null, 0, "bpf_io_uring_get_region(0|1, right size) returned NULL");
	CHECK_EQ(b->submit_errors, 0, "bpf_io_uring_submit_sqes(ctx, 1) != 1");
	if (b->submit_errors)
		T_INFO("last bpf_io_uring_submit_sqes() returned %d", b->last_submit_ret);
	CHECK_EQ(b->completed, target, "NOPs completed (CQEs consumed by BPF)");
	CHECK_EQ(b->submitted, target, "NOPs submitted by BPF");
	if (!CHECK_EQ(b->cqe_errors, 0, "CQEs with res != 0"))
		T_INFO("first bad res %d", b->first_bad_res);
	CHECK_EQ(b->bad_user_data, 0, "CQEs out of order (user_data)");
	CHECK_GE(b->invocations - i0, target - c0 + 1, "program invocations");
	/* the rings as user space sees them */
	CHECK_EQ(*l->r.cq_head, target, "CQ head (advanced by BPF)");
	CHECK_EQ(__atomic_load_n(l->r.cq_tail, __ATOMIC_ACQUIRE), target, "CQ tail");
	CHECK_EQ(*l->r.sq_tail, target, "SQ tail (advanced by BPF)");
	CHECK_EQ(__atomic_load_n(l->r.sq_head, __ATOMIC_ACQUIRE), target,
		 "SQ head (consumed by the kernel)");
}

static void t_nops_from_bpf(void)
{
	struct lp l;

	if (!lp_open(&l, M_NOPS, 0))
		return;
	run_nops(&l, 100, "100 NOPs");
	/* the same attachment serves a second io_uring_enter() */
	if (!T.cur_failed)
		run_nops(&l, 300, "200 more NOPs");
	lp_close(&l);
}

static void t_enter_submits_then_runs(void)
{
	struct io_uring_cqe cqe;
	struct lp l;
	int ret;

	if (!lp_open(&l, M_STOP, 0))
		return;
	/* user-space submission with ops attached: submitted as usual, then
	 * the program runs (and returns STOP) */
	queue_nop(&l.r, 7);
	ret = enter_getevents(l.r.fd, 1, 0);
	CHECK_EQ(ret, 1, "io_uring_enter(fd, 1, 0, GETEVENTS) with ops");
	CHECK_EQ(l.s->bss->invocations, 1, "program invocations");
	ret = uring_peek_cqe(&l.r, &cqe);
	if (CHECK_EQ(ret, 0, "CQE of the user-space NOP"))
		CHECK_EQ(cqe.res, 0, "user-space NOP res");
	/* min_complete 1: the program runs once the NOP's CQE is there */
	queue_nop(&l.r, 9);
	ret = enter_getevents(l.r.fd, 1, 1);
	CHECK_EQ(ret, 1, "io_uring_enter(fd, 1, 1, GETEVENTS), program says STOP");
	CHECK_EQ(l.s->bss->invocations, 2, "program invocations");
	ret = uring_peek_cqe(&l.r, &cqe);
	if (CHECK_EQ(ret, 0, "CQE of the second NOP"))
		CHECK_EQ(cqe.user_data, 9, "second NOP's user_data");
	/* no GETEVENTS: the program does not run */
	queue_nop(&l.r, 8);
	ret = t_io_uring_enter(l.r.fd, 1, 0, 0, NULL, 0);
	CHECK_EQ(ret, 1, "io_uring_enter(fd, 1, 0, 0)");
	CHECK_EQ(l.s->bss->invocations, 2, "program invocations after an enter without GETEVENTS");
	lp_close(&l);
}

static void t_detach_restores(void)
{
	struct lp l;
	unsigned int inv;
	int ret;

	if (!lp_open(&l, M_STOP, 0))
		return;
	ret = enter_getevents(l.r.fd, 0, 0);
	CHECK_EQ(ret, 0, "enter with ops");
	CHECK_EQ(l.s->bss->invocations, 1, "invocations with ops");
	t_detach(&l.link);
	inv = l.s->bss->invocations;

	ret = enter_getevents(l.r.fd, 0, 0);
	CHECK_EQ(ret, 0, "io_uring_enter(fd, 0, 0, GETEVENTS) after detach");
	user_nop(&l.r, "NOP + wait after detach");
	/* a wait for a CQE that never comes times out normally */
	ret = enter_ext_arg(l.r.fd, 1, 100, 0);
	CHECK_EQ(ret, -ETIME, "wait 100 ms for nothing after detach");
	CHECK_EQ(l.s->bss->invocations, inv, "program invocations after detach");

	/* attaching again works and the program runs again */
	if (CHECK_EQ(t_attach(l.s->maps.ops, &l.link), 0, "re-attach")) {
		ret = enter_getevents(l.r.fd, 0, 0);
		CHECK_EQ(ret, 0, "enter after re-attach");
		CHECK_EQ(l.s->bss->invocations, inv + 1, "invocations after re-attach");
	}
	lp_close(&l);
}

static void t_attach_twice_ebusy(void)
{
	struct bpf_link *l2 = NULL;
	struct loop *s2;
	struct lp l;
	int ret;

	if (!lp_open(&l, M_STOP, 0))
		return;
	s2 = loop_load(&l.r, l.r.fd, M_STOP, 0);
	if (!s2)
		goto out;
	ret = t_attach(s2->maps.ops, &l2);
	CHECK_EQ(ret, -EBUSY, "second io_uring_ops on the same ring");
	t_detach(&l2);
	/* a second link on the same (attached) map */
	ret = t_attach(l.s->maps.ops, &l2);
	CHECK_EQ(ret, -EBUSY, "second link on the attached map");
	t_detach(&l2);
	/* the first one is still in charge */
	ret = enter_getevents(l.r.fd, 0, 0);
	CHECK_EQ(ret, 0, "enter");
	CHECK_EQ(l.s->bss->invocations, 1, "first program's invocations");
	CHECK_EQ(s2->bss->invocations, 0, "second program's invocations");
	/* once the first is detached, the second may attach */
	t_detach(&l.link);
	if (CHECK_EQ(t_attach(s2->maps.ops, &l2), 0, "attach the second after detaching the first")) {
		ret = enter_getevents(l.r.fd, 0, 0);
		CHECK_EQ(ret, 0, "enter");
		CHECK_EQ(s2->bss->invocations, 1, "second program's invocations");
	}
	t_detach(&l2);
	loop__destroy(s2);

	/* the same ops can't serve two rings: with the first link still
	 * attached to ring A, make the map's ring_fd number name ring B
	 * (A stays open through a dup) and add a second link */
	{
		struct uring rb;
		int keep_a;

		if (!CHECK_EQ(t_attach(l.s->maps.ops, &l.link), 0, "attach again to ring A"))
			goto out;
		keep_a = dup(l.r.fd);
		if (CHECK_TRUE(keep_a >= 0, "dup ring A") && loop_ring(&rb, 0)) {
			int a_num = l.r.fd;

			if (CHECK_EQ(dup2(rb.fd, a_num), a_num, "ring_fd number -> ring B")) {
				ret = t_attach(l.s->maps.ops, &l2);
				CHECK_EQ(ret, -EBUSY, "second link of the attached ops, "
					 "ring_fd now naming another ring");
				t_detach(&l2);
			}
			dup2(keep_a, a_num);	/* the number names ring A again */
			uring_exit(&rb);
		}
		if (keep_a >= 0)
			close(keep_a);
		/* ring A still runs the first link's program */
		ret = enter_getevents(l.r.fd, 0, 0);
		CHECK_EQ(ret, 0, "enter on ring A");
	}
out:
	lp_close(&l);
}

static void t_ring_requirements(void)
{
	static const struct { unsigned int flags; const char *what; } c[] = {
		{ 0, "no setup flags" },
		{ IORING_SETUP_SINGLE_ISSUER, "SINGLE_ISSUER without DEFER_TASKRUN" },
		{ IORING_SETUP_COOP_TASKRUN, "COOP_TASKRUN" },
		{ IORING_SETUP_SQPOLL, "SQPOLL" },
		{ IORING_SETUP_IOPOLL | IORING_SETUP_SINGLE_ISSUER |
		  IORING_SETUP_DEFER_TASKRUN, "IOPOLL|SINGLE_ISSUER|DEFER_TASKRUN" },
	};

	for (unsigned int i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct bpf_link *link = NULL;
		struct uring r;
		struct loop *s;
		char msg[128];
		int ret;

		ret = uring_init(&r, 8, c[i].flags, 0);
		if (ret) {
			T_INFO("%s: io_uring_setup: %d, case not tested", c[i].what, ret);
			continue;
		}
		s = loop_load(&r, r.fd, M_STOP, 0);
		if (s) {
			snprintf(msg, sizeof(msg), "attach to a ring with %s", c[i].what);
			ret = t_attach(s->maps.ops, &link);
			CHECK_EQ(ret, -EOPNOTSUPP, msg);
			t_detach(&link);
			loop__destroy(s);
		}
		uring_exit(&r);
	}
}

static void t_bad_ring_fd(void)
{
	struct { int fd; int want; const char *what; } c[3];
	int efd, nfd, cfd = 900;

	efd = eventfd(0, 0);
	nfd = open("/dev/null", O_RDONLY);
	/* a number that is not open (libbpf takes the lowest free fds, so
	 * a recently closed one would be reused by a map or BTF fd) */
	while (fcntl(cfd, F_GETFD) != -1)
		cfd++;
	c[0].fd = efd; c[0].want = -EOPNOTSUPP; c[0].what = "ring_fd = an eventfd";
	c[1].fd = nfd; c[1].want = -EOPNOTSUPP; c[1].what = "ring_fd = /dev/null";
	c[2].fd = cfd; c[2].want = -EBADF; c[2].what = "ring_fd not open";
	for (int i = 0; i < 3; i++) {
		struct bpf_link *link = NULL;
		struct loop *s = loop_load(NULL, c[i].fd, M_STOP, 0);

		if (!s)
			continue;
		if (i == 2 && fcntl(cfd, F_GETFD) != -1) {
			FAIL("test bug: fd %d got opened while loading", cfd);
		} else {
			CHECK_EQ(t_attach(s->maps.ops, &link), c[i].want, c[i].what);
		}
		t_detach(&link);
		loop__destroy(s);
	}
	close(efd);
	close(nfd);
}

static void t_close_ring_with_ops(void)
{
	for (int wait = 0; wait < 2; wait++) {
		struct lp l;
		int ret;

		if (!lp_open(&l, M_STOP, 0))
			return;
		ret = enter_getevents(l.r.fd, 0, 0);
		CHECK_EQ(ret, 0, "enter with ops");
		/* close the ring (ops still attached), then destroy the link:
		 * right away (ring teardown may still be running) or later */
		uring_exit(&l.r);
		if (wait)
			usleep(300 * 1000);
		t_detach(&l.link);
		loop__destroy(l.s);
	}
	/* and the machinery still works on a new ring */
	{
		struct lp l;

		if (!lp_open(&l, M_NOPS, 0))
			return;
		run_nops(&l, 10, "10 NOPs on a new ring");
		lp_close(&l);
	}
}

static volatile sig_atomic_t got_alarm;

static void on_alarm(int sig)
{
	(void)sig;
	got_alarm = 1;
}

static void t_signal_eintr(void)
{
	struct sigaction sa, old;
	struct itimerval it = { .it_value = { .tv_usec = 100 * 1000 } };
	double t0, dt;
	struct lp l;
	int ret;

	/* the program waits (for a CQE that never comes) with a 10 s safety
	 * timeout; SIGALRM after 100 ms must end the wait with -EINTR */
	if (!lp_open(&l, M_WAIT, 10000))
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, &old);
	got_alarm = 0;
	t0 = t_now_ms();
	setitimer(ITIMER_REAL, &it, NULL);
	ret = enter_getevents(l.r.fd, 0, 0);
	dt = t_now_ms() - t0;
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	sigaction(SIGALRM, &old, NULL);

	CHECK_EQ(ret, -EINTR, "io_uring_enter while the program waits, SIGALRM");
	CHECK_TRUE(got_alarm, "the signal handler ran");
	CHECK_LT(dt, 9000, "ms until io_uring_enter returned");
	CHECK_GE(l.s->bss->invocations, 1, "program invocations");
	T_DEBUG("returned after %.1f ms, %u invocations", dt, l.s->bss->invocations);
	t_detach(&l.link);
	user_nop(&l.r, "NOP + wait after detach");
	lp_close(&l);
}

/*
 * Detach while the program's wait is in progress: the wait must end at the
 * next wake-up (here the CQE of a 500 ms timeout queued beforehand), not
 * keep running a detached program or wait for ever. The program would
 * otherwise wait 20 s (and spin once a CQE is there).
 */
static void t_detach_during_wait(void)
{
	struct __kernel_timespec ts;
	struct io_uring_sqe *sqe;
	struct t_destroyer d;
	double t0, dt;
	struct lp l;
	int ret;

	if (!lp_open(&l, M_WAIT, 20000))
		return;
	t_ms_to_ts(&ts, 500);
	sqe = uring_get_sqe(&l.r);
	sqe_timeout(sqe, &ts, 0, 0, 0x71);
	uring_flush(&l.r);
	ret = t_io_uring_enter(l.r.fd, 1, 0, 0, NULL, 0);
	if (!CHECK_EQ(ret, 1, "queue a 500 ms timeout (no GETEVENTS)"))
		goto out;
	/* the destroyer sleeps 150 ms, then destroys the link */
	if (!CHECK_EQ(t_destroy_async(&d, l.link, 150), 0, "start destroyer thread"))
		goto out;
	l.link = NULL;
	t0 = t_now_ms();
	ret = enter_getevents(l.r.fd, 0, 0);
	dt = t_now_ms() - t0;
	CHECK_EQ(ret, 0, "io_uring_enter ending after the detach");
	CHECK_LT(dt, 10000, "ms until io_uring_enter returned (program timeout: 20 s)");
	if (CHECK_TRUE(t_destroy_wait(&d, 20000), "bpf_link__destroy returned"))
		CHECK_LT(d.t_end - d.t_start, 5000,
			 "ms bpf_link__destroy took while the ring's task was waiting");
	T_DEBUG("enter returned after %.0f ms; destroy %.0f..%.0f ms", dt,
		d.t_start - t0, d.t_end - t0);
	{
		struct io_uring_cqe cqe;

		ret = uring_peek_cqe(&l.r, &cqe);
		if (CHECK_EQ(ret, 0, "the timeout's CQE"))
			CHECK_EQ(cqe.user_data, 0x71, "the timeout's CQE user_data");
	}
	user_nop(&l.r, "NOP + wait after the detach");
out:
	lp_close(&l);
}

/*
 * A task whose first use of the ring is a wait: the ring is created
 * disabled (R_DISABLED) by this thread and enabled by another thread, which
 * then becomes the single issuer and calls io_uring_enter(0, 0, GETEVENTS)
 * without ever submitting from user space. The program submits NOPs, which
 * needs that task registered with the ring (the rewrite of v3 08 did it
 * under uring_lock, which the registration takes itself: a deadlock; the
 * watchdog catches a hang).
 */
struct first_wait {
	struct lp *l;
	int enable_ret, enter_ret;
};

static void *first_wait_fn(void *arg)
{
	struct first_wait *fw = arg;

	fw->enable_ret = t_io_uring_register(fw->l->r.fd, IORING_REGISTER_ENABLE_RINGS,
					     NULL, 0);
	if (!fw->enable_ret)
		fw->enter_ret = enter_getevents(fw->l->r.fd, 0, 0);
	return NULL;
}

static void t_first_use_is_a_wait(void)
{
	struct first_wait fw = { 0 };
	pthread_t th;
	struct lp l;

	memset(&l, 0, sizeof(l));
	if (!loop_ring(&l.r, IORING_SETUP_R_DISABLED))
		return;
	l.s = loop_load(&l.r, l.r.fd, M_NOPS, 0);
	if (!l.s || !CHECK_EQ(t_attach(l.s->maps.ops, &l.link), 0, "attach to the disabled ring"))
		goto out;
	l.s->bss->target = 5;
	fw.l = &l;
	if (!CHECK_EQ(pthread_create(&th, NULL, first_wait_fn, &fw), 0, "thread"))
		goto out;
	pthread_join(th, NULL);
	CHECK_EQ(fw.enable_ret, 0, "IORING_REGISTER_ENABLE_RINGS from the other thread");
	CHECK_EQ(fw.enter_ret, 0, "the other thread's first io_uring_enter(0, 0, GETEVENTS)");
	CHECK_EQ(l.s->bss->completed, 5, "NOPs completed by the program");
	CHECK_EQ(l.s->bss->submit_errors, 0, "bpf_io_uring_submit_sqes errors");
	if (l.s->bss->submit_errors)
		T_INFO("bpf_io_uring_submit_sqes returned %d", l.s->bss->last_submit_ret);
out:
	lp_close(&l);
}

static void t_regions(void)
{
	struct loop__data *d;
	struct lp l;
	int ret;

	if (!lp_open(&l, M_REGIONS, 0))
		return;
	ret = enter_getevents(l.r.fd, 0, 0);
	CHECK_EQ(ret, 0, "enter");
	d = l.s->data;
	CHECK_EQ(d->r0_exact, 1, "get_region(0 rings, cqes_off + 8 CQEs) != NULL");
	CHECK_EQ(d->r1_exact, 1, "get_region(1 SQEs, 8 SQEs) != NULL");
	CHECK_EQ(d->r0_past, 0, "get_region(0, 4097) == NULL (past the rings)");
	CHECK_EQ(d->r1_past, 0, "get_region(1, 4097) == NULL (past 8 SQEs)");
	CHECK_EQ(d->r0_huge, 0, "get_region(0, 1 MiB) == NULL");
	CHECK_EQ(d->r1_huge, 0, "get_region(1, 1 MiB) == NULL");
	CHECK_EQ(d->r2_small, 0, "get_region(2 params, absent in 6.12, 8) == NULL");
	CHECK_EQ(d->r3_small, 0, "get_region(3, 8) == NULL");
	CHECK_EQ(d->r255_small, 0, "get_region(255, 8) == NULL");
	lp_close(&l);
}

static void t_timeout_etime(void)
{
	double t0, dt;
	struct lp l;
	int ret;

	/* the program sets ls->timeout = now + 50 ms and waits for a CQE that
	 * never comes */
	if (!lp_open(&l, M_TIMEOUT, 50))
		return;
	t0 = t_now_ms();
	ret = enter_getevents(l.r.fd, 0, 0);
	dt = t_now_ms() - t0;
	CHECK_EQ(ret, -ETIME, "io_uring_enter with ls->timeout = now + 50 ms");
	CHECK_GE(dt, 50, "ms until io_uring_enter returned");
	CHECK_LT(dt, 5000, "ms until io_uring_enter returned");
	CHECK_GE(l.s->bss->invocations, 1, "program invocations");
	T_DEBUG("-ETIME after %.1f ms, %u invocations", dt, l.s->bss->invocations);
	lp_close(&l);
}

static void t_min_wait_einval(void)
{
	struct lp l;
	int ret;

	memset(&l, 0, sizeof(l));
	if (!loop_ring(&l.r, 0))
		return;
	if (!CHECK_TRUE(l.r.p.features & IORING_FEAT_MIN_TIMEOUT,
			"IORING_FEAT_MIN_TIMEOUT (6.12 has min_wait_usec)"))
		goto out;
	/* without ops: accepted (nothing to wait for with min_complete 0) */
	ret = enter_ext_arg(l.r.fd, 0, -1, 1000);
	CHECK_EQ(ret, 0, "EXT_ARG min_wait_usec 1000 without ops");

	l.s = loop_load(&l.r, l.r.fd, M_STOP, 0);
	if (!l.s || !CHECK_EQ(t_attach(l.s->maps.ops, &l.link), 0, "attach"))
		goto out;
	ret = enter_ext_arg(l.r.fd, 0, -1, 1000);
	CHECK_EQ(ret, -EINVAL, "EXT_ARG min_wait_usec 1000 with ops attached");
	/* EXT_ARG without min_wait is fine: a timeout, the program says STOP */
	ret = enter_ext_arg(l.r.fd, 0, 1000, 0);
	CHECK_EQ(ret, 0, "EXT_ARG with a 1 s timeout and no min_wait, with ops");
	CHECK_GE(l.s->bss->invocations, 1, "program invocations");
out:
	lp_close(&l);
}

static void t_ret7_einval(void)
{
	struct lp l;
	int ret;

	if (!lp_open(&l, M_RET7, 0))
		return;
	ret = enter_getevents(l.r.fd, 0, 0);
	CHECK_EQ(ret, -EINVAL, "loop program returning 7");
	CHECK_EQ(l.s->bss->invocations, 1, "program invocations");
	t_detach(&l.link);
	user_nop(&l.r, "NOP + wait after detach");
	lp_close(&l);
}

static void t_verifier_rejects_bad_writes(void)
{
	struct loop_bad_ls *a;
	struct loop_bad_ctx *b;
	struct uring r;
	int err;

	if (!loop_ring(&r, 0))
		return;
	a = loop_bad_ls__open();
	if (CHECK_PTR(a, "loop_bad_ls__open")) {
		a->struct_ops.ops->ring_fd = r.fd;
		err = loop_bad_ls__load(a);
		CHECK_TRUE(err < 0, "a program writing iou_loop_state bytes 4-7 "
			   "(neither cq_tail nor timeout) must not load");
		T_DEBUG("loop_bad_ls load: %d", err);
		loop_bad_ls__destroy(a);
	}
	b = loop_bad_ctx__open();
	if (CHECK_PTR(b, "loop_bad_ctx__open")) {
		b->struct_ops.ops->ring_fd = r.fd;
		err = loop_bad_ctx__load(b);
		CHECK_TRUE(err < 0, "a program writing ctx->flags must not load");
		T_DEBUG("loop_bad_ctx load: %d", err);
		loop_bad_ctx__destroy(b);
	}
	uring_exit(&r);
}

/*
 * An io_uring_ops map that sets only ring_fd (no loop program): the kernel
 * must refuse it, at load (the map update) or at attach, with -EINVAL.
 * Without the check it attached, and the next GETEVENTS called address 0
 * under uring_lock; so when it attaches here, the test fails and detaches
 * at once, without ever waiting on the ring.
 */
static void t_no_loop_program_refused(void)
{
	struct bpf_link *link = NULL;
	struct loop_noprog *s;
	struct uring r;
	int ret;

	if (!loop_ring(&r, 0))
		return;
	s = loop_noprog__open();
	if (!CHECK_PTR(s, "loop_noprog__open"))
		goto out;
	s->struct_ops.ops->ring_fd = r.fd;
	/* libbpf updates the map at load: a negative errno if refused */
	ret = loop_noprog__load(s);
	if (ret == 0) {
		ret = t_attach(s->maps.ops, &link);
		t_detach(&link);
	}
	CHECK_EQ(ret, -EINVAL, "load/attach of io_uring_ops without a loop program");
	loop_noprog__destroy(s);
out:
	uring_exit(&r);
}

/* ops are per ring: another ring's io_uring_enter does not run them */
static void t_per_ring(void)
{
	struct uring other;
	struct lp l;
	int ret;

	if (!lp_open(&l, M_STOP, 0))
		return;
	if (loop_ring(&other, 0)) {
		ret = enter_getevents(other.fd, 0, 0);
		CHECK_EQ(ret, 0, "enter on the other ring");
		user_nop(&other, "NOP on the other ring");
		CHECK_EQ(l.s->bss->invocations, 0, "invocations after using the other ring");
		ret = enter_getevents(l.r.fd, 0, 0);
		CHECK_EQ(ret, 0, "enter on the ring with ops");
		CHECK_EQ(l.s->bss->invocations, 1, "invocations");
		uring_exit(&other);
	}
	lp_close(&l);
}

int main(int argc, char **argv)
{
	T_INIT(argc, argv);
	REQUIRE_ROOT();
	REQUIRE_BTF_TYPE("io_uring_ops", "the io_uring loop hook");
	REQUIRE_BTF_TYPE("iou_loop_state", "the io_uring loop hook");

	RUN(t_nops_from_bpf);
	RUN(t_enter_submits_then_runs);
	RUN(t_detach_restores);
	RUN(t_attach_twice_ebusy);
	RUN(t_ring_requirements);
	RUN(t_bad_ring_fd);
	RUN(t_close_ring_with_ops);
	RUN(t_signal_eintr);
	RUN(t_detach_during_wait);
	RUN(t_first_use_is_a_wait);
	RUN(t_regions);
	RUN(t_timeout_etime);
	RUN(t_min_wait_einval);
	RUN(t_ret7_einval);
	RUN(t_verifier_rejects_bad_writes);
	RUN(t_no_loop_program_refused);
	RUN(t_per_ring);
	return T_DONE();
}
