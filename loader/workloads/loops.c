// SPDX-License-Identifier: GPL-2.0
/*
 * loops.c - the workloads `run` drives for the loop programs (nop-chain,
 * copy, batch-wait, hybrid-poll, cq-stats). The ring is SINGLE_ISSUER |
 * DEFER_TASKRUN | NO_SQARRAY, 64 SQ / 256 CQ entries; the program is
 * attached to it before the workload starts. Every io_uring_enter() that
 * waits has a 10 s (or longer) timeout, so a program that never says STOP
 * fails the run instead of hanging it.
 *
 * On mainline's hook (Linux 7.1+) io_uring_enter() returns 0 after the
 * program's STOP, not the count submitted, and ignores the timeout: `run`
 * arms a watchdog signal instead (cli/run.c), and the workloads check what
 * each hook returns.
 *
 * Delayed completions are reads of timerfds, not IORING_OP_TIMEOUT, so that
 * the workloads also run on a kernel without patch 0028: there, a completed
 * timeout request made the wait loop consider itself woken for the rest of
 * that wait, and a program returning WAIT was called again in a busy loop.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include "workload.h"
#include "nop_chain.skel.h"
#include "copy.skel.h"
#include "batch_wait.skel.h"
#include "hybrid_poll.skel.h"
#include "cq_stats.skel.h"

/* a timerfd that expires once, ns from now; reading it gives 8 bytes */
static int timer_in(int fd, long long ns)
{
	struct itimerspec its = { 0 };

	if (fd < 0)
		fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (fd < 0)
		return -1;
	its.it_value.tv_sec = ns / SEC_NS;
	its.it_value.tv_nsec = ns % SEC_NS;
	if (timerfd_settime(fd, 0, &its, NULL)) {
		close(fd);
		return -1;
	}
	return fd;
}

static int exit_kind(struct run_ctx *rc)
{
	struct iou_exit_info ei;

	return iouring_bpf_exit_info(rc->h, &ei);
}

/* nop-chain -------------------------------------------------------------- */

/* --count NOPs, --depth in flight; they win over a --set of the same */
int args_nop_chain(struct run_ctx *rc)
{
	struct iou_nop_chain s;

	RC_VIEW(rc, &s, rodata);
	return (rc->count >= 0 ? RC_SET(rc, s.rodata, nr, rc->count) : 0) ?:
	       (rc->depth >= 0 ? RC_SET(rc, s.rodata, depth, rc->depth) : 0);
}

int run_nop_chain(struct run_ctx *rc)
{
	struct iou_nop_chain s;
	long long nr = RC_VIEW(rc, &s, rodata)->nr, depth = s.rodata->depth;
	long long t0, t;
	int ret;

	RC_VIEW(rc, &s, bss);
	t0 = now_ns();
	ret = ring_wait(&rc->ring, 0, 10 * SEC_NS + nr * 100000LL);
	t = now_ns() - t0;

	rc_num(rc, "nops", nr);
	rc_num(rc, "depth", depth);
	rc_num(rc, "io_uring_enter_calls", 1);
	RC_NUM(rc, s.bss, completed);
	RC_NUM(rc, s.bss, issued);
	RC_NUM(rc, s.bss, errors);
	RC_NUM(rc, s.bss, steps);
	RC_NUM(rc, s.bss, max_inflight);
	if (nr)
		rc_out(rc, "ns_per_nop", "%lld", t / nr);
	rc_check(rc, ret == 0, "io_uring_enter returned %d (%s), want 0", ret,
		 ret < 0 ? strerror(-ret) : "");
	RC_CHECK_EQ(rc, s.bss, completed, nr);
	RC_CHECK_EQ(rc, s.bss, issued, nr);
	rc_check(rc, s.bss->errors == 0, "%lld NOPs failed",
		 (long long)s.bss->errors);
	rc_check(rc, (long long)s.bss->max_inflight <= depth,
		 "%lld NOPs were in flight, depth is %lld",
		 (long long)s.bss->max_inflight, depth);
	rc_check(rc, ring_cq_ready(&rc->ring) == 0,
		 "%u CQEs left for user space; the program should consume all",
		 ring_cq_ready(&rc->ring));
	rc_check(rc, exit_kind(rc) == IOU_EXIT_KIND_DONE,
		 "the program did not report done");
	return 0;
}

/* copy ------------------------------------------------------------------- */

#define COPY_FILE_SIZE	(1024 * 1024 + 123)
#define COPY_PIPE_SIZE	(300000 + 77)

struct copy_state {
	int		in, out;
	pid_t		child;
	size_t		size;
	unsigned char	*buf;
	char		dir[256];
	char		src[300], dst[300];
};

static unsigned char pattern(size_t i)
{
	return (unsigned char)(i * 2654435761u >> 13);
}

static void feed_pipe(int fd)
{
	static unsigned char chunk[8192];
	size_t off = 0, n;
	unsigned int k = 0;

	while (off < COPY_PIPE_SIZE) {
		n = 1 + (k++ * 7919) % sizeof(chunk);	/* odd sizes */
		if (n > COPY_PIPE_SIZE - off)
			n = COPY_PIPE_SIZE - off;
		for (size_t i = 0; i < n; i++)
			chunk[i] = pattern(off + i);
		if (write(fd, chunk, n) != (ssize_t)n)
			_exit(1);
		off += n;
		if (k % 8 == 0)
			usleep(200);	/* let the reader see a short read */
	}
	_exit(0);
}

int setup_copy(struct run_ctx *rc)
{
	struct iou_copy k;
	long long block = RC_VIEW(rc, &k, rodata)->block;
	long long stream = k.rodata->stream_in;
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	struct copy_state *s;
	int p[2];

	if (block <= 0 || block > (64 << 20)) {
		return rc_fail(rc, IOURING_BPF_USAGE, ERANGE,
			       "block=%lld: must be 1..64M", block);
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return rc_fail(rc, IOURING_BPF_FAIL, ENOMEM, "out of memory");
	rc->priv = s;
	s->in = s->out = -1;
	s->buf = aligned_alloc(4096, (block + 4095) / 4096 * 4096);
	snprintf(s->dir, sizeof(s->dir), "%s/iouring-bpf-copy-XXXXXX", tmp);
	if (!s->buf || !mkdtemp(s->dir)) {
		return rc_fail(rc, IOURING_BPF_FAIL, errno,
			       "cannot make a directory in %s: %s (set TMPDIR)",
			       tmp, strerror(errno));
	}
	snprintf(s->src, sizeof(s->src), "%s/src", s->dir);
	snprintf(s->dst, sizeof(s->dst), "%s/dst", s->dir);
	if (stream) {
		if (pipe(p))
			return rc_fail(rc, IOURING_BPF_FAIL, errno, "pipe: %s",
				       strerror(errno));
		s->child = fork();
		if (s->child < 0)
			return rc_fail(rc, IOURING_BPF_FAIL, errno, "fork: %s",
				       strerror(errno));
		if (s->child == 0) {
			close(p[0]);
			close(rc->ring.fd);
			feed_pipe(p[1]);
		}
		close(p[1]);
		s->in = p[0];
		s->size = COPY_PIPE_SIZE;
	} else {
		int fd = open(s->src, O_CREAT | O_RDWR | O_TRUNC, 0600);
		unsigned char *data = malloc(COPY_FILE_SIZE);

		if (fd < 0 || !data) {
			free(data);
			return rc_fail(rc, IOURING_BPF_FAIL, errno,
				       "cannot create %s: %s", s->src,
				       strerror(errno));
		}
		for (size_t i = 0; i < COPY_FILE_SIZE; i++)
			data[i] = pattern(i);
		if (write(fd, data, COPY_FILE_SIZE) != COPY_FILE_SIZE) {
			free(data);
			close(fd);
			return rc_fail(rc, IOURING_BPF_FAIL, EIO,
				       "cannot write %s", s->src);
		}
		free(data);
		s->in = fd;
		s->size = COPY_FILE_SIZE;
	}
	s->out = open(s->dst, O_CREAT | O_RDWR | O_TRUNC, 0600);
	if (s->out < 0)
		return rc_fail(rc, IOURING_BPF_FAIL, errno, "cannot create %s: %s",
			       s->dst, strerror(errno));
	return RC_SET(rc, k.rodata, fd_in, s->in) ?:
	       RC_SET(rc, k.rodata, fd_out, s->out) ?:
	       RC_SET(rc, k.rodata, buf, (long long)(unsigned long)s->buf);
}

int run_copy(struct run_ctx *rc)
{
	struct copy_state *s = rc->priv;
	struct iou_copy k;
	long long block = RC_VIEW(rc, &k, rodata)->block;
	long long t0, t, bad_at = -1;
	unsigned char *got;
	ssize_t n;
	int ret, status;

	/*
	 * 10 s, plus 50 ms per block: a debug kernel under emulation copying
	 * 1 MiB in 1000-byte blocks over 9p needs about 35 s.
	 */
	t0 = now_ns();
	ret = ring_wait(&rc->ring, 0, 10 * SEC_NS +
			(long long)(s->size / block + 1) * 50000000LL);
	t = now_ns() - t0;

	got = malloc(s->size + 1);
	n = got ? pread(s->out, got, s->size + 1, 0) : -1;
	for (size_t i = 0; n == (ssize_t)s->size && i < s->size; i++) {
		if (got[i] != pattern(i)) {
			bad_at = i;
			break;
		}
	}
	free(got);
	if (s->child > 0) {
		if (ret)
			kill(s->child, SIGKILL);
		waitpid(s->child, &status, 0);
	}

	rc_out(rc, "source", "%s, %zu bytes", s->child ? "pipe" : "file",
	       s->size);
	RC_VIEW(rc, &k, bss);
	rc_num(rc, "block", block);
	RC_NUM(rc, k.bss, bytes_read);
	RC_NUM(rc, k.bss, bytes_written);
	rc_num(rc, "reads", k.bss->nr_reads);
	rc_num(rc, "writes", k.bss->nr_writes);
	RC_NUM(rc, k.bss, short_reads);
	RC_NUM(rc, k.bss, short_writes);
	RC_NUM(rc, k.bss, steps);
	if (t > 0)
		rc_out(rc, "MiB_per_s", "%.1f", s->size / 1048576.0 / (t / 1e9));
	rc_check(rc, ret == 0, "io_uring_enter returned %d (%s), want 0", ret,
		 ret < 0 ? strerror(-ret) : "");
	rc_check(rc, exit_kind(rc) == IOU_EXIT_KIND_DONE,
		 "the program did not reach end of file");
	rc_check(rc, n == (ssize_t)s->size, "destination has %zd bytes, want %zu",
		 n, s->size);
	rc_check(rc, bad_at < 0, "destination differs at byte %lld", bad_at);
	RC_CHECK_EQ(rc, k.bss, bytes_written, s->size);
	RC_CHECK_EQ(rc, k.bss, bytes_read, s->size);
	rc_check(rc, k.bss->short_reads >= 1,
		 "no short read was seen (the last block of the file is one)");

	close(s->in);
	close(s->out);
	unlink(s->src);
	unlink(s->dst);
	rmdir(s->dir);
	free(s->buf);
	return 0;
}

/* batch-wait ------------------------------------------------------------- */

int run_batch_wait(struct run_ctx *rc)
{
	struct iou_batch_wait s;
	long long n = rc_count(rc, 66), batch = RC_VIEW(rc, &s, rodata)->batch;
	long long maxwait = s.rodata->max_wait_us * 1000;
	long long got = 0, waits = 0, bad = 0, partial = 0, total;
	long long late0, late, t0, dt;
	__u64 (*bufs)[1];
	int *fds, ret;

	RC_VIEW(rc, &s, bss);
	if (n > 256 || batch > 32) {
		fprintf(stderr, "iouring-bpf run: batch-wait: --count at most 256, batch at most 32\n");
		return -1;
	}
	total = n + (batch > 1 ? batch - 1 : 0);
	fds = calloc(total + 1, sizeof(*fds));
	bufs = calloc(total + 1, sizeof(*bufs));
	if (!fds || !bufs)
		goto out;
	for (long long i = 0; i <= total; i++)
		fds[i] = -1;
	/* timers expiring every 100 us from 1 ms on, each read once */
	for (long long i = 0; i < n; i++) {
		fds[i] = timer_in(-1, 1000000 + i * 100000);
		if (!rc_check(rc, fds[i] >= 0, "timerfd: %s", strerror(errno)))
			goto out;
		ring_prep_rw(ring_get_sqe(&rc->ring), IORING_OP_READ, fds[i],
			     bufs[i], 8, 0, i + 1);
		if ((i + 1) % 32 == 0 || i == n - 1) {
			ret = ring_submit(&rc->ring);
			if (!rc_check(rc, ret >= 0, "submit: %s", strerror(-ret)))
				goto out;
		}
	}
	while (got < n) {
		unsigned int ready;

		late0 = s.bss->wakes_late;
		t0 = now_ns();
		ret = ring_wait(&rc->ring, 1, 10 * SEC_NS);
		dt = now_ns() - t0;
		late = s.bss->wakes_late - late0;
		ready = ring_cq_ready(&rc->ring);
		waits++;
		if (ready < batch)
			partial++;
		if (ret == -ETIME && !ready) {
			rc_check(rc, 0, "wait %lld timed out (10 s) with nothing ready",
				 waits);
			break;
		}
		if (ret && ret != -ETIME) {
			rc_check(rc, 0, "io_uring_enter: %s", strerror(-ret));
			break;
		}
		/* fewer than a batch: only after the deadline */
		if (!ret && ready < batch && !late && dt < maxwait && !bad++)
			rc_check(rc, 0, "wait %lld returned with %u CQEs, fewer than batch=%lld, after %lld us, before the deadline (%lld us)",
				 waits, ready, batch, dt / 1000, maxwait / 1000);
		for (unsigned int i = 0; i < ready; i++) {
			struct io_uring_cqe *c = ring_peek_cqe(&rc->ring);

			if (c->res != 8 && !bad++)
				rc_check(rc, 0, "timer read %llu: res %d, want 8",
					 (unsigned long long)c->user_data, c->res);
			ring_cq_advance(&rc->ring, 1);
			got++;
		}
	}

	/*
	 * batch - 1 more: they can never make a batch, so the wait must end
	 * on the deadline, max_wait_us after the first is seen.
	 */
	if (batch > 1 && got == n && !rc->failed) {
		unsigned int ready;

		for (long long i = n; i < total; i++) {
			fds[i] = timer_in(-1, 1000000);
			ring_prep_rw(ring_get_sqe(&rc->ring), IORING_OP_READ,
				     fds[i], bufs[i], 8, 0, i + 1);
		}
		ring_submit(&rc->ring);
		t0 = now_ns();
		ret = ring_wait(&rc->ring, 1, 10 * SEC_NS);
		dt = now_ns() - t0;
		ready = ring_cq_ready(&rc->ring);
		/* the kernel says -ETIME only when the CQ is empty */
		rc_check(rc, (ret == 0 || ret == -ETIME) && ready >= 1 &&
			 ready < batch && dt >= maxwait && dt < 5 * SEC_NS,
			 "a partial batch: wait returned %d with %u ready after %lld us, want 0 with 1..%lld after >= %lld us",
			 ret, ready, dt / 1000, batch - 1, maxwait / 1000);
		rc_out(rc, "partial_batch", "%u of %lld CQEs, returned after %lld us",
		       ready, batch, dt / 1000);
		partial++;
		while (got < total) {
			struct io_uring_cqe c;

			if (rc_reap(rc, &c, 1))
				break;
			got++;
		}
		n = total;
	}
	rc_num(rc, "requests", n);
	rc_num(rc, "batch", batch);
	RC_NUM(rc, s.rodata, max_wait_us);
	rc_num(rc, "waits", waits);
	rc_num(rc, "woken_by_deadline", partial);
	RC_NUM(rc, s.bss, wakes_batch);
	RC_NUM(rc, s.bss, steps);
	rc_check(rc, got == n, "reaped %lld CQEs, want %lld", got, n);
	rc_check(rc, !bad, "%lld wrong results", bad);
out:
	for (long long i = 0; fds && i <= total; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	free(bufs);
	return 0;
}

/* hybrid-poll ------------------------------------------------------------ */

int run_hybrid_poll(struct run_ctx *rc)
{
	long long n = rc_count(rc, 200), bad = 0, lat_sum = 0;
	struct iou_hybrid_poll s;
	struct io_uring_cqe c;
	__u64 tbuf;
	int ret, tfd = -1;

	RC_VIEW(rc, &s, rodata);
	RC_VIEW(rc, &s, bss);
	for (long long i = 0; i < n; i++) {
		long long t0;

		/* alternate a 20 us and a 2 ms timer */
		tfd = timer_in(tfd, i % 2 ? 2000000 : 20000);
		if (!rc_check(rc, tfd >= 0, "timerfd: %s", strerror(errno)))
			return 0;
		ring_prep_rw(ring_get_sqe(&rc->ring), IORING_OP_READ, tfd,
			     &tbuf, 8, 0, i + 1);
		/* mainline: io_uring_enter() returns 0 after STOP */
		ret = ring_submit(&rc->ring);
		if (!rc_check(rc, ret == (rc->mainline ? 0 : 1), "submit: %d",
			      ret))
			return 0;
		/* min_complete 0: the program runs at once and waits `want` */
		t0 = now_ns();
		ret = ring_wait(&rc->ring, 0, 10 * SEC_NS);
		lat_sum += now_ns() - t0;
		if (ret != 0 || ring_cq_ready(&rc->ring) != 1) {
			if (!bad++)
				rc_check(rc, 0, "wait %lld: returned %d with %u CQEs, want 0 with 1",
					 i, ret, ring_cq_ready(&rc->ring));
			if (ret != 0 && ret != -ETIME)
				break;
		}
		if (rc_reap(rc, &c, 1))
			break;
		if (c.res != 8 && !bad++)
			rc_check(rc, 0, "timer read %lld: res %d, want 8", i, c.res);
	}
	if (tfd >= 0)
		close(tfd);
	rc_num(rc, "requests", n);
	RC_NUM(rc, s.rodata, spin_us);
	RC_NUM(rc, s.rodata, want);
	RC_NUM(rc, s.bss, waits);
	RC_NUM(rc, s.bss, done_polling);
	RC_NUM(rc, s.bss, done_sleeping);
	RC_NUM(rc, s.bss, polls);
	RC_NUM(rc, s.bss, sleeps);
	if (n)
		rc_out(rc, "mean_wait_us", "%lld", lat_sum / n / 1000);
	rc_check(rc, !bad, "%lld waits went wrong", bad);
	rc_check(rc, s.bss->waits == (__u64)n, "the program saw %lld waits, want %lld",
		 (long long)s.bss->waits, n);
	rc_check(rc, s.bss->done_polling + s.bss->done_sleeping == (__u64)n,
		 "done_polling + done_sleeping = %lld, want %lld",
		 (long long)(s.bss->done_polling + s.bss->done_sleeping), n);
	/* half the timers take 2 ms: longer than a short spin */
	if (n >= 2 && s.rodata->spin_us < 500)
		rc_check(rc, s.bss->done_sleeping >= 1,
			 "no wait ever went to sleep, with spin_us=%lld and 2 ms timers",
			 (long long)s.rodata->spin_us);
	if (n >= 2)
		rc_check(rc, s.bss->polls >= 1, "the program never polled");
	return 0;
}

/* cq-stats --------------------------------------------------------------- */

int setup_cq_stats(struct run_ctx *rc)
{
	struct iou_cq_stats s;

	return RC_SET(rc, RC_VIEW(rc, &s, rodata), ud_is_ts, 1);
}

int run_cq_stats(struct run_ctx *rc)
{
	long long n = rc_count(rc, 256), zero = 0, pos = 0, neg = 0, ebadf = 0;
	long long neg3 = 0, done = 0, lat = 0;
	struct iou_cq_stats s;
	__u64 *errno_count, *hist;
	char line[160];
	char buf[32][8];
	int fd[4], ret;		/* request i: a NOP, or a read of fd[i % 4] */
	int e3 = rc->mainline ? EFAULT : EISDIR;	/* fd[3]'s result */
	int off = 0;

	/*
	 * Results that come at issue time (a failed prep stops submission).
	 * On v3 the kernel submits and the program runs in the wait: a read
	 * of a directory (9p: io-wq, -EISDIR) completes late enough to be
	 * waited for. On mainline the program submits, and Debian's 7.2.13
	 * may warn in set_task_cpu() when it submits a request that goes to
	 * io-wq (README, known issues): there every request completes inline,
	 * the third kind a read of /dev/zero into NULL (-EFAULT).
	 */
	fd[1] = open("/dev/zero", O_RDONLY);
	fd[2] = open("/dev/null", O_WRONLY);	/* read: -EBADF */
	fd[3] = rc->mainline ? open("/dev/zero", O_RDONLY) :
			       open("/", O_RDONLY | O_DIRECTORY);
	if (!rc_check(rc, fd[1] >= 0 && fd[2] >= 0 && fd[3] >= 0, "open: %s",
		      strerror(errno)))
		return 0;
	while (done < n) {
		unsigned int k = n - done < 32 ? n - done : 32, ready;

		for (unsigned int i = 0; i < k; i++) {
			struct io_uring_sqe *sqe = ring_get_sqe(&rc->ring);
			unsigned int kind = (done + i) % 4;
			__u64 ud = now_ns();

			if (kind == 0)
				ring_prep_nop(sqe, ud);
			else
				ring_prep_rw(sqe, IORING_OP_READ, fd[kind],
					     kind == 3 && rc->mainline ?
					     NULL : buf[i],
					     sizeof(buf[i]), 0, ud);
		}
		ret = ring_submit(&rc->ring);
		if (!rc_check(rc, ret == (rc->mainline ? 0 : (int)k),
			      "submit: %d, want %u", ret, rc->mainline ? 0 : k))
			break;
		/*
		 * v3 returns with k; on mainline the program waits for
		 * wait_nr: enter again until k are there, as liburing does
		 */
		ret = 0;
		for (int w = 0; w < 64 && !ret &&
		     ring_cq_ready(&rc->ring) < k; w++)
			ret = ring_wait(&rc->ring, k, 10 * SEC_NS);
		ready = ring_cq_ready(&rc->ring);
		if (!rc_check(rc, ret == 0 && ready >= k,
			      "wait for %u: returned %d with %u ready", k, ret,
			      ready))
			break;
		/* user space reaps everything: the program consumed nothing */
		for (unsigned int i = 0; i < ready; i++) {
			struct io_uring_cqe *c = ring_peek_cqe(&rc->ring);

			zero += c->res == 0;
			pos += c->res > 0;
			neg += c->res < 0;
			ebadf += c->res == -EBADF;
			neg3 += c->res == -e3;
			ring_cq_advance(&rc->ring, 1);
			done++;
		}
	}
	for (int f = 1; f < 4; f++)
		close(fd[f]);

	errno_count = RC_VIEW(rc, &s, bss)->errno_count;
	hist = s.bss->lat_hist;
	for (size_t b = 0; b < 32; b++)
		lat += hist[b];

	rc_num(rc, "requests", n);
	rc_num(rc, "reaped_by_app", done);
	RC_NUM(rc, s.bss, nr_cqes);
	rc_out(rc, "by_result", "zero %lld, positive %lld, negative %lld (EBADF %lld, %s %lld)",
	       (long long)s.bss->nr_zero, (long long)s.bss->nr_pos,
	       (long long)s.bss->nr_neg, (long long)errno_count[EBADF],
	       e3 == EFAULT ? "EFAULT" : "EISDIR", (long long)errno_count[e3]);
	for (size_t b = 0; b < 32 && off < (int)sizeof(line) - 24; b++)
		if (hist[b])
			off += snprintf(line + off, sizeof(line) - off,
					"%s<%lluus:%lld", off ? " " : "",
					1ULL << (b + 1), (long long)hist[b]);
	rc_out(rc, "latency", "%s", off ? line : "-");
	rc_check(rc, done == n, "the app reaped %lld CQEs, want %lld", done, n);
	rc_check(rc, s.bss->nr_cqes == (__u64)done, "program counted %lld CQEs, app %lld",
		 (long long)s.bss->nr_cqes, done);
	rc_check(rc, s.bss->nr_zero == (__u64)zero && s.bss->nr_pos == (__u64)pos &&
		 s.bss->nr_neg == (__u64)neg,
		 "program: zero/pos/neg %lld/%lld/%lld, app %lld/%lld/%lld",
		 (long long)s.bss->nr_zero, (long long)s.bss->nr_pos,
		 (long long)s.bss->nr_neg, zero, pos, neg);
	rc_check(rc, errno_count[EBADF] == (__u64)ebadf &&
		 errno_count[e3] == (__u64)neg3, "errno counts differ from the app's");
	rc_check(rc, lat == done, "latency histogram holds %lld, want %lld",
		 lat, done);
	return 0;
}
