// SPDX-License-Identifier: GPL-2.0
/*
 * op_basic.bpf.c - IORING_OP_BPF ops for test_op_bpf.
 *
 * ctl_op: one op whose behaviour is chosen per request by the 18 custom
 * flag bits: bits 0-3 the action, bits 4-17 an argument (ARG):
 *   0 NOP               prep 0, issue 0                       -> res 0
 *   1 PREP_ERR          prep returns -ARG                     -> res -ARG
 *   2 SET_RESULT        issue: uring_bpf_set_result(ARG)      -> res ARG
 *   3 ISSUE_ERR         issue returns -ARG                    -> res -ARG
 *   4 ISSUE_POSITIVE    issue returns +ARG (not allowed)      -> res -EINVAL
 *   5 ISSUE_EIOCBQUEUED issue returns -EIOCBQUEUED (-529)     -> res -EINVAL
 *   6 ISSUE_HUGE_NEG    issue returns -5000 (< -4095)         -> res -EINVAL
 *   7 PDU               prep fills pdu[0..22] from sqe->user_data, issue
 *                       checks them                           -> res 1000
 *   8 CHAIN_WRITE       prep keeps sqe->off in the pdu, issue stores it in
 *                       map chain[0]                          -> res 0
 *   9 CHAIN_READ        issue: res = chain[0]                 -> res chain[0]
 *  10 SET_RESULT_NEG    issue: uring_bpf_set_result(-ARG)     -> res -ARG, or
 *                       -EINVAL for kernel-internal codes (ARG > 511)
 * flags_op: issue records data->opf and returns opf & 0x3ffff as res.
 * nop_op / dup_op / max_op / inflight_op / twin_op: prep 0, issue 0, each
 * counting calls; their ids are overridden from user space before load
 * where a test needs it.
 * noprep_op (issue only) and noissue_op (prep only): incomplete ops.
 */
#include "t_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

enum {
	A_NOP, A_PREP_ERR, A_SET_RESULT, A_ISSUE_ERR, A_ISSUE_POSITIVE,
	A_ISSUE_EIOCBQUEUED, A_ISSUE_HUGE_NEG, A_PDU, A_CHAIN_WRITE,
	A_CHAIN_READ, A_SET_RESULT_NEG,
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} chain SEC(".maps");

/* counters read by user space */
int ctl_prep_calls, ctl_issue_calls, ctl_fail_calls;
int nop_prep_calls, nop_issue_calls;
int pdu_bad_index = -1;		/* first pdu byte that did not survive */
__u32 last_opf;
int flags_issue_calls;

static __always_inline __u32 action(struct uring_bpf_data *data)
{
	return data->opf & 0xf;
}

static __always_inline int arg(struct uring_bpf_data *data)
{
	return (data->opf & T_CUSTOM_MASK) >> 4;
}

SEC("struct_ops/prep_fn")
int BPF_PROG(ctl_prep, struct uring_bpf_data *data,
	     const struct io_uring_sqe *sqe)
{
	__u64 ud = sqe->user_data;

	ctl_prep_calls++;
	switch (action(data)) {
	case A_PREP_ERR:
		return -arg(data);
	case A_PDU:
		/* byte i = low byte of user_data + i (pdu[23] is another test) */
#pragma clang loop unroll(full)
		for (int i = 0; i < 23; i++)
			data->pdu[i] = (__u8)(ud + i);
		return 0;
	case A_CHAIN_WRITE:
		*(__u64 *)&data->pdu[0] = sqe->off;
		return 0;
	default:
		return 0;
	}
}

SEC("struct_ops/issue_fn")
int BPF_PROG(ctl_issue, struct uring_bpf_data *data)
{
	__u32 key = 0;
	__u64 *v;

	ctl_issue_calls++;
	switch (action(data)) {
	case A_SET_RESULT:
		uring_bpf_set_result(data, arg(data));
		return 0;
	case A_ISSUE_ERR:
		return -arg(data);
	case A_SET_RESULT_NEG:
		uring_bpf_set_result(data, -arg(data));
		return 0;
	case A_ISSUE_POSITIVE:
		return arg(data);
	case A_ISSUE_EIOCBQUEUED:
		return -EIOCBQUEUED;
	case A_ISSUE_HUGE_NEG:
		return -5000;
	case A_PDU: {
		/* the request's user_data is not in uring_bpf_data: recover the
		 * expected pattern from pdu[0] and check that the rest follows */
		__u8 base = data->pdu[0];

#pragma clang loop unroll(full)
		for (int i = 1; i < 23; i++) {
			if (data->pdu[i] != (__u8)(base + i)) {
				if (pdu_bad_index < 0)
					pdu_bad_index = i;
				uring_bpf_set_result(data, -EBADMSG);
				return 0;
			}
		}
		uring_bpf_set_result(data, 1000);
		return 0;
	}
	case A_CHAIN_WRITE:
		v = bpf_map_lookup_elem(&chain, &key);
		if (!v)
			return -ENOMEM;
		*v = *(__u64 *)&data->pdu[0];
		return 0;
	case A_CHAIN_READ:
		v = bpf_map_lookup_elem(&chain, &key);
		if (!v)
			return -ENOMEM;
		uring_bpf_set_result(data, (int)*v);
		return 0;
	default:
		return 0;
	}
}

SEC("struct_ops/fail_fn")
void BPF_PROG(ctl_fail, struct uring_bpf_data *data)
{
	ctl_fail_calls++;
}

SEC(".struct_ops.link")
struct uring_bpf_ops ctl_op = {
	.id = 10,
	.prep_fn = (void *)ctl_prep,
	.issue_fn = (void *)ctl_issue,
	.fail_fn = (void *)ctl_fail,
};

SEC("struct_ops/prep_fn")
int BPF_PROG(flags_prep, struct uring_bpf_data *data,
	     const struct io_uring_sqe *sqe)
{
	return 0;
}

SEC("struct_ops/issue_fn")
int BPF_PROG(flags_issue, struct uring_bpf_data *data)
{
	flags_issue_calls++;
	last_opf = data->opf;
	uring_bpf_set_result(data, data->opf & T_CUSTOM_MASK);
	return 0;
}

SEC(".struct_ops.link")
struct uring_bpf_ops flags_op = {
	.id = 11,
	.prep_fn = (void *)flags_prep,
	.issue_fn = (void *)flags_issue,
};

SEC("struct_ops/prep_fn")
int BPF_PROG(nop_prep, struct uring_bpf_data *data,
	     const struct io_uring_sqe *sqe)
{
	__sync_fetch_and_add(&nop_prep_calls, 1);
	return 0;
}

SEC("struct_ops/issue_fn")
int BPF_PROG(nop_issue, struct uring_bpf_data *data)
{
	__sync_fetch_and_add(&nop_issue_calls, 1);
	return 0;
}

SEC(".struct_ops.link")
struct uring_bpf_ops nop_op = {
	.id = 12,
	.prep_fn = (void *)nop_prep,
	.issue_fn = (void *)nop_issue,
};

/* same programs, id set by user space (to nop_op's id: -EBUSY) */
SEC(".struct_ops.link")
struct uring_bpf_ops dup_op = {
	.id = 13,
	.prep_fn = (void *)nop_prep,
	.issue_fn = (void *)nop_issue,
};

/* the largest id */
SEC(".struct_ops.link")
struct uring_bpf_ops max_op = {
	.id = 255,
	.prep_fn = (void *)nop_prep,
	.issue_fn = (void *)nop_issue,
};

/* unregistered while its requests are in flight */
SEC(".struct_ops.link")
struct uring_bpf_ops inflight_op = {
	.id = 14,
	.prep_fn = (void *)nop_prep,
	.issue_fn = (void *)nop_issue,
};

/* registered while two IORING_SETUP_BPF rings exist */
SEC(".struct_ops.link")
struct uring_bpf_ops twin_op = {
	.id = 15,
	.prep_fn = (void *)nop_prep,
	.issue_fn = (void *)nop_issue,
};

/*
 * Bad issue_fn return values without any custom flag bits (so that they do
 * not depend on the flags being passed through): ids 30, 31, 32.
 */
SEC("struct_ops/issue_fn")
int BPF_PROG(ret_positive_issue, struct uring_bpf_data *data)
{
	return 7;
}

SEC("struct_ops/issue_fn")
int BPF_PROG(ret_eiocbqueued_issue, struct uring_bpf_data *data)
{
	return -EIOCBQUEUED;
}

SEC("struct_ops/issue_fn")
int BPF_PROG(ret_huge_neg_issue, struct uring_bpf_data *data)
{
	return -5000;
}

SEC(".struct_ops.link")
struct uring_bpf_ops ret_positive_op = {
	.id = 30,
	.prep_fn = (void *)nop_prep,
	.issue_fn = (void *)ret_positive_issue,
};

SEC(".struct_ops.link")
struct uring_bpf_ops ret_eiocbqueued_op = {
	.id = 31,
	.prep_fn = (void *)nop_prep,
	.issue_fn = (void *)ret_eiocbqueued_issue,
};

SEC(".struct_ops.link")
struct uring_bpf_ops ret_huge_neg_op = {
	.id = 32,
	.prep_fn = (void *)nop_prep,
	.issue_fn = (void *)ret_huge_neg_issue,
};

SEC(".struct_ops.link")
struct uring_bpf_ops noprep_op = {
	.id = 16,
	.issue_fn = (void *)nop_issue,
};

SEC(".struct_ops.link")
struct uring_bpf_ops noissue_op = {
	.id = 17,
	.prep_fn = (void *)nop_prep,
};
