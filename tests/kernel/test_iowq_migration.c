// SPDX-License-Identifier: GPL-2.0
/*
 * test_iowq_migration - an io-wq worker forked while a loop program runs
 * must not inherit the program's disabled migration.
 *
 * kernels: ours stock
 *
 * A sleepable loop program runs between migrate_disable() and
 * migrate_enable() (the struct_ops trampoline). When it submits a request
 * with IOSQE_ASYNC and its task has no io-wq worker yet, io-wq forks the
 * first one right there (create_io_thread() -> copy_process()). A kernel
 * that copies the parent's migration state into the child leaves the
 * worker with migration_disabled = 1 for good, pinned to one CPU after
 * its first sleep; the scheduler warns in set_task_cpu() when it moves it
 * before that sleep. Our kernel resets that state for every new task
 * (kernel/patches, "fork: don't inherit the parent's migrate_disable()
 * state"); the fix for mainline is kernel/mainline/patches.
 *
 * Each round runs in a new process, so that its first io-wq worker is
 * forked inside the program (program: iowq_migration.bpf.c):
 *   control_no_program  3 rounds of 4 IOSQE_ASYNC NOPs that the
 *                 application submits, no program attached: their
 *                 workers must migrate on every kernel.
 *   worker_state  (deterministic) 3 rounds of 4 IOSQE_ASYNC NOPs; a task
 *                 iterator then reads every io-wq worker's
 *                 migration_disabled and whether its cpus_ptr is pinned
 *                 away from its cpus_mask. Each must be 0.
 *   warning_path  (for the record, racy) 12 rounds (as many as fit in
 *                 60 s on a slow kernel) of one NOP whose
 *                 program stays 10 ms in the program after submitting
 *                 (the new worker waits on this CPU's run queue while the
 *                 scheduler tick comes at least twice), so that an idle
 *                 CPU may pull it before it first runs: the set_task_cpu()
 *                 WARNING where the bug exists. The test prints whether the kernel log has it;
 *                 the console scan of the VM run reports it.
 *
 * Exit: 0 the workers could migrate; 1 they could not, or the workload
 * failed; 78 (expected failure, on Debian's stock 7.2.13 only, where the
 * bug is known: tests/README.md) they could not; 77 no loop hook.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include "engine.h"

#include "check.h"
#include "ring.h"
#include "t_stock.h"

#define OBJ		"build/tests/kernel/iowq_migration.bpf.o"
#define XFAIL_RC	78
#define BUG_NAME	"io-wq worker forked in a sleepable loop program " \
			"inherits migration_disabled (mainline 7.1+, fixed by " \
			"kernel/mainline/patches)"

#define LOOP_FLAGS	(IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | \
			 IORING_SETUP_NO_SQARRAY)

/* what one round (one child process) saw */
struct round {
	int ok;			/* the workload ran as it should */
	int enter_ret;
	unsigned int completed, cqe_errors, submit_errors;
	unsigned int prog_migration_disabled;
	unsigned int workers, migration_disabled, pinned;
	char why[1024];
};

static unsigned int total_workers, total_disabled, total_pinned;

static long long var(struct iouring_bpf *h, const char *name)
{
	long long v = -1;

	iouring_bpf_var_int(h, name, &v);
	return v;
}

/* read the task iterator once: it fills the workers_* counters */
static int run_iter(struct iouring_bpf *h, char *why, size_t sz)
{
	struct bpf_program *prog;
	struct bpf_link *link;
	char buf[64];
	int fd;

	prog = bpf_object__find_program_by_name(iouring_bpf_object(h),
						"worker_state");
	if (!prog) {
		snprintf(why, sz, "no worker_state program in " OBJ);
		return -1;
	}
	link = bpf_program__attach_iter(prog, NULL);
	if (!link) {
		snprintf(why, sz, "attach the task iterator: %s", strerror(errno));
		return -1;
	}
	fd = bpf_iter_create(bpf_link__fd(link));
	if (fd < 0) {
		snprintf(why, sz, "bpf_iter_create: %s", strerror(errno));
		bpf_link__destroy(link);
		return -1;
	}
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
	bpf_link__destroy(link);
	return 0;
}

/* the control: the application submits the NOPs, no program attached */
static void submit_from_app(struct round *o, struct ring *r, unsigned int nr)
{
	struct io_uring_cqe cqe;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		struct io_uring_sqe *sqe = ring_get_sqe(r);

		ring_prep_nop(sqe, i + 1);
		sqe->flags |= IOSQE_ASYNC;
	}
	o->enter_ret = ring_submit_and_wait(r, nr);
	if (o->enter_ret == (int)nr)
		o->enter_ret = 0;
	while (ring_cq_ready(r) && ring_wait_cqe(r, &cqe) == 0) {
		o->completed++;
		if (cqe.res)
			o->cqe_errors++;
	}
}

/*
 * one round, in this (new) process: ring, program, enter, iterator;
 * with attach false the program is loaded (for its iterator) but not
 * attached, and the application submits the NOPs itself
 */
static void child_round(struct round *o, unsigned int nr, unsigned int hold_us,
			bool attach)
{
	struct iouring_bpf_error err;
	struct iouring_bpf *h;
	struct ring r;

	if (ring_init(&r, 8, 16, LOOP_FLAGS)) {
		snprintf(o->why, sizeof(o->why), "io_uring_setup: %s", strerror(errno));
		return;
	}
	h = iouring_bpf_open(OBJ, &err);
	if (!h || iouring_bpf_set_var(h, "nr", nr, &err) ||
	    iouring_bpf_set_var(h, "hold_us", hold_us, &err) ||
	    iouring_bpf_set_var(h, "tgid", getpid(), &err) ||
	    iouring_bpf_set_ring(h, r.fd, &r.p, &err) ||
	    iouring_bpf_load(h, &err) ||
	    (attach && iouring_bpf_attach_link(h, &err))) {
		snprintf(o->why, sizeof(o->why), "load and attach " OBJ ": %.400s %.400s",
			 err.msg, err.detail);
		iouring_bpf_close(h);
		ring_exit(&r);
		return;
	}
	if (attach) {
		o->enter_ret = ring_wait(&r, 0, -1);
		o->completed = var(h, "completed");
		o->cqe_errors = var(h, "cqe_errors");
		o->submit_errors = var(h, "submit_errors");
		o->prog_migration_disabled = var(h, "prog_migration_disabled");
	} else {
		submit_from_app(o, &r, nr);
	}
	if (run_iter(h, o->why, sizeof(o->why)) == 0) {
		o->workers = var(h, "workers");
		o->migration_disabled = var(h, "workers_migration_disabled");
		o->pinned = var(h, "workers_pinned");
		o->ok = 1;
	}
	iouring_bpf_close(h);
	ring_exit(&r);
}

/* run child_round() in a new process; false if it did not report */
static bool round_in_child(struct round *o, unsigned int nr, unsigned int hold_us,
			   bool attach)
{
	int p[2], status;
	ssize_t n;
	pid_t pid;

	memset(o, 0, sizeof(*o));
	if (!CHECK_EQ(pipe(p), 0, "pipe"))
		return false;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		child_round(o, nr, hold_us, attach);
		n = write(p[1], o, sizeof(*o));
		_exit(n == sizeof(*o) ? 0 : 1);
	}
	close(p[1]);
	if (!CHECK_GE(pid, 0, "fork")) {
		close(p[0]);
		return false;
	}
	n = read(p[0], o, sizeof(*o));
	close(p[0]);
	waitpid(pid, &status, 0);
	if (!CHECK_EQ(n, (ssize_t)sizeof(*o), "the round's report from its process"))
		return false;
	if (!o->ok) {
		FAIL("%s", o->why);
		return false;
	}
	return CHECK_EQ(o->enter_ret, 0, attach ? "io_uring_enter(GETEVENTS) with the program" :
			"io_uring_enter(nr, nr, GETEVENTS) without a program") &&
	       CHECK_EQ(o->submit_errors, 0, "submissions short of nr") &&
	       CHECK_EQ(o->completed, nr, "CQEs the program reaped") &&
	       CHECK_EQ(o->cqe_errors, 0, "CQEs with res != 0") &&
	       CHECK_GE(o->workers, 1, "io-wq workers of the round's process");
}

static void t_worker_state(void)
{
	struct round o;
	int i;

	for (i = 0; i < 3; i++) {
		if (!round_in_child(&o, 4, 0, true))
			return;
		T_INFO("round %d: %u worker(s), %u migration-disabled, %u pinned (program: %u)",
		       i, o.workers, o.migration_disabled, o.pinned,
		       o.prog_migration_disabled);
		total_workers += o.workers;
		total_disabled += o.migration_disabled;
		total_pinned += o.pinned;
	}
}

/* does the kernel log, from offset fd on, hold the set_task_cpu WARNING? */
static bool kmsg_has_warning(int fd)
{
	char rec[1024];
	bool seen = false;
	ssize_t n;

	if (fd < 0)
		return false;
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;		/* overwritten records */
		if (n <= 0)
			break;
		rec[n] = 0;
		if (strstr(rec, "WARNING:") && strstr(rec, "set_task_cpu"))
			seen = true;
	}
	return seen;
}

static void t_warning_path(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	unsigned int workers = 0, disabled = 0, pinned = 0;
	double t0 = t_now_ms();
	struct round o;
	int i;

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	/* 12 rounds, or fewer on a slow (debug) kernel: at most 60 s */
	for (i = 0; i < 12 && t_now_ms() - t0 < 60000; i++) {
		if (!round_in_child(&o, 1, 10000, true))
			break;
		workers += o.workers;
		disabled += o.migration_disabled;
		pinned += o.pinned;
	}
	T_INFO("%d rounds: %u worker(s), %u migration-disabled, %u pinned; WARNING in dmesg: %s",
	       i, workers, disabled, pinned, fd < 0 ? "unknown (no /dev/kmsg)" :
	       kmsg_has_warning(fd) ? "yes" : "no");
	total_workers += workers;
	total_disabled += disabled;
	total_pinned += pinned;
	if (fd >= 0)
		close(fd);
}

/* the same NOPs from the application: its workers must migrate, always */
static void t_control_no_program(void)
{
	struct round o;
	int i;

	for (i = 0; i < 3; i++) {
		if (!round_in_child(&o, 4, 0, false))
			return;
		T_INFO("round %d (no program): %u worker(s), %u migration-disabled, %u pinned",
		       i, o.workers, o.migration_disabled, o.pinned);
		CHECK_EQ(o.migration_disabled, 0, "workers with migration_disabled");
		CHECK_EQ(o.pinned, 0, "workers pinned to one CPU");
	}
}

int main(int argc, char **argv)
{
	int rc;

	T_INIT(argc, argv);
	REQUIRE_ROOT();
	if (iouring_bpf_kernel_loop_api() == IOURING_BPF_LOOP_NONE)
		SKIP("the kernel has no io_uring loop hook (io_uring_ops, io_uring_bpf_ops)");
	if (access(OBJ, R_OK))
		SKIP("no %s: make -C tests (run from the repository root)", OBJ);

	RUN(t_control_no_program);
	RUN(t_worker_state);
	RUN(t_warning_path);
	rc = T_DONE();
	if (T.list || rc)
		return rc;
	if (!total_disabled && !total_pinned) {
		printf("no io-wq worker forked in the program kept migration disabled (%u)\n",
		       total_workers);
		return 0;
	}
	printf("bug: %u of %u io-wq worker(s) forked in the program kept migration disabled\n",
	       total_disabled, total_workers);
	printf("bug: %u of them pinned to one CPU\n", total_pinned);
	if (t_on_stock_kernel()) {
		printf("expected on Debian's stock %s: %s\n", T_STOCK_RELEASE, BUG_NAME);
		return XFAIL_RC;
	}
	return 1;
}
