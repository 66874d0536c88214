// SPDX-License-Identifier: GPL-2.0
/*
 * test_iowq_aff_hang - a loop program that makes io-wq fork its first
 * worker, on a ring whose io-wq affinity (IORING_REGISTER_IOWQ_AFF, no
 * privilege needed) excludes the submitter's CPU, must return.
 *
 * kernels: ours stock
 *
 * The worst consequence of the fork bug that test_iowq_migration shows.
 * A sleepable loop program runs between migrate_disable() and
 * migrate_enable(); a request it submits with IOSQE_ASYNC makes io-wq fork
 * the task's first worker right there, and io-wq then applies its CPU mask
 * to the new task before waking it:
 *
 *   create_io_worker() -> io_init_new_worker()
 *     set_cpus_allowed_ptr(tsk, wq->cpu_mask); wake_up_new_task(tsk);
 *
 * On a kernel whose fork copies the parent's migration_disabled, the new
 * task is migration-disabled and sits on the submitter's CPU. A mask
 * without that CPU cannot take effect until the task runs its
 * migrate_enable(), so affine_move_task() waits for it, uninterruptibly;
 * but the task is woken only after set_cpus_allowed_ptr() returns. The
 * submitter hangs in D state for good (SIGKILL does nothing) inside the
 * program, holding its ring's uring_lock and an RCU Tasks Trace read
 * section. Our kernel (kernel/patches, "fork: don't inherit the parent's
 * migrate_disable() state") and mainline with kernel/mainline/patches
 * start the worker with migration enabled: the mask applies at once.
 *
 * The round runs in a child process in its own session, with no file
 * descriptor of the test's but its report pipe: it pins itself to CPU 0,
 * sets up a SINGLE_ISSUER | DEFER_TASKRUN ring, registers an io-wq mask
 * of CPU 1 only, attaches iowq_migration.bpf.c's loop program (one
 * IOSQE_ASYNC NOP) and waits. Its report must come within 30 s, with the
 * NOP's CQE and the new worker on CPU 1 with CPU 1 as its mask (the mask
 * was in force, so this was the case the test is about). If it does not
 * come, the test reads the submitter's state and kernel stack, the
 * new worker's CPU and affinity, sends SIGKILL and checks that the
 * submitter stays in D state. Then it undoes the hang from outside, so
 * that the rest of the VM's run goes on undisturbed: the worker is no
 * PF_NO_SETAFFINITY task, and widening its affinity to a mask that holds
 * the CPU it sits on makes affine_move_task() complete the waiter. The
 * submitter then dies of the pending SIGKILL and is reaped. If even that
 * fails, the child is left behind (its own session, no terminal, no pipe
 * of the runner's): it cannot block the suite, and kernel/vm-init powers
 * off with reboot(2), which does not wait for it.
 *
 * IOURING_BPF_IOWQ_HANG_LEAVE=1 skips that rescue (and the SIGKILL): the
 * hung submitter stays, to watch what else it stalls (by hand, with
 * kernel/vm-run; the hung-task detector reports it after 120 to 240 s).
 *
 * Exit: 0 the loop program returned with its CQE; 1 a failure, or the
 * hang on a kernel that should not have it; 78 (expected failure, on
 * Debian's stock 7.2.13 only: tests/README.md) the hang, seen in D state
 * in affine_move_task(); 77 fewer than two CPUs, or no loop hook.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include "engine.h"

#include "check.h"
#include "ring.h"
#include "t_stock.h"

#define OBJ		"build/tests/kernel/iowq_migration.bpf.o"
#define XFAIL_RC	78
#define BUG_NAME	"a loop program hangs in D state in set_cpus_allowed_ptr() " \
			"of the io-wq worker it forked, with IORING_REGISTER_IOWQ_AFF " \
			"excluding its CPU (the worker inherited migration_disabled; " \
			"mainline 7.1+, fixed by kernel/mainline/patches)"

#define LOOP_FLAGS	(IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | \
			 IORING_SETUP_NO_SQARRAY)
#define SUBMIT_CPU	0	/* the submitter's CPU */
#define IOWQ_CPU	1	/* the io-wq mask: this CPU only */
#define IOWQ_CPU_LIST	"1"	/* the same, as /proc's Cpus_allowed_list */
#define HANG_MS		30000	/* the program's round must end by then */
#define NR_NOPS		1

/* what the child reports, once it has returned from the program */
struct report {
	int ok;			/* the round ran as it should */
	int enter_ret;
	unsigned int completed, cqe_errors, submit_errors;
	unsigned int prog_migration_disabled;	/* the program's own count */
	int worker_cpu;			/* where the io-wq worker ran */
	char worker_cpus[64];		/* its Cpus_allowed_list */
	char why[512];
};

/* what the test saw of a child that did not report */
struct hang {
	char state;			/* the submitter's, from /proc/PID/stat */
	char stack[2048];		/* /proc/PID/stack */
	int worker;			/* the io-wq worker's tid, or 0 */
	char worker_comm[32];
	unsigned long long worker_run_ns;	/* its time on a CPU (schedstat) */
	int worker_cpu;			/* its task_cpu() (stat field 39) */
	char worker_cpus[64];		/* its Cpus_allowed_list */
	char after_kill;		/* the submitter's state 2 s after SIGKILL */
	bool rescued;			/* reaped after the worker's affinity widened */
};

static bool bug_seen;

static long long var(struct iouring_bpf *h, const char *name)
{
	long long v = -1;

	iouring_bpf_var_int(h, name, &v);
	return v;
}

static void child_detach_fds(int keep)
{
	int fd = open("/dev/null", O_RDWR);

	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	for (fd = 3; fd < 1024; fd++)
		if (fd != keep)
			close(fd);
	setsid();
}

static void find_worker(pid_t pid, struct hang *hg);

/* the round, in the child: pin, ring, io-wq mask, program, enter */
static void child_round(int wfd)
{
	struct iouring_bpf_error err;
	struct report o = { 0 };
	struct hang hg = { 0 };
	struct iouring_bpf *h;
	cpu_set_t set;
	struct ring r;
	char go = 'A';

	CPU_ZERO(&set);
	CPU_SET(SUBMIT_CPU, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		snprintf(o.why, sizeof(o.why), "pin to CPU %d: %s", SUBMIT_CPU,
			 strerror(errno));
		goto out;
	}
	if (ring_init(&r, 8, 16, LOOP_FLAGS)) {
		snprintf(o.why, sizeof(o.why), "io_uring_setup: %s", strerror(errno));
		goto out;
	}
	CPU_ZERO(&set);
	CPU_SET(IOWQ_CPU, &set);
	if (syscall(__NR_io_uring_register, r.fd, IORING_REGISTER_IOWQ_AFF,
		    &set, sizeof(set))) {
		snprintf(o.why, sizeof(o.why),
			 "IORING_REGISTER_IOWQ_AFF (CPU %d): %s", IOWQ_CPU,
			 strerror(errno));
		ring_exit(&r);
		goto out;
	}
	h = iouring_bpf_open(OBJ, &err);
	if (!h || iouring_bpf_set_var(h, "nr", NR_NOPS, &err) ||
	    iouring_bpf_set_var(h, "hold_us", 0, &err) ||
	    iouring_bpf_set_var(h, "tgid", getpid(), &err) ||
	    iouring_bpf_set_ring(h, r.fd, &r.p, &err) ||
	    iouring_bpf_load(h, &err) || iouring_bpf_attach_link(h, &err)) {
		snprintf(o.why, sizeof(o.why), "load and attach " OBJ ": %.200s %.200s",
			 err.msg, err.detail);
		iouring_bpf_close(h);
		ring_exit(&r);
		goto out;
	}
	/* the test's clock starts here: the load may take seconds */
	if (write(wfd, &go, 1) != 1)
		_exit(1);
	o.enter_ret = ring_wait(&r, 0, -1);
	o.completed = var(h, "completed");
	o.cqe_errors = var(h, "cqe_errors");
	o.submit_errors = var(h, "submit_errors");
	o.prog_migration_disabled = var(h, "prog_migration_disabled");
	o.ok = 1;
	/* the worker io-wq forked in the program, idle now: where is it? */
	find_worker(getpid(), &hg);
	o.worker_cpu = hg.worker ? hg.worker_cpu : -1;
	snprintf(o.worker_cpus, sizeof(o.worker_cpus), "%s", hg.worker_cpus);
	iouring_bpf_close(h);
	ring_exit(&r);
	_exit(write(wfd, &o, sizeof(o)) == sizeof(o) ? 0 : 1);
out:
	go = 'F';
	if (write(wfd, &go, 1) != 1)
		_exit(1);
	_exit(write(wfd, &o, sizeof(o)) == sizeof(o) ? 0 : 1);
}

/* read fd until n bytes, EOF, or the deadline; bytes read */
static ssize_t read_by(int fd, void *buf, size_t n, double deadline_ms)
{
	size_t got = 0;

	while (got < n) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		double left = deadline_ms - t_now_ms();
		ssize_t k;

		if (left <= 0 || poll(&p, 1, (int)left + 1) == 0)
			break;
		k = read(fd, (char *)buf + got, n - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += k;
	}
	return got;
}

static int read_text(const char *path, char *buf, size_t sz)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	buf[0] = 0;
	if (fd < 0)
		return -1;
	n = read(fd, buf, sz - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return 0;
}

/* /proc/PATH/stat: the state letter, and field 39 (processor) */
static char proc_state(const char *path, int *cpu)
{
	char buf[1024], *p;
	int i;

	if (read_text(path, buf, sizeof(buf)))
		return '?';
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		return '?';
	if (cpu) {
		/* fields from 3 (state) on; processor is field 39 */
		char *q = p + 2;

		for (i = 3; i < 39 && q; i++) {
			q = strchr(q, ' ');
			if (q)
				q++;
		}
		*cpu = q ? atoi(q) : -1;
	}
	return p[2];
}

/*
 * find the child's io-wq worker: its one thread besides the submitter (the
 * round starts no thread of its own). A worker names itself iou-wrk-PID
 * when it first runs; one that never ran still has the submitter's name.
 */
static void find_worker(pid_t pid, struct hang *hg)
{
	char path[128], buf[4096], *p;
	struct dirent *de;
	int others = 0, tid = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		int t = atoi(de->d_name);

		if (t > 0 && t != pid) {
			others++;
			tid = t;
		}
	}
	closedir(d);
	if (others != 1) {
		T_INFO("process %d has %d threads besides itself: which is the worker?",
		       pid, others);
		return;
	}
	hg->worker = tid;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	read_text(path, hg->worker_comm, sizeof(hg->worker_comm));
	hg->worker_comm[strcspn(hg->worker_comm, "\n")] = 0;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	proc_state(path, &hg->worker_cpu);
	snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", pid, tid);
	if (read_text(path, buf, sizeof(buf)) ||
	    sscanf(buf, "%llu", &hg->worker_run_ns) != 1)
		hg->worker_run_ns = -1ULL;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid, tid);
	p = read_text(path, buf, sizeof(buf)) ? NULL : strstr(buf, "Cpus_allowed_list:");
	if (p)
		sscanf(p, "Cpus_allowed_list: %63s", hg->worker_cpus);
}

/* reap pid within ms milliseconds */
static bool reap_within(pid_t pid, int ms)
{
	double end = t_now_ms() + ms;
	int status;

	do {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return true;
		usleep(50000);
	} while (t_now_ms() < end);
	return false;
}

/* the child did not report: what is it doing? Then undo the hang. */
static void examine_hang(pid_t pid, struct hang *hg)
{
	const char *leave = getenv("IOURING_BPF_IOWQ_HANG_LEAVE");
	char path[64];
	cpu_set_t all;
	int cpu;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	hg->state = proc_state(path, NULL);
	snprintf(path, sizeof(path), "/proc/%d/stack", pid);
	if (read_text(path, hg->stack, sizeof(hg->stack)))
		snprintf(hg->stack, sizeof(hg->stack), "(unreadable: %s)\n",
			 strerror(errno));
	find_worker(pid, hg);
	if (leave && atoi(leave) > 0) {
		T_INFO("IOURING_BPF_IOWQ_HANG_LEAVE: process %d left as it is", pid);
		return;
	}

	kill(pid, SIGKILL);
	if (reap_within(pid, 2000)) {
		hg->after_kill = 'x';	/* SIGKILL ended it: not the hang */
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	hg->after_kill = proc_state(path, NULL);
	if (!hg->worker)
		return;
	/* a mask that holds the CPU the worker sits on completes the waiter */
	CPU_ZERO(&all);
	for (cpu = 0; cpu < CPU_SETSIZE && cpu < sysconf(_SC_NPROCESSORS_CONF); cpu++)
		CPU_SET(cpu, &all);
	if (sched_setaffinity(hg->worker, sizeof(all), &all))
		T_INFO("sched_setaffinity(worker %d, all CPUs): %s", hg->worker,
		       strerror(errno));
	hg->rescued = reap_within(pid, 30000);
}

static void print_stack(const char *stack)
{
	const char *s = stack, *e;

	while (*s) {
		e = strchrnul(s, '\n');
		T_INFO("  %.*s", (int)(e - s), s);
		s = *e ? e + 1 : e;
	}
}

static void t_iowq_aff_excludes_submitter_cpu(void)
{
	struct report o = { 0 };
	struct hang hg = { 0 };
	double t0;
	int p[2], status;
	char go = 0;
	pid_t pid;

	if (!CHECK_EQ(pipe(p), 0, "pipe"))
		return;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		child_detach_fds(p[1]);
		child_round(p[1]);
	}
	close(p[1]);
	if (!CHECK_GE(pid, 0, "fork")) {
		close(p[0]);
		return;
	}
	/* 'A': attached, the program runs next; 'F': a report of what failed */
	if (read_by(p[0], &go, 1, t_now_ms() + 90000) != 1 || go != 'A') {
		bool why = go == 'F' &&
			   read_by(p[0], &o, sizeof(o), t_now_ms() + 5000) == sizeof(o);

		close(p[0]);
		kill(pid, SIGKILL);
		if (!reap_within(pid, 10000))
			T_INFO("process %d not reaped 10 s after SIGKILL: left behind", pid);
		if (why)
			FAIL("%s", o.why);
		else
			FAIL("the round's process did not reach the program in 90 s");
		return;
	}
	t0 = t_now_ms();
	if (read_by(p[0], &o, sizeof(o), t0 + HANG_MS) == sizeof(o)) {
		close(p[0]);
		waitpid(pid, &status, 0);
		T_INFO("the program returned after %.0f ms", t_now_ms() - t0);
		if (!o.ok) {
			FAIL("%s", o.why);
			return;
		}
		CHECK_EQ(o.enter_ret, 0, "io_uring_enter(GETEVENTS) with the program");
		CHECK_EQ(o.submit_errors, 0, "submissions short of nr");
		CHECK_EQ(o.completed, NR_NOPS, "CQEs the program reaped");
		CHECK_EQ(o.cqe_errors, 0, "CQEs with res != 0");
		T_INFO("program: migration_disabled %u; io-wq worker: CPU %d, allowed %s",
		       o.prog_migration_disabled, o.worker_cpu, o.worker_cpus);
		/* the mask was in force: the case this test is about */
		CHECK_EQ(o.worker_cpu, IOWQ_CPU, "the io-wq worker's CPU");
		CHECK_EQ(strcmp(o.worker_cpus, IOWQ_CPU_LIST), 0,
			 "the io-wq worker's Cpus_allowed_list is " IOWQ_CPU_LIST);
		return;
	}
	close(p[0]);

	T_INFO("no return from the program in %d s: process %d", HANG_MS / 1000, pid);
	examine_hang(pid, &hg);
	T_INFO("submitter: state %c, kernel stack:", hg.state);
	print_stack(hg.stack);
	if (hg.worker)
		T_INFO("io-wq worker %d (comm %s): on CPU %d, Cpus_allowed_list %s, %lld ns run",
		       hg.worker, hg.worker_comm, hg.worker_cpu, hg.worker_cpus,
		       (long long)hg.worker_run_ns);
	else
		T_INFO("no io-wq worker thread found");
	if (hg.after_kill)
		T_INFO("2 s after SIGKILL: %s", hg.after_kill == 'x' ? "reaped" :
		       hg.after_kill == 'D' ? "still in D state" : "not reaped");
	if (hg.after_kill && hg.after_kill != 'x')
		T_INFO("after widening the worker's affinity: %s",
		       hg.rescued ? "the submitter returned, died of the SIGKILL, reaped" :
		       "still hung: left behind (its own session, no fd of the runner's)");

	/* the bug, precisely: not interruptible, waiting in affine_move_task */
	if (hg.state == 'D' && strstr(hg.stack, "affine_move_task") &&
	    strstr(hg.stack, "set_cpus_allowed_ptr") &&
	    (!hg.after_kill || hg.after_kill == 'D')) {
		bug_seen = true;
		T_INFO("bug: the submitter waits in affine_move_task() for the worker it forked");
		return;
	}
	FAIL("no return in %d s, but not as the known bug (state %c, stack above)",
	     HANG_MS / 1000, hg.state);
}

int main(int argc, char **argv)
{
	cpu_set_t set;
	int rc;

	T_INIT(argc, argv);
	REQUIRE_ROOT();
	if (iouring_bpf_kernel_loop_api() == IOURING_BPF_LOOP_NONE)
		SKIP("the kernel has no io_uring loop hook (io_uring_ops, io_uring_bpf_ops)");
	if (access(OBJ, R_OK))
		SKIP("no %s: make -C tests (run from the repository root)", OBJ);
	if (sched_getaffinity(0, sizeof(set), &set) ||
	    !CPU_ISSET(SUBMIT_CPU, &set) || !CPU_ISSET(IOWQ_CPU, &set))
		SKIP("needs CPUs %d and %d, has %ld online: boot 2 (kernel/vm-run --cpus 2)",
		     SUBMIT_CPU, IOWQ_CPU, sysconf(_SC_NPROCESSORS_ONLN));

	RUN(t_iowq_aff_excludes_submitter_cpu);
	rc = T_DONE();
	if (T.list || rc)
		return rc;
	if (!bug_seen) {
		printf("the loop program returned with io-wq's mask excluding its CPU\n");
		return 0;
	}
	if (t_on_stock_kernel()) {
		printf("expected on Debian's stock %s: %s\n", T_STOCK_RELEASE, BUG_NAME);
		return XFAIL_RC;
	}
	printf("bug: %s\n", BUG_NAME);
	return 1;
}
