// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * features.c - what the running kernel's BTF has: types, the loop hook.
 *
 * The kernel's BTF (about 6 MB parsed) is read when a question needs it
 * and freed before the call returns. What the library asks on every open
 * and load (which loop hook, IORING_OP_BPF, filters) is read once, kept as
 * a few ints (struct kfacts) and the BTF freed: no BTF stays in memory
 * for the life of the process. iouring_bpf_kernel_has_type() of any other
 * name reads the BTF again each time.
 */
#include <errno.h>
#include <pthread.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>
#include <sys/utsname.h>
#include <bpf/btf.h>
#include "internal.h"

struct kfacts {
	int			err;	/* -errno: no readable BTF */
	enum iouring_bpf_loop_api api;
	int			has[IOU_KTYPE_NR];
};

static const char *const ktype_names[IOU_KTYPE_NR] = {
	[IOU_KTYPE_OP] = "uring_bpf_ops",
	[IOU_KTYPE_V3] = "io_uring_ops",
	[IOU_KTYPE_FILTER] = "io_uring_bpf_filter",
};

static struct kfacts kfacts;
static pthread_once_t kfacts_once = PTHREAD_ONCE_INIT;

static enum iouring_bpf_loop_api loop_api(const struct btf *btf);

/* the one place the library reads the kernel's BTF; free with iou_kernel_btf_free() */
struct btf *iou_kernel_btf_load(int *err)
{
	struct btf *btf;

	errno = 0;
	btf = btf__load_vmlinux_btf();
	if (!btf)
		*err = errno ? -errno : -ENOENT;
	return btf;
}

/*
 * glibc keeps freed heap memory for reuse, and the BTF's many small
 * allocations stay resident after btf__free() unless trimmed: 11 MB of
 * RSS on a 6.18 kernel's BTF (5.5 MB raw), 0.5 MB after malloc_trim().
 * Also after bpf_object__load(), which reads and frees the BTF itself
 * (attach.c's iouring_bpf_load() trims there).
 */
static void heap_trim(void)
{
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

void iou_kernel_btf_free(struct btf *btf)
{
	btf__free(btf);
	heap_trim();
}

static void kfacts_read(void)
{
	struct btf *btf = iou_kernel_btf_load(&kfacts.err);
	int i;

	kfacts.api = IOURING_BPF_LOOP_NONE;
	if (!btf)
		return;
	for (i = 0; i < IOU_KTYPE_NR; i++)
		kfacts.has[i] = btf__find_by_name_kind(btf, ktype_names[i],
						       BTF_KIND_STRUCT) > 0;
	kfacts.api = loop_api(btf);
	iou_kernel_btf_free(btf);
}

/* 1 if the kernel's BTF has struct ktype_names[t], 0 if not, -errno */
int iou_kernel_has(enum iou_ktype t)
{
	pthread_once(&kfacts_once, kfacts_read);
	return kfacts.err ? kfacts.err : kfacts.has[t];
}

int iouring_bpf_kernel_has_types(const char *const *names, int n, int *have)
{
	struct btf *btf;
	int err = 0, i;

	btf = iou_kernel_btf_load(&err);
	if (!btf)
		return err;
	for (i = 0; i < n; i++)
		have[i] = btf__find_by_name_kind(btf, names[i],
						 BTF_KIND_STRUCT) > 0 ||
			  btf__find_by_name_kind(btf, names[i],
						 BTF_KIND_FUNC) > 0;
	iou_kernel_btf_free(btf);
	return 0;
}

int iouring_bpf_kernel_has_type(const char *name)
{
	int have = 0, ret = iouring_bpf_kernel_has_types(&name, 1, &have);

	return ret ? ret : have;
}

/*
 * The name of the struct that the first argument of `loop_step` points
 * to: "io_ring_ctx" (7.1) or "iou_ctx" (7.2+); NULL if not found.
 */
static const char *loop_step_ctx_name(const struct btf *btf, int ops_id)
{
	const struct btf_type *t = btf__type_by_id(btf, ops_id);
	const struct btf_member *m = btf_members(t);
	const struct btf_param *arg;
	int i;

	for (i = 0; i < btf_vlen(t); i++, m++) {
		if (strcmp(btf__name_by_offset(btf, m->name_off), "loop_step"))
			continue;
		t = btf__type_by_id(btf, m->type);		/* ptr */
		if (!t || !btf_is_ptr(t))
			return NULL;
		t = btf__type_by_id(btf, t->type);		/* func_proto */
		if (!t || !btf_is_func_proto(t) || btf_vlen(t) < 1)
			return NULL;
		arg = btf_params(t);
		t = btf__type_by_id(btf, arg->type);		/* ptr */
		if (!t || !btf_is_ptr(t))
			return NULL;
		t = btf__type_by_id(btf, t->type);		/* the struct */
		return t ? btf__name_by_offset(btf, t->name_off) : NULL;
	}
	return NULL;
}

static enum iouring_bpf_loop_api loop_api(const struct btf *btf)
{
	const char *ctx;
	int id;

	if (btf__find_by_name_kind(btf, "io_uring_ops", BTF_KIND_STRUCT) > 0)
		return IOURING_BPF_LOOP_V3;
	id = btf__find_by_name_kind(btf, "io_uring_bpf_ops", BTF_KIND_STRUCT);
	if (id <= 0)
		return IOURING_BPF_LOOP_NONE;
	ctx = loop_step_ctx_name(btf, id);
	/* anything but the 7.1 type is treated as opaque, as 7.2 does */
	return ctx && !strcmp(ctx, "io_ring_ctx") ? IOURING_BPF_LOOP_71 :
						    IOURING_BPF_LOOP_72;
}

enum iouring_bpf_loop_api iouring_bpf_kernel_loop_api(void)
{
	pthread_once(&kfacts_once, kfacts_read);
	return kfacts.api;
}

/* per API (V3, 71, 72): the JSON key and the text for people */
static const char *const api_names[][2] = {
	{ "v3", "v3 struct io_uring_ops (the project's kernel)" },
	{ "mainline-7.1",
	  "mainline struct io_uring_bpf_ops (Linux 7.1, struct io_ring_ctx *)" },
	{ "mainline-7.2",
	  "mainline struct io_uring_bpf_ops (Linux 7.2+, opaque struct iou_ctx *)" },
};

static const char *api_name(enum iouring_bpf_loop_api api, int desc)
{
	if (api < IOURING_BPF_LOOP_V3 || api > IOURING_BPF_LOOP_72)
		return "none";
	return api_names[api][desc];
}

const char *iouring_bpf_loop_api_key(enum iouring_bpf_loop_api api)
{
	return api_name(api, 0);
}

const char *iouring_bpf_loop_api_desc(enum iouring_bpf_loop_api api)
{
	return api_name(api, 1);
}

const char *iou_kernel_release(void)
{
	static struct utsname u;

	if (!u.release[0] && uname(&u))
		return "?";
	return u.release;
}

static const char *kind_feature(enum iouring_bpf_kind kind)
{
	return kind == IOURING_BPF_KIND_OP ?
	       "IORING_OP_BPF (Ming Lei's series)" :
	       "the io_uring loop hook (Pavel Begunkov's series)";
}

/* the one check of what a kind of program needs from the kernel */
int iouring_bpf_kernel_check(enum iouring_bpf_kind kind,
			     struct iouring_bpf_error *err)
{
	int ret = iou_kernel_has(IOU_KTYPE_V3);

	if (ret < 0)
		return iou_fail_see(err, IOURING_BPF_SEE_KERNEL,
			IOURING_BPF_NOFEATURE, ret,
			"kernel %s has no readable BTF (/sys/kernel/btf/vmlinux: %s): it cannot load struct_ops programs; boot the project's kernel or a stock Linux 7.1+ kernel",
			iou_kernel_release(), strerror(-ret));
	if (kind == IOURING_BPF_KIND_OP) {
		if (iou_kernel_has(IOU_KTYPE_OP) > 0)
			return 0;
		return iou_fail_see(err, IOURING_BPF_SEE_KERNEL,
			IOURING_BPF_NOFEATURE, EOPNOTSUPP,
			"kernel %s lacks %s: its BTF has no 'struct uring_bpf_ops' (no released kernel has it). Boot the project's patched kernel",
			iou_kernel_release(), kind_feature(kind));
	}
	if (iouring_bpf_kernel_loop_api() != IOURING_BPF_LOOP_NONE)
		return 0;
	return iou_fail_see(err, IOURING_BPF_SEE_KERNEL,
		IOURING_BPF_NOFEATURE, EOPNOTSUPP,
		"kernel %s lacks %s: its BTF has neither 'struct io_uring_ops' (v3, the project's kernel) nor 'struct io_uring_bpf_ops' (Linux 7.1+). Boot the project's kernel or a stock 7.1+ kernel",
		iou_kernel_release(), kind_feature(kind));
}

/* the kernel has the hook (iouring_bpf_kernel_check()); has it h's binding? */
static int check_kernel(struct iouring_bpf *h, struct iouring_bpf_error *err)
{
	enum iouring_bpf_loop_api api;
	int ret = iouring_bpf_kernel_check(h->kind, err);

	if (ret || h->kind == IOURING_BPF_KIND_OP ||
	    h->api != IOURING_BPF_LOOP_NONE)
		return ret;
	api = iouring_bpf_kernel_loop_api();
	if (api == IOURING_BPF_LOOP_V3)
		ret = iou_fail(err, IOURING_BPF_NOFEATURE, EOPNOTSUPP,
			"%s is written for mainline's struct io_uring_bpf_ops (Linux 7.1+) only; kernel %s has v3's struct io_uring_ops: run it on a 7.1+ kernel, or add a struct io_uring_ops map (IOU_LOOP_OPS() in progs/iouring_bpf.h makes both)",
			h->name, iou_kernel_release());
	else
		ret = iou_fail(err, IOURING_BPF_NOFEATURE, EOPNOTSUPP,
		"%s is written for v3's struct io_uring_ops (the project's kernel) only; kernel %s has %s: add a struct io_uring_bpf_ops map (IOU_LOOP_OPS() in progs/iouring_bpf.h makes both)",
		h->name, iou_kernel_release(), iouring_bpf_loop_api_desc(api));
	/* the fix is in the object: another kernel of ours would not help */
	if (err)
		err->fix = IOURING_BPF_FIX_OBJECT;
	return ret;
}

int iouring_bpf_check_kernel(struct iouring_bpf *h,
			     struct iouring_bpf_error *err)
{
	int ret = check_kernel(h, err);

	/* iouring_bpf_load() checks only if no caller has (attach.c) */
	h->kernel_ok = !ret;
	return ret;
}
