// SPDX-License-Identifier: GPL-2.0
/*
 * progstate.c - the globals of an attached program, read from the kernel:
 * struct_ops map -> a program id (the value holds them in the function
 * pointer slots) -> its maps -> the .rodata/.data/.bss ones, printed
 * through their BTF by globals.c, as `run FILE` prints its own. This is
 * how `show` prints the parameters, counters and exit info of a program
 * that `load` left behind.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "cli.h"

/* the globals of one .rodata/.data/.bss map, read from the kernel */
static void print_datasec(int map_fd, const struct bpf_map_info *mi,
			  struct json *j, int *first)
{
	const struct btf_type *sec;
	const char *dot;
	struct btf *btf;
	__u32 key = 0;
	char *val;

	btf = btf__load_from_kernel_by_id(mi->btf_id);
	if (!btf)
		return;
	sec = btf__type_by_id(btf, mi->btf_value_type_id);
	val = calloc(1, mi->value_size);
	if (!sec || !btf_is_datasec(sec) || !val ||
	    bpf_map_lookup_elem(map_fd, &key, val))
		goto out;
	if (!j && *first)
		printf("%-24s state:", "");
	*first = 0;
	dot = strrchr(mi->name, '.');
	print_globals(btf, sec, dot ? dot : mi->name, val, mi->value_size, j,
		      1);
out:
	free(val);
	btf__free(btf);
}

static int internal_map(const char *name)
{
	size_t n = strlen(name);

	return (n > 7 && !strcmp(name + n - 7, ".rodata")) ||
	       (n > 5 && !strcmp(name + n - 5, ".data")) ||
	       (n > 4 && !strcmp(name + n - 4, ".bss"));
}

void print_prog_state(const struct link_desc *d, struct json *j)
{
	struct bpf_prog_info pi;
	struct bpf_map_info mi;
	__u32 map_ids[16], len, i;
	int map_fd, prog_fd, first = 1;

	if (j)
		json_obj(j, "state");
	if (!d->prog_id)
		goto out;
	prog_fd = bpf_prog_get_fd_by_id(d->prog_id);
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
