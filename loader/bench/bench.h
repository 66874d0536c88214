/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench.h - `iouring-bpf bench SCENARIO`: what the scenarios (nops.c, ...)
 * share with the driver (bench.c) and the result store (stats.c).
 *
 * A scenario measures a few modes, each R times, interleaved (a b c a b c
 * ...), and records every value of every run under (mode, metric, x).
 * Ratios are computed within one run (run i of mode c over run i of mode a)
 * and recorded like any metric. The driver prints a table (median, min,
 * max over runs) and writes everything, per run, as JSON.
 */
#ifndef __IOURING_BPF_BENCH_H
#define __IOURING_BPF_BENCH_H

#include <stdio.h>
#include "../cli/cli.h"
#include "../workloads/ring.h"
#include "start.h"

long long now_ns(void);	/* workloads/workload.c */

#define BENCH_MAX_RUNS		50
/* the scenarios' rings: 64 SQ, 256 CQ entries (wait: 2048 CQ) */
#define BENCH_SQ		64
#define BENCH_CQ		256
#define BENCH_LOOP_FLAGS	(IORING_SETUP_SINGLE_ISSUER | \
				 IORING_SETUP_DEFER_TASKRUN | \
				 IORING_SETUP_NO_SQARRAY)
#define BENCH_OP_FLAGS		(IOU_SETUP_BPF_OP | BENCH_LOOP_FLAGS)
#define BENCH_MAX_PARAMS	24
#define BENCH_MAX_TARGETS	8

int cmd_bench(int argc, char **argv);

struct bench_metric {
	char	mode[48];	/* "a", "bpf-nop", "op-plain", "nop-chain" */
	char	label[72];	/* human name of the mode for the table */
	char	what[32];	/* "req_per_s", "ns_per_req", "ratio", ... */
	char	unit[16];
	double	x;		/* memcpy: the size; else -1 */
	int	n;
	double	v[BENCH_MAX_RUNS];
};

struct bench_target {
	char	text[120];	/* "nop-chain >= 2x the 2-NOP link mode" */
	char	mode[48];	/* the ratio metric it reads: mode, what, x */
	char	what[32];
	double	x;
	char	op;		/* '>': met when median >= bound; '<': <= */
	double	bound;
	int	met;		/* filled by bench_eval_targets() */
	double	median;
	int	have;
};

struct bench_scn {
	const char		*name;
	const char		*title;
	int			runs;
	long long		count;		/* --count or the default */
	int			trace_marks;	/* write mode markers to ftrace */
	char			cur[96];	/* what is being timed, for marks */
	const char		*alt_prog;	/* --prog: instead of nop-chain / nop */
	const char		*alt_sets[9];	/* its KEY=VALUE parameters */
	int			nparams;
	struct { char key[40]; char val[200]; } params[BENCH_MAX_PARAMS];
	int			nmetrics, cap;
	struct bench_metric	*m;
	int			ntargets;
	struct bench_target	targets[BENCH_MAX_TARGETS];
	char			notes[1024];
	int			failed;		/* a check failed: results suspect */
};

/* --- stats.c ---------------------------------------------------------- */

void bench_param(struct bench_scn *s, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* record value v of one run; the metric is created on first use */
void bench_add(struct bench_scn *s, const char *mode, const char *label,
	       const char *what, const char *unit, double x, double v);
struct bench_metric *bench_find(struct bench_scn *s, const char *mode,
				const char *what, double x);
void bench_target(struct bench_scn *s, const char *text, const char *mode,
		  const char *what, double x, char op, double bound);
void bench_eval_targets(struct bench_scn *s);
/* a check that failed: print it, mark the scenario */
void bench_fail(struct bench_scn *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

double stat_median(const double *v, int n);
/* percentile p (0..100) of v, sorted in place */
double stat_pct(double *v, int n, double p);

void bench_print_table(const struct bench_scn *s, FILE *f);
/* one scenario: an element of the current array of j */
void bench_print_json(const struct bench_scn *s, struct json *j);
void bench_free(struct bench_scn *s);

/* --- bench.c: helpers for the scenarios ---------------------------------- */

/* "-- mode X run i" in the ftrace buffer when --trace-marks is on */
void bench_mark(const struct bench_scn *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* the clock around a timed region: "begin CUR" and "end CUR" marks */
long long bench_t0(struct bench_scn *s);
long long bench_t1(struct bench_scn *s, long long t0);	/* elapsed ns */
/* open + set params + (loop: set ring) + (op: a free op id) + load +
 * attach; NULL and a message on failure (*status = the exit code) */
struct iouring_bpf *bench_attach(const char *prog, struct ring *r,
				 const char *const *params, int *status);
/* an unused op id for IORING_OP_BPF ops the bench registers */
int bench_free_op_id(void);
/* the ring flags as text, with CQSIZE (every scenario sets the CQ size) */
const char *bench_ring_flags(unsigned int flags);
/*
 * io_uring_enter(k, k, GETEVENTS) of the k queued SQEs, then reap exactly
 * k CQEs that are ready now, each with res want; 0, or -1 if not
 */
int bench_enter(struct bench_scn *s, struct ring *r, unsigned int k, int want);
/*
 * n NOPs (opf 0) or IORING_OP_BPF requests without buffers (op flags
 * opf), batch per io_uring_enter, timed: ns, or -1 if a check failed
 */
long long bench_batches(struct bench_scn *s, struct ring *r, long long n,
			unsigned int batch, __u32 opf);

/* --- the scenarios: 0, or an exit code ------------------------------------ */

int bench_nops(struct bench_scn *s);
int bench_op_overhead(struct bench_scn *s);
int bench_memcpy(struct bench_scn *s);
int bench_wait(struct bench_scn *s);
int bench_load(struct bench_scn *s);

#endif /* __IOURING_BPF_BENCH_H */
