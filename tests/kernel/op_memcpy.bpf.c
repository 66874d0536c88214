// SPDX-License-Identifier: GPL-2.0
/*
 * op_memcpy.bpf.c - the memcpy op under test (test_op_memcpy).
 *
 * Each request names a parameter slot in its custom flag bits (bits 0-5).
 * User space writes params[slot] = {dst buf id, src buf id, dst offset,
 * src offset, len} into .bss before submitting; prep_fn copies the slot
 * into the request's pdu (so the parameters travel with the request, even
 * to io-wq), issue_fn calls
 *     io_uring_bpf_req_memcpy(data, &{dst_id, dst_off}, &{src_id, src_off}, len)
 * and completes with its return value (bytes copied, or -errno).
 * Buffer ids 0 and 3 are passed through untouched so that the kfunc's own
 * id checks are tested too, and flag bit 6 (7) passes NULL as the
 * destination (source) descriptor, which the kfunc must refuse (-EINVAL).
 *
 * issue_fn is SLEEPABLE here: the kernel runs the kfunc's body that copies
 * from and to user memory directly, faulting as needed (-EAGAIN and an
 * io-wq retry when the inline issue may not fault). op_memcpy_ns.bpf.c
 * builds this same file with a non-sleepable issue_fn (MC_ISSUE_SEC): the
 * kernel then pins the plain buffers at prep and the kfunc copies between
 * pinned pages, without faulting inside the program's RCU section.
 */
#ifndef MC_ISSUE_SEC
#define MC_ISSUE_SEC "struct_ops.s/issue_fn"
#endif
#ifndef MC_OP_ID
#define MC_OP_ID 40
#endif
#include "t_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#include "op_memcpy.h"

struct mc_param params[MC_NR_SLOTS];
int prep_calls, issue_calls, last_ret;
__u32 last_issue_flags;

/* pdu layout */
#define PDU_DST_ID	0
#define PDU_SRC_ID	1
#define PDU_DST_OFF	4
#define PDU_SRC_OFF	8
#define PDU_LEN		12

SEC("struct_ops/prep_fn")
int BPF_PROG(mc_prep, struct uring_bpf_data *data,
	     const struct io_uring_sqe *sqe)
{
	__u32 slot = data->opf & (MC_NR_SLOTS - 1);
	struct mc_param *p = &params[slot];

	prep_calls++;
	data->pdu[PDU_DST_ID] = p->dst_id;
	data->pdu[PDU_SRC_ID] = p->src_id;
	*(__u32 *)&data->pdu[PDU_DST_OFF] = p->dst_off;
	*(__u32 *)&data->pdu[PDU_SRC_OFF] = p->src_off;
	*(__u32 *)&data->pdu[PDU_LEN] = p->len;
	return 0;
}

SEC(MC_ISSUE_SEC)
int BPF_PROG(mc_issue, struct uring_bpf_data *data)
{
	struct bpf_req_mem_desc dst, src;
	int ret;

	__builtin_memset(&dst, 0, sizeof(dst));
	__builtin_memset(&src, 0, sizeof(src));
	dst.buf_id = data->pdu[PDU_DST_ID];
	src.buf_id = data->pdu[PDU_SRC_ID];
	dst.offset = *(__u32 *)&data->pdu[PDU_DST_OFF];
	src.offset = *(__u32 *)&data->pdu[PDU_SRC_OFF];

	issue_calls++;
	last_issue_flags = data->issue_flags;
	if (data->opf & MC_F_NULL_DST)
		ret = io_uring_bpf_req_memcpy(data, NULL, &src,
					      *(__u32 *)&data->pdu[PDU_LEN]);
	else if (data->opf & MC_F_NULL_SRC)
		ret = io_uring_bpf_req_memcpy(data, &dst, NULL,
					      *(__u32 *)&data->pdu[PDU_LEN]);
	else
		ret = io_uring_bpf_req_memcpy(data, &dst, &src,
					      *(__u32 *)&data->pdu[PDU_LEN]);
	last_ret = ret;
	if (ret < 0)
		return ret;
	/* a positive return from issue_fn is not allowed: set the result */
	uring_bpf_set_result(data, ret);
	return 0;
}

SEC(".struct_ops.link")
struct uring_bpf_ops memcpy_op = {
	.id = MC_OP_ID,
	.prep_fn = (void *)mc_prep,
	.issue_fn = (void *)mc_issue,
};
