/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uapi.h - the io_uring ABI of our patched 6.12 kernel (docs/kernel-abi.md)
 * on top of Debian 12's <linux/io_uring.h> (6.1), which lacks most of it.
 * Every constant is #ifndef-guarded, so newer headers win.
 */
#ifndef __IOURING_BPF_UAPI_H
#define __IOURING_BPF_UAPI_H

#include <linux/types.h>
/* IORING_OP_BPF, IORING_SETUP_BPF, SINGLE_ISSUER, DEFER_TASKRUN, NO_SQARRAY */
#include "../lib/iouring-bpf.h"

#ifndef IORING_FEAT_BPF
#define IORING_FEAT_BPF			(1U << 18)
#endif

/* sqe->bpf_op_flags shares the union with rw_flags (offset 28) */
#define IOU_SQE_BPF_OP_FLAGS(sqe)	((sqe)->rw_flags)
/* buffer 2 length: sqe->optlen, which is sqe->file_index in 6.1 headers */
#define IOU_SQE_OPTLEN(sqe)		((sqe)->file_index)

/* op id, buffer types and the 18 program flag bits */
#include "../../progs/iou_opflags.h"

/* 6.12's layout: min_wait_usec took the old pad word */
struct iou_getevents_arg {
	__u64	sigmask;
	__u32	sigmask_sz;
	__u32	min_wait_usec;
	__u64	ts;
};

#endif /* __IOURING_BPF_UAPI_H */
