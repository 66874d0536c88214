// SPDX-License-Identifier: GPL-2.0
/* ring.c - see ring.h */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include "ring.h"

int io_uring_setup_raw(unsigned int entries, struct io_uring_params *p)
{
	long ret = syscall(__NR_io_uring_setup, entries, p);

	return ret < 0 ? -errno : (int)ret;
}

int io_uring_enter_raw(int fd, unsigned int to_submit,
		       unsigned int min_complete, unsigned int flags,
		       const void *arg, size_t argsz)
{
	long ret = syscall(__NR_io_uring_enter, fd, to_submit, min_complete,
			   flags, arg, argsz);

	return ret < 0 ? -errno : (int)ret;
}

static int io_uring_register_raw(int fd, unsigned int op, const void *arg,
				 unsigned int nr)
{
	long ret = syscall(__NR_io_uring_register, fd, op, arg, nr);

	return ret < 0 ? -errno : (int)ret;
}

#define PTR(base, off)	((void *)((char *)(base) + (off)))

int ring_init(struct ring *r, unsigned int entries, unsigned int cq_entries,
	      unsigned int flags)
{
	struct io_uring_params p;
	int fd;

	memset(&p, 0, sizeof(p));
	if (cq_entries) {
		flags |= IORING_SETUP_CQSIZE;
		p.cq_entries = cq_entries;
	}
	p.flags = flags;
	fd = io_uring_setup_raw(entries, &p);
	if (fd < 0) {
		r->fd = -1;
		return fd;
	}
	return ring_init_fd(r, fd, &p);
}

int ring_init_fd(struct ring *r, int fd, const struct io_uring_params *p)
{
	size_t sq_sz, cq_sz;
	int err;

	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->flags = p->flags;
	r->p = *p;
	p = &r->p;
	if (!(p->features & IORING_FEAT_SINGLE_MMAP)) {
		err = -ENOSYS;	/* every kernel since 5.4 has it */
		goto fail;
	}
	sq_sz = p->sq_off.array + p->sq_entries * sizeof(unsigned int);
	if (p->flags & IORING_SETUP_NO_SQARRAY)
		sq_sz = p->sq_off.tail + sizeof(unsigned int);
	cq_sz = p->cq_off.cqes + p->cq_entries * sizeof(struct io_uring_cqe);
	r->ring_sz = sq_sz > cq_sz ? sq_sz : cq_sz;
	r->ring_mem = mmap(NULL, r->ring_sz, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQ_RING);
	if (r->ring_mem == MAP_FAILED) {
		r->ring_mem = NULL;
		err = -errno;
		goto fail;
	}
	r->sqes_sz = p->sq_entries * sizeof(struct io_uring_sqe);
	r->sqes = mmap(NULL, r->sqes_sz, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQES);
	if (r->sqes == MAP_FAILED) {
		r->sqes = NULL;
		err = -errno;
		goto fail;
	}

	r->sq_head = PTR(r->ring_mem, p->sq_off.head);
	r->sq_tail = PTR(r->ring_mem, p->sq_off.tail);
	r->sq_mask = *(unsigned int *)PTR(r->ring_mem, p->sq_off.ring_mask);
	r->sq_entries = p->sq_entries;
	if (!(p->flags & IORING_SETUP_NO_SQARRAY))
		r->sq_array = PTR(r->ring_mem, p->sq_off.array);
	/*
	 * bit 20 is SQ_REWIND on mainline, IORING_SETUP_BPF on the project's
	 * kernel (which says IORING_FEAT_BPF); SQ_REWIND needs NO_SQARRAY
	 */
	r->sq_rewind = (p->flags & IORING_SETUP_SQ_REWIND) &&
		       (p->flags & IORING_SETUP_NO_SQARRAY) &&
		       !(p->features & IORING_FEAT_BPF);
	r->sqe_tail = r->sq_rewind ? 0 : *r->sq_tail;
	r->cq_head = PTR(r->ring_mem, p->cq_off.head);
	r->cq_tail = PTR(r->ring_mem, p->cq_off.tail);
	r->cq_mask = *(unsigned int *)PTR(r->ring_mem, p->cq_off.ring_mask);
	r->cq_entries = p->cq_entries;
	r->cqes = PTR(r->ring_mem, p->cq_off.cqes);
	return 0;
fail:
	ring_exit(r);
	return err;
}

void ring_exit(struct ring *r)
{
	if (r->sqes)
		munmap(r->sqes, r->sqes_sz);
	if (r->ring_mem)
		munmap(r->ring_mem, r->ring_sz);
	if (r->fd >= 0)
		close(r->fd);
	r->sqes = NULL;
	r->ring_mem = NULL;
	r->fd = -1;
}

struct io_uring_sqe *ring_get_sqe(struct ring *r)
{
	unsigned int head = __atomic_load_n(r->sq_head, __ATOMIC_ACQUIRE);
	struct io_uring_sqe *sqe;

	if (r->sqe_tail - head >= r->sq_entries)
		return NULL;
	sqe = &r->sqes[r->sqe_tail & r->sq_mask];
	if (r->sq_array)
		r->sq_array[r->sqe_tail & r->sq_mask] =
			r->sqe_tail & r->sq_mask;
	r->sqe_tail++;
	memset(sqe, 0, sizeof(*sqe));
	return sqe;
}

unsigned int ring_flush(struct ring *r)
{
	__atomic_store_n(r->sq_tail, r->sqe_tail, __ATOMIC_RELEASE);
	return r->sqe_tail - __atomic_load_n(r->sq_head, __ATOMIC_ACQUIRE);
}

int ring_submit_and_wait(struct ring *r, unsigned int wait)
{
	unsigned int n = ring_flush(r);
	unsigned int flags = wait ? IORING_ENTER_GETEVENTS : 0;
	int ret;

	if (!n && !wait)
		return 0;
	ret = io_uring_enter_raw(r->fd, n, wait, flags, NULL, 0);
	if (r->sq_rewind && n) {
		/* taken (or dropped) from index 0: the next SQE goes there */
		r->sqe_tail = 0;
		__atomic_store_n(r->sq_tail, 0, __ATOMIC_RELEASE);
	}
	return ret;
}

int ring_wait(struct ring *r, unsigned int min_complete, long long timeout_ns)
{
	struct __kernel_timespec ts;
	struct iou_getevents_arg arg;

	if (timeout_ns < 0)
		return io_uring_enter_raw(r->fd, 0, min_complete,
					  IORING_ENTER_GETEVENTS, NULL, 0);
	ts.tv_sec = timeout_ns / SEC_NS;
	ts.tv_nsec = timeout_ns % SEC_NS;
	memset(&arg, 0, sizeof(arg));
	arg.ts = (__u64)(unsigned long)&ts;
	return io_uring_enter_raw(r->fd, 0, min_complete,
				  IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG,
				  &arg, sizeof(arg));
}

unsigned int ring_cq_ready(const struct ring *r)
{
	return __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE) - *r->cq_head;
}

struct io_uring_cqe *ring_peek_cqe(const struct ring *r)
{
	if (!ring_cq_ready(r))
		return NULL;
	return &r->cqes[*r->cq_head & r->cq_mask];
}

void ring_cq_advance(struct ring *r, unsigned int n)
{
	__atomic_store_n(r->cq_head, *r->cq_head + n, __ATOMIC_RELEASE);
}

int ring_wait_cqe(struct ring *r, struct io_uring_cqe *out)
{
	struct io_uring_cqe *cqe;
	int ret;

	while (!(cqe = ring_peek_cqe(r))) {
		ret = ring_submit_and_wait(r, 1);
		if (ret < 0 && ret != -EINTR)
			return ret;
	}
	*out = *cqe;
	ring_cq_advance(r, 1);
	return 0;
}

int ring_register_buffers(struct ring *r, const struct iovec *iov,
			  unsigned int nr)
{
	return io_uring_register_raw(r->fd, IORING_REGISTER_BUFFERS, iov, nr);
}

int ring_probe_op(int ring_fd, unsigned int op)
{
	struct {
		struct io_uring_probe	probe;
		struct io_uring_probe_op ops[256];
	} buf;
	int ret;

	memset(&buf, 0, sizeof(buf));
	ret = io_uring_register_raw(ring_fd, IORING_REGISTER_PROBE, &buf, 256);
	if (ret < 0)
		return ret;
	if (op > buf.probe.last_op || op >= 256)
		return 0;
	return !!(buf.ops[op].flags & IO_URING_OP_SUPPORTED);
}

void ring_prep_nop(struct io_uring_sqe *sqe, __u64 user_data)
{
	sqe->opcode = IORING_OP_NOP;
	sqe->user_data = user_data;
}

void ring_prep_rw(struct io_uring_sqe *sqe, __u8 op, int fd,
		  const void *addr, __u32 len, __u64 off, __u64 user_data)
{
	sqe->opcode = op;
	sqe->fd = fd;
	sqe->addr = (__u64)(unsigned long)addr;
	sqe->len = len;
	sqe->off = off;
	sqe->user_data = user_data;
}

void ring_prep_bpf(struct io_uring_sqe *sqe, __u32 op_flags,
		   __u64 addr1, __u32 len1, __u16 buf_index,
		   __u64 addr2, __u32 len2, __u64 user_data)
{
	sqe->opcode = IORING_OP_BPF;
	sqe->fd = -1;
	sqe->addr = addr1;
	sqe->len = len1;
	sqe->buf_index = buf_index;
	sqe->addr3 = addr2;
	IOU_SQE_OPTLEN(sqe) = len2;
	IOU_SQE_BPF_OP_FLAGS(sqe) = op_flags;
	sqe->user_data = user_data;
}

const struct ring_flag_name ring_flag_names[] = {
	{ "cqsize",	   IORING_SETUP_CQSIZE,	"CQ entries from --cq-entries" },
	{ "clamp",	   IORING_SETUP_CLAMP,	"clamp sizes to the maximum" },
	{ "submit-all",	   IORING_SETUP_SUBMIT_ALL, "go on submitting after an error" },
	{ "coop-taskrun",  IORING_SETUP_COOP_TASKRUN, "no IPI for task work" },
	{ "taskrun-flag",  IORING_SETUP_TASKRUN_FLAG, "IORING_SQ_TASKRUN in sq flags" },
	{ "sqe128",	   IORING_SETUP_SQE128,	"128-byte SQEs" },
	{ "cqe32",	   IORING_SETUP_CQE32,	"32-byte CQEs" },
	{ "single-issuer", IORING_SETUP_SINGLE_ISSUER, "one submitter task (the hook needs it)" },
	{ "defer-taskrun", IORING_SETUP_DEFER_TASKRUN, "task work at enter (the hook needs it)" },
	{ "no-sqarray",	   IORING_SETUP_NO_SQARRAY, "SQEs in order, no SQ index array" },
	{ "sq-rewind",	   IORING_SETUP_SQ_REWIND, "SQEs from index 0 on every submit (Linux 7.0+; needs no-sqarray)" },
	{ NULL, 0, NULL },
};

const char *ring_flag_list(void)
{
	static char buf[256];
	size_t used = 0;
	int i;

	if (buf[0])
		return buf;
	for (i = 0; ring_flag_names[i].name && used < sizeof(buf); i++)
		used += snprintf(buf + used, sizeof(buf) - used, "%s%s",
				 i ? "," : "", ring_flag_names[i].name);
	return buf;
}

const char *ring_flags_str(unsigned int flags, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; ring_flag_names[i].name && used < len; i++) {
		if (!(flags & ring_flag_names[i].flag))
			continue;
		used += snprintf(buf + used, len - used, "%s%s",
				 used ? "|" : "", ring_flag_names[i].name);
		flags &= ~ring_flag_names[i].flag;
	}
	if (flags && used < len)
		used += snprintf(buf + used, len - used, "%s0x%x",
				 used ? "|" : "", flags);
	if (!used)
		snprintf(buf, len, "none");
	return buf;
}

static int ring_flag_find(const char *name, size_t n, unsigned int *flag)
{
	int i;

	for (i = 0; ring_flag_names[i].name; i++)
		if (strlen(ring_flag_names[i].name) == n &&
		    !strncmp(ring_flag_names[i].name, name, n)) {
			*flag = ring_flag_names[i].flag;
			return 0;
		}
	return -1;
}

int ring_flags_parse(const char *list, unsigned int base, unsigned int *out,
		     char *bad, size_t badlen)
{
	unsigned int flags = 0, add = 0, del = 0, flag;
	int signed_items = 0, plain_items = 0;
	const char *p = list, *end;
	size_t n;
	char sign;

	do {
		end = strchr(p, ',');
		n = end ? (size_t)(end - p) : strlen(p);
		sign = n && (*p == '+' || *p == '-') ? *p : 0;
		if (sign) {
			p++;
			n--;
		}
		if (!n || ring_flag_find(p, n, &flag)) {
			snprintf(bad, badlen, "%.*s", (int)n, p);
			return -1;
		}
		if (sign == '+')
			add |= flag;
		else if (sign == '-')
			del |= flag;
		else
			flags |= flag;
		signed_items += !!sign;
		plain_items += !sign;
		p = end ? end + 1 : NULL;
	} while (p);
	if (signed_items && plain_items) {
		snprintf(bad, badlen, "%s", list);
		return -2;
	}
	*out = signed_items ? (base | add) & ~del : flags;
	return 0;
}
