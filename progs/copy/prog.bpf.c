// SPDX-License-Identifier: GPL-2.0
/*
 * copy - copy a file with reads and writes issued from BPF.
 *
 * What it shows: a small state machine in the loop hook (v3's struct_ops
 * `io_uring_ops` on our kernel, mainline's `io_uring_bpf_ops` on Linux
 * 7.1+: the same object and meaning on both) that replaces what
 * IOSQE_IO_LINK cannot express: "write exactly as many bytes as the read
 * returned". A link of READ -> WRITE would have to fix the write length up
 * front. Here each CQE decides the next SQE:
 *
 *   READ  res > 0   WRITE those res bytes at the same offset
 *   READ  res == 0  end of file: STOP, exit info "done"
 *   WRITE res < len a short write: WRITE the rest
 *   WRITE complete  READ the next block at offset + bytes
 *   any   res < 0   STOP, exit info carries the error
 *
 * Short reads (a pipe, the tail of a file) need no special case: only
 * res == 0 means end of file. Everything happens inside one
 * io_uring_enter(fd, 0, 0, IORING_ENTER_GETEVENTS).
 *
 * Parameters (rodata, set by the loader): fd_in, fd_out (file descriptors
 * of the process that owns the ring), buf (address of a user buffer of at
 * least `block` bytes), block (bytes per read), stream_in (1: fd_in is a
 * pipe or socket, read at the current position, offset -1).
 *
 * Run:   iouring-bpf run copy --set block=65536
 *        (copies a 1 MiB + 123 byte file: its last read is short; compares
 *        the copy byte for byte)
 *        iouring-bpf run copy --set stream_in=1
 *        (the same from a pipe a child process feeds in odd-sized chunks:
 *        most reads are short)
 */
#define IOU_LOOP_PROGRAM
#include "iouring_bpf.h"

char LICENSE[] SEC("license") = "GPL";

IOU_EXIT_INFO_DEFINE();

const volatile __s32 fd_in = -1;
const volatile __s32 fd_out = -1;
const volatile __u64 buf;
const volatile __u32 block = 65536;
const volatile __u32 stream_in;

enum { ST_START, ST_READING, ST_WRITING, ST_DONE };
enum { UD_READ = 1, UD_WRITE = 2 };

__u32 state;
__u64 off;		/* file offset of the block in flight */
__u32 len;		/* bytes the last read returned */
__u32 written;		/* bytes of that block written so far */
__u64 bytes_read, bytes_written, nr_reads, nr_writes;
__u64 short_reads, short_writes, steps;

static __always_inline int queue_read(struct iou_ring *r)
{
	struct io_uring_sqe *sqe = iou_sqe_get(r);

	if (!sqe)
		return -EBUSY;
	iou_prep_read(sqe, fd_in, buf, block, stream_in ? (__u64)-1 : off,
		      UD_READ);
	nr_reads++;
	state = ST_READING;
	return 0;
}

static __always_inline int queue_write(struct iou_ring *r)
{
	struct io_uring_sqe *sqe = iou_sqe_get(r);

	if (!sqe)
		return -EBUSY;
	iou_prep_write(sqe, fd_out, buf + written, len - written,
		       off + written, UD_WRITE);
	nr_writes++;
	state = ST_WRITING;
	return 0;
}

/* one CQE -> the next SQE; 1 = finished, <0 = error, 0 = go on */
static __always_inline int handle(struct iou_ring *r, struct io_uring_cqe *cqe)
{
	int res = cqe->res;

	if (res < 0) {
		IOU_EXIT_ERROR(res, cqe->user_data, "read or write failed");
		return res;
	}
	if (cqe->user_data == UD_READ) {
		if (res == 0) {
			state = ST_DONE;
			IOU_EXIT_DONE(bytes_written, "end of file, all copied");
			return 1;
		}
		if ((__u32)res < block)
			short_reads++;
		bytes_read += res;
		len = res;
		written = 0;
		return queue_write(r);
	}
	if (res == 0) {
		IOU_EXIT_ERROR(-EIO, off + written, "write made no progress");
		return -EIO;
	}
	bytes_written += res;
	written += res;
	if (written < len) {
		short_writes++;
		return queue_write(r);
	}
	off += len;
	return queue_read(r);
}

IOU_LOOP_PROG(copy_loop)
{
	struct iou_ring r;
	__u32 i, head, n, queued, done = 0;
	int ret = 0;

	steps++;
	if (iou_loop_ring(L, &r, 1) < 0)
		return IOU_STOP;
	if (state == ST_DONE)
		return IOU_STOP;

	if (state == ST_START) {
		if (fd_in < 0 || fd_out < 0 || !buf || !block) {
			IOU_EXIT_ERROR(-EINVAL, 0, "fd_in, fd_out, buf, block unset");
			return IOU_STOP;
		}
		ret = queue_read(&r);
	} else {
		head = iou_cq_head_get(&r);
		n = iou_cq_ready(&r);
		iou_for_each_cqe(i, n) {
			ret = handle(&r, iou_cqe_at(&r, head + i));
			done++;
			if (ret)
				break;
		}
		iou_cq_advance(&r, done);
	}
	if (ret == 1)
		return IOU_STOP;
	if (ret < 0) {
		IOU_EXIT_ERROR(ret, 0, "cannot queue the next request");
		return IOU_STOP;
	}

	queued = iou_sq_commit(&r);
	if (queued) {
		ret = iou_submit(L, queued);
		if (ret != queued) {
			IOU_EXIT_ERROR(ret < 0 ? ret : -EAGAIN, ret,
				       "bpf_io_uring_submit_sqes() fell short");
			return IOU_STOP;
		}
	}
	iou_wait_target(L, iou_cq_head_get(&r) + 1);
	return IOU_WAIT;
}

IOU_LOOP_OPS(copy_ops, copy_loop);
