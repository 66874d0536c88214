// SPDX-License-Identifier: GPL-2.0
/*
 * iou-stress - races and teardown of both io_uring BPF APIs, bounded in
 * time and count, ending with figures. Runs as root in the debug kernel's
 * VM (tests/stress/run boots it; tests/stress/test_stress.sh is the short
 * version in `make test`).
 *
 * Phases:
 *   race    two registrar threads attach/detach two struct_ops maps with
 *           the same op id (they race for it: -EBUSY) while submitter
 *           threads, each on its own ring (plain and DEFER_TASKRUN), submit
 *           requests for that id: alone, IOSQE_ASYNC, and in link chains
 *           with NOPs. Every CQE must be the op's result, -EOPNOTSUPP (not
 *           registered at prep), or -ECANCELED (behind a failed link
 *           member, or unregistered between prep and issue)
 *   loop    a loop program waits inside io_uring_enter(); meanwhile the
 *           task is SIGKILLed (a forked child), the ring fd is closed, the
 *           link is destroyed, a signal arrives, or the wait times out.
 *           Every wait must end with 0, -EINTR, -ETIME or -EBADF
 *   cycles  N attach/detach cycles of both kinds of map, each used once;
 *           slab usage (/proc/slabinfo without kmemleak's own records,
 *           else SUnreclaim) after warm-up, half-way and at the end, each
 *           time after shrinking every cache (which empties KASAN's
 *           quarantine)
 *   kmemleak  a scan at the end (--kmemleak)
 *
 * Exit: 0 all clean, 1 a check failed (printed), 2 usage, 77 the kernel
 * lacks the features (or not root).
 */
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/wait.h>
#include <time.h>

#include "t_helpers.h"
#include "stress.skel.h"

#define OP_ID		77
#define LOOP_FD		900	/* the loop ring's fd number in every process */
#define RING_ENTRIES	8

static struct {
	int race_s, loop_s, cycles, threads, loop_max;
	unsigned int seed;
	bool kmemleak;
	long slab_limit_kb;
} o = { 20, 20, 1000, 4, 100000, 1, false, 512 };

static struct stress *skel;
static volatile int stop;
static int errors;
static pthread_mutex_t err_lock = PTHREAD_MUTEX_INITIALIZER;

/* figures */
static unsigned long n_req, n_ok, n_eopnotsupp, n_ecanceled, n_flips;
static unsigned long n_reg, n_busy, n_chains, n_async;
static unsigned long n_wait[5], n_cycles;
static long slab_growth_kb;

static void err(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&err_lock);
	if (errors++ < 20) {
		printf("ERROR: ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
		fflush(stdout);
	}
	pthread_mutex_unlock(&err_lock);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#define ADD(v, n) __atomic_fetch_add(&(v), (n), __ATOMIC_RELAXED)

/* ---- race: registrars vs submitters -------------------------------------- */

static void *registrar(void *arg)
{
	struct bpf_map *map = arg;
	unsigned int seed = o.seed ^ (uintptr_t)arg;

	while (!stop) {
		struct bpf_link *link = NULL;
		int ret = t_attach(map, &link);

		if (ret == 0) {
			ADD(n_reg, 1);
			usleep(rand_r(&seed) % 2000);
			t_detach(&link);
		} else if (ret == -EBUSY) {
			ADD(n_busy, 1);
			usleep(100 + rand_r(&seed) % 500);
		} else {
			err("registering op %d: %d", OP_ID, ret);
			usleep(10000);
		}
	}
	return NULL;
}

/* user_data: bit 63 NOP, bits 32-47 chain number, 16-31 position, 0-15 value */
#define UD(nop, chain, pos, val) (((uint64_t)(nop) << 63) |		\
	((uint64_t)((chain) & 0xffff) << 32) | (((pos) & 0xffff) << 16) | \
	((val) & 0xffff))

struct sub {
	int idx;
	unsigned int seed;
	unsigned long flips;
};

static bool bpf_outcome_ok(int res, unsigned int val)
{
	return res == (int)val || res == -EOPNOTSUPP || res == -ECANCELED;
}

static void *submitter(void *arg)
{
	struct sub *s = arg;
	/* SUBMIT_ALL: a request failing at prep does not end the submit */
	unsigned int flags = T_IORING_SETUP_BPF | IORING_SETUP_SUBMIT_ALL;
	int last = 0, chain = 0;
	struct uring r;

	if (s->idx & 1)
		flags |= IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	if (uring_init(&r, 32, flags, 64)) {
		err("submitter %d: io_uring_setup failed", s->idx);
		return NULL;
	}
	while (!stop) {
		struct io_uring_cqe cqes[32];
		int want = 0, ret, i;
		/* first_fail[chain % 32]: position of the first failure, or -1 */
		int first_fail[32];

		/* a batch: single requests, async ones, chains of 2-4 */
		while (want < 24) {
			int kind = rand_r(&s->seed) % 4, len = 1, p;

			if (kind == 3)
				len = 2 + rand_r(&s->seed) % 3;
			if (want + len > 28)
				break;
			first_fail[chain & 31] = -1;
			for (p = 0; p < len; p++) {
				struct io_uring_sqe *sqe = uring_get_sqe(&r);
				unsigned int val = rand_r(&s->seed) & 0xffff;
				bool nop = kind == 3 && rand_r(&s->seed) % 3 == 0;

				if (nop) {
					sqe_nop(sqe, UD(1, chain, p, 0));
				} else {
					sqe_bpf(sqe, T_BPF_OP_FLAGS(OP_ID, 0, 0, val),
						UD(0, chain, p, val));
					ADD(n_req, 1);
				}
				if (kind == 1 || (kind == 3 && rand_r(&s->seed) % 2)) {
					sqe->flags |= IOSQE_ASYNC;
					ADD(n_async, 1);
				}
				if (kind == 3 && p < len - 1)
					sqe->flags |= IOSQE_IO_LINK;
			}
			if (kind == 3)
				ADD(n_chains, 1);
			chain++;
			want += len;
		}
		ret = uring_submit(&r);
		if (ret != want) {
			err("submitter %d: submit %d of %d", s->idx, ret, want);
			break;
		}
		ret = uring_wait_cqes(&r, cqes, want, 20000);
		if (ret != want) {
			err("submitter %d: %d of %d CQEs in 20 s (%d)", s->idx,
			    ret, want, ret);
			break;
		}
		for (i = 0; i < want; i++) {
			uint64_t ud = cqes[i].user_data;
			bool nop = ud >> 63;
			unsigned int val = ud & 0xffff, pos = (ud >> 16) & 0xffff;
			int res = cqes[i].res, c = (ud >> 32) & 31;

			if (nop ? !(res == 0 || res == -ECANCELED) :
				  !bpf_outcome_ok(res, val)) {
				err("submitter %d: %s CQE res %d (want %s)", s->idx,
				    nop ? "NOP" : "BPF", res,
				    nop ? "0 or -ECANCELED" :
				    "the op's value, -EOPNOTSUPP or -ECANCELED");
				continue;
			}
			/*
			 * CQEs of a chain arrive in order: after a failed
			 * member nothing succeeds (a member whose own prep
			 * failed reports its own errno, the others -ECANCELED)
			 */
			if (first_fail[c] >= 0 && res >= 0)
				err("submitter %d: chain member %u res %d after a "
				    "failed member %d", s->idx, pos, res, first_fail[c]);
			if (res < 0 && first_fail[c] < 0)
				first_fail[c] = pos;
			if (nop)
				continue;
			if (res == -EOPNOTSUPP)
				ADD(n_eopnotsupp, 1);
			else if (res == -ECANCELED)
				ADD(n_ecanceled, 1);
			else
				ADD(n_ok, 1);
			if (res != -ECANCELED) {
				int now = res == -EOPNOTSUPP ? 2 : 1;

				if (last && now != last)
					s->flips++;
				last = now;
			}
		}
	}
	uring_exit(&r);
	ADD(n_flips, s->flips);
	return NULL;
}

static void phase_race(void)
{
	pthread_t reg[2], th[16];
	struct sub subs[16];
	int i, n = o.threads > 16 ? 16 : o.threads;
	double t0 = now_s();

	stop = 0;
	pthread_create(&reg[0], NULL, registrar, skel->maps.st_op_a);
	pthread_create(&reg[1], NULL, registrar, skel->maps.st_op_b);
	for (i = 0; i < n; i++) {
		subs[i] = (struct sub){ .idx = i, .seed = o.seed * 7919 + i };
		pthread_create(&th[i], NULL, submitter, &subs[i]);
	}
	while (now_s() - t0 < o.race_s && !errors)
		usleep(100000);
	stop = 1;
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	pthread_join(reg[0], NULL);
	pthread_join(reg[1], NULL);
	printf("race: %lu requests (%lu IOSQE_ASYNC, %lu link chains) on %d rings, "
	       "%.0f s: %lu completed by the op, %lu -EOPNOTSUPP, %lu -ECANCELED; "
	       "%lu registrations, %lu -EBUSY; %lu outcome flips\n",
	       n_req, n_async, n_chains, n, now_s() - t0, n_ok, n_eopnotsupp,
	       n_ecanceled, n_reg, n_busy, n_flips);
}

/* ---- loop: waits ended from outside ------------------------------------- */

enum { W_KILL, W_CLOSE, W_DETACH, W_SIGNAL, W_TIMEOUT };
static const char *const w_name[] = { "kill", "close", "detach", "signal", "timeout" };

static void on_usr1(int sig)
{
	(void)sig;
}

/* a loop ring at fd LOOP_FD with st_loop attached; -errno */
static int loop_ring(struct uring *r, struct bpf_link **link)
{
	double end = now_s() + 5;
	int ret;

	ret = uring_init(r, RING_ENTRIES, T_LOOP_RING_FLAGS, RING_ENTRIES);
	if (ret)
		return ret;
	if (r->fd != LOOP_FD) {
		if (dup2(r->fd, LOOP_FD) != LOOP_FD)
			return -errno;
		close(r->fd);
		r->fd = LOOP_FD;
	}
	/* the previous ring's link may still be going away (deferred free) */
	while ((ret = t_attach(skel->maps.st_loop, link)) == -EBUSY &&
	       now_s() < end)
		usleep(1000);
	if (ret)
		uring_exit(r);
	return ret;
}

static int enter_wait(int fd, long timeout_ms)
{
	struct t_getevents_arg a = { 0 };
	struct __kernel_timespec ts;

	t_ms_to_ts(&ts, timeout_ms);
	a.ts = (uintptr_t)&ts;
	return t_io_uring_enter(fd, 0, 1, IORING_ENTER_GETEVENTS |
				IORING_ENTER_EXT_ARG, &a, sizeof(a));
}

static void wait_kill(unsigned int *seed)
{
	int pfd[2], status;
	struct pollfd p;
	pid_t pid;
	char c;

	if (pipe(pfd))
		return err("pipe: %s", strerror(errno));
	pid = fork();
	if (pid == 0) {
		struct bpf_link *link = NULL;
		struct uring r;

		close(pfd[0]);
		if (loop_ring(&r, &link))
			_exit(3);
		if (write(pfd[1], "x", 1) != 1)
			_exit(4);
		/* no timeout: only the kill ends it */
		t_io_uring_enter(r.fd, 0, 1, IORING_ENTER_GETEVENTS, NULL, 0);
		_exit(5);
	}
	close(pfd[1]);
	p = (struct pollfd){ .fd = pfd[0], .events = POLLIN };
	if (poll(&p, 1, 20000) != 1 || read(pfd[0], &c, 1) != 1) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		close(pfd[0]);
		return err("kill: the child did not attach (status 0x%x)", status);
	}
	usleep(rand_r(seed) % 3000);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	close(pfd[0]);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
		err("kill: the child ended with status 0x%x, not by SIGKILL", status);
}

struct actor {
	pthread_t th;
	int kind, delay_us, fd;
	pthread_t target;
	struct bpf_link *link;
};

static void *actor_fn(void *arg)
{
	struct actor *a = arg;

	usleep(a->delay_us);
	switch (a->kind) {
	case W_CLOSE:
		close(a->fd);
		break;
	case W_DETACH:
		t_detach(&a->link);
		break;
	case W_SIGNAL:
		pthread_kill(a->target, SIGUSR1);
		break;
	}
	return NULL;
}

static void wait_other(int kind, unsigned int *seed)
{
	struct bpf_link *link = NULL;
	struct actor a = { 0 };
	struct uring r;
	int ret;

	ret = loop_ring(&r, &link);
	if (ret)
		return err("%s: loop ring + attach: %d", w_name[kind], ret);
	a.kind = kind;
	a.delay_us = rand_r(seed) % 5000;
	a.fd = r.fd;
	a.target = pthread_self();
	a.link = link;
	if (kind != W_TIMEOUT)
		pthread_create(&a.th, NULL, actor_fn, &a);
	ret = enter_wait(r.fd, kind == W_TIMEOUT ? 1 + rand_r(seed) % 20 : 300);
	if (kind != W_TIMEOUT)
		pthread_join(a.th, NULL);
	if (!(ret == 0 || ret == -EINTR || ret == -ETIME || ret == -EBADF))
		err("%s: io_uring_enter returned %d (want 0, -EINTR, -ETIME or "
		    "-EBADF)", w_name[kind], ret);
	if (kind == W_TIMEOUT && ret != -ETIME)
		err("timeout: io_uring_enter returned %d, want -ETIME", ret);
	if (kind == W_DETACH)
		link = a.link;	/* NULL: destroyed by the actor */
	t_detach(&link);
	if (kind == W_CLOSE) {
		/* the actor closed the fd: unmap only */
		r.fd = -1;
	}
	uring_exit(&r);
}

static void phase_loop(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	unsigned int seed = o.seed * 31;
	double t0 = now_s();
	int i;

	sigaction(SIGUSR1, &sa, NULL);	/* no SA_RESTART: -EINTR */
	for (i = 0; i < o.loop_max && now_s() - t0 < o.loop_s && errors < 20; i++) {
		int kind = i % 5;

		if (kind == W_KILL)
			wait_kill(&seed);
		else
			wait_other(kind, &seed);
		n_wait[kind]++;
	}
	printf("loop: %d waits ended from outside in %.0f s (kill %lu, close %lu, "
	       "detach %lu, signal %lu, timeout %lu); loop program calls %llu\n",
	       i, now_s() - t0, n_wait[W_KILL], n_wait[W_CLOSE], n_wait[W_DETACH],
	       n_wait[W_SIGNAL], n_wait[W_TIMEOUT],
	       (unsigned long long)skel->bss->loop_calls);
}

/* ---- cycles: attach/detach, slab usage ---------------------------------- */

static long meminfo_kb(const char *key)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)) && line[strlen(key)] == ':')
			v = atol(line + strlen(key) + 1);
	fclose(f);
	return v;
}

/* bytes in active slab objects (/proc/slabinfo), -1 if unreadable */
static long slabinfo_bytes(void)
{
	char line[512];
	long total = 0;
	FILE *f = fopen("/proc/slabinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char name[128];
		long active, num, size;

		/* kmemleak's own record of every allocation: not ours */
		if (sscanf(line, "%127s %ld %ld %ld", name, &active, &num, &size) == 4 &&
		    strcmp(name, "kmemleak_object"))
			total += active * size;
	}
	fclose(f);
	return total;
}

/* per-cache active bytes (/proc/slabinfo), for the biggest growers */
#define MAX_CACHES 512
struct cache_use {
	char name[48];
	long bytes;
};

static int slab_caches(struct cache_use *c)
{
	char line[512];
	int n = 0;
	FILE *f = fopen("/proc/slabinfo", "r");

	if (!f)
		return 0;
	while (n < MAX_CACHES && fgets(line, sizeof(line), f)) {
		long active, num, size;

		if (sscanf(line, "%47s %ld %ld %ld", c[n].name, &active, &num,
			   &size) == 4 && strcmp(c[n].name, "kmemleak_object")) {
			c[n].bytes = active * size;
			n++;
		}
	}
	fclose(f);
	return n;
}

/* print the caches that grew most between a and b */
static void slab_growers(struct cache_use *a, int na, struct cache_use *b, int nb)
{
	int i, j, k, shown = 0;

	for (k = 0; k < 5; k++) {
		long best = 0;
		int bi = -1, bj = -1;

		for (i = 0; i < nb; i++) {
			for (j = 0; j < na && strcmp(a[j].name, b[i].name); j++)
				;
			if (b[i].bytes - (j < na ? a[j].bytes : 0) > best) {
				best = b[i].bytes - (j < na ? a[j].bytes : 0);
				bi = i;
				bj = j;
			}
		}
		if (bi < 0 || best < 4096)
			break;
		printf("%s %s %+ld kB", shown++ ? "," : "  grew most:",
		       b[bi].name, best / 1024);
		/* don't pick it again */
		if (bj < na)
			a[bj].bytes = b[bi].bytes;
		else
			b[bi].bytes = 0;
	}
	if (shown)
		printf("\n");
}

/* wait for deferred frees (RCU, link work) to finish: until stable */
static long settle_kb(void)
{
	long prev = -1, cur = meminfo_kb("SUnreclaim");
	int i;

	for (i = 0; i < 10 && cur != prev; i++) {
		sleep(1);
		prev = cur;
		cur = meminfo_kb("SUnreclaim");
	}
	return cur;
}

static int one_cycle(struct uring *opr)
{
	struct bpf_link *link = NULL;
	struct uring lr;
	int res = 0, ret;

	ret = t_attach(skel->maps.st_op_a, &link);
	if (ret)
		return err("cycle: attach op: %d", ret), -1;
	ret = t_bpf_one(opr, T_BPF_OP_FLAGS(OP_ID, 0, 0, 42), 0, 1, &res);
	t_detach(&link);
	if (ret || res != 42)
		return err("cycle: op request: %d, res %d (want 42)", ret, res), -1;
	ret = loop_ring(&lr, &link);
	if (ret)
		return err("cycle: loop ring + attach: %d", ret), -1;
	ret = t_io_uring_enter(lr.fd, 0, 0, IORING_ENTER_GETEVENTS, NULL, 0);
	t_detach(&link);
	uring_exit(&lr);
	if (ret)
		return err("cycle: loop enter: %d", ret), -1;
	return 0;
}

/*
 * Let freed objects really go before measuring: drop the page cache and
 * reclaimable slabs, and shrink every cache, which also empties KASAN's
 * quarantine of that cache's freed objects (they count as active until
 * then: on the debug kernel that alone was ~1 MB over 100 cycles).
 */
static void slab_flush(void)
{
	char path[300];
	struct dirent *e;
	DIR *d;
	int fd;

	fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (fd >= 0) {
		ssize_t r = write(fd, "3", 1);	/* best effort */

		(void)r;
		close(fd);
	}
	d = opendir("/sys/kernel/slab");
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink", e->d_name);
		fd = open(path, O_WRONLY);
		if (fd >= 0) {
			ssize_t r = write(fd, "1", 1);	/* best effort */

			(void)r;
			close(fd);
		}
	}
	closedir(d);
}

/* slab usage in kB: active objects (/proc/slabinfo) if readable, else SUnreclaim */
static long slab_kb(bool *precise)
{
	long b;

	settle_kb();
	slab_flush();
	b = slabinfo_bytes();
	*precise = b >= 0;
	return b >= 0 ? b / 1024 : meminfo_kb("SUnreclaim");
}

/*
 * Slab usage is measured after warm-up, half-way and at the end. Noise
 * (per-CPU caches, partial slabs, KASAN's quarantine of freed objects)
 * comes and goes; a leak grows in both halves. So the run fails only if
 * each half grows by more than half the limit.
 */
static void phase_cycles(void)
{
	static struct cache_use c0[MAX_CACHES], c2[MAX_CACHES];
	long m0, m1 = 0, m2;
	int nc0;
	struct uring opr;
	bool precise;
	double t0;
	int i;

	if (!o.cycles)
		return;
	if (uring_init(&opr, 8, T_IORING_SETUP_BPF, 0))
		return err("cycles: io_uring_setup failed");
	/* warm the caches: a tenth of the run, at least 20 cycles */
	for (i = 0; i < 20 || i < o.cycles / 10; i++)
		if (one_cycle(&opr))
			goto out;
	m0 = slab_kb(&precise);
	nc0 = slab_caches(c0);
	t0 = now_s();
	for (i = 0; i < o.cycles; i++) {
		if (one_cycle(&opr))
			goto out;
		if (i == (o.cycles - 1) / 2)
			m1 = slab_kb(&precise);
	}
	n_cycles = i;
	m2 = slab_kb(&precise);
	slab_growth_kb = m2 - m0;
	printf("cycles: %d attach/detach cycles of an op and a loop map (each "
	       "used once) in %.0f s; slab (%s) %ld -> %ld -> %ld kB: growth "
	       "%+ld kB (%+ld, %+ld kB per half)\n", o.cycles, now_s() - t0,
	       precise ? "/proc/slabinfo active objects" : "SUnreclaim",
	       m0, m1, m2, m2 - m0, m1 - m0, m2 - m1);
	slab_growers(c0, nc0, c2, slab_caches(c2));
	if (m1 - m0 > o.slab_limit_kb / 2 && m2 - m1 > o.slab_limit_kb / 2)
		err("cycles: slab grew in both halves (%+ld, %+ld kB) by more "
		    "than half the limit (%ld kB): a leak", m1 - m0, m2 - m1,
		    o.slab_limit_kb);
out:
	uring_exit(&opr);
}

static int kmemleak_scan(void)
{
	const char *path = "/sys/kernel/debug/kmemleak";
	char line[512];
	int n = 0;
	FILE *f;

	f = fopen(path, "w");
	if (!f) {
		printf("kmemleak: not available (%s: %s)\n", path, strerror(errno));
		return -1;
	}
	/* objects younger than 5 s are never reported */
	sleep(6);
	fputs("scan", f);
	fclose(f);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += !!strstr(line, "unreferenced object");
	fclose(f);
	printf("kmemleak: %d suspected leaks after the run\n", n);
	if (n)
		err("kmemleak reports %d suspected leaks (see %s)", n, path);
	return n;
}

static void kmemleak_clear(void)
{
	FILE *f = fopen("/sys/kernel/debug/kmemleak", "w");

	/* what was found before the run is not ours */
	if (f) {
		fputs("clear", f);
		fclose(f);
	}
}

/* ---- main ------------------------------------------------------------------- */

static void usage(void)
{
	fprintf(stderr,
		"usage: iou-stress [--race S] [--loop S] [--loop-max N] [--cycles N]\n"
		"                  [--threads N] [--seed N] [--slab-limit KB] [--kmemleak]\n"
		"  --race S      register/unregister race for S seconds (default 20)\n"
		"  --loop S      waits ended from outside for S seconds (default 20),\n"
		"  --loop-max N  ... or N waits, whichever comes first\n"
		"  --cycles N    attach/detach cycles with slab accounting (default 1000)\n"
		"  --threads N   submitter threads/rings in the race (default 4)\n"
		"  --slab-limit KB  slab growth in each half of the cycles that fails\n"
		"                 when both halves exceed KB/2 (default 512)\n"
		"  --kmemleak    clear kmemleak first, scan at the end\n"
		"exit: 0 clean, 1 a check failed, 2 usage, 77 no kernel support\n");
	exit(2);
}

static long num_arg(int argc, char **argv, int *i)
{
	char *end;
	long v;

	if (*i + 1 >= argc)
		usage();
	v = strtol(argv[++*i], &end, 0);
	if (*end || v < 0) {
		fprintf(stderr, "iou-stress: %s wants a number >= 0, got '%s'\n",
			argv[*i - 1], argv[*i]);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	struct uring probe;
	double t0 = now_s();
	int i, ret, leaks = -1;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--race"))
			o.race_s = num_arg(argc, argv, &i);
		else if (!strcmp(argv[i], "--loop"))
			o.loop_s = num_arg(argc, argv, &i);
		else if (!strcmp(argv[i], "--loop-max"))
			o.loop_max = num_arg(argc, argv, &i);
		else if (!strcmp(argv[i], "--cycles"))
			o.cycles = num_arg(argc, argv, &i);
		else if (!strcmp(argv[i], "--threads"))
			o.threads = num_arg(argc, argv, &i);
		else if (!strcmp(argv[i], "--seed"))
			o.seed = num_arg(argc, argv, &i);
		else if (!strcmp(argv[i], "--slab-limit"))
			o.slab_limit_kb = num_arg(argc, argv, &i);
		else if (!strcmp(argv[i], "--kmemleak"))
			o.kmemleak = true;
		else
			usage();
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid() != 0) {
		printf("SKIP: iou-stress needs root\n");
		return 77;
	}
	{
		char why[256];

		if (!t_have_btf_struct("uring_bpf_ops", why, sizeof(why)) ||
		    !t_have_btf_struct("io_uring_ops", why, sizeof(why))) {
			printf("SKIP: %s\n", why);
			return 77;
		}
	}
	signal(SIGPIPE, SIG_IGN);
	if (o.kmemleak)
		kmemleak_clear();

	/* every loop ring has the geometry of this one */
	ret = uring_init(&probe, RING_ENTRIES, T_LOOP_RING_FLAGS, RING_ENTRIES);
	if (ret) {
		printf("ERROR: io_uring_setup(loop ring flags): %d\n", ret);
		return 1;
	}
	skel = stress__open();
	if (!skel) {
		printf("ERROR: stress__open: %s\n", strerror(errno));
		return 1;
	}
	skel->rodata->cq_tail_off = probe.p.cq_off.tail;
	skel->rodata->rings_size = probe.p.cq_off.cqes +
		probe.cq_entries * sizeof(struct io_uring_cqe);
	uring_exit(&probe);
	skel->struct_ops.st_loop->ring_fd = LOOP_FD;
	ret = stress__load(skel);
	if (ret) {
		printf("ERROR: stress__load: %d\n", ret);
		return 1;
	}
	printf("iou-stress: seed %u, race %d s x %d rings, loop %d s (max %d), "
	       "%d cycles\n", o.seed, o.race_s, o.threads, o.loop_s, o.loop_max,
	       o.cycles);
	if (o.race_s)
		phase_race();
	if (o.loop_s && !errors)
		phase_loop();
	if (!errors)
		phase_cycles();
	stress__destroy(skel);
	if (o.kmemleak)
		leaks = kmemleak_scan();
	printf("figures: %lu op requests, %lu registrations (%lu -EBUSY), %lu "
	       "outcome flips, %lu waits ended from outside, %lu attach/detach "
	       "cycles, slab growth %+ld kB, kmemleak %s, %.0f s, %d errors\n",
	       n_req, n_reg, n_busy, n_flips,
	       n_wait[0] + n_wait[1] + n_wait[2] + n_wait[3] + n_wait[4],
	       n_cycles, slab_growth_kb, leaks < 0 ? "not scanned" : leaks ? "LEAKS" : "0",
	       now_s() - t0, errors);
	return errors ? 1 : 0;
}
