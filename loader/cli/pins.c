// SPDX-License-Identifier: GPL-2.0
/* pins.c - struct_ops links: the ones `load` pinned, all in the system */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "cli.h"

/* describe the struct_ops link behind fd (the library reads it); 0 or -errno */
static int link_describe(int link_fd, struct link_desc *d)
{
	struct iouring_bpf_link_info li;
	int ret = iouring_bpf_link_info(link_fd, &li);

	d->link_id = li.link_id;
	d->map_id = li.map_id;
	d->prog_id = li.prog_id;
	d->op_id = li.op_id;
	snprintf(d->map_name, sizeof(d->map_name), "%s", li.map_name);
	snprintf(d->type, sizeof(d->type), "%s", ret ? "" : li.type);
	return ret;
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
