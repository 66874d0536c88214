// SPDX-License-Identifier: GPL-2.0
/*
 * workload.c - what the workloads of `iouring-bpf run` share (each is
 * progs/NAME/run.c, beside its program): finding a program's workload,
 * result lines, checks, the program's globals, timers.
 *
 * Op workloads submit requests with opcode IORING_OP_BPF and the
 * program's op id, reap every CQE, and check results and counters
 * exactly. Loop workloads run on a SINGLE_ISSUER | DEFER_TASKRUN |
 * NO_SQARRAY ring, 64 SQ / 256 CQ entries, the program attached before
 * the workload starts; every io_uring_enter() that waits has a 10 s (or
 * longer) timeout, so a program that never says STOP fails the run
 * instead of hanging it. On mainline's hook (Linux 7.1+) io_uring_enter()
 * returns 0 after the program's STOP, not the count submitted, and
 * ignores the timeout: `run` arms a watchdog signal instead (cli/run.c),
 * and the workloads check what each hook returns.
 *
 * Delayed completions are reads of timerfds (rc_timer_in()), not
 * IORING_OP_TIMEOUT, so that the workloads also run on a kernel without
 * patch 0026: there, a completed timeout request made the wait loop
 * consider itself woken for the rest of that wait, and a program
 * returning WAIT was called again in a busy loop.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/timerfd.h>
#include "workload.h"

void rc_fill_random(unsigned char *p, size_t n, unsigned int *seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = rand_r(seed);
}

int rc_timer_in(int fd, long long ns)
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

int rc_exit_kind(struct run_ctx *rc)
{
	struct iou_exit_info ei;

	return iouring_bpf_exit_info(rc->h, &ei);
}

long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void rc_out(struct run_ctx *rc, const char *key, const char *fmt, ...)
{
	va_list ap;
	char val[256];

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	if (!rc->json) {
		printf("  %-22s %s\n", key, val);
		return;
	}
	if (rc->nout == RUN_MAX_OUT)
		return;
	snprintf(rc->out[rc->nout].key, sizeof(rc->out[0].key), "%s", key);
	snprintf(rc->out[rc->nout].val, sizeof(rc->out[0].val), "%s", val);
	rc->out[rc->nout].is_num = 0;
	rc->nout++;
}

void rc_num(struct run_ctx *rc, const char *key, long long v)
{
	rc_out(rc, key, "%lld", v);
	if (rc->json && rc->nout)
		rc->out[rc->nout - 1].is_num = 1;
}

int rc_check(struct run_ctx *rc, int cond, const char *fmt, ...)
{
	va_list ap;

	if (cond)
		return 1;
	rc->failed++;
	fprintf(stderr, "FAIL: %s: ", rc->prog->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 0;
}

void *rc_section(struct run_ctx *rc, const char *sec, size_t size, size_t align)
{
	size_t sz = 0;
	void *p = iouring_bpf_section(rc->h, sec, &sz);

	if (!p || (sz + align - 1) / align * align != size) {
		fprintf(stderr, "iouring-bpf run: %s: its %s has %zu bytes, its skeleton %zu (rebuild: make -C loader)\n",
			rc->prog->name, sec, sz, size);
		exit(1);	/* the CLI's EXIT_FAIL */
	}
	return p;
}

int rc_fail(struct run_ctx *rc, int status, int errnum, const char *fmt, ...)
{
	char msg[sizeof(rc->err->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return iouring_bpf_errorf(rc->err, status, errnum, "%s: %s",
				  rc->prog->name, msg);
}

int rc_param_check(struct run_ctx *rc, const char *name, long long v)
{
	if (!iouring_bpf_prog_param(rc->prog, name))
		return 0;	/* set by the workload, not a parameter */
	return iouring_bpf_prog_param_check(rc->prog, name, v, rc->err);
}

int rc_unfit(struct run_ctx *rc, const char *name, long long v, size_t size)
{
	return rc_fail(rc, IOURING_BPF_USAGE, ERANGE,
		       "%s=%lld does not fit its %zu-byte variable", name, v,
		       size);
}

int rc_check_eq(struct run_ctx *rc, const char *name, long long v,
		long long want)
{
	return rc_check(rc, v == want, "%s %lld, want %lld", name, v, want);
}

long long rc_count(struct run_ctx *rc)
{
	return rc->count >= 0 ? rc->count : rc->w->count;
}

__u32 rc_opf(struct run_ctx *rc, __u32 buf1, __u32 buf2, __u32 flags)
{
	return iouring_bpf_op_flags(rc->h, buf1, buf2, flags);
}

int rc_reap(struct run_ctx *rc, struct io_uring_cqe *cqes, unsigned int n)
{
	struct io_uring_cqe c;
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = ring_wait_cqe(&rc->ring, cqes ? &cqes[i] : &c);
		if (ret) {
			fprintf(stderr, "iouring-bpf run: io_uring_enter: %s\n",
				strerror(-ret));
			return ret;
		}
	}
	return 0;
}

