// SPDX-License-Identifier: GPL-2.0
/*
 * progstate.c - the globals of an attached program, read from the kernel:
 * struct_ops map -> a program id (the value holds them in the function
 * pointer slots) -> its maps -> the .data/.bss ones, read through their
 * BTF. This is how `show` prints the counters and the exit info of a
 * program that `load` left behind.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "cli.h"
#include "../../progs/iou_exit_info.h"

static int int_of(const struct btf *btf, __u32 type, const void *p,
		  long long *v)
{
	const struct btf_type *t = btf__type_by_id(btf, type);
	int sign;

	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_int(t))
		return -1;
	sign = btf_int_encoding(t) & BTF_INT_SIGNED;
	switch (t->size) {
	case 1: *v = sign ? *(__s8 *)p : *(__u8 *)p; return 0;
	case 2: *v = sign ? *(__s16 *)p : *(__u16 *)p; return 0;
	case 4: *v = sign ? (long long)*(__s32 *)p : (long long)*(__u32 *)p; return 0;
	case 8: *v = *(__s64 *)p; return 0;
	}
	return -1;
}

/* before a text item: the line's prefix for the first, then a space */
static void item(int *first)
{
	if (*first)
		printf("%-24s state:", "");
	printf(" ");
	*first = 0;
}

/* print the integer globals (and iou_exit) of one .data/.bss map */
static void print_datasec(int map_fd, const struct bpf_map_info *mi,
			  struct json *j, int *first)
{
	const struct btf_var_secinfo *vs;
	const struct btf_type *sec;
	struct btf *btf;
	__u32 key = 0;
	char *val;
	int i;

	btf = btf__load_from_kernel_by_id(mi->btf_id);
	if (!btf)
		return;
	sec = btf__type_by_id(btf, mi->btf_value_type_id);
	val = calloc(1, mi->value_size);
	if (!sec || !btf_is_datasec(sec) || !val ||
	    bpf_map_lookup_elem(map_fd, &key, val))
		goto out;
	vs = btf_var_secinfos(sec);
	for (i = 0; i < btf_vlen(sec); i++, vs++) {
		const struct btf_type *var = btf__type_by_id(btf, vs->type);
		const char *name = btf__name_by_offset(btf, var->name_off);
		long long v;

		if (vs->offset + vs->size > mi->value_size)
			continue;
		if (!strcmp(name, IOU_EXIT_VAR) &&
		    vs->size == sizeof(struct iou_exit_info)) {
			struct iou_exit_info *ei = (void *)(val + vs->offset);
			static const char *const kinds[] = { "none", "done", "error" };

			ei->msg[sizeof(ei->msg) - 1] = '\0';
			if (ei->kind == IOU_EXIT_KIND_NONE)
				continue;
			if (j) {
				json_obj(j, "exit");
				json_str(j, "kind", ei->kind <= 2 ?
					 kinds[ei->kind] : "?");
				json_int(j, "code", ei->code);
				json_int(j, "value", ei->value);
				json_str(j, "msg", ei->msg);
				json_end(j, NULL);
			} else {
				item(first);
				printf("exit=%s code=%d value=%lld (%s)",
				       ei->kind <= 2 ? kinds[ei->kind] : "?",
				       ei->code, ei->value, ei->msg);
			}
			continue;
		}
		if (int_of(btf, var->type, val + vs->offset, &v))
			continue;
		if (j) {
			json_int(j, name, v);
		} else {
			item(first);
			printf("%s=%lld", name, v);
		}
	}
out:
	free(val);
	btf__free(btf);
}

static int internal_map(const char *name)
{
	size_t n = strlen(name);

	return (n > 5 && !strcmp(name + n - 5, ".data")) ||
	       (n > 4 && !strcmp(name + n - 4, ".bss"));
}

void print_prog_state(const struct link_desc *d, struct json *j)
{
	struct bpf_prog_info pi;
	struct bpf_map_info mi;
	__u32 map_ids[16], len, prog_id, i;
	int map_fd, prog_fd, first = 1;

	if (j)
		json_obj(j, "state");
	map_fd = bpf_map_get_fd_by_id(d->map_id);
	if (map_fd < 0)
		goto out;
	memset(&mi, 0, sizeof(mi));
	len = sizeof(mi);
	prog_id = bpf_map_get_info_by_fd(map_fd, &mi, &len) ? 0 :
		  ops_first_prog_id(map_fd, &mi);
	close(map_fd);
	if (!prog_id)
		goto out;
	prog_fd = bpf_prog_get_fd_by_id(prog_id);
	if (prog_fd < 0)
		goto out;
	memset(&pi, 0, sizeof(pi));
	pi.nr_map_ids = 16;
	pi.map_ids = (__u64)(unsigned long)map_ids;
	len = sizeof(pi);
	if (bpf_prog_get_info_by_fd(prog_fd, &pi, &len))
		pi.nr_map_ids = 0;
	close(prog_fd);
	for (i = 0; i < pi.nr_map_ids && i < 16; i++) {
		map_fd = bpf_map_get_fd_by_id(map_ids[i]);
		if (map_fd < 0)
			continue;
		memset(&mi, 0, sizeof(mi));
		len = sizeof(mi);
		if (!bpf_map_get_info_by_fd(map_fd, &mi, &len) &&
		    internal_map(mi.name) && mi.btf_id)
			print_datasec(map_fd, &mi, j, &first);
		close(map_fd);
	}
	if (!j && !first)
		printf("\n");
out:
	if (j)
		json_end(j, NULL);
}
