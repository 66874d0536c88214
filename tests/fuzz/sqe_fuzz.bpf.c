// SPDX-License-Identifier: GPL-2.0
/*
 * sqe_fuzz.bpf.c - the ops iou-sqe-fuzz (tests/fuzz/sqe_fuzz.c) throws
 * random IORING_OP_BPF SQEs at.
 *
 * What this teaches: everything in an SQE is chosen by user space, so an
 * op's programs and the kernel around them must cope with any value: the
 * kernel validates the buffer types, fixed-buffer indexes, addresses and
 * lengths before a program sees them, and the memcpy kfunc validates the
 * descriptors and the length a program hands it. The programs here pass
 * the SQE's raw values straight on, to test exactly that.
 *
 *   fz_copy (id 1)  prep keeps sqe->off in the pdu; issue calls
 *                   io_uring_bpf_req_memcpy() with dst id = off bits 0-1,
 *                   src id = bits 2-3, dst offset = bits 8-23, src offset
 *                   = bits 24-39, len = bits 40-63 (all raw)
 *   fz_ret  (id 2)  prep fails with -(flags & 0xfff) when flag bit 17 is
 *                   set; issue completes with the 17 low flag bits
 *   fz_read (id 3)  reads every field of the request and completes with a
 *                   checksum, so that reading is exercised too
 */
#include "t_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

__u64 copies, copy_errors;

SEC("struct_ops/prep_fn")
int BPF_PROG(fz_copy_prep, struct uring_bpf_data *data,
	     const struct io_uring_sqe *sqe)
{
	*(__u64 *)data->pdu = sqe->off;
	return 0;
}

SEC("struct_ops.s/issue_fn")
int BPF_PROG(fz_copy_issue, struct uring_bpf_data *data)
{
	__u64 v = *(__u64 *)data->pdu;
	struct bpf_req_mem_desc d = {}, s = {};
	int ret;

	d.buf_id = v & 3;
	s.buf_id = (v >> 2) & 3;
	d.offset = (v >> 8) & 0xffff;
	s.offset = (v >> 24) & 0xffff;
	ret = io_uring_bpf_req_memcpy(data, &d, &s, v >> 40);
	if (ret < 0) {
		__sync_fetch_and_add(&copy_errors, 1);
		return ret;
	}
	__sync_fetch_and_add(&copies, 1);
	uring_bpf_set_result(data, ret);
	return 0;
}

SEC(".struct_ops.link")
struct uring_bpf_ops fz_copy = {
	.id = 1,
	.prep_fn = (void *)fz_copy_prep,
	.issue_fn = (void *)fz_copy_issue,
};

SEC("struct_ops/prep_fn")
int BPF_PROG(fz_ret_prep, struct uring_bpf_data *data,
	     const struct io_uring_sqe *sqe)
{
	__u32 f = data->opf & T_CUSTOM_MASK;

	if (f & (1U << 17))
		return -(int)(f & 0xfff);
	return 0;
}

SEC("struct_ops/issue_fn")
int BPF_PROG(fz_ret_issue, struct uring_bpf_data *data)
{
	uring_bpf_set_result(data, data->opf & ((1U << 17) - 1));
	return 0;
}

SEC("struct_ops/fail_fn")
void BPF_PROG(fz_ret_fail, struct uring_bpf_data *data)
{
}

SEC("struct_ops/cleanup_fn")
void BPF_PROG(fz_ret_cleanup, struct uring_bpf_data *data)
{
}

SEC(".struct_ops.link")
struct uring_bpf_ops fz_ret = {
	.id = 2,
	.prep_fn = (void *)fz_ret_prep,
	.issue_fn = (void *)fz_ret_issue,
	.fail_fn = (void *)fz_ret_fail,
	.cleanup_fn = (void *)fz_ret_cleanup,
};

SEC("struct_ops/prep_fn")
int BPF_PROG(fz_read_prep, struct uring_bpf_data *data,
	     const struct io_uring_sqe *sqe)
{
	*(__u32 *)data->pdu = sqe->len ^ sqe->buf_index ^ (__u32)sqe->addr;
	return 0;
}

SEC("struct_ops/issue_fn")
int BPF_PROG(fz_read_issue, struct uring_bpf_data *data)
{
	__u32 sum = *(__u32 *)data->pdu;

	sum ^= data->opf ^ data->buf1_len ^ data->buf2_len ^ data->issue_flags;
	sum ^= (__u32)data->buf1_addr ^ (__u32)data->buf2_addr;
	uring_bpf_set_result(data, sum & 0x7fffffff);
	return 0;
}

SEC(".struct_ops.link")
struct uring_bpf_ops fz_read = {
	.id = 3,
	.prep_fn = (void *)fz_read_prep,
	.issue_fn = (void *)fz_read_issue,
};
