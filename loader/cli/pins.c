// SPDX-License-Identifier: GPL-2.0
/* pins.c - struct_ops links: the ones `load` pinned, all in the system */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "cli.h"

/*
 * bpf_link_info.struct_ops.map_id (6.4+) is the first word of the info
 * union; Debian 12's <linux/bpf.h> predates the member.
 */
static __u32 struct_ops_map_id(const struct bpf_link_info *info)
{
	const void *u = &info->raw_tracepoint;

	return *(const __u32 *)u;
}

static struct btf *vmlinux(void)
{
	static struct btf *btf;

	if (!btf)
		btf = btf__load_vmlinux_btf();
	return btf;
}

/*
 * A struct_ops map's value (a bpf_struct_ops_<type> of vmlinux BTF), to
 * free(), and the offset and type of its member "data" (the struct
 * <type>); NULL if it cannot be read
 */
static char *ops_value(int map_fd, const struct bpf_map_info *mi, __u32 *off,
		       const struct btf_type **data)
{
	struct btf *btf = vmlinux();
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

/* the op id of a uring_bpf_ops map: bpf_struct_ops_uring_bpf_ops.data.id */
static int op_id_of(int map_fd, const struct bpf_map_info *mi)
{
	const struct btf_type *data;
	__u32 off;
	char *val = ops_value(map_fd, mi, &off, &data);
	int ret = -1;

	if (val && off + 2 <= mi->value_size)	/* "id" is data's first */
		ret = *(__u16 *)(val + off);
	free(val);
	return ret;
}

__u32 ops_first_prog_id(int map_fd, const struct bpf_map_info *mi)
{
	const struct btf_type *st, *mt;
	const struct btf_member *m;
	__u32 id = 0, data_off;
	char *val = ops_value(map_fd, mi, &data_off, &st);
	int i;

	m = val && st && btf_is_struct(st) ? btf_members(st) : NULL;
	for (i = 0; m && i < btf_vlen(st) && !id; i++, m++) {
		__u32 off = data_off + btf_member_bit_offset(st, i) / 8;

		mt = btf__type_by_id(vmlinux(), m->type);
		while (mt && btf_is_mod(mt))
			mt = btf__type_by_id(vmlinux(), mt->type);
		if (!mt || !btf_is_ptr(mt))
			continue;
		mt = btf__type_by_id(vmlinux(), mt->type);
		if (mt && btf_is_func_proto(mt) && off + 8 <= mi->value_size)
			id = *(__u64 *)(val + off);
	}
	free(val);
	return id;
}

/* describe the struct_ops link behind fd; 0 or -errno */
static int link_describe(int link_fd, struct link_desc *d)
{
	struct bpf_link_info li;
	struct bpf_map_info mi;
	__u32 len = sizeof(li);
	const char *tn;
	int map_fd;

	memset(&li, 0, sizeof(li));
	if (bpf_link_get_info_by_fd(link_fd, &li, &len))
		return -errno;
	d->link_id = li.id;
	d->op_id = -1;
	d->type[0] = '\0';
	if (li.type != BPF_LINK_TYPE_STRUCT_OPS)
		return -EINVAL;
	d->map_id = struct_ops_map_id(&li);
	map_fd = bpf_map_get_fd_by_id(d->map_id);
	if (map_fd < 0)
		return -errno;
	memset(&mi, 0, sizeof(mi));
	len = sizeof(mi);
	if (bpf_map_get_info_by_fd(map_fd, &mi, &len)) {
		close(map_fd);
		return -errno;
	}
	snprintf(d->map_name, sizeof(d->map_name), "%s", mi.name);
	tn = "?";
	if (vmlinux() && mi.btf_vmlinux_value_type_id) {
		const struct btf_type *t = btf__type_by_id(vmlinux(),
						mi.btf_vmlinux_value_type_id);

		if (t)
			tn = btf__name_by_offset(vmlinux(), t->name_off);
	}
	/* the value type is "bpf_struct_ops_<type>" */
	if (!strncmp(tn, "bpf_struct_ops_", 15))
		tn += 15;
	snprintf(d->type, sizeof(d->type), "%s", tn);
	if (!strcmp(d->type, "uring_bpf_ops"))
		d->op_id = op_id_of(map_fd, &mi);
	close(map_fd);
	return 0;
}

static int push(struct link_desc **arr, int *n, int *cap)
{
	if (*n == *cap) {
		int c = *cap ? *cap * 2 : 16;
		struct link_desc *a = realloc(*arr, c * sizeof(**arr));

		if (!a)
			return -ENOMEM;
		*arr = a;
		*cap = c;
	}
	memset(&(*arr)[*n], 0, sizeof(**arr));
	(*n)++;
	return 0;
}

int pins_list(struct link_desc **out, int *n)
{
	struct link_desc *arr = NULL;
	int cap = 0, fd, ret = 0;
	struct dirent *de;
	char path[512];
	DIR *dir;

	*n = 0;
	dir = opendir(PIN_DIR);
	if (!dir) {
		*out = NULL;
		return errno == ENOENT ? 0 : -errno;
	}
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		if (push(&arr, n, &cap)) {
			ret = -ENOMEM;
			break;
		}
		snprintf(arr[*n - 1].pin, sizeof(arr[0].pin), "%s", de->d_name);
		snprintf(path, sizeof(path), PIN_DIR "/%s", de->d_name);
		fd = bpf_obj_get(path);
		if (fd < 0) {
			arr[*n - 1].op_id = -1;
			snprintf(arr[*n - 1].type, sizeof(arr[0].type), "?");
			continue;
		}
		link_describe(fd, &arr[*n - 1]);
		close(fd);
	}
	closedir(dir);
	*out = arr;
	return ret;
}

int links_all(struct link_desc **out, int *n)
{
	struct link_desc *arr = NULL, d;
	__u32 id = 0;
	int cap = 0, fd;

	*n = 0;
	while (!bpf_link_get_next_id(id, &id)) {
		fd = bpf_link_get_fd_by_id(id);
		if (fd < 0)
			continue;
		memset(&d, 0, sizeof(d));
		if (!link_describe(fd, &d)) {
			if (push(&arr, n, &cap)) {
				close(fd);
				break;
			}
			arr[*n - 1] = d;
		}
		close(fd);
	}
	*out = arr;
	if (errno == EPERM && !*n)
		return -EPERM;
	return 0;
}
