// SPDX-License-Identifier: GPL-2.0
/*
 * ring.c - what the kernel says of a ring fd a client passed: that it is
 * an io_uring (its anon inode), its setup flags, its creator's uid and its
 * submitter task (ringowner.bpf.c, a task_file iterator over the daemon's
 * own fds, loaded once).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "daemon.h"
#include "ringowner.skel.h"

static struct ringowner *skel;
static struct bpf_link *iter_link;

int ring_init(char *msg, size_t len)
{
	LIBBPF_OPTS(bpf_iter_attach_opts, o);
	union bpf_iter_link_info li = { 0 };
	int ret;

	skel = ringowner__open_and_load();
	if (!skel) {
		ret = -errno;
		snprintf(msg, len, "cannot load the ring-owner BPF iterator (ringowner.bpf.c): %s; the daemon runs as root (CAP_BPF, CAP_PERFMON, CAP_SYS_ADMIN)",
			 strerror(-ret));
		return ret;
	}
	li.task.pid = getpid();
	o.link_info = &li;
	o.link_info_len = sizeof(li);
	iter_link = bpf_program__attach_iter(skel->progs.ring_owner, &o);
	if (!iter_link) {
		ret = -errno;
		snprintf(msg, len, "cannot attach the ring-owner iterator: %s",
			 strerror(-ret));
		return ret;
	}
	return 0;
}

int ring_facts(int fd, struct ring_facts *rf, char *msg, size_t len)
{
	char path[64], target[128] = "", buf[64];
	ssize_t n;
	int it, ret;

	memset(rf, 0, sizeof(*rf));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n > 0)
		target[n] = 0;
	if (strcmp(target, "anon_inode:[io_uring]")) {
		snprintf(msg, len, "the fd passed is not an io_uring (it is %s): pass the fd io_uring_setup() returned",
			 n > 0 ? target : "unreadable");
		return 0;
	}
	rf->is_ring = 1;
	skel->bss->want_fd = fd;
	skel->bss->found = 0;
	it = bpf_iter_create(bpf_link__fd(iter_link));
	if (it < 0) {
		snprintf(msg, len, "cannot read the ring's owner: %s",
			 strerror(errno));
		return -errno;
	}
	while ((ret = read(it, buf, sizeof(buf))) > 0)
		;
	close(it);
	if (ret < 0 || !skel->bss->found) {
		snprintf(msg, len, "cannot read the ring's owner (iterator: %s)",
			 ret < 0 ? strerror(errno) : "fd not found");
		return -EIO;
	}
	rf->flags = skel->bss->ring_flags;
	rf->creator_uid = skel->bss->creator_uid;
	rf->submitter_tgid = skel->bss->submitter_tgid;
	return 0;
}
