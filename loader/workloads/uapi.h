/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uapi.h - the io_uring ABI of our patched 6.12 kernel (docs/kernel-abi.md)
 * on top of Debian 12's <linux/io_uring.h> (6.1), which lacks most of it.
 * Every constant is #ifndef-guarded, so newer headers win.
 */
#ifndef __IOURING_BPF_UAPI_H
#define __IOURING_BPF_UAPI_H

#include <linux/types.h>
#include <linux/io_uring.h>

/* IORING_OP_BPF (Ming Lei's series); opcodes 58-64 do not exist in 6.12 */
#ifndef IORING_OP_BPF
#define IORING_OP_BPF			65
#endif
#ifndef IORING_SETUP_BPF
#define IORING_SETUP_BPF		(1U << 20)
#endif
#ifndef IORING_FEAT_BPF
#define IORING_FEAT_BPF			(1U << 18)
#endif

/* sqe->bpf_op_flags shares the union with rw_flags (offset 28) */
#define IOU_SQE_BPF_OP_FLAGS(sqe)	((sqe)->rw_flags)
/* buffer 2 length: sqe->optlen, which is sqe->file_index in 6.1 headers */
#define IOU_SQE_OPTLEN(sqe)		((sqe)->file_index)

/* op id, buffer types and the 18 program flag bits */
#include "../../progs/iou_opflags.h"

/* 6.12 bits Debian 12's headers may lack */
#ifndef IORING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER	(1U << 12)
#endif
#ifndef IORING_SETUP_DEFER_TASKRUN
#define IORING_SETUP_DEFER_TASKRUN	(1U << 13)
#endif
#ifndef IORING_SETUP_NO_SQARRAY
#define IORING_SETUP_NO_SQARRAY		(1U << 16)
#endif
#ifndef IORING_SETUP_CQSIZE
#define IORING_SETUP_CQSIZE		(1U << 3)
#endif
#ifndef IORING_SETUP_CQE32
#define IORING_SETUP_CQE32		(1U << 11)
#endif
#ifndef IORING_SETUP_SQE128
#define IORING_SETUP_SQE128		(1U << 10)
#endif
#ifndef IORING_ENTER_GETEVENTS
#define IORING_ENTER_GETEVENTS		(1U << 0)
#endif
#ifndef IORING_ENTER_EXT_ARG
#define IORING_ENTER_EXT_ARG		(1U << 3)
#endif
#ifndef IORING_OP_NOP
#define IORING_OP_NOP			0
#endif
#ifndef IORING_FEAT_SINGLE_MMAP
#define IORING_FEAT_SINGLE_MMAP		(1U << 0)
#endif

/* 6.12's layout: min_wait_usec took the old pad word */
struct iou_getevents_arg {
	__u64	sigmask;
	__u32	sigmask_sz;
	__u32	min_wait_usec;
	__u64	ts;
};

#endif /* __IOURING_BPF_UAPI_H */
