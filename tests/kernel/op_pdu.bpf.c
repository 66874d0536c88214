// SPDX-License-Identifier: GPL-2.0
/*
 * op_pdu.bpf.c - the whole 24-byte pdu, LAST byte included, is writable and
 * survives from prep_fn to issue_fn. A separate object from op_basic: the
 * posted patch rejected a write to pdu[23] (off + size >= sizeof), which
 * fails the load of the whole object.
 * prep writes pdu[i] = (user_data + i) for i in 0..23 (pdu[16..23] also as
 * one 8-byte store in mode 1 = flag bit 0), issue checks all 24 bytes:
 * res = 2400 if every byte survived, else -EBADMSG and bad_index is set.
 *
 * fresh_op (id 21) has no prep_fn: its issue_fn reads a pdu nobody wrote,
 * which must be zero, not what the io_kiocb's previous user (a POLL_ADD,
 * say) left there: res = 0 if all 24 bytes are zero, else -EBADMSG with
 * the first nonzero 8-byte word in fresh_word.
 */
#include "t_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

int bad_index = -1;
int issue_calls;
__u64 fresh_word;
int fresh_calls;

SEC("struct_ops/prep_fn")
int BPF_PROG(pdu_prep, struct uring_bpf_data *data,
	     const struct io_uring_sqe *sqe)
{
	__u64 ud = sqe->user_data;

	if (data->opf & 1) {
		/* 8-byte stores, the last one covering pdu[16..23] */
		__u64 w0 = 0, w1 = 0, w2 = 0;

#pragma clang loop unroll(full)
		for (int i = 0; i < 8; i++) {
			w0 |= (__u64)(__u8)(ud + i) << (8 * i);
			w1 |= (__u64)(__u8)(ud + 8 + i) << (8 * i);
			w2 |= (__u64)(__u8)(ud + 16 + i) << (8 * i);
		}
		*(__u64 *)&data->pdu[0] = w0;
		*(__u64 *)&data->pdu[8] = w1;
		*(__u64 *)&data->pdu[16] = w2;
		return 0;
	}
#pragma clang loop unroll(full)
	for (int i = 0; i < 24; i++)
		data->pdu[i] = (__u8)(ud + i);
	return 0;
}

SEC("struct_ops/issue_fn")
int BPF_PROG(pdu_issue, struct uring_bpf_data *data)
{
	__u8 base = data->pdu[0];

	issue_calls++;
#pragma clang loop unroll(full)
	for (int i = 1; i < 24; i++) {
		if (data->pdu[i] != (__u8)(base + i)) {
			if (bad_index < 0)
				bad_index = i;
			uring_bpf_set_result(data, -EBADMSG);
			return 0;
		}
	}
	uring_bpf_set_result(data, 2400);
	return 0;
}

SEC(".struct_ops.link")
struct uring_bpf_ops pdu_op = {
	.id = 20,
	.prep_fn = (void *)pdu_prep,
	.issue_fn = (void *)pdu_issue,
};

SEC("struct_ops/issue_fn")
int BPF_PROG(fresh_issue, struct uring_bpf_data *data)
{
	fresh_calls++;
#pragma clang loop unroll(full)
	for (int i = 0; i < 24; i += 8) {
		__u64 w = *(__u64 *)&data->pdu[i];

		if (w) {
			fresh_word = w;
			uring_bpf_set_result(data, -EBADMSG);
			return 0;
		}
	}
	uring_bpf_set_result(data, 0);
	return 0;
}

SEC(".struct_ops.link")
struct uring_bpf_ops fresh_op = {
	.id = 21,
	.issue_fn = (void *)fresh_issue,
};
