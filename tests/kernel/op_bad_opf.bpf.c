// SPDX-License-Identifier: GPL-2.0
/*
 * op_bad_opf.bpf.c - MUST NOT LOAD: writes data->opf, a read-only field of
 * struct uring_bpf_data (only pdu[] is writable). test_op_bpf expects the
 * verifier to reject it.
 */
#include "t_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops/prep_fn")
int BPF_PROG(bad_prep, struct uring_bpf_data *data,
	     const struct io_uring_sqe *sqe)
{
	data->opf = 0;
	return 0;
}

SEC("struct_ops/issue_fn")
int BPF_PROG(bad_issue, struct uring_bpf_data *data)
{
	return 0;
}

SEC(".struct_ops.link")
struct uring_bpf_ops bad_op = {
	.id = 22,
	.prep_fn = (void *)bad_prep,
	.issue_fn = (void *)bad_issue,
};
