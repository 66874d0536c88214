// SPDX-License-Identifier: GPL-2.0
/*
 * mainline_nops - a loop program written for mainline's hook (Linux 7.1+,
 * `struct io_uring_bpf_ops`), the way one would write it outside this
 * project: its own declarations, no progs/iouring_bpf.h.
 *
 * What it shows: the whole merged API in one file. The struct_ops map
 * names the ring by ring_fd (filled in by the loader before load); the
 * sleepable loop_step callback runs inside every io_uring_enter() on that
 * ring: it reaps the CQEs of its own NOPs, queues the next NOP in the SQ
 * region (IOU_REGION_SQ), submits it with bpf_io_uring_submit_sqes(), and
 * asks to be woken when the CQ tail passes the NOP (lp->cq_wait_idx,
 * IOU_LOOP_CONTINUE); after `nr` NOPs it returns IOU_LOOP_STOP and
 * io_uring_enter() returns 0. It writes nothing but lp->cq_wait_idx and
 * never reads through the ring pointer (7.2 makes it an opaque struct
 * iou_ctx *; a struct io_ring_ctx * here is what libbpf matches to either).
 *
 * The ring geometry comes from `const volatile` globals under the names
 * liburing's tests of the hook use (sq_entries, cq_entries,
 * cq_head_offset, cq_tail_offset, cqes_offset; and sq_tail_offset in
 * the same style): the application copies them from io_uring_params,
 * `iouring-bpf load` and `run` fill them from the ring. It assumes a
 * ring without an SQ array (IORING_SETUP_NO_SQARRAY), as liburing's
 * tests create theirs.
 *
 * It compiles against any vmlinux.h: its own versions of the hook's types
 * carry a CO-RE ___flavour (libbpf matches a struct_ops type by its name
 * without the flavour), so a vmlinux.h of a 7.1+ kernel, which has
 * them, does not see them defined twice.
 *
 * Run (a stock 7.1+ kernel; on the project's kernel `load` refuses it
 * with exit 3, it has v3's io_uring_ops only):
 *        iouring-bpf load examples/mainline_nops.bpf.o --ring PID:FD \
 *            --set nr=5
 * then the next io_uring_enter() of process PID on fd FD runs 5 NOPs from
 * BPF and returns 0 with the CQ empty (tests/cli/test_load_mainline).
 */
#define BPF_NO_KFUNC_PROTOTYPES
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

/* the merged uapi, as Linux 7.1's BTF has it, flavoured */
struct iou_loop_params___nops {
	__u32 cq_wait_idx;
};

struct io_uring_bpf_ops___nops {
	int (*loop_step)(struct io_ring_ctx *ctx,
			 struct iou_loop_params___nops *lp);
	__u32 ring_fd;
	void *priv;
};

/* IOU_LOOP_CONTINUE/STOP, IOU_REGION_CQ/SQ: enumerators a 7.1+ vmlinux.h has */
enum { NOPS_CONTINUE = 0, NOPS_STOP = 1 };
enum { NOPS_REGION_CQ = 1, NOPS_REGION_SQ = 2 };

extern int bpf_io_uring_submit_sqes(struct io_ring_ctx *ctx, __u32 nr) __ksym;
extern __u8 *bpf_io_uring_get_region(struct io_ring_ctx *ctx, __u32 region_id,
				     const size_t rdwr_buf_size) __ksym;

/* ring geometry, filled by the loader (liburing's names) */
const volatile __u32 sq_entries, cq_entries;
const volatile __u32 cq_head_offset, cq_tail_offset, cqes_offset;
const volatile __u32 sq_tail_offset;

const volatile __u32 nr = 8;	/* NOPs to run */

__u32 issued, completed, errors, steps;

SEC("struct_ops.s/loop_step")
int BPF_PROG(nops_step, struct io_ring_ctx *ring,
	     struct iou_loop_params___nops *lp)
{
	__u32 *sq_tail, *cq_head, *cq_tail, head, i;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	__u8 *rings, *sqes;

	steps++;
	rings = bpf_io_uring_get_region(ring, NOPS_REGION_CQ, cqes_offset +
					(__u64)cq_entries * sizeof(*cqe));
	sqes = bpf_io_uring_get_region(ring, NOPS_REGION_SQ,
				       (__u64)sq_entries * sizeof(*sqe));
	if (!rings || !sqes)
		return NOPS_STOP;
	sq_tail = (__u32 *)(rings + sq_tail_offset);
	cq_head = (__u32 *)(rings + cq_head_offset);
	cq_tail = (__u32 *)(rings + cq_tail_offset);

	/* reap the NOPs that completed */
	head = *(volatile __u32 *)cq_head;
	for (i = 0; i < 16 && head != *(volatile __u32 *)cq_tail; i++) {
		cqe = (void *)(rings + cqes_offset +
			       (__u64)(head & (cq_entries - 1)) * sizeof(*cqe));
		if (cqe->res)
			errors++;
		completed++;
		head++;
	}
	*(volatile __u32 *)cq_head = head;
	if (completed >= nr || errors)
		return NOPS_STOP;

	/* queue the next one when the previous is done */
	if (issued == completed) {
		__u32 tail = *(volatile __u32 *)sq_tail;

		sqe = (void *)(sqes + (__u64)(tail & (sq_entries - 1)) *
			       sizeof(*sqe));
		__builtin_memset(sqe, 0, sizeof(*sqe));
		sqe->opcode = 0;		/* IORING_OP_NOP */
		sqe->user_data = issued;
		*(volatile __u32 *)sq_tail = tail + 1;
		if (bpf_io_uring_submit_sqes(ring, 1) != 1)
			return NOPS_STOP;
		issued++;
	}
	/* wake me when one more CQE is posted */
	lp->cq_wait_idx = head + 1;
	return NOPS_CONTINUE;
}

SEC(".struct_ops.link")
struct io_uring_bpf_ops___nops mainline_nops = {
	.loop_step = (void *)nops_step,
};
