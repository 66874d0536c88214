// SPDX-License-Identifier: GPL-2.0
/*
 * test_loop_hook - what both loop hooks do alike: v3's io_uring_ops on our
 * kernel and mainline's io_uring_bpf_ops on a stock 7.1+ kernel. The
 * program (loop_hook.bpf.c, built with progs/iouring_bpf.h) is attached
 * through libiouring-bpf, which picks the kernel's binding. Subtests:
 * binding (the library's is the kernel's), nops_from_bpf (N NOPs in one
 * io_uring_enter(), exact counts, 0 returned), ret7_einval,
 * signal_eintr, attach_twice_ebusy, ring_requirements (no DEFER_TASKRUN:
 * -EOPNOTSUPP), detach_restores, close_ring_with_ops.
 * The v3-only behaviour (timeouts, the kernel submitting the caller's SQEs)
 * is test_loop's and test_loop_wait's.
 * kernels: ours stock
 */
#include <signal.h>
#include <sys/time.h>
#include "engine.h"

#include "check.h"
#include "ring.h"

#define OBJ	"build/tests/kernel/loop_hook.bpf.o"

enum { H_NOPS, H_WAIT, H_RET7, H_STOP };

#define LOOP_FLAGS	(IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | \
			 IORING_SETUP_NO_SQARRAY)

static struct iouring_bpf_error err;

/* open OBJ in `mode`, for ring r (NULL: load only); NULL on failure */
static struct iouring_bpf *hook_open(struct ring *r, unsigned int mode,
				     unsigned int nr)
{
	struct iouring_bpf *h = iouring_bpf_open(OBJ, &err);

	if (!CHECK_PTR(h, "iouring_bpf_open(" OBJ ")")) {
		T_INFO("%s", err.msg);
		return NULL;
	}
	if (!CHECK_EQ(iouring_bpf_set_var(h, "mode", mode, &err), 0, "set mode") ||
	    (nr && !CHECK_EQ(iouring_bpf_set_var(h, "nr", nr, &err), 0, "set nr")) ||
	    (r && !CHECK_EQ(iouring_bpf_set_ring(h, r->fd, &r->p, &err), 0,
			    "set ring"))) {
		T_INFO("%s", err.msg);
		iouring_bpf_close(h);
		return NULL;
	}
	return h;
}

/* open, load, attach to r; NULL on failure */
static struct iouring_bpf *hook_attach(struct ring *r, unsigned int mode,
				       unsigned int nr)
{
	struct iouring_bpf *h = hook_open(r, mode, nr);

	if (!h)
		return NULL;
	if (!CHECK_EQ(iouring_bpf_load(h, &err), 0, "load") ||
	    !CHECK_EQ(iouring_bpf_attach_link(h, &err), 0, "attach")) {
		T_INFO("%s %s", err.msg, err.detail);
		iouring_bpf_close(h);
		return NULL;
	}
	return h;
}

static long long var(struct iouring_bpf *h, const char *name)
{
	long long v = -1;

	iouring_bpf_var_int(h, name, &v);
	return v;
}

static bool loop_ring(struct ring *r, unsigned int flags)
{
	return CHECK_EQ(ring_init(r, 8, 16, flags), 0, "io_uring_setup");
}

static void t_binding(void)
{
	struct iouring_bpf *h;
	struct ring r;

	if (!loop_ring(&r, LOOP_FLAGS))
		return;
	h = hook_attach(&r, H_STOP, 0);
	if (h) {
		CHECK_EQ(iouring_bpf_loop_binding(h),
			 iouring_bpf_kernel_loop_api(), "binding");
		T_INFO("binding %s",
		       iouring_bpf_loop_api_key(iouring_bpf_loop_binding(h)));
		CHECK_EQ(ring_wait(&r, 0, -1), 0, "enter");
		CHECK_EQ(var(h, "calls"), 1, "program calls");
	}
	iouring_bpf_close(h);
	ring_exit(&r);
}

static void t_nops_from_bpf(void)
{
	struct iouring_bpf *h;
	struct ring r;

	if (!loop_ring(&r, LOOP_FLAGS))
		return;
	h = hook_attach(&r, H_NOPS, 100);
	if (h) {
		CHECK_EQ(ring_wait(&r, 0, -1), 0, "io_uring_enter");
		CHECK_EQ(var(h, "completed"), 100, "completed");
		CHECK_EQ(var(h, "issued"), 100, "issued");
		CHECK_EQ(var(h, "cqe_errors"), 0, "CQEs with res != 0");
		CHECK_EQ(var(h, "submit_errors"), 0, "submit errors");
		CHECK_EQ(*r.sq_head, 100, "SQ head");
		CHECK_EQ(ring_cq_ready(&r), 0, "CQEs left for user space");
	}
	iouring_bpf_close(h);
	ring_exit(&r);
}

static void t_ret7_einval(void)
{
	struct iouring_bpf *h;
	struct ring r;

	if (!loop_ring(&r, LOOP_FLAGS))
		return;
	h = hook_attach(&r, H_RET7, 0);
	if (h) {
		CHECK_EQ(ring_wait(&r, 0, -1), -EINVAL, "io_uring_enter");
		CHECK_EQ(var(h, "calls"), 1, "program calls");
	}
	iouring_bpf_close(h);
	ring_exit(&r);
}

static void on_alarm(int sig)
{
	(void)sig;
}

static void t_signal_eintr(void)
{
	struct itimerval it = { .it_value = { .tv_usec = 200000 } };
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	struct iouring_bpf *h;
	struct ring r;
	double t0;
	int ret;

	if (!loop_ring(&r, LOOP_FLAGS))
		return;
	h = hook_attach(&r, H_WAIT, 0);
	if (h) {
		sigaction(SIGALRM, &sa, NULL);
		setitimer(ITIMER_REAL, &it, NULL);
		t0 = t_now_ms();
		ret = ring_wait(&r, 0, -1);
		CHECK_EQ(ret, -EINTR, "io_uring_enter with a signal pending");
		CHECK_GE(t_now_ms() - t0, 150, "ms before it returned");
		CHECK_GE(var(h, "calls"), 1, "program calls");
	}
	iouring_bpf_close(h);
	ring_exit(&r);
}

static void t_attach_twice_ebusy(void)
{
	struct iouring_bpf *h, *h2 = NULL;
	struct ring r;

	if (!loop_ring(&r, LOOP_FLAGS))
		return;
	h = hook_attach(&r, H_STOP, 0);
	if (h) {
		h2 = hook_open(&r, H_STOP, 0);
		if (h2 && CHECK_EQ(iouring_bpf_load(h2, &err), 0, "load the second"))
			CHECK_EQ(iouring_bpf_attach_link(h2, &err), -EBUSY,
				 "attach a second program to the ring");
	}
	iouring_bpf_close(h2);
	iouring_bpf_close(h);
	ring_exit(&r);
}

static void t_ring_requirements(void)
{
	static const unsigned int flags[] = {
		0, IORING_SETUP_SINGLE_ISSUER,
	};
	struct iouring_bpf *h;
	struct ring r;
	size_t i;

	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		if (!loop_ring(&r, flags[i]))
			return;
		h = hook_open(&r, H_STOP, 0);
		if (h && CHECK_EQ(iouring_bpf_load(h, &err), 0, "load"))
			CHECK_EQ(iouring_bpf_attach_link(h, &err), -EOPNOTSUPP,
				 flags[i] ? "attach to a SINGLE_ISSUER ring" :
				 "attach to a plain ring");
		iouring_bpf_close(h);
		ring_exit(&r);
	}
}

static void t_detach_restores(void)
{
	struct io_uring_cqe cqe;
	struct iouring_bpf *h;
	struct ring r;

	if (!loop_ring(&r, LOOP_FLAGS))
		return;
	h = hook_attach(&r, H_STOP, 0);
	if (!h) {
		ring_exit(&r);
		return;
	}
	CHECK_EQ(ring_wait(&r, 0, -1), 0, "enter with the program");
	iouring_bpf_detach_link(h);
	ring_prep_nop(ring_get_sqe(&r), 42);
	CHECK_EQ(ring_submit_and_wait(&r, 1), 1, "submit a NOP after detach");
	if (CHECK_EQ(ring_wait_cqe(&r, &cqe), 0, "its CQE")) {
		CHECK_EQ(cqe.user_data, 42, "user_data");
		CHECK_EQ(cqe.res, 0, "res");
	}
	CHECK_EQ(var(h, "calls"), 1, "program calls (none after detach)");
	iouring_bpf_close(h);
	ring_exit(&r);
}

static void t_close_ring_with_ops(void)
{
	struct iouring_bpf *h;
	struct ring r, r2;

	if (!loop_ring(&r, LOOP_FLAGS))
		return;
	h = hook_attach(&r, H_STOP, 0);
	ring_exit(&r);			/* the ring goes while attached */
	iouring_bpf_close(h);		/* then the link */
	if (!loop_ring(&r2, LOOP_FLAGS))
		return;
	h = hook_attach(&r2, H_NOPS, 5);
	if (h) {
		CHECK_EQ(ring_wait(&r2, 0, -1), 0, "enter on a new ring");
		CHECK_EQ(var(h, "completed"), 5, "completed");
	}
	iouring_bpf_close(h);
	ring_exit(&r2);
}

int main(int argc, char **argv)
{
	T_INIT(argc, argv);
	REQUIRE_ROOT();
	if (iouring_bpf_kernel_loop_api() == IOURING_BPF_LOOP_NONE)
		SKIP("the kernel has no io_uring loop hook (neither io_uring_ops nor io_uring_bpf_ops)");
	if (access(OBJ, R_OK))
		SKIP("no %s: make -C tests (run from the repository root)", OBJ);

	RUN(t_binding);
	RUN(t_nops_from_bpf);
	RUN(t_ret7_einval);
	RUN(t_signal_eintr);
	RUN(t_attach_twice_ebusy);
	RUN(t_ring_requirements);
	RUN(t_detach_restores);
	RUN(t_close_ring_with_ops);
	return T_DONE();
}
