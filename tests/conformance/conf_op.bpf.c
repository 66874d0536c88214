// SPDX-License-Identifier: GPL-2.0
/*
 * conf_op.bpf.c - an IORING_OP_BPF op written the way the posted series'
 * users write one: plain, NON-sleepable SEC("struct_ops/...") programs,
 * the kfuncs declared by hand, the map in SEC(".struct_ops.link").
 *
 * One op (id 60 unless the loader changes it) with two modes, chosen by
 * the request's custom flag bits (the low 18 bits of sqe->bpf_op_flags):
 *
 *   bit 1 set (ECHO): no copy; the request completes with
 *       buf1_len + buf2_len, so the driver sees which buffers arrived.
 *   bit 1 clear (COPY): issue_fn copies the whole source buffer into the
 *       destination with io_uring_bpf_req_memcpy(): bit 0 clear copies
 *       buffer 1 -> buffer 2, set copies buffer 2 -> buffer 1; bits 4-17
 *       are the offset in the destination. The CQE res is the kfunc's
 *       return value: the bytes copied, or -errno (-EINVAL when a
 *       buffer is missing).
 *
 * prep_fn checks that the kernel handed the program the buffers the SQE
 * describes: buf1_addr/buf1_len are sqe->addr/sqe->len (for a FIXED
 * buffer too: the posted series' convention is a user address inside the
 * registered buffer, as for READ_FIXED), buf2 is sqe->addr3/sqe->optlen;
 * a mismatch fails the request with -EPROTO.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

extern void uring_bpf_set_result(struct uring_bpf_data *data, int res) __ksym;
extern int io_uring_bpf_req_memcpy(struct uring_bpf_data *data,
				   struct bpf_req_mem_desc *dest,
				   struct bpf_req_mem_desc *src,
				   unsigned int len) __ksym;

#define BUF_TYPE_NONE	0
#define BUF1_TYPE(opf)	(((opf) >> 21) & 7)
#define BUF2_TYPE(opf)	(((opf) >> 18) & 7)
#define F_DIR_2_TO_1	(1U << 0)
#define F_ECHO		(1U << 1)
#define F_DST_OFF(opf)	(((opf) & ((1U << 18) - 1)) >> 4)
#define EPROTO		71

SEC("struct_ops/prep_fn")
int BPF_PROG(conf_prep, struct uring_bpf_data *data,
	     const struct io_uring_sqe *sqe)
{
	__u32 opf = data->opf;

	if (BUF1_TYPE(opf) != BUF_TYPE_NONE &&
	    (data->buf1_addr != sqe->addr || data->buf1_len != sqe->len))
		return -EPROTO;
	if (BUF2_TYPE(opf) != BUF_TYPE_NONE &&
	    (data->buf2_addr != sqe->addr3 || data->buf2_len != sqe->optlen))
		return -EPROTO;
	return 0;
}

SEC("struct_ops/issue_fn")
int BPF_PROG(conf_issue, struct uring_bpf_data *data)
{
	struct bpf_req_mem_desc dst = {}, src = {};
	__u32 opf = data->opf;
	unsigned int len;

	if (opf & F_ECHO) {
		uring_bpf_set_result(data, data->buf1_len + data->buf2_len);
		return 0;
	}
	if (opf & F_DIR_2_TO_1) {
		dst.buf_id = 1;
		src.buf_id = 2;
		len = data->buf2_len;
	} else {
		dst.buf_id = 2;
		src.buf_id = 1;
		len = data->buf1_len;
	}
	dst.offset = F_DST_OFF(opf);
	uring_bpf_set_result(data, io_uring_bpf_req_memcpy(data, &dst, &src, len));
	return 0;
}

SEC(".struct_ops.link")
struct uring_bpf_ops conf_op = {
	.id = 60,
	.prep_fn = (void *)conf_prep,
	.issue_fn = (void *)conf_issue,
};
