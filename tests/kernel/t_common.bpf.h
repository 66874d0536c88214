/* SPDX-License-Identifier: GPL-2.0 */
/*
 * t_common.bpf.h - what the test BPF programs share: vmlinux.h of our kernel
 * (CO-RE), the kfuncs of both series (our own declarations, exactly as in
 * docs/kernel-abi.md), errno values and raw SQE/CQE layout constants.
 * Deliberately independent of progs/iouring_bpf.h: the tests check the
 * kernel ABI, not the project's wrappers.
 */
#ifndef TESTS_KERNEL_T_COMMON_BPF_H
#define TESTS_KERNEL_T_COMMON_BPF_H

#define BPF_NO_KFUNC_PROTOTYPES	/* we declare the kfuncs ourselves */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

/* IORING_OP_BPF kfuncs (BPF_PROG_TYPE_STRUCT_OPS) */
extern void uring_bpf_set_result(struct uring_bpf_data *data, int res) __ksym;
extern int io_uring_bpf_req_memcpy(struct uring_bpf_data *data,
				   struct bpf_req_mem_desc *dest,
				   struct bpf_req_mem_desc *src,
				   unsigned int len) __ksym;
/* loop hook kfuncs; submit_sqes is sleepable */
extern int bpf_io_uring_submit_sqes(struct io_ring_ctx *ctx, __u32 nr) __ksym;
extern __u8 *bpf_io_uring_get_region(struct io_ring_ctx *ctx, __u32 region_id,
				     const size_t rdwr_buf_size) __ksym;

/* loop return values (the enum is not in BTF) */
#define T_RES_WAIT	0
#define T_RES_STOP	1

#define T_CUSTOM_MASK	((1U << 18) - 1)
#define T_OP_BPF	65
#define T_OP_NOP	0
#define T_SQE_IO_LINK	(1U << 2)
#define T_SQE_ASYNC	(1U << 4)

/* raw uapi layout (fixed by the ABI, no CO-RE needed) */
#define T_SQE_SIZE		64
#define T_SQE_OPCODE		0
#define T_SQE_FLAGS		1
#define T_SQE_FD		4
#define T_SQE_OP_FLAGS		28
#define T_SQE_USER_DATA		32
#define T_CQE_SIZE		16
#define T_CQE_USER_DATA		0
#define T_CQE_RES		8

/*
 * Raw ring access for the loop programs: base is a region from
 * bpf_io_uring_get_region() (0: the rings, 1: the SQEs), the offsets and
 * masks come from io_uring_params through the program's .rodata.
 */

/* a head or tail word of the rings, read or written once */
static __always_inline __u32 rd32(__u8 *base, __u32 off)
{
	return *(volatile __u32 *)(base + off);
}

static __always_inline void wr32(__u8 *base, __u32 off, __u32 v)
{
	*(volatile __u32 *)(base + off) = v;
}

/*
 * the SQE at SQ index idx (NO_SQARRAY: the index is the tail), zeroed, with
 * opcode, IOSQE_ flags, fd -1 and user_data; the caller fills the rest and
 * publishes the tail
 */
static __always_inline __u8 *t_sqe_prep(__u8 *sqes, __u32 idx, __u32 sq_mask,
					__u8 opcode, __u8 flags, __u64 user_data)
{
	__u8 *sqe = sqes + (idx & sq_mask) * T_SQE_SIZE;
	__u32 i;

#pragma clang loop unroll(full)
	for (i = 0; i < T_SQE_SIZE / 8; i++)
		*(__u64 *)(sqe + i * 8) = 0;
	sqe[T_SQE_OPCODE] = opcode;
	sqe[T_SQE_FLAGS] = flags;
	*(__s32 *)(sqe + T_SQE_FD) = -1;
	*(__u64 *)(sqe + T_SQE_USER_DATA) = user_data;
	return sqe;
}

/* the CQE at CQ index idx, and its fields */
static __always_inline __u8 *t_cqe_at(__u8 *rings, __u32 cqes_off, __u32 idx,
				      __u32 cq_mask)
{
	return rings + cqes_off + (idx & cq_mask) * T_CQE_SIZE;
}

static __always_inline __u64 t_cqe_user_data(__u8 *cqe)
{
	return *(volatile __u64 *)(cqe + T_CQE_USER_DATA);
}

static __always_inline int t_cqe_res(__u8 *cqe)
{
	return *(volatile int *)(cqe + T_CQE_RES);
}

#define EPERM		1
#define ENOENT		2
#define EINTR		4
#define EIO		5
#define EBADF		9
#define EAGAIN		11
#define ENOMEM		12
#define EFAULT		14
#define EBUSY		16
#define EINVAL		22
#define ENOSPC		28
#define ERANGE		34
#define ETIME		62
#define EBADMSG		74
#define EOPNOTSUPP	95
#define ECANCELED	125
#define EIOCBQUEUED	529

#endif
