// SPDX-License-Identifier: GPL-2.0
/*
 * cp.bpf.c - a file copy for mainline's hook, written the way liburing's
 * tests write theirs: the application opens the files and allocates the
 * buffer, and gives the program the fds and the buffer's user address
 * and size in .bss; the program reports cp_result (0 when the copy is
 * complete, else the negative errno of the request that failed).
 *
 * What it shows: a read and a write chained through the program, one
 * request in flight: each read's result sizes the write after it, each
 * write moves the offset, a read of 0 bytes ends the copy. All of it runs
 * inside one io_uring_enter().
 *
 * Run:  iouring-bpf run cp.bpf.o --set input_fd=@IN --set output_fd=@>OUT \
 *           --set buf_addr,buf_size=@buf:64K
 * Expect: cp_result=0, bytes_copied = IN's size, OUT identical to IN.
 */
#include "loop_defs.h"

char LICENSE[] SEC("license") = "GPL";

#define UD_READ		1
#define UD_WRITE	2

int input_fd = -1, output_fd = -1;
__u64 buf_addr;
__u32 buf_size;
int cp_result = 1;		/* 1: not finished */
__u64 bytes_copied;
unsigned int steps;
int started;		/* the first read is queued */

static __always_inline void queue(struct ring *r, struct io_ring_ctx *ctx,
				  __u8 op, int fd, __u32 len, __u64 ud)
{
	struct io_uring_sqe *sqe = ring_sqe(r, 0);

	sqe->opcode = op;
	sqe->fd = fd;
	sqe->addr = buf_addr;
	sqe->len = len;
	sqe->off = bytes_copied;
	sqe->user_data = ud;
	ring_sq_push(r, 1);
	if (bpf_io_uring_submit_sqes(ctx, 1) != 1)
		cp_result = -11;	/* -EAGAIN: the kernel took no SQE */
}

SEC("struct_ops.s/loop_step")
int BPF_PROG(cp_step, struct io_ring_ctx *ring, struct iou_loop_params *lp)
{
	struct io_uring_cqe *cqe;
	__u32 head, tail;
	struct ring r;
	__u64 ud;
	int res;

	steps++;
	if (ring_map(ring, &r)) {
		cp_result = -14;	/* -EFAULT */
		return IOU_LOOP_STOP;
	}
	if (!buf_addr || !buf_size || input_fd < 0 || output_fd < 0) {
		cp_result = -22;	/* -EINVAL: nothing to copy with */
		return IOU_LOOP_STOP;
	}
	head = *(volatile __u32 *)ring_u32(&r, cq_head_offset);
	tail = *(volatile __u32 *)ring_u32(&r, cq_tail_offset);
	if (!started) {			/* the first step: the first read */
		started = 1;
		queue(&r, ring, IORING_OP_READ, input_fd, buf_size, UD_READ);
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
		return IOU_LOOP_STOP;
	}
	if (ud == UD_READ) {
		if (!res) {
			cp_result = 0;	/* end of the input: done */
			return IOU_LOOP_STOP;
		}
		queue(&r, ring, IORING_OP_WRITE, output_fd, res, UD_WRITE);
	} else {
		bytes_copied += res;	/* a short write is re-read from here */
		queue(&r, ring, IORING_OP_READ, input_fd, buf_size, UD_READ);
	}
wait:
	if (cp_result < 0)
		return IOU_LOOP_STOP;
	lp->cq_wait_idx = head + 1;
	return IOU_LOOP_CONTINUE;
}

SEC(".struct_ops.link")
struct io_uring_bpf_ops cp_ops = {
	.loop_step = (void *)cp_step,
};
