// SPDX-License-Identifier: GPL-2.0
/*
 * op.c - `bench op-overhead`: what an IORING_OP_BPF request costs
 * over IORING_OP_NOP. One ring (BPF | SINGLE_ISSUER | DEFER_TASKRUN |
 * NO_SQARRAY | CQSIZE, 64 SQ / 256 CQ) for both modes; the `nop` op
 * (progs/nop/prog.bpf.c: prep_fn and issue_fn, each one atomic counter
 * increment) is registered once for the whole scenario. Requests go 32 per
 * io_uring_enter(fd, 32, 32, GETEVENTS) and every CQE is checked.
 *
 *   nop      IORING_OP_NOP
 *   bpf-nop  IORING_OP_BPF with the nop op's id, no buffers
 *
 * Reported: ns per request for each, and bpf-nop / nop within each run.
 */
#include <errno.h>
#include <string.h>
#include "bench.h"

#define OP_BATCH	32

int bench_op_overhead(struct bench_scn *s)
{
	long long n = s->count > 0 ? s->count : 500000;
	long long prep0 = 0, issue0 = 0, prep1 = 0, issue1 = 0;
	struct iouring_bpf *h;
	struct ring r;
	__u32 opf;
	int ret, status = 0;

	s->count = n;
	/* bit 20 is IORING_SETUP_SQ_REWIND on mainline: make no such ring */
	if (!iouring_bpf_op_setup_flag())
		return cli_fail(EXIT_NOFEATURE, "bench", "this kernel has no IORING_OP_BPF (no struct uring_bpf_ops): op-overhead needs the project's kernel");
	ret = ring_init(&r, BENCH_SQ, BENCH_CQ, BENCH_OP_FLAGS);
	if (ret == -EINVAL)
		return cli_fail(EXIT_NOFEATURE, "bench", "io_uring_setup(IORING_SETUP_BPF): EINVAL: this kernel has no IORING_OP_BPF");
	if (ret) {
		bench_fail(s, "io_uring_setup: %s", strerror(-ret));
		return EXIT_FAIL;
	}
	h = bench_attach(s->alt_prog ? s->alt_prog : "nop", &r,
			 s->alt_prog ? s->alt_sets : NULL, &status);
	if (!h) {
		ring_exit(&r);
		return status ? status : EXIT_FAIL;
	}
	opf = iou_bpf_op_flags(iouring_bpf_op_id(h), IORING_BPF_BUF_TYPE_NONE,
			       IORING_BPF_BUF_TYPE_NONE, 0);
	bench_param(s, "requests", "%lld per mode and run, %d per io_uring_enter",
		    n, OP_BATCH);
	bench_param(s, "ring", "%s, %u SQ / %u CQ entries, one ring for both modes",
		    bench_ring_flags(BENCH_OP_FLAGS), BENCH_SQ, BENCH_CQ);
	if (s->alt_prog)
		bench_param(s, "op", "%s as op id %d (--prog, NOT the catalogue's nop)",
			    s->alt_prog, iouring_bpf_op_id(h));
	else
		bench_param(s, "op", "progs/nop/prog.bpf.c as op id %d (prep_fn + issue_fn, one atomic add each)",
			    iouring_bpf_op_id(h));
	bench_param(s, "order", "warm-up (n/10 each), then nop bpf-nop repeated %d times",
		    s->runs);
	bench_target(s, "IORING_OP_BPF nop <= 1.8x IORING_OP_NOP per request",
		     "bpf/nop", "ratio", -1, '<', 1.8);

	snprintf(s->cur, sizeof(s->cur), "warm-up");
	if (bench_batches(s, &r, n / 10 + 1, OP_BATCH, 0) < 0 ||
	    bench_batches(s, &r, n / 10 + 1, OP_BATCH, opf) < 0)
		goto out;
	iouring_bpf_var_int(h, "nr_prep", &prep0);
	iouring_bpf_var_int(h, "nr_issue", &issue0);
	for (int run = 0; run < s->runs; run++) {
		long long t_nop, t_bpf;

		snprintf(s->cur, sizeof(s->cur), "nop run %d", run);
		t_nop = bench_batches(s, &r, n, OP_BATCH, 0);
		snprintf(s->cur, sizeof(s->cur), "bpf-nop run %d", run);
		t_bpf = t_nop < 0 ? -1 : bench_batches(s, &r, n, OP_BATCH, opf);
		if (t_bpf < 0)
			goto out;
		bench_add(s, "nop", "IORING_OP_NOP", "ns_per_req", "ns", -1,
			  (double)t_nop / n);
		bench_add(s, "bpf-nop", "IORING_OP_BPF nop op", "ns_per_req",
			  "ns", -1, (double)t_bpf / n);
		bench_add(s, "bpf/nop", "cost ratio bpf-nop / nop", "ratio",
			  "x", -1, (double)t_bpf / t_nop);
		bench_add(s, "bpf-nop", "IORING_OP_BPF nop op", "extra_ns",
			  "ns", -1, (double)(t_bpf - t_nop) / n);
	}
	iouring_bpf_var_int(h, "nr_prep", &prep1);
	iouring_bpf_var_int(h, "nr_issue", &issue1);
	/* a --prog without the counters reads 0 - 0 */
	if ((prep1 || issue1 || !s->alt_prog) &&
	    (prep1 - prep0 != n * s->runs || issue1 - issue0 != n * s->runs))
		bench_fail(s, "the op ran prep %lld and issue %lld times, want %lld each",
			   prep1 - prep0, issue1 - issue0, n * s->runs);
out:
	iouring_bpf_close(h);
	ring_exit(&r);
	return s->failed ? EXIT_FAIL : 0;
}
