// SPDX-License-Identifier: GPL-2.0
/*
 * ringowner.bpf.c - whose io_uring is this? For iouring-bpfd (ring.c).
 *
 * What it shows: a BPF iterator answering a question no uapi answers. A
 * client hands the daemon a ring fd; before attaching a program that will
 * run inside that ring's io_uring_enter(), the daemon must know that the
 * ring is the client's own, not one a confederate of another user passed
 * on, and that it has the flags the program needs. The ring's context
 * knows: the user it is charged to (ctx->user, its creator's), the task
 * that may submit (ctx->submitter_task of a SINGLE_ISSUER ring; none while
 * it is created IORING_SETUP_R_DISABLED) and its setup flags. This program
 * walks the files of the daemon's own task (the iterator is attached with
 * that task as its filter), stops at fd `want_fd` (the daemon's copy of
 * the client's ring) and copies those three facts into .bss, through
 * CO-RE: the same object reads them on our 6.12 kernel and on 7.2.
 *
 * Run: nothing to run by hand; iouring-bpfd loads it once at start and
 * reads one pass of the iterator per request.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

int want_fd;
int found;
__u32 ring_flags, creator_uid;
int submitter_tgid;

SEC("iter/task_file")
int ring_owner(struct bpf_iter__task_file *ctx)
{
	struct file *file = ctx->file;
	struct io_ring_ctx *ring;
	struct task_struct *sub;

	if (!file || ctx->fd != want_fd)
		return 0;
	ring = BPF_CORE_READ(file, private_data);
	if (!ring)
		return 0;
	ring_flags = BPF_CORE_READ(ring, flags);
	creator_uid = BPF_CORE_READ(ring, user, uid.val);
	sub = BPF_CORE_READ(ring, submitter_task);
	submitter_tgid = sub ? BPF_CORE_READ(sub, tgid) : 0;
	found = 1;
	return 0;
}
