// SPDX-License-Identifier: GPL-2.0
/*
 * test_loop_wait - how io_uring_enter()'s CQ wait runs a loop program
 * (patches 0021, 0026-0029): the first call comes before the first sleep, a
 * completed IORING_OP_TIMEOUT doesn't turn the sleep into a spin, the loop
 * timeout holds when the program keeps asking to be called again, and an
 * io-wq worker forked from inside the (sleepable) program can migrate.
 *
 * Program: loop_wait.bpf.c (modes W_*).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "t_helpers.h"
#include "loop_wait.skel.h"

enum { W_FIRST_NOP, W_NEXT_CQE, W_SPIN, W_ASYNC_NOPS, W_KEEP };

struct lw {
	struct uring r;
	struct loop_wait *s;
	struct bpf_link *link;
};

/* a loop ring with loop_wait.bpf.c attached in `mode` */
static bool lw_open(struct lw *l, unsigned int mode, unsigned int wait_ms)
{
	memset(l, 0, sizeof(*l));
	l->r.fd = -1;
	if (!CHECK_EQ(uring_init(&l->r, 8, T_LOOP_RING_FLAGS, 8), 0,
		      "io_uring_setup(SINGLE_ISSUER|DEFER_TASKRUN|NO_SQARRAY)"))
		return false;
	l->s = loop_wait__open();
	if (!CHECK_PTR(l->s, "loop_wait__open"))
		goto fail;
	T_SET_RING_RODATA(l->s->rodata, &l->r);
	l->s->rodata->mode = mode;
	if (wait_ms)
		l->s->rodata->wait_ms = wait_ms;
	l->s->struct_ops.ops->ring_fd = l->r.fd;
	if (!CHECK_EQ(loop_wait__load(l->s), 0, "loop_wait__load") ||
	    !CHECK_EQ(t_attach(l->s->maps.ops, &l->link), 0,
		      "attach io_uring_ops to the ring"))
		goto fail;
	return true;
fail:
	loop_wait__destroy(l->s);
	l->s = NULL;
	uring_exit(&l->r);
	return false;
}

static void lw_close(struct lw *l)
{
	t_detach(&l->link);
	loop_wait__destroy(l->s);
	uring_exit(&l->r);
}

/* io_uring_enter(fd, to_submit, min, GETEVENTS [| EXT_ARG timeout_ms]) */
static int lw_enter(struct lw *l, unsigned int to_submit, unsigned int min,
		    int timeout_ms, double *ms)
{
	struct __kernel_timespec ts;
	struct t_getevents_arg arg;
	double t0 = t_now_ms();
	int ret;

	if (timeout_ms < 0) {
		ret = t_io_uring_enter(l->r.fd, to_submit, min,
				       IORING_ENTER_GETEVENTS, NULL, 0);
	} else {
		memset(&arg, 0, sizeof(arg));
		t_ms_to_ts(&ts, timeout_ms);
		arg.ts = (uint64_t)(uintptr_t)&ts;
		ret = t_io_uring_enter(l->r.fd, to_submit, min,
				       IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG,
				       &arg, sizeof(arg));
	}
	*ms = t_now_ms() - t0;
	return ret;
}

/*
 * min_complete 1 with nothing in flight: only the program can make the
 * CQE come, so it must run before the task sleeps (0021). Without that
 * fix the task slept until the 2 s timeout and the program never ran.
 */
static void t_program_runs_before_first_sleep(void)
{
	struct lw l;
	double ms;
	int ret;

	if (!lw_open(&l, W_FIRST_NOP, 0))
		return;
	ret = lw_enter(&l, 0, 1, 2000, &ms);
	CHECK_EQ(ret, 0, "io_uring_enter(fd, 0, 1, GETEVENTS|EXT_ARG 2 s)");
	CHECK_GE(l.s->bss->invocations, 1, "program calls");
	CHECK_EQ(l.s->bss->submitted, 1, "NOPs the program submitted");
	CHECK_EQ(l.s->bss->completed, 1, "NOP CQEs the program consumed");
	CHECK_EQ(l.s->bss->cqe_errors, 0, "CQEs with res != 0");
	CHECK_LT(ms, 1500, "ms until io_uring_enter returned (timeout 2000)");
	T_DEBUG("%.1f ms, %u calls", ms, l.s->bss->invocations);
	lw_close(&l);
}

/*
 * The program always waits for one CQE more, until its 300 ms timeout. An
 * IORING_OP_TIMEOUT of 20 ms completes during the wait: the program sees
 * that CQE and waits on. The task must sleep again, not spin calling the
 * program until the timeout (0026: without it, io_should_wake() kept
 * seeing the completed timeout and the sleep never slept).
 */
static void t_completed_timeout_does_not_spin(void)
{
	struct __kernel_timespec ts;
	struct io_uring_sqe *sqe;
	struct lw l;
	double ms;
	int ret;

	if (!lw_open(&l, W_NEXT_CQE, 300))
		return;
	t_ms_to_ts(&ts, 20);
	sqe = uring_get_sqe(&l.r);
	if (!CHECK_PTR(sqe, "SQE"))
		goto out;
	sqe_timeout(sqe, &ts, 0, 0, 0x20);
	uring_flush(&l.r);
	ret = lw_enter(&l, 1, 0, -1, &ms);
	/* the timeout's CQE is in the CQ, so the wait's -ETIME becomes 1 */
	CHECK_EQ(ret, 1, "io_uring_enter(fd, 1 IORING_OP_TIMEOUT, 0, GETEVENTS)");
	CHECK_GE(ms, 290, "ms until io_uring_enter returned (program timeout 300)");
	CHECK_LT(ms, 5000, "ms until io_uring_enter returned");
	CHECK_LE(l.s->bss->invocations, 10,
		 "program calls (one per wake-up, not a spin)");
	T_DEBUG("%.1f ms, %u calls", ms, l.s->bss->invocations);
out:
	lw_close(&l);
}

/*
 * The program keeps asking to be called again at once (its target is the
 * CQ tail as it is) with ls->timeout = now + 100 ms. The wait never sleeps,
 * so the timeout must be checked between calls (0027): -ETIME after
 * 100 ms. Without that fix only a signal ended the wait.
 */
static void t_spin_honours_timeout(void)
{
	struct lw l;
	double ms;
	int ret;

	if (!lw_open(&l, W_SPIN, 100))
		return;
	ret = lw_enter(&l, 0, 0, -1, &ms);
	CHECK_EQ(ret, -ETIME, "io_uring_enter while the program spins, ls->timeout 100 ms");
	CHECK_GE(ms, 99, "ms until io_uring_enter returned");
	CHECK_LT(ms, 5000, "ms until io_uring_enter returned");
	CHECK_GE(l.s->bss->invocations, 2, "program calls");
	T_DEBUG("%.1f ms, %u calls", ms, l.s->bss->invocations);
	lw_close(&l);
}

/*
 * The wait starts with ls->cq_tail = CQ head + min_complete and
 * ls->timeout = the EXT_ARG timeout; a program that keeps both waits for
 * a CQE that never comes and gets -ETIME after the timeout.
 */
static void t_ext_arg_timeout(void)
{
	struct lw l;
	double ms;
	int ret;

	if (!lw_open(&l, W_KEEP, 0))
		return;
	ret = lw_enter(&l, 0, 1, 100, &ms);
	CHECK_EQ(ret, -ETIME, "io_uring_enter(fd, 0, 1, GETEVENTS|EXT_ARG 100 ms), nothing in flight");
	CHECK_GE(ms, 99, "ms until io_uring_enter returned");
	CHECK_LT(ms, 5000, "ms until io_uring_enter returned");
	CHECK_GE(l.s->bss->invocations, 1, "program calls");
	T_DEBUG("-ETIME after %.1f ms, %u calls", ms, l.s->bss->invocations);
	lw_close(&l);
}

/*
 * The program queues IOSQE_ASYNC NOPs, so io-wq forks a worker while the
 * sleepable program runs with migration disabled. The worker must not
 * inherit that (0029): a task iterator reads each worker's
 * migration_disabled. Without the fix it is 1 for good, and the debug
 * kernel warns in set_task_cpu() when the worker is moved.
 */
static void t_io_wq_worker_can_migrate(void)
{
	struct bpf_link *it = NULL;
	char buf[64];
	struct lw l;
	double ms;
	int ret, fd;

	if (!lw_open(&l, W_ASYNC_NOPS, 0))
		return;
	l.s->data->target = 4;
	l.s->bss->tgid = getpid();
	ret = lw_enter(&l, 0, 0, -1, &ms);
	CHECK_EQ(ret, 0, "io_uring_enter(fd, 0, 0, GETEVENTS)");
	CHECK_EQ(l.s->bss->submitted, 4, "IOSQE_ASYNC NOPs the program submitted");
	CHECK_EQ(l.s->bss->completed, 4, "their CQEs, consumed by the program");
	CHECK_EQ(l.s->bss->cqe_errors, 0, "CQEs with res != 0");

	it = bpf_program__attach_iter(l.s->progs.worker_state, NULL);
	if (!CHECK_PTR(it, "attach the task iterator"))
		goto out;
	fd = bpf_iter_create(bpf_link__fd(it));
	if (!CHECK_GE(fd, 0, "bpf_iter_create"))
		goto out;
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
	CHECK_GE(l.s->bss->workers, 1, "io-wq workers of this process");
	CHECK_EQ(l.s->bss->workers_migration_disabled, 0,
		 "io-wq workers with migration disabled");
	T_DEBUG("%u worker(s), %u migration-disabled", l.s->bss->workers,
		l.s->bss->workers_migration_disabled);
out:
	bpf_link__destroy(it);
	lw_close(&l);
}

int main(int argc, char **argv)
{
	T_INIT(argc, argv);
	REQUIRE_ROOT();
	REQUIRE_BTF_TYPE("io_uring_ops", "the io_uring loop hook");
	REQUIRE_BTF_TYPE("iou_loop_state", "the io_uring loop hook");

	RUN(t_program_runs_before_first_sleep);
	RUN(t_completed_timeout_does_not_spin);
	RUN(t_spin_honours_timeout);
	RUN(t_ext_arg_timeout);
	RUN(t_io_wq_worker_can_migrate);
	return T_DONE();
}
