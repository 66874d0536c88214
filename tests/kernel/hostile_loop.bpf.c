// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_loop.bpf.c - loop-hook programs (struct io_uring_ops) that do
 * what a careless or hostile author would: leave .loop out, return
 * anything, set the wait state to nonsense, write the ring context, and
 * hand the kfuncs NULL, map values, stack memory or numbers as the ring
 * (test_hostile, one table row per map below).
 *
 * What this teaches: both loop kfuncs are KF_TRUSTED_ARGS, so their ctx
 * must be the very pointer the kernel passed to the program; the verifier
 * refuses everything else, NULL included. The program's own arguments are
 * BTF objects: of struct iou_loop_state only cq_tail and timeout are
 * writable, of struct io_ring_ctx nothing. A struct_ops map may leave any
 * member out, and then the kernel must not call it.
 *
 * test_hostile loads this object once per row with only that row's map
 * created (libbpf then loads only that map's programs) and sets ring_fd
 * before load, like every loop program.
 */
#include "t_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

int ret_first;			/* what the first call returns */
int past_timeout;		/* 1: first call sets a past timeout + WAIT */
int calls;
int submit_ret = 12345;		/* bpf_io_uring_submit_sqes(ctx, ~0U) */
__u64 bogus_addr = 0x1000;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[32]);
} blobs SEC(".maps");

/* ---- return values and the wait state ----------------------------------- */

SEC("struct_ops.s/loop")
int BPF_PROG(l_ret, struct io_ring_ctx *ring, struct iou_loop_state *ls)
{
	if (calls++)
		return T_RES_STOP;
	if (past_timeout) {
		/* a target never reached, a deadline long gone */
		ls->cq_tail += 1000;
		ls->timeout = 1;
		return T_RES_WAIT;
	}
	return ret_first;
}

SEC(".struct_ops.link")
struct io_uring_ops lo_ret = {
	.loop = (void *)l_ret,
};

/* ---- members left out --------------------------------------------------- */

/* only ring_fd (set by the test): no program at all */
SEC(".struct_ops.link")
struct io_uring_ops lo_no_loop = {
};

/* ---- kfunc ctx arguments ------------------------------------------------ */

#define L_SUBMIT(name, CTX)						\
SEC("struct_ops.s/loop")						\
int BPF_PROG(name, struct io_ring_ctx *ring, struct iou_loop_state *ls)	\
{									\
	__u64 stack[32] = {};						\
	__u32 k = 0;							\
	void *mv = bpf_map_lookup_elem(&blobs, &k);			\
									\
	if (!mv)							\
		return T_RES_STOP;					\
	submit_ret = bpf_io_uring_submit_sqes((struct io_ring_ctx *)(CTX), 1); \
	return stack[0] ? T_RES_WAIT : T_RES_STOP;			\
}									\
SEC(".struct_ops.link")							\
struct io_uring_ops lo_##name = {					\
	.loop = (void *)name,						\
}

#define L_REGION(name, CTX)						\
SEC("struct_ops.s/loop")						\
int BPF_PROG(name, struct io_ring_ctx *ring, struct iou_loop_state *ls)	\
{									\
	__u64 stack[32] = {};						\
	__u32 k = 0;							\
	void *mv = bpf_map_lookup_elem(&blobs, &k);			\
									\
	if (!mv)							\
		return T_RES_STOP;					\
	submit_ret = !!bpf_io_uring_get_region((struct io_ring_ctx *)(CTX), 0, 8); \
	return stack[0] ? T_RES_WAIT : T_RES_STOP;			\
}									\
SEC(".struct_ops.link")							\
struct io_uring_ops lo_##name = {					\
	.loop = (void *)name,						\
}

L_SUBMIT(submit_null, NULL);
L_SUBMIT(submit_stack, stack);
L_SUBMIT(submit_map, mv);
L_SUBMIT(submit_scalar, bogus_addr);
L_REGION(region_null, NULL);
L_REGION(region_stack, stack);
L_REGION(region_map, mv);
L_REGION(region_scalar, bogus_addr);

/* the real ctx and a count no ring has: takes what is there (nothing) */
SEC("struct_ops.s/loop")
int BPF_PROG(submit_huge, struct io_ring_ctx *ring, struct iou_loop_state *ls)
{
	submit_ret = bpf_io_uring_submit_sqes(ring, ~0U);
	return T_RES_STOP;
}

SEC(".struct_ops.link")
struct io_uring_ops lo_submit_huge = {
	.loop = (void *)submit_huge,
};

/* submit_sqes may sleep: a non-sleepable program may not call it */
SEC("struct_ops/loop")
int BPF_PROG(submit_nonsleepable, struct io_ring_ctx *ring,
	     struct iou_loop_state *ls)
{
	submit_ret = bpf_io_uring_submit_sqes(ring, 1);
	return T_RES_STOP;
}

SEC(".struct_ops.link")
struct io_uring_ops lo_submit_nonsleepable = {
	.loop = (void *)submit_nonsleepable,
};

/* get_region() may return NULL: using it unchecked is refused */
SEC("struct_ops.s/loop")
int BPF_PROG(region_unchecked, struct io_ring_ctx *ring,
	     struct iou_loop_state *ls)
{
	__u8 *p = bpf_io_uring_get_region(ring, 0, 8);

	return *(volatile __u8 *)p ? T_RES_STOP : T_RES_STOP;
}

SEC(".struct_ops.link")
struct io_uring_ops lo_region_unchecked = {
	.loop = (void *)region_unchecked,
};

/* ---- writes ------------------------------------------------------------- */

SEC("struct_ops.s/loop")
int BPF_PROG(w_ctx, struct io_ring_ctx *ring, struct iou_loop_state *ls)
{
	*(volatile __u32 *)&ring->flags = 0;
	return T_RES_STOP;
}

SEC(".struct_ops.link")
struct io_uring_ops lo_w_ctx = {
	.loop = (void *)w_ctx,
};

/* bytes 4-7 of iou_loop_state: between cq_tail and timeout */
SEC("struct_ops.s/loop")
int BPF_PROG(w_ls_hole, struct io_ring_ctx *ring, struct iou_loop_state *ls)
{
	*(volatile __u32 *)((__u8 *)ls + 4) = 1;
	return T_RES_STOP;
}

SEC(".struct_ops.link")
struct io_uring_ops lo_w_ls_hole = {
	.loop = (void *)w_ls_hole,
};

/* one byte past iou_loop_state (16 bytes) */
SEC("struct_ops.s/loop")
int BPF_PROG(w_ls_past, struct io_ring_ctx *ring, struct iou_loop_state *ls)
{
	*((volatile __u8 *)ls + 16) = 1;
	return T_RES_STOP;
}

SEC(".struct_ops.link")
struct io_uring_ops lo_w_ls_past = {
	.loop = (void *)w_ls_past,
};
