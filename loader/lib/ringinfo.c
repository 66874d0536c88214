// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * ringinfo.c - the layout of a ring the library did not create, given only
 * its fd: what io_uring_params told its creator. The entries come from
 * /proc/self/fdinfo, the setup flags from the kernel through a BPF
 * iterator (ringinfo.bpf.c: no uapi reports them), and the offsets from a
 * probe ring created with the same layout flags and entries (the kernel
 * lays out every ring of those flags and sizes the same way).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include "internal.h"
#include "ringinfo.skel.h"

#ifndef IORING_SETUP_CQE32
#define IORING_SETUP_CQE32	(1U << 11)
#endif
#ifndef IORING_SETUP_SQE128
#define IORING_SETUP_SQE128	(1U << 10)
#endif
/* the flags that change where things are in the rings region */
#define LAYOUT_FLAGS	(IORING_SETUP_NO_SQARRAY | IORING_SETUP_CQE32 | \
			 IORING_SETUP_SQE128)

int iou_ring_fd_check(int fd, struct iouring_bpf_error *err)
{
	char path[64], target[128] = "";
	ssize_t n;

	if (fd < 0 || fcntl(fd, F_GETFD) < 0)
		return iou_fail(err, IOURING_BPF_USAGE, EBADF,
				"fd %d is not an open file descriptor: give the fd io_uring_setup() returned",
				fd);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n > 0)
		target[n] = '\0';
	if (strcmp(target, "anon_inode:[io_uring]"))
		return iou_fail(err, IOURING_BPF_USAGE, EBADF,
				"fd %d is not an io_uring (it is %s): give the fd io_uring_setup() returned",
				fd, n > 0 ? target : "unreadable");
	return 0;
}

/* sq_entries, cq_entries of a ring fd from /proc/self/fdinfo */
static int fdinfo_entries(int fd, unsigned int *sq, unsigned int *cq)
{
	char path[64], line[256];
	unsigned int sqm = 0, cqm = 0;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "SqMask: %x", &sqm) == 1)
			found |= 1;
		else if (sscanf(line, "CqMask: %x", &cqm) == 1)
			found |= 2;
	}
	fclose(f);
	if (found != 3)
		return -EOPNOTSUPP;
	*sq = sqm + 1;
	*cq = cqm + 1;
	return 0;
}

/* the ring's setup flags, read by ringinfo.bpf.c */
static int ring_flags(int fd, unsigned int *flags, unsigned int *sq,
		      unsigned int *cq, struct iouring_bpf_error *err)
{
	struct iou_ringinfo *skel;
	struct bpf_link *link = NULL;
	int ret, iter = -1;
	char buf[64];

	skel = iou_ringinfo__open();
	if (!skel)
		return iou_fail(err, IOURING_BPF_FAIL, errno,
				"cannot open the ring-info BPF object: %s",
				strerror(errno));
	skel->rodata->want_tgid = getpid();
	skel->rodata->want_fd = fd;
	ret = iou_ringinfo__load(skel);
	if (ret == -EPERM || ret == -EACCES) {
		ret = iou_fail(err, IOURING_BPF_PERM, ret,
			       "not permitted to load BPF (%s): reading a ring's setup flags takes a BPF iterator, which needs CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN; run as root, or pass the ring's io_uring_params (iouring_bpf_set_ring())",
			       strerror(-ret));
		goto out;
	}
	if (ret) {
		ret = iou_fail(err, IOURING_BPF_FAIL, ret,
			       "cannot read the ring's setup flags: loading the BPF iterator failed (%s); pass the ring's io_uring_params instead (iouring_bpf_set_ring())",
			       strerror(-ret));
		goto out;
	}
	link = bpf_program__attach_iter(skel->progs.ring_info, NULL);
	iter = link ? bpf_iter_create(bpf_link__fd(link)) : -errno;
	if (iter < 0) {
		ret = iou_fail(err, IOURING_BPF_FAIL, iter,
			       "cannot read the ring's setup flags: the task_file iterator failed (%s)",
			       strerror(-iter));
		goto out;
	}
	while ((ret = read(iter, buf, sizeof(buf))) > 0)
		;
	if (ret < 0) {
		ret = iou_fail(err, IOURING_BPF_FAIL, errno,
			       "cannot read the ring's setup flags: reading the iterator: %s",
			       strerror(errno));
		goto out;
	}
	if (!skel->bss->found) {
		ret = iou_fail(err, IOURING_BPF_FAIL, ENOENT,
			       "cannot read the ring's setup flags: the iterator did not see fd %d",
			       fd);
		goto out;
	}
	*flags = skel->bss->ring_flags;
	*sq = skel->bss->ring_sq_entries;
	*cq = skel->bss->ring_cq_entries;
out:
	if (iter >= 0)
		close(iter);
	bpf_link__destroy(link);
	iou_ringinfo__destroy(skel);
	return ret;
}

int iou_ring_params_check(int fd, const struct io_uring_params *p,
			  struct iouring_bpf_error *err)
{
	unsigned int sq = 0, cq = 0;
	int ret = iou_ring_fd_check(fd, err);

	if (ret)
		return ret;
	/* the caller's params: are they this ring's? (cheap: fdinfo only) */
	if (!fdinfo_entries(fd, &sq, &cq) &&
	    (sq != p->sq_entries || cq != p->cq_entries))
		return iou_fail(err, IOURING_BPF_USAGE, EINVAL,
				"ring fd %d has %u/%u SQ/CQ entries, the io_uring_params given say %u/%u: give the params its io_uring_setup() filled, or NULL to read them from the kernel",
				fd, sq, cq, p->sq_entries, p->cq_entries);
	return 0;
}

int iou_ring_params(int fd, struct io_uring_params *p,
		    struct iouring_bpf_error *err)
{
	unsigned int sq = 0, cq = 0, flags = 0, ksq = 0, kcq = 0;
	struct io_uring_params like;
	int ret, probe;

	ret = iou_ring_fd_check(fd, err);
	if (ret)
		return ret;
	ret = fdinfo_entries(fd, &sq, &cq);
	if (ret)
		return iou_fail(err, IOURING_BPF_FAIL, ret,
				"cannot read the entries of ring fd %d from /proc/self/fdinfo/%d: %s",
				fd, fd, strerror(-ret));
	ret = ring_flags(fd, &flags, &ksq, &kcq, err);
	if (ret)
		return ret;
	if (ksq != sq || kcq != cq)
		return iou_fail(err, IOURING_BPF_FAIL, EPROTO,
				"ring fd %d: fdinfo says %u/%u entries, the kernel's context %u/%u: not read right on this kernel",
				fd, sq, cq, ksq, kcq);
	memset(&like, 0, sizeof(like));
	like.flags = (flags & LAYOUT_FLAGS) | IORING_SETUP_CQSIZE;
	like.cq_entries = cq;
	probe = syscall(__NR_io_uring_setup, sq, &like);
	if (probe < 0)
		return iou_fail(err, IOURING_BPF_FAIL, errno,
				"cannot learn the ring layout (io_uring_setup of a %u/%u ring with flags 0x%x): %s",
				sq, cq, like.flags, strerror(errno));
	close(probe);
	if (like.sq_entries != sq || like.cq_entries != cq)
		return iou_fail(err, IOURING_BPF_FAIL, EPROTO,
				"cannot learn the ring layout: a probe ring of %u/%u entries came out %u/%u",
				sq, cq, like.sq_entries, like.cq_entries);
	*p = like;
	p->flags = flags;
	return 0;
}
