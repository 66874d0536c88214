/* SPDX-License-Identifier: GPL-2.0 */
/* run.h - what `run` gives a program's workload (run_op.c, run_loop.c) */
#ifndef __IOURING_BPF_RUN_H
#define __IOURING_BPF_RUN_H

#include "cli.h"
#include "ring.h"

#define RUN_MAX_OUT	64

struct run_ctx {
	const struct iou_prog	*prog;
	struct iouring_bpf	*h;
	struct ring		ring;
	long long		count;		/* --count, or -1 */
	long long		depth;		/* --depth, or -1 */
	int			json;
	int			mainline;	/* loop program on mainline's
						 * hook: io_uring_enter() returns
						 * 0, has no timeout */
	int			failed;		/* checks that failed */
	int			nout;
	struct {
		char	key[40];
		char	val[256];
		int	is_num;
	} out[RUN_MAX_OUT];
	void			*priv;		/* setup -> workload state */
};

/* a result line: text "  key: value" now, or a JSON member at the end */
void rc_out(struct run_ctx *rc, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void rc_num(struct run_ctx *rc, const char *key, long long v);
/* a check: on false print "FAIL: ..." and count it; returns cond */
int rc_check(struct run_ctx *rc, int cond, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* a global of the program (counter or parameter); aborts the run if absent */
long long rc_var(struct run_ctx *rc, const char *name);
/* a result line for each global named, under its own name; NULL ends */
void rc_vars(struct run_ctx *rc, ...) __attribute__((sentinel));
/* the check "global NAME == want", failing as "NAME <value>, want <want>" */
int rc_check_var(struct run_ctx *rc, const char *name, long long want);
/* --count (or def) */
long long rc_count(struct run_ctx *rc, long long def);
/* set a parameter before load (setup only) */
int rc_set(struct run_ctx *rc, const char *name, long long v);
/* the op flags word for this program's op id */
__u32 rc_opf(struct run_ctx *rc, __u32 buf1, __u32 buf2, __u32 flags);
/* submit everything queued and reap n CQEs into cqes[] (NULL: count only) */
int rc_reap(struct run_ctx *rc, struct io_uring_cqe *cqes, unsigned int n);
long long now_ns(void);

#endif /* __IOURING_BPF_RUN_H */
