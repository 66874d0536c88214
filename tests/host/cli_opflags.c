// SPDX-License-Identifier: GPL-2.0
/*
 * cli_opflags.c - unit test of the bpf_op_flags encoding (progs/
 * iou_opflags.h, shared by BPF programs and user space) and of the SQE
 * fields ring_prep_bpf() fills (loader/workloads/ring.c). Built and run by
 * test_cli_opflags.sh.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "ring.h"

static int fails, checks;

#define CHECK(cond, ...) do {						\
	checks++;							\
	if (!(cond)) {							\
		fails++;						\
		printf("FAIL %s:%d: ", __FILE__, __LINE__);		\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	}								\
} while (0)

static void encode(__u32 op, __u32 b1, __u32 b2, __u32 fl, __u32 want)
{
	__u32 got = iou_bpf_op_flags(op, b1, b2, fl);

	CHECK(got == want, "encode(%u, %u, %u, 0x%x) = 0x%08x, want 0x%08x",
	      op, b1, b2, fl, got, want);
}

int main(void)
{
	struct io_uring_sqe sqe;
	__u32 v;

	/* the layout in docs/kernel-abi.md */
	encode(0, 0, 0, 0, 0x00000000);
	encode(1, 0, 0, 0, 0x01000000);
	encode(255, 0, 0, 0, 0xff000000);
	encode(0, IORING_BPF_BUF_TYPE_PLAIN, 0, 0, 1U << 21);
	encode(0, IORING_BPF_BUF_TYPE_FIXED, 0, 0, 2U << 21);
	encode(0, 0, IORING_BPF_BUF_TYPE_PLAIN, 0, 1U << 18);
	encode(0, 0, 0, 1, 1);
	encode(0, 0, 0, 0x3ffff, 0x3ffff);
	encode(255, 2, 1, 0x3ffff, 0xff47ffff);
	encode(4, 1, 0, (7 << 1) | 1, 0x0420000f);
	/* what does not fit is refused, never truncated into other fields */
	encode(256, 0, 0, 0, IOU_BPF_OP_FLAGS_INVALID);
	encode(0, 3, 0, 0, IOU_BPF_OP_FLAGS_INVALID);
	encode(0, 7, 0, 0, IOU_BPF_OP_FLAGS_INVALID);
	encode(0, 0, 2, 0, IOU_BPF_OP_FLAGS_INVALID);	/* buf2: NONE or PLAIN */
	encode(0, 0, 0, 1U << 18, IOU_BPF_OP_FLAGS_INVALID);

	/* decoding gives every field back */
	for (__u32 op = 0; op < 256; op += 51)
		for (__u32 b1 = 0; b1 <= 2; b1++)
			for (__u32 b2 = 0; b2 <= 1; b2++)
				for (__u32 fl = 0; fl < (1U << 18); fl += 77777) {
					v = iou_bpf_op_flags(op, b1, b2, fl);
					CHECK(iou_bpf_op_id(v) == op &&
					      iou_bpf_buf1_type(v) == b1 &&
					      iou_bpf_buf2_type(v) == b2 &&
					      iou_bpf_custom_flags(v) == fl,
					      "round trip of 0x%08x", v);
				}

	/* the SQE offsets of the ABI (the union members Debian's header has) */
	CHECK(offsetof(struct io_uring_sqe, rw_flags) == 28, "bpf_op_flags at 28");
	CHECK(offsetof(struct io_uring_sqe, addr3) == 48, "addr3 at 48");
	CHECK(offsetof(struct io_uring_sqe, file_index) == 44, "optlen at 44");
	CHECK(sizeof(struct io_uring_sqe) == 64, "SQE is 64 bytes");
	CHECK(IORING_OP_BPF == 65 && IOU_SETUP_BPF_OP == (1U << 20) &&
	      IORING_FEAT_BPF == (1U << 18), "uapi constants");

	/* ring_prep_bpf puts every field where the kernel reads it */
	memset(&sqe, 0xaa, sizeof(sqe));
	ring_prep_bpf(&sqe, iou_bpf_op_flags(9, 2, 1, 5), 0x1000, 4096, 3,
		      0x2000, 512, 42);
	CHECK(sqe.opcode == 65, "opcode %u", sqe.opcode);
	CHECK(sqe.addr == 0x1000 && sqe.len == 4096 && sqe.buf_index == 3,
	      "buffer 1");
	CHECK(sqe.addr3 == 0x2000 && sqe.file_index == 512, "buffer 2");
	CHECK(sqe.rw_flags == 0x09440005, "bpf_op_flags 0x%08x", sqe.rw_flags);
	CHECK(sqe.user_data == 42, "user_data");

	printf("%d checks, %d failed\n", checks, fails);
	return fails ? 1 : 0;
}
