// SPDX-License-Identifier: GPL-2.0
/*
 * op_bad_past.bpf.c - MUST NOT LOAD: writes the byte just past pdu[23]
 * (offset 64 of the 64-byte struct uring_bpf_data). test_op_bpf expects
 * the verifier to reject it.
 */
#include "t_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops/prep_fn")
int BPF_PROG(past_prep, struct uring_bpf_data *data,
	     const struct io_uring_sqe *sqe)
{
	/* raw offset, no CO-RE relocation: the verifier must catch it */
	*((volatile __u8 *)data + 64) = 1;
	return 0;
}

SEC("struct_ops/issue_fn")
int BPF_PROG(past_issue, struct uring_bpf_data *data)
{
	return 0;
}

SEC(".struct_ops.link")
struct uring_bpf_ops past_op = {
	.id = 23,
	.prep_fn = (void *)past_prep,
	.issue_fn = (void *)past_issue,
};
