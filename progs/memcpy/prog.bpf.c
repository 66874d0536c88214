// SPDX-License-Identifier: GPL-2.0
/*
 * memcpy - an IORING_OP_BPF operation that copies between its two buffers.
 *
 * What it shows: the buffers of an IORING_OP_BPF request and the
 * io_uring_bpf_req_memcpy() kfunc (Ming Lei's series, patches 4-5). Buffer 1
 * is sqe->addr/len (PLAIN) or a registered buffer (FIXED: buf_index, and
 * sqe->addr a user address inside it, as for READ_FIXED); buffer 2 is
 * sqe->addr3/optlen (PLAIN). The program never touches user memory itself:
 * the kfunc copies and validates ranges. issue_fn is sleepable
 * (SEC("struct_ops.s/issue_fn"), IOU_OP_ISSUE_SLEEPABLE): the kernel then
 * copies plain buffers from and to user memory directly, without pinning
 * them; a plain SEC("struct_ops/issue_fn") works too, with the buffers
 * pinned at prep (see docs/kernel-abi.md).
 *
 * Direction: buffer 1 -> buffer 2, unless program flag bit 0
 * (MEMCPY_F_REVERSE in sqe->bpf_op_flags bits 17-0) is set, or the rodata
 * parameter `reverse` is 1 (the two XOR). Length: min(len1, len2), or the
 * `max_len` parameter if smaller and non-zero. CQE res = bytes copied, or
 * the kfunc's negative errno. prep_fn rejects a request without two
 * buffers with -EINVAL.
 *
 * Run:   iouring-bpf run memcpy --count 64 --set max_len=0
 *        (copies 64 buffers of varied sizes both ways, plain and fixed
 *        buffer 1, compares every byte, checks res == bytes copied)
 * Load:  iouring-bpf load memcpy --id 2
 */
#include "iouring_bpf.h"

char LICENSE[] SEC("license") = "GPL";

IOU_EXIT_INFO_DEFINE();

#define MEMCPY_F_REVERSE	(1U << 0)

const volatile __u32 reverse;	/* 1: default direction buf2 -> buf1 */
const volatile __u32 max_len;	/* 0: no limit */

__u64 nr_copies, nr_bytes, nr_errors;

IOU_OP_PREP(memcpy_prep)
{
	if (iou_bpf_buf1_type(data->opf) == IORING_BPF_BUF_TYPE_NONE ||
	    iou_bpf_buf2_type(data->opf) == IORING_BPF_BUF_TYPE_NONE)
		return -EINVAL;
	return 0;
}

/* sleepable: the kfunc copies user memory directly, faulting as needed */
IOU_OP_ISSUE_SLEEPABLE(memcpy_issue)
{
	bool rev = !!(iou_op_flags(data) & MEMCPY_F_REVERSE) ^ !!reverse;
	__u32 len = data->buf1_len < data->buf2_len ?
		    data->buf1_len : data->buf2_len;
	int ret;

	if (max_len && len > max_len)
		len = max_len;
	if (rev)
		ret = iou_op_memcpy(data, 1, 0, 2, 0, len);
	else
		ret = iou_op_memcpy(data, 2, 0, 1, 0, len);
	if (ret < 0) {
		__sync_fetch_and_add(&nr_errors, 1);
		return ret;
	}
	__sync_fetch_and_add(&nr_copies, 1);
	__sync_fetch_and_add(&nr_bytes, ret);
	iou_op_set_result(data, ret);
	return 0;
}

IOU_OP_OPS(memcpy_ops, 2, memcpy_prep, memcpy_issue);
