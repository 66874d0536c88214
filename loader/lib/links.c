// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * links.c - what a struct_ops link in the kernel is (a pinned one, or any
 * of the system's): its map, the struct_ops type, the op id an IORING_OP_BPF
 * op registered, its first program. The type and the layout of the map's
 * value come from the kernel's BTF, read once per call (features.c) and
 * freed before it returns.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "internal.h"

/*
 * bpf_link_info.struct_ops.map_id (6.4+) is the first word of the info
 * union; Debian 12's <linux/bpf.h> predates the member.
 */
static __u32 struct_ops_map_id(const struct bpf_link_info *info)
{
	const void *u = &info->raw_tracepoint;

	return *(const __u32 *)u;
}

/*
 * The value of a struct_ops map (a bpf_struct_ops_<type> of the kernel's
 * BTF): the offset of its member "data" (the struct <type>) in *off, that
 * struct in *data; NULL if it cannot be read. free() it.
 */
static char *ops_value(const struct btf *btf, int map_fd,
		       const struct bpf_map_info *mi, __u32 *off,
		       const struct btf_type **data)
{
	const struct btf_type *t = NULL;
	const struct btf_member *m;
	__u32 key = 0;
	char *val;
	int i;

	if (btf && mi->btf_vmlinux_value_type_id)
		t = btf__type_by_id(btf, mi->btf_vmlinux_value_type_id);
	if (!t || !btf_is_struct(t))
		return NULL;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), "data"))
			break;
	val = i < btf_vlen(t) ? calloc(1, mi->value_size) : NULL;
	if (!val || bpf_map_lookup_elem(map_fd, &key, val)) {
		free(val);
		return NULL;
	}
	*off = btf_member_bit_offset(t, i) / 8;
	*data = btf__type_by_id(btf, m->type);
	return val;
}

/*
 * From the value: the op id (uring_bpf_ops: data.id, its first member)
 * and the first program id (the func-pointer members hold them)
 */
static void ops_read(const struct btf *btf, int map_fd,
		     const struct bpf_map_info *mi,
		     struct iouring_bpf_link_info *out)
{
	const struct btf_type *st, *mt;
	const struct btf_member *m;
	__u32 data_off = 0;
	char *val = ops_value(btf, map_fd, mi, &data_off, &st);
	int i;

	if (!val)
		return;
	if (!strcmp(out->type, "uring_bpf_ops") &&
	    data_off + 2 <= mi->value_size)
		out->op_id = *(__u16 *)(val + data_off);
	m = st && btf_is_struct(st) ? btf_members(st) : NULL;
	for (i = 0; m && i < btf_vlen(st) && !out->prog_id; i++, m++) {
		__u32 off = data_off + btf_member_bit_offset(st, i) / 8;

		mt = btf__type_by_id(btf, m->type);
		while (mt && btf_is_mod(mt))
			mt = btf__type_by_id(btf, mt->type);
		if (!mt || !btf_is_ptr(mt))
			continue;
		mt = btf__type_by_id(btf, mt->type);
		if (mt && btf_is_func_proto(mt) && off + 8 <= mi->value_size)
			out->prog_id = *(__u64 *)(val + off);
	}
	free(val);
}

int iouring_bpf_link_info(int link_fd, struct iouring_bpf_link_info *out)
{
	struct bpf_link_info li;
	struct bpf_map_info mi;
	__u32 len = sizeof(li);
	const char *tn = "?";
	struct btf *btf;
	int map_fd, e = 0;

	memset(out, 0, sizeof(*out));
	out->op_id = -1;
	snprintf(out->type, sizeof(out->type), "?");
	memset(&li, 0, sizeof(li));
	if (bpf_link_get_info_by_fd(link_fd, &li, &len))
		return -errno;
	out->link_id = li.id;
	if (li.type != BPF_LINK_TYPE_STRUCT_OPS)
		return -EINVAL;
	out->map_id = struct_ops_map_id(&li);
	map_fd = bpf_map_get_fd_by_id(out->map_id);
	if (map_fd < 0)
		return -errno;
	memset(&mi, 0, sizeof(mi));
	len = sizeof(mi);
	if (bpf_map_get_info_by_fd(map_fd, &mi, &len)) {
		e = -errno;
		close(map_fd);
		return e;
	}
	snprintf(out->map_name, sizeof(out->map_name), "%s", mi.name);
	btf = iou_kernel_btf_load(&e);
	if (btf && mi.btf_vmlinux_value_type_id) {
		const struct btf_type *t = btf__type_by_id(btf,
						mi.btf_vmlinux_value_type_id);

		if (t)
			tn = btf__name_by_offset(btf, t->name_off);
	}
	/* the value type is "bpf_struct_ops_<type>" */
	if (!strncmp(tn, "bpf_struct_ops_", 15))
		tn += 15;
	snprintf(out->type, sizeof(out->type), "%s", tn);
	ops_read(btf, map_fd, &mi, out);
	iou_kernel_btf_free(btf);
	close(map_fd);
	return 0;
}
