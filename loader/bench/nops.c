// SPDX-License-Identifier: GPL-2.0
/*
 * nops.c - `bench nops`: Pavel Begunkov's comparison, on one kind of
 * ring (SINGLE_ISSUER | DEFER_TASKRUN | NO_SQARRAY | CQSIZE, 64 SQ / 256 CQ
 * entries), a fresh one for every mode and run:
 *
 *   a  user space submits one NOP and waits for it, N times
 *      (io_uring_enter(fd, 1, 1, GETEVENTS) per NOP)
 *   b  user space submits a link of two NOPs and waits for both, N/2 times
 *   c  the nop-chain loop program, depth 1: one io_uring_enter(fd, 0, 0,
 *      GETEVENTS), the program reaps each NOP and submits the next
 *   d  the ceiling: NOPs in batches of 32 per io_uring_enter, reaped
 *
 * Every CQE is checked (res 0); nop-chain's counters must say N completed.
 * Reported: requests/s and ns/request per mode, io_uring_enter calls (or,
 * for c, loop program invocations) per request, and c/a, c/b, c/d computed
 * within each run.
 */
#include <errno.h>
#include <string.h>
#include "bench.h"

#define NOPS_BATCH	32

enum { MODE_A, MODE_B, MODE_C, MODE_D, NMODES };

static const struct {
	const char *mode, *label;
} modes[NMODES] = {
	{ "a", "a: 1 NOP per enter" },
	{ "b", "b: 2-NOP link per enter" },
	{ "c", "c: nop-chain (BPF loop), depth 1" },
	{ "d", "d: batches of 32 per enter" },
};

/* b: a link of two NOPs per io_uring_enter, n/2 times */
static long long mode_b(struct bench_scn *s, struct ring *r, long long n)
{
	long long t0 = bench_t0(s);

	for (long long i = 0; i < n / 2; i++) {
		struct io_uring_sqe *sqe = ring_get_sqe(r);

		ring_prep_nop(sqe, 2 * i);
		sqe->flags |= IOSQE_IO_LINK;
		ring_prep_nop(ring_get_sqe(r), 2 * i + 1);
		if (bench_enter(s, r, 2, 0))
			return -1;
	}
	return bench_t1(s, t0);
}

/* c: nop-chain, loaded and attached to r before the clock starts */
static long long mode_c(struct bench_scn *s, struct ring *r, long long n,
			long long *steps, int *status)
{
	char nr[48];
	const char *params[12] = { nr, "depth=1" };
	struct iouring_bpf *h;
	long long t0, t, completed = -1;
	int ret, i;

	snprintf(nr, sizeof(nr), "nr=%lld", n);
	for (i = 0; s->alt_sets[i]; i++)
		params[2 + i] = s->alt_sets[i];
	h = bench_attach(s->alt_prog ? s->alt_prog : "nop-chain", r, params,
			 status);
	if (!h)
		return -1;
	t0 = bench_t0(s);
	ret = ring_wait(r, 0, 60 * SEC_NS + n * 100000LL);
	t = bench_t1(s, t0);
	iouring_bpf_var_int(h, "completed", &completed);
	iouring_bpf_var_int(h, "steps", steps);
	iouring_bpf_close(h);
	if (ret != 0 || completed != n) {
		bench_fail(s, "nop-chain: io_uring_enter returned %d, %lld of %lld NOPs completed",
			   ret, completed, n);
		return -1;
	}
	if (ring_cq_ready(r)) {
		bench_fail(s, "nop-chain left %u CQEs", ring_cq_ready(r));
		return -1;
	}
	return t;
}

static long long run_mode(struct bench_scn *s, int m, long long n,
			  double *per_req_calls, int *status)
{
	struct ring r;
	long long t = -1, steps = 0;
	int ret, batch;

	ret = ring_init(&r, BENCH_SQ, BENCH_CQ, BENCH_LOOP_FLAGS);
	if (ret) {
		bench_fail(s, "io_uring_setup(%s): %s",
			   bench_ring_flags(BENCH_LOOP_FLAGS), strerror(-ret));
		return -1;
	}
	switch (m) {
	case MODE_A:
	case MODE_D:
		batch = m == MODE_A ? 1 : NOPS_BATCH;
		t = bench_batches(s, &r, n, batch, 0);
		*per_req_calls = 1.0 / batch;
		break;
	case MODE_B:
		t = mode_b(s, &r, n);
		*per_req_calls = 0.5;
		break;
	case MODE_C:
		t = mode_c(s, &r, n, &steps, status);
		*per_req_calls = n ? (double)steps / n : 0;
		break;
	}
	ring_exit(&r);
	return t;
}

int bench_nops(struct bench_scn *s)
{
	long long n = s->count > 0 ? s->count : 200000;
	int status = 0;

	n &= ~1LL;	/* b issues pairs */
	if (n < 2)
		n = 2;
	s->count = n;
	bench_param(s, "requests", "%lld NOPs per mode and run (b: %lld links of 2)",
		    n, n / 2);
	bench_param(s, "ring", "%s, %u SQ / %u CQ entries, a fresh ring per mode and run",
		    bench_ring_flags(BENCH_LOOP_FLAGS), BENCH_SQ, BENCH_CQ);
	bench_param(s, "order", "warm-up (each mode once, N/10), then a b c d repeated %d times",
		    s->runs);
	bench_param(s, "c", "program loaded and attached before the clock starts; timed: the one io_uring_enter");
	bench_param(s, "loop_binding", iouring_bpf_loop_api_key(iouring_bpf_kernel_loop_api()));
	if (s->alt_prog) {
		char sets[160] = "";
		size_t off = 0;

		for (int i = 0; s->alt_sets[i]; i++)
			off += snprintf(sets + off, sizeof(sets) - off, " %s",
					s->alt_sets[i]);
		bench_param(s, "c program", "%s%s (--prog, NOT the catalogue's nop-chain)",
			    s->alt_prog, sets);
	}
	bench_target(s, "nop-chain >= 2x the 2-NOP link mode (c/b)", "c/b",
		     "ratio", -1, '>', 2.0);
	bench_target(s, "nop-chain >= 2.5x one NOP per enter (c/a)", "c/a",
		     "ratio", -1, '>', 2.5);

	/* warm-up: page in the code paths, load the program once */
	for (int m = 0; m < NMODES; m++) {
		double calls;

		snprintf(s->cur, sizeof(s->cur), "%s warm-up", modes[m].mode);
		if (run_mode(s, m, n / 10 & ~1LL, &calls, &status) < 0)
			return status ? status : EXIT_FAIL;
	}

	for (int run = 0; run < s->runs; run++) {
		double ns[NMODES];

		for (int m = 0; m < NMODES; m++) {
			double calls = 0;
			long long t;

			snprintf(s->cur, sizeof(s->cur), "%s run %d",
				 modes[m].mode, run);
			t = run_mode(s, m, n, &calls, &status);
			if (t < 0)
				return status ? status : EXIT_FAIL;
			ns[m] = (double)t / n;
			bench_add(s, modes[m].mode, modes[m].label, "req_per_s",
				  "req/s", -1, 1e9 / ns[m]);
			bench_add(s, modes[m].mode, modes[m].label, "ns_per_req",
				  "ns", -1, ns[m]);
			bench_add(s, modes[m].mode, modes[m].label,
				  m == MODE_C ? "loop_calls_per_req" :
				  "enters_per_req", "calls", -1, calls);
		}
		bench_add(s, "c/a", "ratio c/a (nop-chain / 1 per enter)",
			  "ratio", "x", -1, ns[MODE_A] / ns[MODE_C]);
		bench_add(s, "c/b", "ratio c/b (nop-chain / 2-NOP links)",
			  "ratio", "x", -1, ns[MODE_B] / ns[MODE_C]);
		bench_add(s, "c/d", "ratio c/d (nop-chain / batches of 32)",
			  "ratio", "x", -1, ns[MODE_D] / ns[MODE_C]);
		bench_add(s, "b/a", "ratio b/a (links / 1 per enter)",
			  "ratio", "x", -1, ns[MODE_A] / ns[MODE_B]);
	}
	return 0;
}
