// SPDX-License-Identifier: GPL-2.0
/*
 * op_id.bpf.c - an op whose id user space sets before load (shadow type):
 * ids >= 256 cannot be encoded in bpf_op_flags' 8 bits and must be refused
 * with -EINVAL when registered (the posted patch indexed bpf_ops[256] out of
 * bounds).
 */
#include "t_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops/prep_fn")
int BPF_PROG(id_prep, struct uring_bpf_data *data,
	     const struct io_uring_sqe *sqe)
{
	return 0;
}

SEC("struct_ops/issue_fn")
int BPF_PROG(id_issue, struct uring_bpf_data *data)
{
	return 0;
}

SEC(".struct_ops.link")
struct uring_bpf_ops id_op = {
	.id = 21,
	.prep_fn = (void *)id_prep,
	.issue_fn = (void *)id_issue,
};
