// SPDX-License-Identifier: GPL-2.0
/* features.c - what the running kernel's BTF has: types, the loop hook */
#include <errno.h>
#include <string.h>
#include <bpf/btf.h>
#include "internal.h"

static struct btf *vmlinux_btf;
static int vmlinux_err;

static struct btf *kernel_btf(void)
{
	if (!vmlinux_btf && !vmlinux_err) {
		vmlinux_btf = btf__load_vmlinux_btf();
		if (!vmlinux_btf)
			vmlinux_err = errno ? -errno : -ENOENT;
	}
	return vmlinux_btf;
}

/* kind: BTF_KIND_STRUCT, BTF_KIND_FUNC, ... */
int iou_kernel_has(const char *name, int kind)
{
	struct btf *btf = kernel_btf();

	if (!btf)
		return vmlinux_err;
	return btf__find_by_name_kind(btf, name, kind) > 0;
}

int iouring_bpf_kernel_has_type(const char *name)
{
	return iou_kernel_has(name, BTF_KIND_STRUCT);
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

enum iouring_bpf_loop_api iouring_bpf_kernel_loop_api(void)
{
	struct btf *btf = kernel_btf();
	const char *ctx;
	int id;

	if (!btf)
		return IOURING_BPF_LOOP_NONE;
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
