// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * setup.c - rings for the programs: the flags each kind needs (attach.c
 * makes one to learn the layout of a ring the library did not make).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "internal.h"

__u32 iouring_bpf_op_setup_flag(void)
{
	static int have = -1;	/* the kernel does not change under us */

	if (have < 0)
		have = !iouring_bpf_kernel_check(IOURING_BPF_KIND_OP, NULL);
	return have ? IOU_SETUP_BPF_OP : 0;
}

int iou_ring_setup(enum iouring_bpf_kind kind, unsigned int entries,
		   struct io_uring_params *p, struct iouring_bpf_error *err)
{
	int fd;

	/* never bit 20 on a kernel where it is IORING_SETUP_SQ_REWIND */
	if (kind == IOURING_BPF_KIND_OP && !iouring_bpf_op_setup_flag())
		return iouring_bpf_kernel_check(kind, err);
	if (kind == IOURING_BPF_KIND_OP)
		p->flags |= iouring_bpf_op_setup_flag();
	else
		p->flags |= IORING_SETUP_SINGLE_ISSUER |
			    IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_NO_SQARRAY;
	if (p->cq_entries)
		p->flags |= IORING_SETUP_CQSIZE;
	fd = syscall(__NR_io_uring_setup, entries, p);
	if (fd >= 0)
		return fd;
	fd = -errno;
	if (fd == -EINVAL && kind == IOURING_BPF_KIND_OP)
		return iou_fail_see(err, IOURING_BPF_SEE_KERNEL,
				IOURING_BPF_NOFEATURE, -fd,
				"this kernel does not accept IORING_SETUP_BPF: it lacks IORING_OP_BPF; boot the project's kernel");
	return iou_fail(err, fd == -EPERM ? IOURING_BPF_PERM : IOURING_BPF_FAIL,
			fd, "cannot create the ring: %s", strerror(-fd));
}

__u32 iouring_bpf_op_flags(const struct iouring_bpf *h, unsigned int buf1,
			   unsigned int buf2, unsigned int flags)
{
	return iou_bpf_op_flags(h->op_id, buf1, buf2, flags);
}
