// SPDX-License-Identifier: GPL-2.0
/*
 * conf_loop.bpf.c - a loop program for Pavel Begunkov's v3 loop hook,
 * written as the posted selftest writes one: no vmlinux.h and no project
 * header; the hook's types (struct io_uring_ops with .loop, struct
 * iou_loop_state) and its kfuncs are declared by hand below, and libbpf
 * matches them to the kernel's BTF by name (CO-RE for the fields).
 *
 * On its first call the program writes `nr` NOP SQEs straight into the
 * ring (SQE array region 1, SQ ring region 0), submits them with
 * bpf_io_uring_submit_sqes() and asks to sleep until `nr` more CQEs are
 * there (ls->cq_tail); once they are, it stops. The user_data of NOP i is
 * i + 1; test_loop_skel checks the CQEs. User space fills the ring layout
 * (.rodata) from io_uring_params before load.
 */

/* the few uapi types the BPF headers need (no <linux/types.h>) */
typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef signed int __s32;
typedef signed long long __s64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;
typedef unsigned long size_t;

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/*
 * the v3 hook, by hand. io_ring_ctx is opaque to the program, but libbpf
 * checks a kfunc's prototype against the kernel's (a pointer to a struct
 * must point to a struct of the same name: a forward declaration is
 * refused), so it is defined, empty.
 */
struct io_ring_ctx {
};

struct iou_loop_state {
	__u32 cq_tail;
	__s64 timeout;		/* ktime_t */
} __attribute__((preserve_access_index));

struct io_uring_ops {
	int (*loop)(struct io_ring_ctx *ctx, struct iou_loop_state *ls);
	__u32 ring_fd;
	void *priv;
};

enum {
	IOU_RES_WAIT = 0,
	IOU_RES_STOP = 1,
};

extern int bpf_io_uring_submit_sqes(struct io_ring_ctx *ctx, __u32 nr) __ksym;
extern __u8 *bpf_io_uring_get_region(struct io_ring_ctx *ctx, __u32 region_id,
				     const size_t rdwr_buf_size) __ksym;

char LICENSE[] SEC("license") = "GPL";

#define SQE_SIZE	64
#define MAX_NR		64

/* ring layout (io_uring_params), set before load */
const volatile __u32 sq_tail_off, sq_mask, sq_array_off;
const volatile __u32 cq_head_off, cq_tail_off;
const volatile __u32 rings_size, sqes_size;
const volatile __u32 nr = 8;

/* results */
__u32 calls, written;
int submit_ret = -1;

static __u32 *u32_at(__u8 *base, __u32 off)
{
	return (__u32 *)(base + off);
}

SEC("struct_ops.s/loop")
int BPF_PROG(conf_loop, struct io_ring_ctx *ring, struct iou_loop_state *ls)
{
	__u8 *rings, *sqes, *sqe;
	__u32 tail, idx, i, j, head;

	calls++;
	rings = bpf_io_uring_get_region(ring, 0, rings_size);
	sqes = bpf_io_uring_get_region(ring, 1, sqes_size);
	if (!rings || !sqes)
		return IOU_RES_STOP;
	if (sq_tail_off > rings_size - 4 || cq_head_off > rings_size - 4 ||
	    cq_tail_off > rings_size - 4)
		return IOU_RES_STOP;
	head = *u32_at(rings, cq_head_off);

	if (calls == 1) {
		tail = *u32_at(rings, sq_tail_off);
		for (i = 0; i < nr && i < MAX_NR; i++) {
			idx = (tail + i) & sq_mask;
			if ((__u64)idx * SQE_SIZE + SQE_SIZE > sqes_size ||
			    sq_array_off + (__u64)idx * 4 + 4 > rings_size)
				return IOU_RES_STOP;
			sqe = sqes + idx * SQE_SIZE;
			for (j = 0; j < SQE_SIZE / 8; j++)
				((__u64 *)sqe)[j] = 0;
			sqe[0] = 0;				/* IORING_OP_NOP */
			*(__u64 *)(sqe + 32) = i + 1;		/* user_data */
			*u32_at(rings, sq_array_off + idx * 4) = idx;
			written++;
		}
		/* the kernel reads the tail in this same task, below */
		*(volatile __u32 *)u32_at(rings, sq_tail_off) = tail + written;
		submit_ret = bpf_io_uring_submit_sqes(ring, written);
		ls->cq_tail = head + written;
		return IOU_RES_WAIT;
	}
	if (*u32_at(rings, cq_tail_off) - head >= written)
		return IOU_RES_STOP;
	ls->cq_tail = head + written;
	return IOU_RES_WAIT;
}

SEC(".struct_ops.link")
struct io_uring_ops ops = {
	.loop = (void *)conf_loop,
};
