// SPDX-License-Identifier: GPL-2.0
/*
 * rewind_nops - does IORING_SETUP_SQ_REWIND make nop-chain faster?
 *
 * nop-chain (the built-in, through libiouring-bpf) runs N NOPs in one
 * io_uring_enter() on three rings that differ only in the SQ mode: an SQ
 * array, NO_SQARRAY, and NO_SQARRAY|SQ_REWIND (Linux 7.0+: every submit
 * takes its SQEs from index 0, so at depth D the program keeps reusing
 * the first D SQEs instead of walking all 64). Each ring is
 * SINGLE_ISSUER|DEFER_TASKRUN|CQSIZE, 64 SQ / 256 CQ entries (the bench's
 * nops ring), made fresh per mode and run; the program is attached before
 * the clock starts, and completed == issued == N is checked after.
 * Order: one warm-up pass of the three modes, then R interleaved passes.
 * Printed: ns per NOP of every mode and run, and per run the ratios of
 * throughput rewind/nosqarray and rewind/sqarray, with their medians.
 *
 *   rewind_nops [-n N] [-d DEPTH] [-r RUNS]     (default 200000, 1, 5)
 *
 * Exit: 0, 1 a run failed its check, 77 no SQ_REWIND (not a mainline
 * loop hook). docs/performance.md has the method and the results.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "start.h"	/* the engine's one-call start */

#define RN_SETUP_SQ_REWIND	(1U << 20)	/* our name: 6.1 headers lack it */
#define NMODES			3
#define MAX_RUNS		64

static const struct {
	const char	*name;
	unsigned int	flags;
} modes[NMODES] = {
	{ "sqarray",	0 },
	{ "nosqarray",	IORING_SETUP_NO_SQARRAY },
	{ "rewind",	IORING_SETUP_NO_SQARRAY | RN_SETUP_SQ_REWIND },
};

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* ns for n NOPs on a fresh ring of mode m, or -1 */
static long long one(int m, long long n, int depth)
{
	struct io_uring_params p = { .cq_entries = 256 };
	char nr[32], dp[32];
	const char *params[] = { nr, dp, NULL };
	struct iouring_bpf_error err;
	struct iouring_bpf *h;
	long long t, done = -1, issued = -1;
	int fd, ret;

	p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
		  IORING_SETUP_CQSIZE | modes[m].flags;
	fd = syscall(__NR_io_uring_setup, 64, &p);
	if (fd < 0) {
		fprintf(stderr, "rewind_nops: %s ring: %s\n", modes[m].name,
			strerror(errno));
		return -1;
	}
	snprintf(nr, sizeof(nr), "nr=%lld", n);
	snprintf(dp, sizeof(dp), "depth=%d", depth);
	h = iouring_bpf_open("nop-chain", &err);
	if (!h || iouring_bpf_start(h, fd, &p, params, &err)) {
		fprintf(stderr, "rewind_nops: %s: %s\n", modes[m].name, err.msg);
		iouring_bpf_close(h);
		close(fd);
		return -1;
	}
	t = now_ns();
	ret = syscall(__NR_io_uring_enter, fd, 0, 0, IORING_ENTER_GETEVENTS,
		      NULL, 0);
	t = now_ns() - t;
	iouring_bpf_var_int(h, "completed", &done);
	iouring_bpf_var_int(h, "issued", &issued);
	iouring_bpf_close(h);
	close(fd);
	if (ret || done != n || issued != n) {
		fprintf(stderr, "rewind_nops: %s: enter %d, completed %lld, issued %lld of %lld\n",
			modes[m].name, ret, done, issued, n);
		return -1;
	}
	return t;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	double ns[NMODES][MAX_RUNS], r_nosq[MAX_RUNS], r_sq[MAX_RUNS];
	long long n = 200000, t;
	int depth = 1, runs = 5, opt, m, i;
	enum iouring_bpf_loop_api api = iouring_bpf_kernel_loop_api();

	while ((opt = getopt(argc, argv, "n:d:r:")) != -1) {
		if (opt == 'n')
			n = atoll(optarg);
		else if (opt == 'd')
			depth = atoi(optarg);
		else if (opt == 'r')
			runs = atoi(optarg);
		else
			return 2;
	}
	if (n <= 0 || depth <= 0 || runs <= 0 || runs > MAX_RUNS) {
		fprintf(stderr, "usage: rewind_nops [-n N] [-d DEPTH] [-r RUNS<=%d]\n",
			MAX_RUNS);
		return 2;
	}
	if (api != IOURING_BPF_LOOP_71 && api != IOURING_BPF_LOOP_72) {
		printf("no SQ_REWIND: the kernel's loop hook is %s\n",
		       iouring_bpf_loop_api_key(api));
		return 77;
	}
	for (m = 0; m < NMODES; m++)	/* warm-up */
		if (one(m, n / 10 ? n / 10 : 1, depth) < 0)
			return 1;
	for (i = 0; i < runs; i++) {
		for (m = 0; m < NMODES; m++) {
			t = one(m, n, depth);
			if (t < 0)
				return 1;
			ns[m][i] = (double)t / n;
		}
		r_nosq[i] = ns[1][i] / ns[2][i];
		r_sq[i] = ns[0][i] / ns[2][i];
		printf("run %d: ns/NOP sqarray %.1f nosqarray %.1f rewind %.1f; rewind/nosqarray %.3f rewind/sqarray %.3f\n",
		       i + 1, ns[0][i], ns[1][i], ns[2][i], r_nosq[i], r_sq[i]);
	}
	printf("nop-chain, %lld NOPs, depth %d, %d runs: median ns/NOP",
	       n, depth, runs);
	for (m = 0; m < NMODES; m++)
		printf(" %s %.1f", modes[m].name, median(ns[m], runs));
	printf("; throughput rewind/nosqarray %.3f, rewind/sqarray %.3f (medians of the per-run ratios)\n",
	       median(r_nosq, runs), median(r_sq, runs));
	return 0;
}
