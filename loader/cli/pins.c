// SPDX-License-Identifier: GPL-2.0
/* pins.c - struct_ops links: the ones `load` pinned, all in the system */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
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

/*
 * The ring a loop pin was attached to (load --ring PID:FD): the kernel
 * keeps no trace a tool can read once the ring's owner has gone (the link
 * stays pinned, the ops are off the freed ring), so load records the
 * owner here and show compares: same process (its start time) and the fd
 * still an io_uring.
 */
#define OWNER_DIR	"/run/iouring-bpf/rings"

/* the start time of pid (field 22 of /proc/PID/stat), 0 if none */
static unsigned long long proc_start(long long pid)
{
	unsigned long long start = 0;
	char path[64], buf[1024], *p;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%lld/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	p = strrchr(buf, ')');
	/* after the comm: field 3 is the state; the start time is 22 */
	for (i = 3; p && i <= 22; i++)
		p = strchr(p + 1, ' ');
	if (p)
		start = strtoull(p + 1, NULL, 10);
	return start;
}

void pin_owner_save(const char *pin, long long pid, long long fd)
{
	char path[512];
	FILE *f;

	mkdir("/run/iouring-bpf", 0755);
	mkdir(OWNER_DIR, 0755);
	snprintf(path, sizeof(path), OWNER_DIR "/%s", pin);
	f = fopen(path, "w");
	if (!f)
		return;		/* show then says nothing of the ring */
	fprintf(f, "%lld %lld %llu\n", pid, fd, proc_start(pid));
	fclose(f);
}

void pin_owner_forget(const char *pin)
{
	char path[512];

	snprintf(path, sizeof(path), OWNER_DIR "/%s", pin);
	unlink(path);
}

int pin_owner(const char *pin, long long *pid, long long *fd)
{
	unsigned long long start;
	char path[512], link[64];
	ssize_t n;
	FILE *f;
	int got;

	snprintf(path, sizeof(path), OWNER_DIR "/%s", pin);
	f = fopen(path, "r");
	if (!f)
		return -1;
	got = fscanf(f, "%lld %lld %llu", pid, fd, &start);
	fclose(f);
	if (got != 3)
		return -1;
	if (!start || proc_start(*pid) != start)
		return 0;	/* the owner exited (a new process may have its pid) */
	snprintf(path, sizeof(path), "/proc/%lld/fd/%lld", *pid, *fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return 0;
	link[n] = '\0';
	return !strcmp(link, "anon_inode:[io_uring]");
}
