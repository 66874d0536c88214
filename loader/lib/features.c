// SPDX-License-Identifier: GPL-2.0
/* features.c - what the running kernel's BTF has */
#include <errno.h>
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
