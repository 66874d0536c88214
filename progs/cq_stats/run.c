// SPDX-License-Identifier: GPL-2.0
/*
 * cq-stats: the workload `iouring-bpf run cq-stats` drives (loader/workloads/
 * workload.h) and its checks, on the program's skeleton (struct iou_unit).
 * --count: the requests: NOPs and reads.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "workload.h"
#include IOU_UNIT_SKEL

static int setup_cq_stats(struct run_ctx *rc)
{
	struct iou_unit s;

	return RC_SET(rc, RC_VIEW(rc, &s, rodata), ud_is_ts, 1);
}

static int run_cq_stats(struct run_ctx *rc)
{
	long long n = rc_count(rc), zero = 0, pos = 0, neg = 0, ebadf = 0;
	long long neg3 = 0, done = 0, lat = 0;
	struct iou_unit s;
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

IOU_WORKLOAD(.desc = "loop: count completions by result and latency, change nothing",
	     .mainline_note =
		"the hook hides io_uring_enter()'s arguments: the program submits the app's SQEs and returns at once; a call with none waits for wait_nr new CQEs (or nothing in flight); enter returns 0, not the count submitted; on an SQ_REWIND ring the app stores how many SQEs it queued in the SQ tail",
	     .example = "iouring-bpf run cq-stats --count 256",
	     .takes_count = 1,
	     .count = 256,
	     .setup = setup_cq_stats,
	     .run = run_cq_stats);
