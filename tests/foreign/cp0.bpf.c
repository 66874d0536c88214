// SPDX-License-Identifier: GPL-2.0
/*
 * cp0.bpf.c - a file copy written as liburing's tests of the merged hook
 * write theirs for an SQ_REWIND ring (Linux 7.0+): every SQE goes to
 * index 0 of the SQ region and bpf_io_uring_submit_sqes(ring, 1) submits
 * it; the kernel ignores the SQ head and tail. The application opens the
 * files and allocates the buffer and gives the program the fds and the
 * buffer's address and size in .bss; the result is in .bss too:
 * cp_result (0 when the copy is complete, else a negative errno),
 * bytes_copied.
 *
 * What it shows: a read and a write chained through the program, one
 * request in flight, no SQ position at all: the program declares no
 * sq_tail_offset, which is how `iouring-bpf run` knows to give it an
 * SQ_REWIND ring by default. On a ring without SQ_REWIND its submit takes
 * nothing (the tail never moved): it records -EAGAIN and stops, and
 * `run` reports that nothing was done (exit 6) and why.
 *
 * cp0_exit.bpf.c is the same program also saying why it stopped with the
 * project's exit info (iou_exit_info.h): IOU_EXIT_ERROR when it gives up
 * (`run` then exits 1), IOU_EXIT_DONE when the copy is complete.
 *
 * Run:  iouring-bpf run cp0.bpf.o --set input_fd=@IN --set output_fd=@>OUT \
 *           --set buf_addr,buf_size=@buf:64K
 * Expect: cp_result=0, bytes_copied = IN's size, OUT identical to IN.
 */
#define LOOP_SQ_AT_ZERO
#include "loop_defs.h"

#ifdef CP0_EXIT_INFO
#include "../../progs/iou_exit_info.h"
IOU_EXIT_INFO_DEFINE();
#define GIVE_UP(code, msg)	IOU_EXIT_ERROR(code, bytes_copied, msg)
#define FINISHED()		IOU_EXIT_DONE(bytes_copied, "copy complete")
#else
#define GIVE_UP(code, msg)	do { } while (0)
#define FINISHED()		do { } while (0)
#endif

char LICENSE[] SEC("license") = "GPL";

#define UD_READ		1
#define UD_WRITE	2

int input_fd = -1, output_fd = -1;
__u64 buf_addr;
__u32 buf_size;
int cp_result = 1;		/* 1: not finished */
__u64 bytes_copied;
unsigned int steps;
int started;			/* the first read is submitted */

/* one request at index 0, submitted at once; 0 if the kernel took it */
static __always_inline int submit(struct ring *r, struct io_ring_ctx *ctx,
				  __u8 op, int fd, __u32 len, __u64 ud)
{
	struct io_uring_sqe *sqe = ring_sqe0(r, 0);

	sqe->opcode = op;
	sqe->fd = fd;
	sqe->addr = buf_addr;
	sqe->len = len;
	sqe->off = bytes_copied;
	sqe->user_data = ud;
	if (bpf_io_uring_submit_sqes(ctx, 1) == 1)
		return 0;
	cp_result = -11;	/* -EAGAIN: the kernel took no SQE */
	GIVE_UP(-11, "the kernel took no SQE: is the ring SQ_REWIND?");
	return -1;
}

SEC("struct_ops.s/loop_step")
int BPF_PROG(cp0_step, struct io_ring_ctx *ring, struct iou_loop_params *lp)
{
	struct io_uring_cqe *cqe;
	__u32 head, tail;
	struct ring r;
	__u64 ud;
	int res;

	steps++;
	if (ring_map(ring, &r)) {
		cp_result = -14;	/* -EFAULT */
		GIVE_UP(-14, "no ring regions");
		return IOU_LOOP_STOP;
	}
	if (!buf_addr || !buf_size || input_fd < 0 || output_fd < 0) {
		cp_result = -22;	/* -EINVAL: nothing to copy with */
		GIVE_UP(-22, "input_fd, output_fd, buf_addr, buf_size unset");
		return IOU_LOOP_STOP;
	}
	head = *(volatile __u32 *)ring_u32(&r, cq_head_offset);
	tail = *(volatile __u32 *)ring_u32(&r, cq_tail_offset);
	if (!started) {			/* the first step: the first read */
		started = 1;
		if (submit(&r, ring, IORING_OP_READ, input_fd, buf_size,
			   UD_READ))
			return IOU_LOOP_STOP;
		goto wait;
	}
	if (head == tail)		/* woken before the CQE: wait on */
		goto wait;
	cqe = (void *)(r.hdr + cqes_offset +
		       (head & (cq_entries - 1)) * sizeof(*cqe));
	res = cqe->res;
	ud = cqe->user_data;
	*(volatile __u32 *)ring_u32(&r, cq_head_offset) = ++head;
	if (res < 0) {
		cp_result = res;
		GIVE_UP(res, "a read or write failed");
		return IOU_LOOP_STOP;
	}
	if (ud == UD_READ) {
		if (!res) {
			cp_result = 0;	/* end of the input: done */
			FINISHED();
			return IOU_LOOP_STOP;
		}
		if (submit(&r, ring, IORING_OP_WRITE, output_fd, res, UD_WRITE))
			return IOU_LOOP_STOP;
	} else {
		bytes_copied += res;	/* a short write is re-read from here */
		if (submit(&r, ring, IORING_OP_READ, input_fd, buf_size,
			   UD_READ))
			return IOU_LOOP_STOP;
	}
wait:
	lp->cq_wait_idx = head + 1;
	return IOU_LOOP_CONTINUE;
}

SEC(".struct_ops.link")
struct io_uring_bpf_ops cp0_ops = {
	.loop_step = (void *)cp0_step,
};
