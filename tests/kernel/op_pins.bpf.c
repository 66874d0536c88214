// SPDX-License-Identifier: GPL-2.0
/*
 * op_pins.bpf.c - a copying op whose issue_fn is not sleepable, and its
 * sleepable twin, for test_op_pins.
 *
 * What it teaches: whether an op's issue_fn is sleepable decides how the
 * kernel gets at a request's plain buffers, and so what a request costs
 * while it waits. A plain SEC("struct_ops/issue_fn") runs where it must
 * not fault, so the kernel pins the request's plain buffers at prep and
 * keeps them pinned until the request is done: memory that cannot be
 * reclaimed or moved, and kernel memory to describe it, held for as long
 * as the request is queued (behind a link, for instance). That is charged
 * like registered buffers: the ring creator's RLIMIT_MEMLOCK and the mm's
 * pinned_vm (VmPin), and the descriptors to the memory cgroup. A
 * SEC("struct_ops.s/issue_fn") copies from and to user memory when it is
 * issued, faulting as needed, and pins nothing while it waits; it sees the
 * buffer as it is mapped then, not as it was at prep.
 *
 * pins_op (id 92, not sleepable) and pins_op_s (id 93, sleepable) do the
 * same: copy min(buf1_len, buf2_len) bytes from buffer 1 to buffer 2 (the
 * other way with PINS_F_REVERSE) and complete with the bytes copied or the
 * kfunc's -errno. With PINS_F_NOCOPY, or without a buffer 2, they copy
 * nothing and complete with buf1_len: the request only holds its pins.
 * Neither has a prep_fn: the kernel pins before prep_fn would run anyway.
 */
#include "t_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* custom flags (sqe->bpf_op_flags bits 17-0); test_op_pins.c has the same */
#define PINS_F_REVERSE	(1U << 0)	/* copy buffer 2 -> buffer 1 */
#define PINS_F_NOCOPY	(1U << 1)	/* copy nothing, res = buf1_len */

/* read by user space: [0] pins_op, [1] pins_op_s */
int issue_calls[2];
int last_ret[2];

static __always_inline int pins_issue(struct uring_bpf_data *data, int i)
{
	struct bpf_req_mem_desc dst, src;
	__u32 len = data->buf1_len;
	int ret;

	__sync_fetch_and_add(&issue_calls[i & 1], 1);
	if ((data->opf & PINS_F_NOCOPY) || !data->buf2_len) {
		uring_bpf_set_result(data, len);
		return 0;
	}
	if (data->buf2_len < len)
		len = data->buf2_len;
	__builtin_memset(&dst, 0, sizeof(dst));
	__builtin_memset(&src, 0, sizeof(src));
	src.buf_id = 1;
	dst.buf_id = 2;
	if (data->opf & PINS_F_REVERSE) {
		src.buf_id = 2;
		dst.buf_id = 1;
	}
	ret = io_uring_bpf_req_memcpy(data, &dst, &src, len);
	last_ret[i & 1] = ret;
	if (ret < 0)
		return ret;
	uring_bpf_set_result(data, ret);
	return 0;
}

/* not sleepable: runs under RCU, copies only pages pinned beforehand */
SEC("struct_ops/issue_fn")
int BPF_PROG(pins_issue_ns, struct uring_bpf_data *data)
{
	return pins_issue(data, 0);
}

/* sleepable: copies user memory as it is mapped at issue */
SEC("struct_ops.s/issue_fn")
int BPF_PROG(pins_issue_s, struct uring_bpf_data *data)
{
	return pins_issue(data, 1);
}

SEC(".struct_ops.link")
struct uring_bpf_ops pins_op = {
	.id = 92,
	.issue_fn = (void *)pins_issue_ns,
};

SEC(".struct_ops.link")
struct uring_bpf_ops pins_op_s = {
	.id = 93,
	.issue_fn = (void *)pins_issue_s,
};
