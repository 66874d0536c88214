/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * iou_opflags.h - sqe->bpf_op_flags encoding for IORING_OP_BPF.
 *
 * Shared by BPF programs (through iouring_bpf.h) and user space (through
 * <iouring-bpf/iouring-bpf.h>): it includes nothing and needs only __u32
 * to be defined.
 *
 *   bits 31-24  op id (the uring_bpf_ops .id the request runs)
 *   bits 23-21  buffer 1 type: NONE 0, PLAIN 1 (addr/len), FIXED 2
 *               (buf_index, len, and addr: a user address inside the
 *               registered buffer, as for IORING_OP_READ_FIXED)
 *   bits 20-18  buffer 2 type: NONE 0 or PLAIN 1 (addr3/optlen)
 *   bits 17-0   flags for the BPF program, passed untouched in data->opf
 */
#ifndef __IOU_OPFLAGS_H
#define __IOU_OPFLAGS_H

/*
 * The opcode and the ring flag of IORING_OP_BPF, written here only: the
 * BPF side uses these names (vmlinux.h may have IORING_OP_BPF as an enum
 * constant), <iouring-bpf/iouring-bpf.h> makes IORING_OP_BPF and
 * IOU_SETUP_BPF_OP of them for applications.
 */
#define IOU_OP_BPF			65
#define IOU_SETUP_BPF			(1U << 20)

#ifndef IORING_BPF_OP_SHIFT
#define IORING_BPF_OP_SHIFT		24
#endif
#ifndef IORING_BPF_BUF1_TYPE_SHIFT
#define IORING_BPF_BUF1_TYPE_SHIFT	21
#endif
#ifndef IORING_BPF_BUF2_TYPE_SHIFT
#define IORING_BPF_BUF2_TYPE_SHIFT	18
#endif
#ifndef IORING_BPF_BUF_TYPE_MASK
#define IORING_BPF_BUF_TYPE_MASK	7
#endif
#ifndef IORING_BPF_CUSTOM_FLAGS_MASK
#define IORING_BPF_CUSTOM_FLAGS_MASK	((1U << 18) - 1)
#endif
#ifndef IORING_BPF_BUF_TYPE_NONE
#define IORING_BPF_BUF_TYPE_NONE	0
#define IORING_BPF_BUF_TYPE_PLAIN	1
#define IORING_BPF_BUF_TYPE_FIXED	2
#endif

#define IOU_BPF_MAX_OP_ID		255

/*
 * Build a bpf_op_flags word. Returns 0xffffffff (never a valid encoding:
 * buffer 2 type 7 is invalid) when a field does not fit: op > 255,
 * buf1 > FIXED, buf2 > PLAIN or flags wider than 18 bits.
 */
static inline __u32 iou_bpf_op_flags(__u32 op, __u32 buf1, __u32 buf2,
				     __u32 flags)
{
	if (op > IOU_BPF_MAX_OP_ID || buf1 > IORING_BPF_BUF_TYPE_FIXED ||
	    buf2 > IORING_BPF_BUF_TYPE_PLAIN ||
	    (flags & ~IORING_BPF_CUSTOM_FLAGS_MASK))
		return 0xffffffffU;
	return op << IORING_BPF_OP_SHIFT |
	       buf1 << IORING_BPF_BUF1_TYPE_SHIFT |
	       buf2 << IORING_BPF_BUF2_TYPE_SHIFT | flags;
}

#define IOU_BPF_OP_FLAGS_INVALID	0xffffffffU

static inline __u32 iou_bpf_op_id(__u32 opf)
{
	return opf >> IORING_BPF_OP_SHIFT;
}

static inline __u32 iou_bpf_buf1_type(__u32 opf)
{
	return (opf >> IORING_BPF_BUF1_TYPE_SHIFT) & IORING_BPF_BUF_TYPE_MASK;
}

static inline __u32 iou_bpf_buf2_type(__u32 opf)
{
	return (opf >> IORING_BPF_BUF2_TYPE_SHIFT) & IORING_BPF_BUF_TYPE_MASK;
}

static inline __u32 iou_bpf_custom_flags(__u32 opf)
{
	return opf & IORING_BPF_CUSTOM_FLAGS_MASK;
}

#endif /* __IOU_OPFLAGS_H */
