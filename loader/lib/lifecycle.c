// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * lifecycle.c - the one order of a program's steps after open:
 *
 *   set params, op id -> check the kernel -> the ring (given, or made by
 *   the caller's ring callback) -> bind it -> load -> attach -> pin
 *
 * Every caller (iouring_bpf_attach(), the CLI's run, run FILE, load and
 * bench, the liburing helpers) goes through iouring_bpf_start_opts();
 * none of them puts the steps in order itself. What a caller adds between
 * two steps (a workload's parameters, a file to copy, a clock) it adds in
 * its step callback, which runs after each step and may stop the start.
 *
 * Nothing on disk changes before attach: an @>PATH global holds a
 * reserved fd until then (setvar.c); the files a start created are
 * removed if it fails after that.
 */
#include <errno.h>
#include <string.h>
#include "internal.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static int set_params(struct iouring_bpf *h,
		      const struct iouring_bpf_start_opts *o,
		      struct iouring_bpf_error *err)
{
	const char *const *kv;
	int ret;

	for (kv = o->params; kv && *kv; kv++) {
		ret = iouring_bpf_set(h, *kv, err);
		if (ret)
			return ret;
	}
	return o->op_id >= 0 ? iouring_bpf_set_op_id(h, o->op_id, err) : 0;
}

static int check_kernel(struct iouring_bpf *h,
			const struct iouring_bpf_start_opts *o,
			struct iouring_bpf_error *err)
{
	return iouring_bpf_check_kernel(h, err);
}

/* the ring: the caller's callback, or the fd in the options */
static int bind_ring(struct iouring_bpf *h,
		     const struct iouring_bpf_start_opts *o,
		     struct iouring_bpf_error *err)
{
	struct io_uring_params made;
	const struct io_uring_params *p = o->ring_params;
	int fd = o->ring_fd, ret;

	if (o->ring) {
		memset(&made, 0, sizeof(made));
		ret = o->ring(h, o->ctx, &fd, &made, err);
		if (ret)
			return ret;
		p = made.sq_entries ? &made : NULL;
	}
	if (h->kind != IOURING_BPF_KIND_LOOP)
		return 0;
	return iouring_bpf_set_ring(h, fd, p, err);
}

static int load(struct iouring_bpf *h, const struct iouring_bpf_start_opts *o,
		struct iouring_bpf_error *err)
{
	return iouring_bpf_load(h, err);
}

static int attach(struct iouring_bpf *h,
		  const struct iouring_bpf_start_opts *o,
		  struct iouring_bpf_error *err)
{
	return iouring_bpf_attach_link(h, err);
}

/* THE order: indexed by enum iouring_bpf_step, the step each one does */
static const struct {
	int		(*fn)(struct iouring_bpf *h,
			      const struct iouring_bpf_start_opts *o,
			      struct iouring_bpf_error *err);
	const char	*what;		/* for "the caller stopped ... after" */
} steps[] = {
	[IOURING_BPF_STEP_SET]		= { set_params, "setting its parameters" },
	[IOURING_BPF_STEP_KERNEL]	= { check_kernel, "the kernel check" },
	[IOURING_BPF_STEP_RING]		= { bind_ring, "binding the ring" },
	[IOURING_BPF_STEP_LOAD]		= { load, "load" },
	[IOURING_BPF_STEP_ATTACH]	= { attach, "attach" },
};

/* the caller's step callback after step i; a positive return is -EINVAL */
static int step_done(struct iouring_bpf *h,
		     const struct iouring_bpf_start_opts *o, size_t i,
		     struct iouring_bpf_error *err)
{
	int ret;

	if (!o->step)
		return 0;
	ret = o->step(h, i, o->ctx, err);
	if (ret && err && !err->msg[0])
		iou_fail(err, IOURING_BPF_FAIL, ret,
			 "%s: the caller stopped the start after %s",
			 h->name, steps[i].what);
	return ret > 0 ? -EINVAL : ret;
}

int iouring_bpf_start_opts(struct iouring_bpf *h,
			   const struct iouring_bpf_start_opts *opts,
			   struct iouring_bpf_error *err)
{
	struct iouring_bpf_start_opts o = { .ring_fd = -1, .op_id = -1 };
	size_t i;
	int ret;

	if (err)
		err->msg[0] = '\0';
	if (opts)
		memcpy(&o, opts, opts->sz && opts->sz < sizeof(o) ?
		       opts->sz : sizeof(o));
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		ret = steps[i].fn(h, &o, err);
		if (!ret)
			ret = step_done(h, &o, i, err);
		if (ret)
			goto refused;
	}
	ret = o.pin ? iouring_bpf_pin(h, o.pin, err) : 0;
	if (!ret)
		return 0;
refused:
	/* a refused start leaves no file it created (@>PATH) */
	iou_outputs_undo(h);
	return ret;
}

int iouring_bpf_start(struct iouring_bpf *h, int ring_fd,
		      const struct io_uring_params *p,
		      const char *const *params, struct iouring_bpf_error *err)
{
	struct iouring_bpf_start_opts o = {
		.sz = sizeof(o), .ring_fd = ring_fd, .ring_params = p,
		.params = params, .op_id = -1,
	};

	return iouring_bpf_start_opts(h, &o, err);
}

struct iouring_bpf *iouring_bpf_attach(int ring_fd, const char *prog,
				       const char *const *params,
				       struct iouring_bpf_error *err)
{
	struct iouring_bpf *h = iouring_bpf_open(prog, err);

	if (h && iouring_bpf_start(h, ring_fd, NULL, params, err)) {
		iouring_bpf_close(h);
		return NULL;
	}
	return h;
}

void iouring_bpf_detach(struct iouring_bpf *h)
{
	iouring_bpf_close(h);
}
