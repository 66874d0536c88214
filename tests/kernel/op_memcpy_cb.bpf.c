// SPDX-License-Identifier: GPL-2.0
/*
 * op_memcpy_cb.bpf.c - the memcpy kfunc called from a callback of a
 * sleepable issue_fn, for test_op_memcpy.
 *
 * What it teaches: a sleepable program gets the body of
 * io_uring_bpf_req_memcpy() that faults user pages in, so the kfunc may
 * sleep there. Not every callback of a sleepable program may sleep:
 * bpf_loop() calls its callback right where it was called, but
 * bpf_for_each_map_elem() over a hash map runs its callback under
 * rcu_read_lock(), a timer callback runs in softirq, bpf_rbtree_add()'s
 * under a spin lock. The verifier accepts the kfunc in the program's body
 * and in bpf_loop() callbacks, and refuses it in the others ("may fault
 * in a sleepable program").
 *
 * Both ops copy buffer 1 to buffer 2 (buf1_len bytes) from a callback and
 * complete with the kfunc's result. loop_op (id 44) loads and runs;
 * hash_op (id 45) must be refused by the verifier. The test loads one at a
 * time (the other's map and program disabled).
 */
#include "t_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct cb_ctx {
	struct uring_bpf_data *data;
	int ret;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} one_elem SEC(".maps");

int cb_calls;

static __always_inline int copy_1_to_2(struct uring_bpf_data *data)
{
	struct bpf_req_mem_desc dst, src;

	__builtin_memset(&dst, 0, sizeof(dst));
	__builtin_memset(&src, 0, sizeof(src));
	src.buf_id = 1;
	dst.buf_id = 2;
	return io_uring_bpf_req_memcpy(data, &dst, &src, data->buf1_len);
}

static long loop_cb(__u32 index, void *arg)
{
	struct cb_ctx *c = arg;

	cb_calls++;
	c->ret = copy_1_to_2(c->data);
	return 1;
}

static long hash_cb(struct bpf_map *map, __u32 *key, __u32 *val, void *arg)
{
	struct cb_ctx *c = arg;

	c->ret = copy_1_to_2(c->data);
	return 1;
}

static __always_inline int finish(struct uring_bpf_data *data, int ret)
{
	if (ret < 0)
		return ret;	/* -EAGAIN: io_uring retries from io-wq */
	uring_bpf_set_result(data, ret);
	return 0;
}

SEC("struct_ops.s/issue_fn")
int BPF_PROG(loop_issue, struct uring_bpf_data *data)
{
	struct cb_ctx c = { .data = data, .ret = -ENOENT };

	bpf_loop(1, loop_cb, &c, 0);
	return finish(data, c.ret);
}

SEC("struct_ops.s/issue_fn")
int BPF_PROG(hash_issue, struct uring_bpf_data *data)
{
	struct cb_ctx c = { .data = data, .ret = -ENOENT };

	bpf_for_each_map_elem(&one_elem, hash_cb, &c, 0);
	return finish(data, c.ret);
}

SEC(".struct_ops.link")
struct uring_bpf_ops loop_op = {
	.id = 44,
	.issue_fn = (void *)loop_issue,
};

SEC(".struct_ops.link")
struct uring_bpf_ops hash_op = {
	.id = 45,
	.issue_fn = (void *)hash_issue,
};
