// SPDX-License-Identifier: GPL-2.0
/*
 * test_op_pins - what a queued IORING_OP_BPF request may hold, and what
 * it copies.
 *
 * A request for an op whose issue_fn is not sleepable pins its plain
 * buffers at prep and holds them until it is done; anyone with an
 * IORING_SETUP_BPF ring (no privilege) can keep such requests queued for
 * as long as they like, behind a POLL_ADD on a pipe nobody writes. The
 * subtests 1-3 do that as uid 65534, in a child process (the root parent
 * registers the op); each reads the kernel log (/dev/kmsg) before and
 * after and fails on a kernel report (WARN, BUG, Oops, KASAN).
 *
 *   memlock_bounds_pins      RLIMIT_MEMLOCK 64 KiB: requests with a 64 MiB
 *                            plain buffer complete at prep with -ENOMEM;
 *                            16 KiB ones are queued until 64 KiB are
 *                            pinned, the next -ENOMEM; VmPin shows what is
 *                            pinned; IORING_REGISTER_BUFFERS of 1 MiB, and
 *                            of 4 KiB while the limit is used up, -ENOMEM;
 *                            pins are uncharged at completion, at cancel
 *                            (ASYNC_CANCEL) and at ring close
 *   kernel_memory_charged    the uid 65534 child in a memory cgroup (cgroup
 *                            v2, mounted here if it is not), RLIMIT_MEMLOCK
 *                            unlimited, one mapping named as both buffers
 *                            of 1,024 queued requests: MemAvailable falls
 *                            by no more than memory.current grows (plus
 *                            slack: 16 MiB and a quarter, for KASAN's
 *                            shadow of vmalloc memory); figures printed
 *   refcount_overflow_refused  one shmem page mapped into every page of a
 *                            window (4 MiB short, 64 MiB long), both
 *                            buffers = the window, so each request pins
 *                            that page 2 * window / 4 KiB times (1,024 on
 *                            its refcount each: 2^21 short, 2^25 long):
 *                            requests are queued one at a time until one
 *                            is refused, which must be -EOVERFLOW before
 *                            the refcount passes 2^30 (512 requests short,
 *                            32 long), with no kernel report; the next
 *                            round queues as many (nothing leaked)
 *   buffer_changed_after_prep  docs/kernel-abi.md's decision: a
 *                            non-sleepable op's plain buffers are imported
 *                            at prep, like registered ones: munmap, mremap,
 *                            mmap MAP_FIXED or mprotect(PROT_READ) of a
 *                            queued request's buffer are not seen and it
 *                            copies its full length into the pages pinned
 *                            at prep; a sleepable op copies the mapping of
 *                            the moment (-EFAULT where it is gone or read-only)
 *   thp_fixed_buffer_copy    a registered buffer backed by transparent huge
 *                            pages (one 2 MiB segment), copied to and from a
 *                            plain buffer across page and folio boundaries,
 *                            by both ops: exactly the source's bytes (the
 *                            debug kernel's DEBUG_KMAP_LOCAL_FORCE_MAP
 *                            really maps each kmap_local page, so a copy
 *                            past the one page mapped faults or goes wrong)
 *   file_mappings_pinned_like_registered  FOLL_LONGTERM pins, as for
 *                            registered buffers: a non-sleepable op can't
 *                            copy into a MAP_SHARED ramfs mapping (-EFAULT,
 *                            file unchanged) but copies from it; a
 *                            MAP_PRIVATE file mapping works both ways
 *
 * `make test` runs a short form; IOURING_BPF_PINS_LONG=1 (`make stress`,
 * tests/stress/run) a long one: more requests, bigger buffers, more rounds.
 * Programs: op_pins.bpf.c.
 *
 * kernels: ours
 */
#define _GNU_SOURCE		/* memfd_create, mremap */
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>

#include "t_helpers.h"
#include "op_pins.skel.h"

#define ID_NS		92	/* pins_op: issue_fn not sleepable */
#define ID_S		93	/* pins_op_s: sleepable issue_fn */
#define PINS_F_REVERSE	(1U << 0)	/* as in op_pins.bpf.c */
#define PINS_F_NOCOPY	(1U << 1)
#define NOBODY		65534
#define PAGE		4096UL
#define KIB		1024UL
#define MIB		(1UL << 20)
#define IORING_OP_POLL_ADD_	6
#define IORING_OP_ASYNC_CANCEL_	14
#define CGROUP2_MAGIC	0x63677270
#define SYSFS_MAGIC	0x62656572
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* what the short (make test) and long (make stress) forms do */
struct pins_cfg {
	int memlock_big;	/* memlock: requests with a 64 MiB buffer */
	int memlock_small;	/* memlock: 16 KiB requests tried */
	int kmem_reqs;		/* kernel_memory: queued requests */
	size_t kmem_buf;	/* kernel_memory: the mapping, both buffers */
	int refcount_rounds;	/* refcount: rounds of queue-until-refused */
	size_t refcount_window;	/* refcount: the window one page fills */
	int change_rounds;	/* buffer_changed: each case this often */
	int thp_rounds;		/* thp: each copy this often */
};

static const struct pins_cfg cfg_short = {
	.memlock_big = 4, .memlock_small = 8,
	.kmem_reqs = 1024, .kmem_buf = 4 * MIB,
	.refcount_rounds = 2, .refcount_window = 4 * MIB,
	.change_rounds = 1, .thp_rounds = 1,
};

static const struct pins_cfg cfg_long = {
	.memlock_big = 64, .memlock_small = 64,
	.kmem_reqs = 1024, .kmem_buf = 64 * MIB,
	.refcount_rounds = 5, .refcount_window = 64 * MIB,
	.change_rounds = 8, .thp_rounds = 16,
};

static const struct pins_cfg *cfg = &cfg_short;
static struct op_pins *skel;
static struct bpf_link *link_ns, *link_s;

/* ---- small readers ------------------------------------------------------ */

/* "Key:   N kB" from a /proc file; -1 if absent */
static long proc_kb(const char *path, const char *key)
{
	size_t klen = strlen(key);
	char line[256];
	long v = -1;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			v = strtol(line + klen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

static long vmpin_kb(void)
{
	return proc_kb("/proc/self/status", "VmPin");
}

static long mem_available_kb(void)
{
	return proc_kb("/proc/meminfo", "MemAvailable");
}

/* VmPin once it is @want (pins are dropped when a request is freed) */
static long vmpin_settle(long want, int ms)
{
	double end = t_now_ms() + ms;
	long v;

	while ((v = vmpin_kb()) != want && t_now_ms() < end)
		usleep(20 * 1000);
	return v;
}

/* a file's first number; -1 if it can't be read */
static long long read_ll(const char *path)
{
	char buf[64];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return strtoll(buf, NULL, 10);
}

static int write_str(const char *path, const char *s)
{
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		ret = -errno;
	close(fd);
	return ret;
}

static void *map_anon(size_t len, bool populate)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS |
		       (populate ? MAP_POPULATE : 0), -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void fill(unsigned char *p, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 131 + seed + (i >> 12) * 7);
}

static bool all_zero(const unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

/* ---- the kernel log: a report during a subtest fails it ------------------ */

/* /dev/kmsg positioned at its end, or -1 */
static int kmsg_begin(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

static bool kmsg_is_report(const char *msg)
{
	static const char * const pat[] = {
		"WARNING:", "BUG:", "Oops", "KASAN:", "kernel BUG",
		"general protection fault", "Unable to handle",
	};

	for (size_t i = 0; i < ARRAY_SIZE(pat); i++)
		if (!strncmp(msg, pat[i], strlen(pat[i])))
			return true;
	return false;
}

/* fail the subtest on each kernel report logged since kmsg_begin() */
static void kmsg_end(int fd, int line)
{
	char rec[2048];
	int reports = 0;

	if (fd < 0)
		return;
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);
		char *msg, *nl;

		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records */
		if (n <= 0)
			break;
		rec[n] = 0;
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		nl = strchr(msg, '\n');
		if (nl)
			*nl = 0;
		if (!kmsg_is_report(msg))
			continue;
		if (!reports++)
			t_failf(line, "kernel report: %.300s", msg);
		else
			T_INFO("kernel report: %.300s", msg);
	}
	close(fd);
}

#define KMSG_END(fd) kmsg_end((fd), __LINE__)

/* ---- queued requests: [POLL_ADD on an idle pipe] -> [IORING_OP_BPF] ------ */

struct park {
	struct uring r;
	int pp[2];		/* the pipe the POLL_ADDs wait on */
	int added;		/* requests submitted so far */
	int parked;		/* of them, queued behind their poll */
	int refused;		/* completed at submission */
	int refused_res;	/* the first refused request's res */
	int refused_other;	/* refused with another res than the first */
	int max;
	int *want;		/* res each request completes with when released */
	bool *done;
};

static int park_init(struct park *pk, int max)
{
	unsigned int cq = 512;	/* CQSIZE may not be below the SQ's 256 */
	int ret;

	memset(pk, 0, sizeof(*pk));
	pk->pp[0] = -1;
	pk->pp[1] = -1;
	pk->r.fd = -1;
	while (cq < 2U * max + 16)
		cq <<= 1;
	pk->max = max;
	pk->want = calloc(max, sizeof(*pk->want));
	pk->done = calloc(max, sizeof(*pk->done));
	if (!pk->want || !pk->done)
		return -ENOMEM;
	if (pipe(pk->pp))
		return -errno;
	ret = uring_init(&pk->r, 256, T_IORING_SETUP_BPF |
			 IORING_SETUP_SUBMIT_ALL, cq);
	return ret;
}

static void park_free(struct park *pk)
{
	if (pk->r.fd >= 0)
		uring_exit(&pk->r);
	if (pk->pp[0] >= 0)
		close(pk->pp[0]);
	if (pk->pp[1] >= 0)
		close(pk->pp[1]);
	free(pk->want);
	free(pk->done);
	memset(pk, 0, sizeof(*pk));
	pk->r.fd = -1;
	pk->pp[0] = -1;
	pk->pp[1] = -1;
}

/*
 * Consume the CQEs that arrived. A request completing now was refused
 * (its POLL_ADD completes with -ECANCELED); user_data: index << 1, | 1
 * for the POLL_ADD.
 */
static void park_reap_refused(struct park *pk)
{
	struct io_uring_cqe cqe;

	/* run task work that may still post the failed links' CQEs */
	t_io_uring_enter(pk->r.fd, 0, 0, IORING_ENTER_GETEVENTS, NULL, 0);
	while (!uring_peek_cqe(&pk->r, &cqe)) {
		unsigned long i = cqe.user_data >> 1;

		if (cqe.user_data & 1 || i >= (unsigned long)pk->max ||
		    pk->done[i])
			continue;
		pk->done[i] = true;
		if (!pk->refused++)
			pk->refused_res = cqe.res;
		else if (cqe.res != pk->refused_res)
			pk->refused_other++;
		pk->parked--;
	}
}

/* submit what is queued; 0 or -errno of io_uring_enter */
static int park_submit(struct park *pk)
{
	unsigned int n = uring_flush(&pk->r);
	int ret = 0;

	if (n)
		ret = t_io_uring_enter(pk->r.fd, n, 0, 0, NULL, 0);
	if (ret >= 0)
		park_reap_refused(pk);
	return ret < 0 ? ret : 0;
}

/*
 * Queue one [POLL_ADD] -> [IORING_OP_BPF op, buffers] link (submitted by
 * park_submit(), or here when the SQ is full). @want: its res once released.
 */
static int park_add(struct park *pk, uint32_t opf, const void *b1, uint32_t l1,
		    uint16_t idx1, const void *b2, uint32_t l2, int want)
{
	struct io_uring_sqe *sqe;
	int i = pk->added, ret;

	if (i >= pk->max)
		return -ENOSPC;
	if (pk->r.sqe_tail - *pk->r.sq_head + 2 > pk->r.sq_entries) {
		ret = park_submit(pk);
		if (ret)
			return ret;
	}
	sqe = uring_get_sqe(&pk->r);
	sqe->opcode = IORING_OP_POLL_ADD_;
	sqe->fd = pk->pp[0];
	sqe->poll32_events = POLLIN;
	sqe->user_data = ((uint64_t)i << 1) | 1;
	sqe->flags = IOSQE_IO_LINK;
	sqe = uring_get_sqe(&pk->r);
	sqe_bpf(sqe, opf, (uint64_t)i << 1);
	sqe_bpf_buf1(sqe, (uintptr_t)b1, l1, idx1);
	if (b2)
		sqe_bpf_buf2(sqe, (uintptr_t)b2, l2);
	pk->want[i] = want;
	pk->added++;
	pk->parked++;
	return 0;
}

/*
 * Write the pipe: every queued request runs. CHECKs that each completes
 * with its want[] (POLL_ADD with POLLIN); drains the pipe again.
 */
static bool park_release(struct park *pk, const char *what)
{
	int n = pk->parked, bad = 0, first_bad = 0, got = 0;
	struct io_uring_cqe cqe;
	char c;

	if (!n)
		return true;
	if (!CHECK_EQ(write(pk->pp[1], "x", 1), 1, "write the pipe"))
		return false;
	while (got < 2 * n) {
		int ret = uring_wait_cqe(&pk->r, &cqe, 2 * T_CQE_TIMEOUT_MS);
		unsigned long i;

		if (!CHECK_EQ(ret, 0, "CQEs of the released requests"))
			break;
		i = cqe.user_data >> 1;
		got++;
		if (cqe.user_data & 1) {
			if (cqe.res <= 0 && !bad++)
				first_bad = cqe.res;
			continue;
		}
		if (i < (unsigned long)pk->max && !pk->done[i]) {
			pk->done[i] = true;
			if (cqe.res != pk->want[i] && !bad++)
				first_bad = cqe.res;
		}
	}
	if (read(pk->pp[0], &c, 1) != 1)
		FAIL("drain the pipe");
	pk->parked = 0;
	if (bad) {
		FAIL("%s: %d of %d released requests (or their POLL_ADD) "
		     "completed wrong, the first with res %d", what, bad, n,
		     first_bad);
		return false;
	}
	return got == 2 * n;
}

/* cancel every queued request (ASYNC_CANCEL ANY): each gets -ECANCELED */
static bool park_cancel(struct park *pk)
{
	int n = pk->parked, got = 0, bad = 0, cancel_res = -1;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe cqe;

	sqe = uring_get_sqe(&pk->r);
	if (!CHECK_PTR(sqe, "an SQE for ASYNC_CANCEL"))
		return false;
	sqe->opcode = IORING_OP_ASYNC_CANCEL_;
	sqe->fd = -1;
	sqe->cancel_flags = IORING_ASYNC_CANCEL_ANY;
	sqe->user_data = ~0ULL;
	/* not park_submit(): these CQEs are not refusals */
	if (!CHECK_EQ(t_io_uring_enter(pk->r.fd, uring_flush(&pk->r), 0, 0,
				       NULL, 0), 1, "submit ASYNC_CANCEL"))
		return false;
	while (got < 2 * n + 1) {
		if (!CHECK_EQ(uring_wait_cqe(&pk->r, &cqe, 2 * T_CQE_TIMEOUT_MS),
			      0, "CQEs of the cancelled requests"))
			return false;
		got++;
		if (cqe.user_data == ~0ULL)
			cancel_res = cqe.res;
		else if (cqe.res != -ECANCELED)
			bad++;
	}
	pk->parked = 0;
	CHECK_EQ(cancel_res, n, "ASYNC_CANCEL ANY: requests cancelled");
	return CHECK_EQ(bad, 0, "cancelled requests not completed with -ECANCELED");
}

/* ---- running a function as uid 65534 ------------------------------------ */

struct nobody {
	rlim_t memlock;		/* RLIMIT_MEMLOCK, set while still root */
	const char *cgroup;	/* join this cgroup v2 directory first, or NULL */
	void (*fn)(const void *arg);
	const void *arg;
};

/*
 * Fork a child that drops to uid/gid 65534 and runs nb->fn, whose CHECKs
 * print as usual; the child's first failure becomes this subtest's.
 */
static bool t_run_as_nobody(int line, const struct nobody *nb)
{
	int wp[2], status = 0, timeout = T.timeout_s > 20 ? T.timeout_s - 10 : 10;
	char why[sizeof(T.why)] = "";
	size_t got = 0;
	pid_t pid;

	if (pipe(wp)) {
		t_failf(line, "pipe: %s", strerror(errno));
		return false;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		t_failf(line, "fork: %s", strerror(errno));
		return false;
	}
	if (!pid) {
		struct rlimit rl = { nb->memlock, nb->memlock };

		close(wp[0]);
		/* nothing of the parent's: no link, map or ring fd */
		for (int fd = 3; fd < 1024; fd++)
			if (fd != wp[1])
				close(fd);
		T.cur_failed = false;
		T.why[0] = 0;
		alarm(timeout);
		if (nb->cgroup) {
			char path[300];

			snprintf(path, sizeof(path), "%s/cgroup.procs", nb->cgroup);
			CHECK_EQ(write_str(path, "0"), 0, "join the memory cgroup");
		}
		CHECK_EQ(setrlimit(RLIMIT_MEMLOCK, &rl) ? -errno : 0, 0,
			 "setrlimit(RLIMIT_MEMLOCK)");
		if (CHECK_EQ(setgroups(0, NULL) || setgid(NOBODY) ||
			     setuid(NOBODY) ? -errno : 0, 0, "setuid(65534)") &&
		    CHECK_EQ(geteuid(), NOBODY, "euid") && !T.cur_failed) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			nb->fn(nb->arg);
		}
		if (T.cur_failed && write(wp[1], T.why, strlen(T.why)) < 0)
			_exit(2);
		fflush(stdout);
		_exit(T.cur_failed ? 1 : 0);
	}
	close(wp[1]);
	for (;;) {
		ssize_t n = read(wp[0], why + got, sizeof(why) - 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
	}
	why[got] = 0;
	close(wp[0]);
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status)) {
		t_failf(line, "the uid 65534 child was killed by signal %d%s",
			WTERMSIG(status), WTERMSIG(status) == SIGALRM ?
			" (it ran out of time)" : "");
		return false;
	}
	if (WEXITSTATUS(status)) {
		t_failf(line, "uid 65534: %s", why[0] ? why : "the child failed");
		return false;
	}
	return true;
}

#define RUN_AS_NOBODY(nb) t_run_as_nobody(__LINE__, (nb))

/* ---- setup -------------------------------------------------------------- */

static bool need_ops(void)
{
	static bool tried, ok;

	if (tried) {
		if (!ok)
			FAIL("setup failed (see the first subtest that failed)");
		return ok;
	}
	tried = true;
	skel = op_pins__open_and_load();
	if (!CHECK_PTR(skel, "op_pins__open_and_load"))
		return false;
	if (!CHECK_EQ(t_attach(skel->maps.pins_op, &link_ns), 0,
		      "register pins_op (id 92, issue_fn not sleepable)") ||
	    !CHECK_EQ(t_attach(skel->maps.pins_op_s, &link_s), 0,
		      "register pins_op_s (id 93, sleepable issue_fn)"))
		return false;
	ok = true;
	return true;
}

/* ---- 1. RLIMIT_MEMLOCK bounds what requests pin ------------------------- */

#define MEMLOCK_LIMIT	(64 * KIB)
#define BIG		(64 * MIB)
#define SMALL		(16 * KIB)

static int register_res(struct uring *r, void *p, size_t len)
{
	struct iovec iov = { p, len };
	int ret = uring_register_buffers(r, &iov, 1);

	if (!ret)
		t_io_uring_register(r->fd, IORING_UNREGISTER_BUFFERS, NULL, 0);
	return ret;
}

/* queue @n SMALL requests on @pk: how many are queued */
static int park_small(struct park *pk, void *small, int n)
{
	int p0 = pk->parked;

	for (int i = 0; i < n; i++)
		if (!CHECK_EQ(park_add(pk, T_BPF_OP_FLAGS(ID_NS, T_BPF_BUF_PLAIN, 0,
							  PINS_F_NOCOPY),
				       small, SMALL, 0, NULL, 0, SMALL), 0,
			      "queue a 16 KiB request"))
			break;
	CHECK_EQ(park_submit(pk), 0, "submit the 16 KiB requests");
	return pk->parked - p0;
}

static void nobody_memlock(const void *arg)
{
	const long limit_pages = MEMLOCK_LIMIT / PAGE;
	long vm_big, vm_small, vm_done, vm_cancel, vm_close;
	int big_parked, small_parked, small_refused, small_res;
	int reg_1m, reg_4k, reg_after, cancel_parked, close_parked, again;
	unsigned char *big, *small;
	struct park pk;

	(void)arg;
	big = map_anon(BIG, false);
	small = map_anon(SMALL, true);
	if (!CHECK_PTR(big, "mmap 64 MiB") || !CHECK_PTR(small, "mmap 16 KiB") ||
	    !CHECK_EQ(park_init(&pk, cfg->memlock_big + cfg->memlock_small + 64),
		      0, "IORING_SETUP_BPF ring as uid 65534"))
		return;

	/* 64 MiB is 16,384 pages: over the limit, refused at prep */
	for (int i = 0; i < cfg->memlock_big; i++)
		park_add(&pk, T_BPF_OP_FLAGS(ID_NS, T_BPF_BUF_PLAIN, 0, PINS_F_NOCOPY),
			 big, BIG, 0, NULL, 0, BIG);
	CHECK_EQ(park_submit(&pk), 0, "submit the 64 MiB requests");
	big_parked = pk.parked;
	vm_big = vmpin_kb();
	CHECK_EQ(big_parked, 0, "requests with a 64 MiB plain buffer queued "
		 "with RLIMIT_MEMLOCK 64 KiB");
	if (pk.refused)
		CHECK_EQ(pk.refused_res, -ENOMEM, "res of a refused 64 MiB request");
	CHECK_EQ(pk.refused_other, 0, "refused 64 MiB requests with another res");
	CHECK_EQ(vm_big, big_parked * (BIG / KIB), "VmPin (kB) with the 64 MiB "
		 "requests queued: what they pin");

	reg_1m = register_res(&pk.r, big, MIB);
	CHECK_EQ(reg_1m, -ENOMEM, "IORING_REGISTER_BUFFERS of 1 MiB (the same limit)");

	/* 16 KiB requests: 4 pages each, 4 of them fill the limit */
	pk.refused = 0;
	pk.refused_other = 0;
	small_parked = park_small(&pk, small, cfg->memlock_small);
	small_refused = pk.refused;
	small_res = pk.refused_res;
	vm_small = vmpin_kb();
	CHECK_LE((long)big_parked * (BIG / PAGE) + small_parked * (SMALL / PAGE),
		 limit_pages, "pages pinned by queued requests, RLIMIT_MEMLOCK "
		 "64 KiB (16 pages)");
	CHECK_EQ(small_parked, MEMLOCK_LIMIT / SMALL,
		 "16 KiB requests queued (4 fill the limit)");
	if (small_refused)
		CHECK_EQ(small_res, -ENOMEM, "res of a refused 16 KiB request");
	CHECK_EQ(pk.refused_other, 0, "refused 16 KiB requests with another res");
	CHECK_EQ(vm_small, big_parked * (BIG / KIB) + small_parked * (SMALL / KIB),
		 "VmPin (kB): what the queued requests pin");
	reg_4k = register_res(&pk.r, small, PAGE);
	CHECK_EQ(reg_4k, -ENOMEM, "IORING_REGISTER_BUFFERS of 4 KiB while queued "
		 "requests use up RLIMIT_MEMLOCK");

	/* uncharged at completion */
	park_release(&pk, "16 KiB requests released");
	vm_done = vmpin_settle(0, 5000);
	CHECK_EQ(vm_done, 0, "VmPin (kB) after the requests completed");
	reg_after = register_res(&pk.r, small, SMALL);
	CHECK_EQ(reg_after, 0, "IORING_REGISTER_BUFFERS of 16 KiB after they completed");

	/* uncharged at cancel */
	pk.refused = 0;
	cancel_parked = park_small(&pk, small, MEMLOCK_LIMIT / SMALL);
	CHECK_EQ(cancel_parked, MEMLOCK_LIMIT / SMALL, "16 KiB requests queued again");
	park_cancel(&pk);
	vm_cancel = vmpin_settle(0, 5000);
	CHECK_EQ(vm_cancel, 0, "VmPin (kB) after ASYNC_CANCEL");

	/* uncharged at ring close */
	close_parked = park_small(&pk, small, MEMLOCK_LIMIT / SMALL);
	CHECK_EQ(close_parked, MEMLOCK_LIMIT / SMALL, "16 KiB requests queued again");
	park_free(&pk);
	vm_close = vmpin_settle(0, 10000);
	CHECK_EQ(vm_close, 0, "VmPin (kB) after the ring was closed");
	again = -1;
	if (CHECK_EQ(park_init(&pk, 64), 0, "a new ring")) {
		/* the user's locked_vm was given back too */
		again = park_small(&pk, small, MEMLOCK_LIMIT / SMALL);
		CHECK_EQ(again, MEMLOCK_LIMIT / SMALL, "16 KiB requests queued "
			 "on a new ring after the old one was closed");
		park_release(&pk, "the new ring's requests");
	}
	park_free(&pk);
	T_INFO("figures: memlock: RLIMIT_MEMLOCK 64 KiB, uid 65534: %d/%d "
	       "requests with a 64 MiB buffer queued (%ld pages pinned, VmPin %ld kB), "
	       "%d/%d with 16 KiB (refused: %d, res %d), VmPin %ld kB; "
	       "REGISTER_BUFFERS 1 MiB %d, 4 KiB while full %d; VmPin after "
	       "completion %ld kB, cancel %ld kB, ring close %ld kB; "
	       "queued on a new ring %d", big_parked, cfg->memlock_big,
	       (long)big_parked * (BIG / PAGE), vm_big, small_parked,
	       cfg->memlock_small, small_refused, small_res, vm_small, reg_1m,
	       reg_4k, vm_done, vm_cancel, vm_close, again);
	munmap(big, BIG);
	munmap(small, SMALL);
}

static void t_memlock_bounds_pins(void)
{
	struct nobody nb = { .memlock = MEMLOCK_LIMIT, .fn = nobody_memlock };
	int km = kmsg_begin();

	if (need_ops())
		RUN_AS_NOBODY(&nb);
	KMSG_END(km);
}

/* ---- 2. kernel memory per request is charged to the memory cgroup ------- */

struct memcg {
	char root[64];
	char dir[128];
	bool mounted;
};

/*
 * A cgroup v2 group with the memory controller: the hierarchy at
 * /sys/fs/cgroup (mounted there if nothing is), or at /run. 0, or -errno
 * with *why for a skip.
 */
static int memcg_setup(struct memcg *m, char *why, size_t sz)
{
	char path[100], ctl[256] = "";
	struct statfs sf;
	int fd, ret;
	ssize_t n;

	memset(m, 0, sizeof(*m));
	snprintf(m->root, sizeof(m->root), "/sys/fs/cgroup");
	if (statfs(m->root, &sf) || sf.f_type != CGROUP2_MAGIC) {
		if (statfs(m->root, &sf) || sf.f_type != SYSFS_MAGIC) {
			/* something else is there (a v1 tmpfs): use our own */
			snprintf(m->root, sizeof(m->root), "/run/iouring-bpf-cgroup2");
			mkdir(m->root, 0755);
		}
		if (mount("cgroup2", m->root, "cgroup2", 0, NULL)) {
			ret = -errno;
			snprintf(why, sz, "cannot mount cgroup v2 on %s: %s%s",
				 m->root, strerror(errno), errno == ENODEV ?
				 " (kernel without CONFIG_CGROUPS)" : "");
			return ret;
		}
		m->mounted = true;
	}
	snprintf(path, sizeof(path), "%s/cgroup.controllers", m->root);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, ctl, sizeof(ctl) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n < 0 || !strstr(ctl, "memory")) {
		snprintf(why, sz, "no memory controller in %s (kernel without "
			 "CONFIG_MEMCG, or cgroup_disable=memory)", path);
		return -ENODEV;
	}
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", m->root);
	ret = write_str(path, "+memory");
	if (ret) {
		snprintf(why, sz, "enable the memory controller (%s): %s",
			 path, strerror(-ret));
		return ret;
	}
	snprintf(m->dir, sizeof(m->dir), "%s/iouring-bpf-pins.%d", m->root,
		 (int)getpid());
	if (mkdir(m->dir, 0755) && errno != EEXIST) {
		ret = -errno;
		snprintf(why, sz, "mkdir %s: %s", m->dir, strerror(errno));
		m->dir[0] = 0;
		return ret;
	}
	return 0;
}

static void memcg_teardown(struct memcg *m)
{
	for (int i = 0; m->dir[0] && i < 50 && rmdir(m->dir) && errno == EBUSY; i++)
		usleep(100 * 1000);
	if (m->mounted)
		umount2(m->root, MNT_DETACH);
}

struct kmem_arg {
	const char *memcg_dir;
};

static void nobody_kmem(const void *arg)
{
	const struct kmem_arg *ka = arg;
	long avail0, avail1, avail2, vm1, vm2, d_avail, slack;
	long long cg0, cg1, cg2, d_cg;
	int n = cfg->kmem_reqs, warm = 8, queued, refused;
	size_t len = cfg->kmem_buf;
	char cur[200];
	unsigned char *buf;
	struct park pk;

	snprintf(cur, sizeof(cur), "%s/memory.current", ka->memcg_dir);
	buf = map_anon(len, false);
	if (!CHECK_PTR(buf, "mmap the buffer") ||
	    !CHECK_EQ(park_init(&pk, n + warm), 0, "IORING_SETUP_BPF ring as uid 65534"))
		return;
	fill(buf, len, 2);
	/* warm up the caches the requests use, so they are not measured */
	for (int i = 0; i < warm; i++)
		park_add(&pk, T_BPF_OP_FLAGS(ID_NS, T_BPF_BUF_PLAIN, T_BPF_BUF_PLAIN,
					     PINS_F_NOCOPY), buf, len, 0, buf, len, len);
	CHECK_EQ(park_submit(&pk), 0, "submit");
	CHECK_EQ(pk.parked, warm, "warm-up requests queued (RLIMIT_MEMLOCK unlimited)");
	park_release(&pk, "warm-up requests");
	vmpin_settle(0, 5000);

	usleep(200 * 1000);
	avail0 = mem_available_kb();
	cg0 = read_ll(cur);
	for (int i = 0; i < n; i++)
		park_add(&pk, T_BPF_OP_FLAGS(ID_NS, T_BPF_BUF_PLAIN, T_BPF_BUF_PLAIN,
					     PINS_F_NOCOPY), buf, len, 0, buf, len, len);
	CHECK_EQ(park_submit(&pk), 0, "submit");
	usleep(200 * 1000);
	avail1 = mem_available_kb();
	cg1 = read_ll(cur);
	vm1 = vmpin_kb();
	queued = pk.parked;
	refused = pk.refused;
	CHECK_EQ(queued, n, "requests queued (RLIMIT_MEMLOCK unlimited)");
	if (refused)
		T_INFO("refused: %d, the first with res %d", refused, pk.refused_res);

	park_release(&pk, "the queued requests");
	vm2 = vmpin_settle(0, 10000);
	usleep(500 * 1000);
	avail2 = mem_available_kb();
	cg2 = read_ll(cur);
	park_free(&pk);

	d_avail = avail0 - avail1;
	d_cg = (cg1 - cg0) / 1024;
	slack = 16 * 1024 + d_cg / 4;
	T_INFO("figures: kernel memory: %d requests queued of %d, both buffers one "
	       "%zu MiB mapping: MemAvailable %ld -> %ld kB (-%ld kB), "
	       "memory.current %lld -> %lld kB (+%lld kB), VmPin %ld kB; after "
	       "release MemAvailable %ld kB, memory.current %lld kB, VmPin %ld kB",
	       queued, n, len / MIB, avail0,
	       avail1, d_avail, cg0 / 1024, cg1 / 1024, d_cg, vm1, avail2,
	       cg2 / 1024, vm2);
	CHECK_TRUE(avail0 > 0 && cg0 >= 0, "MemAvailable and memory.current read");
	CHECK_LE(d_avail, d_cg + slack, "MemAvailable's fall (kB) with the "
		 "requests queued: at most their memory.current growth + 16 MiB "
		 "+ a quarter (KASAN's vmalloc shadow is not charged)");
	CHECK_EQ(vm1, (long)queued * 2 * (len / KIB),
		 "VmPin (kB): both buffers of every queued request");
	CHECK_EQ(vm2, 0, "VmPin (kB) after the requests completed");
	munmap(buf, len);
}

static void t_kernel_memory_charged(void)
{
	struct kmem_arg ka = { 0 };
	struct nobody nb = {
		.memlock = RLIM_INFINITY, .fn = nobody_kmem, .arg = &ka,
	};
	struct memcg m;
	char why[240];
	int km;

	if (!need_ops())
		return;
	if (memcg_setup(&m, why, sizeof(why))) {
		memcg_teardown(&m);
		SKIP_SUBTEST("%s", why);
		return;
	}
	km = kmsg_begin();
	ka.memcg_dir = m.dir;
	nb.cgroup = m.dir;
	RUN_AS_NOBODY(&nb);
	KMSG_END(km);
	memcg_teardown(&m);
}

/* ---- 3. a page's refcount can't be taken near overflow ------------------ */

/*
 * Each FOLL_PIN of a small folio adds GUP_PIN_COUNTING_BIAS (1024) to its
 * refcount. A request names the window as both buffers: 2 * window / PAGE
 * pins of the one page. The bound is at 2^30 (INT_MAX / 2); twice as many
 * requests would take an unbounded refcount past 2^31.
 */
#define PIN_BIAS	1024LL
#define REF_BOUND	(1LL << 30)

static long long refcount_per_request(void)
{
	return 2 * (long long)(cfg->refcount_window / PAGE) * PIN_BIAS;
}

static void nobody_refcount(const void *arg)
{
	size_t window = cfg->refcount_window;
	int reach = (int)(REF_BOUND / refcount_per_request());
	int tries = 2 * reach;
	int first = -1, fd, ok_rounds = 0;
	unsigned char *win;
	struct park pk;

	(void)arg;
	fd = memfd_create("iouring-bpf-pins", MFD_CLOEXEC);
	if (!CHECK_EQ(fd >= 0 ? 0 : -errno, 0, "memfd_create") ||
	    !CHECK_EQ(ftruncate(fd, PAGE) ? -errno : 0, 0, "ftruncate"))
		return;
	win = mmap(NULL, window, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
		   MAP_NORESERVE, -1, 0);
	if (!CHECK_TRUE(win != MAP_FAILED, "reserve the window"))
		return;
	for (size_t off = 0; off < window; off += PAGE) {
		void *p = mmap(win + off, PAGE, PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_FIXED | MAP_POPULATE, fd, 0);

		if (!CHECK_TRUE(p == win + off, "map the shmem page into the window"))
			return;
	}
	win[0] = 0x5a;
	if (!CHECK_EQ(win[window - PAGE], 0x5a,
		      "the window's last page is its first"))
		return;
	if (!CHECK_EQ(park_init(&pk, tries * cfg->refcount_rounds), 0,
		      "IORING_SETUP_BPF ring as uid 65534"))
		return;

	for (int round = 0; round < cfg->refcount_rounds; round++) {
		int queued;

		pk.refused = 0;
		for (int i = 0; i < tries && !pk.refused; i++) {
			park_add(&pk, T_BPF_OP_FLAGS(ID_NS, T_BPF_BUF_PLAIN,
						     T_BPF_BUF_PLAIN, PINS_F_NOCOPY),
				 win, window, 0, win, window, window);
			if (!CHECK_EQ(park_submit(&pk), 0, "submit"))
				break;
		}
		queued = pk.parked;
		T_INFO("figures: refcount: window %zu KiB, round %d: %d requests "
		       "queued (%lld pins of one page, refcount +%lld), then %s "
		       "res %d; VmPin %ld kB", window >> 10, round + 1, queued,
		       (long long)queued * 2 * (window / PAGE),
		       queued * refcount_per_request(),
		       pk.refused ? "refused with" : "none refused,",
		       pk.refused ? pk.refused_res : 0, vmpin_kb());
		if (round == 0)
			first = queued;
		if (CHECK_EQ(pk.refused, 1, "a request refused before the page's "
			     "refcount overflows") &&
		    CHECK_EQ(pk.refused_res, -EOVERFLOW, "res of the request "
			     "whose pins would take the refcount past 2^30") &&
		    CHECK_LE(queued, reach, "requests queued (their pins reach 2^30)") &&
		    CHECK_GE(queued, 1, "requests queued before the refusal") &&
		    CHECK_EQ(queued, first, "requests queued, as many as in round 1 "
			     "(no pin leaked)"))
			ok_rounds++;
		park_release(&pk, "the queued requests");
		CHECK_EQ(vmpin_settle(0, 10000), 0, "VmPin (kB) after release");
		if (T.cur_failed)
			break;
	}
	T_INFO("figures: refcount: %d/%d rounds refused cleanly", ok_rounds,
	       cfg->refcount_rounds);
	park_free(&pk);
	munmap(win, window);
	close(fd);
}

static void t_refcount_overflow_refused(void)
{
	struct nobody nb = { .memlock = RLIM_INFINITY, .fn = nobody_refcount };
	int km = kmsg_begin();

	if (need_ops())
		RUN_AS_NOBODY(&nb);
	KMSG_END(km);
}

/* ---- 4. a queued request's buffer changes before issue ------------------ */

#define CHG_LEN		(64 * KIB)

enum change { CHG_MUNMAP_DST, CHG_MUNMAP_SRC, CHG_MREMAP_DST, CHG_MMAP_FIXED_DST,
	      CHG_MPROTECT_DST, NR_CHANGES };

static const char * const change_name[] = {
	"munmap(destination)", "munmap(source)", "mremap(destination) elsewhere",
	"mmap(MAP_FIXED) over the destination", "mprotect(destination, PROT_READ)",
};

/* one request of @op (ID_NS or ID_S), @c applied once it is queued */
static void change_case(int op, enum change c, unsigned int seed)
{
	unsigned char *src, *dst, *moved = NULL, *want;
	bool ns = op == ID_NS, gone;
	int want_res, calls0;
	struct park pk;
	char what[160];

	snprintf(what, sizeof(what), "%s op, %s", ns ? "non-sleepable" :
		 "sleepable", change_name[c]);
	src = map_anon(CHG_LEN, true);
	dst = map_anon(CHG_LEN, true);
	want = malloc(CHG_LEN);
	if (!CHECK_TRUE(src && dst && want, "buffers") ||
	    !CHECK_EQ(park_init(&pk, 4), 0, "ring")) {
		free(want);
		return;
	}
	fill(src, CHG_LEN, seed);
	memcpy(want, src, CHG_LEN);
	park_add(&pk, T_BPF_OP_FLAGS(op, T_BPF_BUF_PLAIN, T_BPF_BUF_PLAIN, 0),
		 src, CHG_LEN, 0, dst, CHG_LEN, 0);
	if (!CHECK_EQ(park_submit(&pk), 0, what) ||
	    !CHECK_EQ(pk.parked, 1, what))
		goto out;

	switch (c) {
	case CHG_MUNMAP_DST:
		munmap(dst, CHG_LEN);
		dst = NULL;
		break;
	case CHG_MUNMAP_SRC:
		munmap(src, CHG_LEN);
		src = NULL;
		break;
	case CHG_MREMAP_DST:
		moved = mmap(NULL, CHG_LEN, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			     -1, 0);
		if (moved != MAP_FAILED)
			moved = mremap(dst, CHG_LEN, CHG_LEN,
				       MREMAP_MAYMOVE | MREMAP_FIXED, moved);
		if (!CHECK_TRUE(moved != MAP_FAILED, "mremap")) {
			moved = NULL;
			goto out;
		}
		dst = NULL;
		break;
	case CHG_MMAP_FIXED_DST:
		if (!CHECK_TRUE(mmap(dst, CHG_LEN, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
				     -1, 0) == dst, "mmap MAP_FIXED"))
			goto out;
		break;
	case CHG_MPROTECT_DST:
		CHECK_EQ(mprotect(dst, CHG_LEN, PROT_READ), 0, "mprotect");
		break;
	default:
		break;
	}

	/* non-sleepable: the pages of prep, full length; sleepable: the mapping now */
	gone = c == CHG_MUNMAP_DST || c == CHG_MUNMAP_SRC ||
	       c == CHG_MREMAP_DST || c == CHG_MPROTECT_DST;
	want_res = ns || !gone ? (int)CHG_LEN : -EFAULT;
	pk.want[0] = want_res;
	calls0 = skel->bss->issue_calls[ns ? 0 : 1];
	if (!park_release(&pk, what)) {
		T_INFO("%s: res expected %d, the op's last kfunc result %d", what,
		       want_res, skel->bss->last_ret[ns ? 0 : 1]);
		goto out;
	}
	CHECK_GT(skel->bss->issue_calls[ns ? 0 : 1], calls0, "the op ran");

	switch (c) {
	case CHG_MREMAP_DST:
		/* the pages pinned at prep moved with the mapping */
		if (ns)
			CHECK_MEM(moved, want, CHG_LEN, "the moved destination "
				  "(the pages pinned at prep)");
		else
			CHECK_TRUE(all_zero(moved, CHG_LEN), "the moved destination "
				   "is untouched (the request saw the old address unmapped)");
		break;
	case CHG_MMAP_FIXED_DST:
		if (ns)
			CHECK_TRUE(all_zero(dst, CHG_LEN), "the new mapping is "
				   "untouched (the copy went to the pages of prep)");
		else
			CHECK_MEM(dst, want, CHG_LEN, "the new mapping (the copy "
				  "went to the mapping of the moment)");
		break;
	case CHG_MPROTECT_DST:
		if (ns)
			CHECK_MEM(dst, want, CHG_LEN, "the read-only destination "
				  "(pinned writable at prep)");
		else
			CHECK_TRUE(all_zero(dst, CHG_LEN), "the read-only "
				   "destination is untouched");
		break;
	case CHG_MUNMAP_SRC:
		if (ns)
			CHECK_MEM(dst, want, CHG_LEN, "the destination (the "
				  "source's pages pinned at prep)");
		else
			CHECK_TRUE(all_zero(dst, CHG_LEN), "the destination is "
				   "untouched");
		break;
	default:
		break;
	}
out:
	park_free(&pk);
	if (src)
		munmap(src, CHG_LEN);
	if (dst)
		munmap(dst, CHG_LEN);
	if (moved)
		munmap(moved, CHG_LEN);
	free(want);
}

static void t_buffer_changed_after_prep(void)
{
	int km = kmsg_begin();

	if (!need_ops())
		goto out;
	for (int round = 0; round < cfg->change_rounds && !T.cur_failed; round++)
		for (int op = 0; op < 2; op++)
			for (int c = 0; c < NR_CHANGES; c++)
				change_case(op ? ID_S : ID_NS, c, round * 16 + c);
	CHECK_EQ(vmpin_settle(0, 5000), 0, "VmPin (kB) at the end");
out:
	KMSG_END(km);
}

/* ---- 5. a fixed buffer on transparent huge pages ------------------------ */

#define HUGE		(2 * MIB)
#define THP_LEN		(4 * MIB)	/* two huge pages */

/* field @key ("Name:") of the mapping that contains @p, in kB; -1 if not found */
static long smaps_kb(const void *p, const char *key)
{
	unsigned long a = (unsigned long)p, lo, hi;
	size_t klen = strlen(key);
	bool in = false;
	char line[512];
	long v = -1;
	FILE *f;

	f = fopen("/proc/self/smaps", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		/* a mapping's header: "lo-hi perms ..."; fields: "Name: value" */
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
			in = a >= lo && a < hi;
			continue;
		}
		if (in && !strncmp(line, key, klen)) {
			v = strtol(line + klen, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

static long smaps_anon_huge_kb(const void *p)
{
	return smaps_kb(p, "AnonHugePages:");
}

/* "[madvise]" etc.: the mode in brackets */
static bool thp_mode(char *mode, size_t sz)
{
	char buf[128], *a, *b;
	int fd;
	ssize_t n;

	fd = open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	a = strchr(buf, '[');
	b = a ? strchr(a, ']') : NULL;
	if (!b)
		return false;
	snprintf(mode, sz, "%.*s", (int)(b - a - 1), a + 1);
	return true;
}

struct thp_case {
	size_t off;		/* into the registered buffer */
	size_t len;
	bool to_fixed;		/* plain -> fixed (PINS_F_REVERSE) */
	const char *what;
};

static const struct thp_case thp_cases[] = {
	{ PAGE - 100, 256 * KIB + 7, false,
	  "fixed (THP) -> plain, from 100 bytes before the first page boundary" },
	{ HUGE - 5000, 64 * KIB + 1, false,
	  "fixed (THP) -> plain, across the two huge pages" },
	{ 3 * PAGE + 17, 256 * KIB + 3, true,
	  "plain -> fixed (THP), across page boundaries" },
	{ HUGE - 3 * PAGE - 1, 48 * KIB, true,
	  "plain -> fixed (THP), across the two huge pages" },
};

static void thp_copy(struct uring *r, unsigned char *fx, unsigned char *shadow,
		     const struct thp_case *tc, int op, unsigned int seed)
{
	const char *opn = op == ID_NS ? "non-sleepable op" : "sleepable op";
	unsigned char *plain = map_anon(tc->len, true);
	struct io_uring_sqe *sqe;
	struct io_uring_cqe cqe;
	char what[200];

	snprintf(what, sizeof(what), "%s: %s (offset %zu, %zu bytes)", opn,
		 tc->what, tc->off, tc->len);
	if (!CHECK_PTR(plain, "mmap the plain buffer"))
		return;
	if (tc->to_fixed)
		fill(plain, tc->len, seed);
	sqe = uring_get_sqe(r);
	sqe_bpf(sqe, T_BPF_OP_FLAGS(op, T_BPF_BUF_FIXED, T_BPF_BUF_PLAIN,
				    tc->to_fixed ? PINS_F_REVERSE : 0), 7);
	sqe_bpf_buf1(sqe, (uintptr_t)(fx + tc->off), tc->len, 0);
	sqe_bpf_buf2(sqe, (uintptr_t)plain, tc->len);
	if (CHECK_EQ(uring_submit(r), 1, what) &&
	    CHECK_EQ(uring_wait_cqe(r, &cqe, T_CQE_TIMEOUT_MS), 0, what) &&
	    CHECK_EQ(cqe.res, (int)tc->len, what)) {
		if (tc->to_fixed) {
			memcpy(shadow + tc->off, plain, tc->len);
			CHECK_MEM(fx, shadow, THP_LEN, "the whole registered "
				  "buffer: the copied range and nothing else");
		} else {
			CHECK_MEM(plain, shadow + tc->off, tc->len, what);
		}
	}
	/* after a failure, go on from what the buffer holds now */
	if (T.cur_failed)
		memcpy(shadow, fx, THP_LEN);
	munmap(plain, tc->len);
}

static void t_thp_fixed_buffer_copy(void)
{
	unsigned char *raw = NULL, *fx, *shadow = NULL;
	char mode[32] = "", set_back[32] = "";
	struct uring r = { .fd = -1 };
	struct iovec iov;
	long huge_kb;
	int km = kmsg_begin();

	if (!need_ops())
		goto out;
	if (!thp_mode(mode, sizeof(mode))) {
		SKIP_SUBTEST("kernel without transparent huge pages "
			     "(no /sys/kernel/mm/transparent_hugepage/enabled)");
		goto out;
	}
	if (!strcmp(mode, "never")) {
		if (write_str("/sys/kernel/mm/transparent_hugepage/enabled",
			      "madvise")) {
			SKIP_SUBTEST("transparent huge pages are off (never) and "
				     "cannot be set to madvise");
			goto out;
		}
		snprintf(set_back, sizeof(set_back), "%s", mode);
	}
	raw = mmap(NULL, THP_LEN + HUGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	shadow = malloc(THP_LEN);
	if (!CHECK_TRUE(raw != MAP_FAILED && shadow, "mmap 6 MiB")) {
		raw = NULL;
		goto out;
	}
	fx = (unsigned char *)(((uintptr_t)raw + HUGE - 1) & ~(HUGE - 1));
	/* with THP "always" this is not needed; AnonHugePages decides below */
	if (madvise(fx, THP_LEN, MADV_HUGEPAGE))
		T_INFO("madvise(MADV_HUGEPAGE): %s", strerror(errno));
	fill(fx, THP_LEN, 5);
	memcpy(shadow, fx, THP_LEN);
	huge_kb = smaps_anon_huge_kb(fx);
	T_INFO("figures: thp: registered buffer of 4 MiB at a 2 MiB boundary, "
	       "AnonHugePages %ld kB (THP mode %s)", huge_kb, mode);
	if (huge_kb < (long)(HUGE / KIB)) {
		SKIP_SUBTEST("the buffer got no transparent huge page "
			     "(AnonHugePages %ld kB, mode %s): no memory for one?",
			     huge_kb, mode);
		goto out;
	}
	if (!CHECK_EQ(uring_init(&r, 8, T_IORING_SETUP_BPF, 0), 0, "ring"))
		goto out;
	iov.iov_base = fx;
	iov.iov_len = THP_LEN;
	if (!CHECK_EQ(uring_register_buffers(&r, &iov, 1), 0,
		      "IORING_REGISTER_BUFFERS of the THP-backed 4 MiB"))
		goto out;
	/*
	 * The sleepable op first: its copy is a user copy, which a fault on
	 * the kernel side ends short; the non-sleepable op's copy between
	 * kernel pages has no such fixup (an oops on a kernel that copies
	 * past the page it mapped).
	 */
	for (int op = 0; op < 2; op++)
		for (int i = 0; i < cfg->thp_rounds; i++)
			for (size_t c = 0; c < ARRAY_SIZE(thp_cases); c++)
				thp_copy(&r, fx, shadow, &thp_cases[c],
					 op ? ID_NS : ID_S, i * 8 + c);
out:
	if (r.fd >= 0)
		uring_exit(&r);
	if (raw)
		munmap(raw, THP_LEN + HUGE);
	free(shadow);
	if (set_back[0])
		write_str("/sys/kernel/mm/transparent_hugepage/enabled", set_back);
	KMSG_END(km);
}

/* ---- 6. file mappings are pinned the way registered buffers are -------- */

#define FM_LEN		(4 * PAGE)

/* one request of @op copying FM_LEN bytes from @src (buffer 1) to @dst */
static bool fm_copy(int op, void *src, void *dst, int want, const char *what)
{
	struct park pk;
	bool ok;

	ok = CHECK_EQ(park_init(&pk, 1), 0, "ring") &&
	     CHECK_EQ(park_add(&pk, T_BPF_OP_FLAGS(op, T_BPF_BUF_PLAIN,
						   T_BPF_BUF_PLAIN, 0),
			       src, FM_LEN, 0, dst, FM_LEN, want), 0, what) &&
	     CHECK_EQ(park_submit(&pk), 0, what) &&
	     CHECK_EQ(pk.parked, 1, what) && park_release(&pk, what);
	if (!ok)
		T_INFO("%s: the op's last kfunc result %d", what,
		       skel->bss->last_ret[op == ID_NS ? 0 : 1]);
	park_free(&pk);
	return ok;
}

static bool file_is(int fd, unsigned char c, const char *what)
{
	unsigned char buf[FM_LEN];

	if (!CHECK_EQ(pread(fd, buf, FM_LEN, 0), (long)FM_LEN, "pread the file"))
		return false;
	for (size_t i = 0; i < FM_LEN; i++)
		if (buf[i] != c)
			return CHECK_EQ(buf[i], c, what);
	return true;
}

/*
 * A non-sleepable op pins its plain buffers at prep and holds them for as
 * long as the request waits: the same long-term pin as a registered
 * buffer, taken the same way (FOLL_LONGTERM). On ramfs (its mappings have
 * page_mkwrite: the kernel tracks their dirty pages) a MAP_SHARED mapping
 * can't be registered, nor pinned for writing: a non-sleepable op copies
 * from it but not into it (-EFAULT, the file unchanged; before, the copy
 * wrote the page-cache page behind the file system's back). A MAP_PRIVATE
 * file mapping works both ways, as before; a long-term pin of it unshares
 * its pages (the kernel's rule, so that the pinned page stays the one the
 * process sees): its Anonymous grows by the buffer, as for a registered
 * buffer (figure printed).
 */
static void t_file_mappings_pinned_like_registered(void)
{
	char dir[] = "/run/op_pins_ramfs.XXXXXX", path[64];
	unsigned char *shared = MAP_FAILED, *priv = MAP_FAILED;
	unsigned char *a = NULL, *b = NULL, fillb[FM_LEN];
	int km = kmsg_begin(), fd = -1, ret;
	bool mounted = false;
	long anon_kb[2];
	struct park pk;
	volatile unsigned char sink;

	if (!need_ops())
		goto out;
	if (!CHECK_TRUE(mkdtemp(dir) != NULL, "mkdtemp under /run"))
		goto out;
	if (!CHECK_EQ(mount("ramfs", dir, "ramfs", 0, NULL), 0, "mount ramfs"))
		goto out;
	mounted = true;
	snprintf(path, sizeof(path), "%s/f", dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	memset(fillb, 0x5a, sizeof(fillb));
	if (!CHECK_TRUE(fd >= 0, "create a ramfs file") ||
	    !CHECK_EQ(pwrite(fd, fillb, FM_LEN, 0), (long)FM_LEN, "write it"))
		goto out;
	shared = mmap(NULL, FM_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	priv = mmap(NULL, FM_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	a = map_anon(FM_LEN, true);
	b = map_anon(FM_LEN, true);
	if (!CHECK_TRUE(shared != MAP_FAILED && priv != MAP_FAILED && a && b,
			"map the file shared and private, two anonymous buffers"))
		goto out;
	memset(a, 0xa5, FM_LEN);

	/* what registered buffers do with the same mapping */
	if (CHECK_EQ(park_init(&pk, 1), 0, "ring")) {
		ret = register_res(&pk.r, shared, FM_LEN);
		CHECK_TRUE(ret < 0, "IORING_REGISTER_BUFFERS of a MAP_SHARED "
			   "ramfs mapping is refused");
		T_INFO("IORING_REGISTER_BUFFERS of it: %d", ret);
	}
	park_free(&pk);

	fm_copy(ID_NS, a, shared, -EFAULT,
		"non-sleepable op copying into a MAP_SHARED ramfs mapping");
	file_is(fd, 0x5a, "the file after a refused copy into its mapping");
	if (fm_copy(ID_NS, shared, b, FM_LEN,
		    "non-sleepable op copying from a MAP_SHARED ramfs mapping"))
		CHECK_MEM(b, fillb, FM_LEN, "bytes copied from the file");
	/* a sleepable op writes through the mapping, as a write() would */
	if (fm_copy(ID_S, a, shared, FM_LEN,
		    "sleepable op copying into a MAP_SHARED ramfs mapping"))
		file_is(fd, 0xa5, "the file after the sleepable op's copy");

	/* the private mapping: read, then a source, then a destination */
	for (size_t i = 0; i < FM_LEN; i += PAGE)
		sink = priv[i];
	(void)sink;
	anon_kb[0] = smaps_kb(priv, "Anonymous:");
	memset(b, 0, FM_LEN);
	if (fm_copy(ID_NS, priv, b, FM_LEN, "non-sleepable op copying from "
		    "a MAP_PRIVATE file mapping"))
		CHECK_MEM(b, a, FM_LEN, "bytes copied from the private mapping");
	anon_kb[1] = smaps_kb(priv, "Anonymous:");
	T_INFO("figures: MAP_PRIVATE ramfs mapping of %lu kB: Anonymous %ld kB "
	       "after reading it, %ld kB after a request used it as a source",
	       FM_LEN / KIB, anon_kb[0], anon_kb[1]);
	memset(b, 0x3c, FM_LEN);
	if (fm_copy(ID_NS, b, priv, FM_LEN, "non-sleepable op copying into "
		    "a MAP_PRIVATE file mapping"))
		CHECK_MEM(priv, b, FM_LEN, "the private mapping after the copy");
	file_is(fd, 0xa5, "the file under the private mapping copied into");
	CHECK_EQ(vmpin_settle(0, 5000), 0, "VmPin (kB) at the end");
out:
	if (shared != MAP_FAILED)
		munmap(shared, FM_LEN);
	if (priv != MAP_FAILED)
		munmap(priv, FM_LEN);
	if (a)
		munmap(a, FM_LEN);
	if (b)
		munmap(b, FM_LEN);
	if (fd >= 0)
		close(fd);
	if (mounted)
		umount2(dir, MNT_DETACH);
	if (dir[sizeof(dir) - 2] != 'X')
		rmdir(dir);
	KMSG_END(km);
}

int main(int argc, char **argv)
{
	const char *lf = getenv("IOURING_BPF_PINS_LONG");

	T_INIT(argc, argv);
	REQUIRE_ROOT();
	REQUIRE_BTF_TYPE("uring_bpf_ops", "IORING_OP_BPF");
	REQUIRE_BTF_TYPE("uring_bpf_data", "IORING_OP_BPF");
	if (lf && atoi(lf) > 0)
		cfg = &cfg_long;

	RUN(t_memlock_bounds_pins);
	RUN(t_kernel_memory_charged);
	RUN(t_refcount_overflow_refused);
	RUN(t_buffer_changed_after_prep);
	RUN(t_thp_fixed_buffer_copy);
	RUN(t_file_mappings_pinned_like_registered);

	t_detach(&link_ns);
	t_detach(&link_s);
	if (skel)
		op_pins__destroy(skel);
	return T_DONE();
}
