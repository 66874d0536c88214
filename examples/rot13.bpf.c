// SPDX-License-Identifier: GPL-2.0
/*
 * rot13 - the worked example of README.md: your own IORING_OP_BPF operation.
 *
 * What it shows: an op written outside the built-in collection, compiled on
 * its own and loaded with `iouring-bpf load FILE.bpf.o`. It copies buffer 1
 * into buffer 2 with the io_uring_bpf_req_memcpy() kfunc, then completes with
 * res = bytes copied plus the request's 18 program flag bits counted in a map
 * (flag bit 0 set: "count me"), so an application can see both.
 *
 * Build:  make -C examples
 * Load:   iouring-bpf load examples/rot13.bpf.o --id 9
 * Use:    build/examples/use_op 9 "hello"     (any IORING_SETUP_BPF ring)
 * Unload: iouring-bpf unload 9
 *
 * (The name is a promise for your first exercise: BPF can't touch user
 * memory from here, so make prep_fn check the lengths and keep the copy.)
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

extern int io_uring_bpf_req_memcpy(struct uring_bpf_data *data,
				   struct bpf_req_mem_desc *dest,
				   struct bpf_req_mem_desc *src,
				   unsigned int len) __ksym;
extern void uring_bpf_set_result(struct uring_bpf_data *data, int res) __ksym;

/* how many requests asked to be counted (flag bit 0) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} counted SEC(".maps");

SEC("struct_ops/prep_fn")
int BPF_PROG(rot13_prep, struct uring_bpf_data *data,
	     const struct io_uring_sqe *sqe)
{
	/* buffer 1 must fit in buffer 2: refuse the request early */
	if (data->buf1_len > data->buf2_len)
		return -22;	/* -EINVAL in the CQE */
	return 0;
}

/*
 * A sleepable program ("struct_ops.s"): io_uring_bpf_req_memcpy() then
 * copies user memory directly, faulting pages in as needed. A plain
 * "struct_ops/issue_fn" may call it too; the kernel then pins the plain
 * buffers at prep, since a non-sleepable program must not fault.
 */
SEC("struct_ops.s/issue_fn")
int BPF_PROG(rot13_issue, struct uring_bpf_data *data)
{
	struct bpf_req_mem_desc src = { .buf_id = 1, .offset = 0 };
	struct bpf_req_mem_desc dst = { .buf_id = 2, .offset = 0 };
	__u32 key = 0;
	__u64 *nr;
	int ret;

	ret = io_uring_bpf_req_memcpy(data, &dst, &src, data->buf1_len);
	if (ret < 0)
		return ret;
	if (data->opf & 1) {
		nr = bpf_map_lookup_elem(&counted, &key);
		if (nr)
			__sync_fetch_and_add(nr, 1);
	}
	uring_bpf_set_result(data, ret);
	return 0;
}

SEC(".struct_ops.link")
struct uring_bpf_ops rot13_ops = {
	.id = 9,
	.prep_fn = (void *)rot13_prep,
	.issue_fn = (void *)rot13_issue,
};
