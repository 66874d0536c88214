/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - what `iouring-bpf run` gives a program's workload (each
 * progs/NAME/run.c), and the workloads by program. Sits on the library's
 * public header and the CLI's ring (ring.h) only.
 */
#ifndef __IOURING_BPF_WORKLOAD_H
#define __IOURING_BPF_WORKLOAD_H

#include <stdio.h>
#include "engine.h"
#include "ring.h"

#define RUN_MAX_OUT	64

struct workload;

struct run_ctx {
	const struct iouring_bpf_prog *prog;
	const struct workload	*w;
	struct iouring_bpf	*h;
	struct iouring_bpf_error *err;	/* args, setup: why they failed */
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
/*
 * The program's globals, typed by its bpftool skeleton (build/skel/
 * NAME.skel.h, made from progs/NAME.bpf.c): RC_VIEW(rc, &s, bss) points
 * the skeleton's section at the object the library opened, and
 * s.bss->completed is a field: a global renamed in progs/ fails the build.
 * Before load the views are libbpf's images (.rodata: the parameters, to
 * set), after load the maps. rc_section() ends the run if the object's
 * section has another size than the skeleton's (which the compiler rounds
 * up to the struct's alignment).
 */
#define RC_VIEW(rc, skel, sec) \
	((skel)->sec = rc_section(rc, "." #sec, sizeof(*(skel)->sec), \
				  __alignof__(*(skel)->sec)))
void *rc_section(struct run_ctx *rc, const char *sec, size_t size,
		 size_t align);
/*
 * set a parameter before load: 0, or -ERANGE and rc->err if v is out of
 * the parameter's range (progs/NAME/unit.c, the check --set and the
 * library make) or does not fit
 */
#define RC_SET(rc, view, f, v) \
	(rc_param_check(rc, #f, v) ?: \
	 (long long)((view)->f = (v)) == (v) ? 0 : \
	 rc_unfit(rc, #f, v, sizeof((view)->f)))
int rc_param_check(struct run_ctx *rc, const char *name, long long v);
int rc_unfit(struct run_ctx *rc, const char *name, long long v, size_t size);
/* a result line "f: value" for field f of view */
#define RC_NUM(rc, view, f)	rc_num(rc, #f, (view)->f)
/* the check "field f of view == want", failing as "f <value>, want <want>" */
#define RC_CHECK_EQ(rc, view, f, want)	rc_check_eq(rc, #f, (view)->f, want)
int rc_check_eq(struct run_ctx *rc, const char *name, long long v,
		long long want);
/* --count, or the workload's default */
long long rc_count(struct run_ctx *rc);
/* the op flags word for this program's op id */
__u32 rc_opf(struct run_ctx *rc, __u32 buf1, __u32 buf2, __u32 flags);
/* submit everything queued and reap n CQEs into cqes[] (NULL: count only) */
int rc_reap(struct run_ctx *rc, struct io_uring_cqe *cqes, unsigned int n);
long long now_ns(void);
/* the ring `run` makes for a built-in program (cli/run.c) */
#define RC_RING_SQ	64
#define RC_RING_CQ	256

/* a failure of args or setup: rc->err filled, a negative errno returned */
int rc_fail(struct run_ctx *rc, int status, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * A program's workload: progs/NAME/run.c, compiled with IOU_WORKLOAD_SYM
 * and IOU_UNIT_SKEL (its skeleton, struct iou_unit) and listed by the
 * build (build/loader/workloads/units.c). --count means one thing for
 * every program: the requests its main pass completes (and checks);
 * a program without such requests takes none, and `run` refuses it.
 */
struct workload {
	const char	*desc;		/* one line (list) */
	/* what differs on mainline's hook (list, run), or NULL */
	const char	*mainline_note;
	const char	*example;	/* an `iouring-bpf run` line (list) */
	int		takes_count;	/* --count: requests completed */
	long long	count;		/* its default (0: the object's own) */
	int		takes_depth;	/* --depth: requests in flight */
	/*
	 * the parameters --count and --depth set, if they are parameters
	 * (run.c sets them after --set, so they win over a --set of the
	 * same); NULL: the workload reads rc->count, rc->depth itself
	 */
	const char	*count_param;
	const char	*depth_param;
	/*
	 * steps of run's start (run.c's run_start()), each 0
	 * or a negative errno with rc_fail(): args after --set, before the
	 * kernel check (checks of --count and the parameters); setup once
	 * the ring is bound, before load
	 */
	int		(*args)(struct run_ctx *rc);
	int		(*setup)(struct run_ctx *rc);
	int		(*run)(struct run_ctx *rc);	/* after attach */
};

#define IOU_WORKLOAD(...) \
	const struct workload IOU_WORKLOAD_SYM = { __VA_ARGS__ }

/* build/loader/workloads/units.c: progs/NAME/run.c's workload by NAME */
struct unit_workload {
	const char			*dir;
	const struct workload		*w;
	const struct iouring_bpf_prog	*prog;	/* its catalogue entry */
};

/* every built-in program, NULL-ended (`run` looks a name up here) */
extern const struct unit_workload iou_workloads[];

/* helpers the workloads share */
void rc_fill_random(unsigned char *p, size_t n, unsigned int *seed);
/* a timerfd (fd, or a new one if fd < 0) that expires once, ns from now */
int rc_timer_in(int fd, long long ns);
/* the kind of the program's exit info (iou_exit_info.h), or -ENOENT */
int rc_exit_kind(struct run_ctx *rc);

#endif /* __IOURING_BPF_WORKLOAD_H */
