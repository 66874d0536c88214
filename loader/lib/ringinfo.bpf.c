// SPDX-License-Identifier: GPL-2.0
/*
 * ringinfo.bpf.c - the setup flags and sizes of one io_uring, read from
 * the kernel, for the library (lib/ringinfo.c).
 *
 * What it shows: a BPF iterator as a way to ask the kernel about an object
 * that has no uapi to describe itself. An io_uring fd tells user space its
 * entries (/proc/self/fdinfo) but not the flags it was created with, and a
 * loop program that fills SQEs needs one of them: whether the ring has an
 * SQ index array (no IORING_SETUP_NO_SQARRAY). This program walks every
 * open file of every task (iter/task_file), stops at fd `want_fd` of the
 * process `want_tgid` (the library's own copy of the ring fd), and copies
 * the ring context's flags and entries into .bss through CO-RE, so the
 * same object reads them on our 6.12 kernel and on stock 7.1/7.2.
 *
 * Run: nothing to run by hand; iouring_bpf_obj_bind_ring(obj, fd, NULL) loads
 * it, reads one pass of the iterator and unloads it.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

const volatile int want_tgid;
const volatile int want_fd;

int found;
__u32 ring_flags, ring_sq_entries, ring_cq_entries;

SEC("iter/task_file")
int ring_info(struct bpf_iter__task_file *ctx)
{
	struct task_struct *task = ctx->task;
	struct file *file = ctx->file;
	struct io_ring_ctx *ring;

	if (!task || !file || task->tgid != want_tgid || ctx->fd != want_fd)
		return 0;
	ring = BPF_CORE_READ(file, private_data);
	if (!ring)
		return 0;
	ring_flags = BPF_CORE_READ(ring, flags);
	ring_sq_entries = BPF_CORE_READ(ring, sq_entries);
	ring_cq_entries = BPF_CORE_READ(ring, cq_entries);
	found = 1;
	return 0;
}
