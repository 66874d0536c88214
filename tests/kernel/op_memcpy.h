/* SPDX-License-Identifier: GPL-2.0 */
/* op_memcpy.h - the parameter slot shared by op_memcpy.bpf.c and test_op_memcpy.c */
#ifndef TESTS_KERNEL_OP_MEMCPY_H
#define TESTS_KERNEL_OP_MEMCPY_H

#define MC_NR_SLOTS 64
/* custom flag bits above the slot number: NULL descriptors */
#define MC_F_NULL_DST	(1U << 6)
#define MC_F_NULL_SRC	(1U << 7)

/* one request's io_uring_bpf_req_memcpy() parameters */
struct mc_param {
	__u8 dst_id;		/* buffer id 1 or 2 (0/3 to test the kfunc's checks) */
	__u8 src_id;
	__u16 pad;
	__u32 dst_off;
	__u32 src_off;
	__u32 len;
};

#endif
