/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loop_defs.h - what a loop program for mainline's hook (Linux 7.1+)
 * declares when it is written outside this project, as liburing's tests
 * of the hook are: no vmlinux.h, no project header, the uapi's SQE/CQE
 * from <linux/io_uring.h>, and the hook's types written by hand under the
 * kernel's names (libbpf matches a struct_ops type by name, and a kfunc's
 * arguments by kind: a struct pointer is a struct pointer).
 *
 * The ring's geometry comes from `const volatile` globals that the
 * application (here: the iouring-bpf loader) copies from io_uring_params
 * before load, under the names liburing's tests use.
 *
 * A program for an SQ_REWIND ring (Linux 7.0+: every submit takes its
 * SQEs from index 0, the SQ head and tail are unused) defines
 * LOOP_SQ_AT_ZERO first: it then declares no SQ position global and has
 * no tail helpers, only ring_sqe0().
 */
#ifndef __FOREIGN_LOOP_DEFS_H
#define __FOREIGN_LOOP_DEFS_H

#include <linux/types.h>
#include <linux/io_uring.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

struct io_ring_ctx {};		/* opaque: never read through */

struct iou_loop_params {
	__u32 cq_wait_idx;
};

struct io_uring_bpf_ops {
	int (*loop_step)(struct io_ring_ctx *ctx, struct iou_loop_params *lp);
	__u32 ring_fd;
	void *priv;
};

enum { IOU_LOOP_CONTINUE = 0, IOU_LOOP_STOP = 1 };
enum { IOU_REGION_MEM = 0, IOU_REGION_CQ = 1, IOU_REGION_SQ = 2 };

extern int bpf_io_uring_submit_sqes(struct io_ring_ctx *ctx, __u32 nr) __ksym;
extern __u8 *bpf_io_uring_get_region(struct io_ring_ctx *ctx, __u32 region_id,
				     const __u64 rdwr_buf_size) __ksym;

/* filled by the loader from the ring (README: the conventions table) */
const volatile unsigned int sq_entries, cq_entries;
const volatile unsigned int cq_head_offset, cq_tail_offset, cqes_offset;
#ifndef LOOP_SQ_AT_ZERO
const volatile unsigned int sq_head_offset, sq_tail_offset, sq_array_offset;
#endif

/* the two regions: ring headers + CQEs (+ SQ array), and the SQEs */
struct ring {
	__u8			*hdr;
	struct io_uring_sqe	*sqes;
};

static __always_inline int ring_map(struct io_ring_ctx *ctx, struct ring *r)
{
	__u64 cq_end = cqes_offset + (__u64)cq_entries * sizeof(struct io_uring_cqe);
#ifdef LOOP_SQ_AT_ZERO
	__u64 sq_end = 0;
#else
	__u64 sq_end = sq_array_offset ? sq_array_offset + (__u64)sq_entries * 4 : 0;
#endif

	r->hdr = bpf_io_uring_get_region(ctx, IOU_REGION_CQ,
					 cq_end > sq_end ? cq_end : sq_end);
	r->sqes = (void *)bpf_io_uring_get_region(ctx, IOU_REGION_SQ,
			(__u64)sq_entries * sizeof(struct io_uring_sqe));
	return r->hdr && r->sqes ? 0 : -1;
}

static __always_inline __u32 *ring_u32(struct ring *r, __u32 off)
{
	return (__u32 *)(r->hdr + off);
}

#ifdef LOOP_SQ_AT_ZERO
/* SQE i of the next submit (SQ_REWIND: from index 0), zeroed */
static __always_inline struct io_uring_sqe *ring_sqe0(struct ring *r, __u32 i)
{
	struct io_uring_sqe *sqe = &r->sqes[i & (sq_entries - 1)];

	__builtin_memset(sqe, 0, sizeof(*sqe));
	return sqe;
}
#else
/*
 * the next SQE at the SQ tail, zeroed; with an SQ array (sq_array_offset
 * not 0) its slot points at it. Published by ring_sq_push().
 */
static __always_inline struct io_uring_sqe *ring_sqe(struct ring *r, __u32 n)
{
	__u32 tail = *(volatile __u32 *)ring_u32(r, sq_tail_offset) + n;
	__u32 idx = tail & (sq_entries - 1);
	struct io_uring_sqe *sqe = &r->sqes[idx];

	if (sq_array_offset)
		*ring_u32(r, sq_array_offset + idx * 4) = idx;
	__builtin_memset(sqe, 0, sizeof(*sqe));
	return sqe;
}

static __always_inline void ring_sq_push(struct ring *r, __u32 n)
{
	__u32 *tail = ring_u32(r, sq_tail_offset);

	*(volatile __u32 *)tail = *(volatile __u32 *)tail + n;
}
#endif /* LOOP_SQ_AT_ZERO */

#endif /* __FOREIGN_LOOP_DEFS_H */
