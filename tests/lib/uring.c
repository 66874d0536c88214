// SPDX-License-Identifier: GPL-2.0
/* uring.c - see uring.h */
#include "uring.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define smp_store_release(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define smp_load_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)

int t_io_uring_setup(unsigned int entries, struct io_uring_params *p)
{
	long ret = syscall(__NR_io_uring_setup, entries, p);

	return ret < 0 ? -errno : (int)ret;
}

int t_io_uring_enter(int fd, unsigned int to_submit, unsigned int min_complete,
		     unsigned int flags, const void *arg, size_t argsz)
{
	long ret = syscall(__NR_io_uring_enter, fd, to_submit, min_complete,
			   flags, arg, argsz);

	return ret < 0 ? -errno : (int)ret;
}

int t_io_uring_register(int fd, unsigned int opcode, const void *arg,
			unsigned int nr_args)
{
	long ret = syscall(__NR_io_uring_register, fd, opcode, arg, nr_args);

	return ret < 0 ? -errno : (int)ret;
}

int uring_init_params(struct uring *r, unsigned int entries,
		      struct io_uring_params *p)
{
	unsigned int i;
	void *sq;
	int fd, err;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	fd = t_io_uring_setup(entries, p);
	if (fd < 0)
		return fd;
	r->fd = fd;
	r->p = *p;
	r->flags = p->flags;

	/* one mmap for SQ and CQ rings (IORING_FEAT_SINGLE_MMAP, 5.4+) */
	r->ring_sz = p->cq_off.cqes + p->cq_entries * sizeof(struct io_uring_cqe);
	if (p->flags & IORING_SETUP_CQE32)
		r->ring_sz += p->cq_entries * sizeof(struct io_uring_cqe);
	if (!(p->flags & IORING_SETUP_NO_SQARRAY)) {
		size_t sq_sz = p->sq_off.array + p->sq_entries * sizeof(unsigned int);

		if (sq_sz > r->ring_sz)
			r->ring_sz = sq_sz;
	}
	sq = mmap(NULL, r->ring_sz, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQ_RING);
	if (sq == MAP_FAILED) {
		err = -errno;
		goto fail;
	}
	r->ring_ptr = sq;
	r->sqes_sz = p->sq_entries * sizeof(struct io_uring_sqe);
	if (p->flags & IORING_SETUP_SQE128)
		r->sqes_sz *= 2;
	r->sqes = mmap(NULL, r->sqes_sz, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQES);
	if (r->sqes == MAP_FAILED) {
		err = -errno;
		r->sqes = NULL;
		goto fail;
	}

	r->sq_head = (unsigned int *)((char *)sq + p->sq_off.head);
	r->sq_tail = (unsigned int *)((char *)sq + p->sq_off.tail);
	r->sq_mask = *(unsigned int *)((char *)sq + p->sq_off.ring_mask);
	r->sq_entries = *(unsigned int *)((char *)sq + p->sq_off.ring_entries);
	r->cq_head = (unsigned int *)((char *)sq + p->cq_off.head);
	r->cq_tail = (unsigned int *)((char *)sq + p->cq_off.tail);
	r->cq_mask = *(unsigned int *)((char *)sq + p->cq_off.ring_mask);
	r->cq_entries = *(unsigned int *)((char *)sq + p->cq_off.ring_entries);
	r->cqes = (struct io_uring_cqe *)((char *)sq + p->cq_off.cqes);
	if (!(p->flags & IORING_SETUP_NO_SQARRAY)) {
		r->sq_array = (unsigned int *)((char *)sq + p->sq_off.array);
		for (i = 0; i < r->sq_entries; i++)
			r->sq_array[i] = i;
	}
	r->sqe_head = r->sqe_tail = *r->sq_tail;
	return 0;
fail:
	uring_exit(r);
	return err;
}

int uring_init(struct uring *r, unsigned int entries, unsigned int flags,
	       unsigned int cq_entries)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	if (cq_entries) {
		p.flags |= IORING_SETUP_CQSIZE;
		p.cq_entries = cq_entries;
	}
	return uring_init_params(r, entries, &p);
}

void uring_exit(struct uring *r)
{
	if (r->sqes)
		munmap(r->sqes, r->sqes_sz);
	if (r->ring_ptr)
		munmap(r->ring_ptr, r->ring_sz);
	if (r->fd >= 0)
		close(r->fd);
	memset(r, 0, sizeof(*r));
	r->fd = -1;
}

struct io_uring_sqe *uring_get_sqe(struct uring *r)
{
	unsigned int head = smp_load_acquire(r->sq_head);
	struct io_uring_sqe *sqe;

	if (r->sqe_tail - head >= r->sq_entries)
		return NULL;
	sqe = &r->sqes[r->sqe_tail & r->sq_mask];
	r->sqe_tail++;
	memset(sqe, 0, sizeof(*sqe));
	return sqe;
}

unsigned int uring_flush(struct uring *r)
{
	unsigned int n = r->sqe_tail - r->sqe_head;

	if (n) {
		r->sqe_head = r->sqe_tail;
		smp_store_release(r->sq_tail, r->sqe_tail);
	}
	return n;
}

int uring_submit_and_wait(struct uring *r, unsigned int wait)
{
	unsigned int n = uring_flush(r);
	unsigned int flags = wait ? IORING_ENTER_GETEVENTS : 0;

	/* DEFER_TASKRUN: completions are only run from a GETEVENTS enter */
	if (r->flags & IORING_SETUP_DEFER_TASKRUN)
		flags |= IORING_ENTER_GETEVENTS;
	return t_io_uring_enter(r->fd, n, wait, flags, NULL, 0);
}

int uring_submit(struct uring *r)
{
	return uring_submit_and_wait(r, 0);
}

unsigned int uring_cq_ready(struct uring *r)
{
	return smp_load_acquire(r->cq_tail) - *r->cq_head;
}

int uring_peek_cqe(struct uring *r, struct io_uring_cqe *cqe)
{
	unsigned int head = *r->cq_head;

	if (smp_load_acquire(r->cq_tail) == head)
		return -EAGAIN;
	*cqe = r->cqes[head & r->cq_mask];
	smp_store_release(r->cq_head, head + 1);
	return 0;
}

void t_ms_to_ts(struct __kernel_timespec *ts, long ms)
{
	ts->tv_sec = ms / 1000;
	ts->tv_nsec = (ms % 1000) * 1000000L;
}

int uring_wait_cqe(struct uring *r, struct io_uring_cqe *cqe, int timeout_ms)
{
	struct __kernel_timespec ts;
	struct t_getevents_arg arg;
	int ret;

	for (;;) {
		if (!uring_peek_cqe(r, cqe))
			return 0;
		if (timeout_ms < 0) {
			ret = t_io_uring_enter(r->fd, 0, 1, IORING_ENTER_GETEVENTS,
					       NULL, 0);
		} else {
			memset(&arg, 0, sizeof(arg));
			t_ms_to_ts(&ts, timeout_ms);
			arg.ts = (uint64_t)(uintptr_t)&ts;
			ret = t_io_uring_enter(r->fd, 0, 1,
					       IORING_ENTER_GETEVENTS |
					       IORING_ENTER_EXT_ARG,
					       &arg, sizeof(arg));
		}
		if (ret == -EINTR)
			continue;
		if (ret < 0) {
			/* a CQE may have arrived together with the timeout */
			if (!uring_peek_cqe(r, cqe))
				return 0;
			return ret;
		}
	}
}

int uring_wait_cqes(struct uring *r, struct io_uring_cqe *out, unsigned int n,
		    int timeout_ms)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = uring_wait_cqe(r, &out[i], timeout_ms);
		if (ret < 0)
			return i ? (int)i : ret;
	}
	return n;
}

int uring_register_buffers(struct uring *r, const struct iovec *iov,
			   unsigned int nr)
{
	return t_io_uring_register(r->fd, IORING_REGISTER_BUFFERS, iov, nr);
}

void sqe_nop(struct io_uring_sqe *sqe, uint64_t user_data)
{
	sqe->opcode = IORING_OP_NOP;
	sqe->fd = -1;
	sqe->user_data = user_data;
}

void sqe_bpf(struct io_uring_sqe *sqe, uint32_t bpf_op_flags,
	     uint64_t user_data)
{
	sqe->opcode = T_IORING_OP_BPF;
	sqe->fd = -1;
	sqe->rw_flags = bpf_op_flags;	/* bpf_op_flags: same union, offset 28 */
	sqe->user_data = user_data;
}

void sqe_bpf_buf1(struct io_uring_sqe *sqe, uint64_t addr, uint32_t len,
		  uint16_t buf_index)
{
	sqe->addr = addr;
	sqe->len = len;
	sqe->buf_index = buf_index;
}

void sqe_bpf_buf2(struct io_uring_sqe *sqe, uint64_t addr, uint32_t len)
{
	sqe->addr3 = addr;
	/* optlen: offset 44, the same union as splice_fd_in/file_index */
	sqe->file_index = len;
}

void sqe_timeout(struct io_uring_sqe *sqe, struct __kernel_timespec *ts,
		 unsigned int count, unsigned int timeout_flags,
		 uint64_t user_data)
{
	sqe->opcode = IORING_OP_TIMEOUT;
	sqe->fd = -1;
	sqe->addr = (uint64_t)(uintptr_t)ts;
	sqe->len = 1;
	sqe->off = count;
	sqe->timeout_flags = timeout_flags;
	sqe->user_data = user_data;
}
