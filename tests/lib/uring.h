/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uring.h - a small, self-contained raw io_uring helper for the kernel tests:
 * io_uring_setup/enter/register syscalls, the ring mmaps, SQE/CQE helpers,
 * IORING_SETUP_NO_SQARRAY, and the uapi constants of our kernel
 * (docs/kernel-abi.md) that Debian 12's <linux/io_uring.h> (6.1) lacks.
 *
 * Every function returns 0 / a count on success and -errno on failure
 * (never sets errno as its result).
 *
 * Deliberately not loader/workloads/ring.c (tests/cli uses that one: it tests the
 * loader). A kernel test should fail on a kernel bug, not on a loader bug,
 * nor miss a kernel bug the loader's code happens to agree with; so this
 * file maps the rings and encodes the IORING_OP_BPF fields on its own
 * (T_BPF_OP_FLAGS, not progs/iou_opflags.h). The two also differ where a
 * test depends on it: uring_submit() adds GETEVENTS on a DEFER_TASKRUN
 * ring and submits only what it has just published, uring_wait_cqe() takes
 * a timeout so that a kernel bug fails a test instead of hanging it,
 * uring_peek_cqe() copies and consumes, and CQE32/SQE128 rings are mapped
 * at their size.
 */
#ifndef TESTS_LIB_URING_H
#define TESTS_LIB_URING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>
#include <linux/io_uring.h>
#include <linux/time_types.h>

/* ---- uapi of our 6.12 kernel missing from Debian 12's headers ---------- */
#ifndef IORING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER	(1U << 12)
#endif
#ifndef IORING_SETUP_DEFER_TASKRUN
#define IORING_SETUP_DEFER_TASKRUN	(1U << 13)
#endif
#ifndef IORING_SETUP_NO_MMAP
#define IORING_SETUP_NO_MMAP		(1U << 14)
#endif
#ifndef IORING_SETUP_NO_SQARRAY
#define IORING_SETUP_NO_SQARRAY		(1U << 16)
#endif
/* the two series (values exactly as posted upstream) */
#define T_IORING_SETUP_BPF		(1U << 20)
#define T_IORING_FEAT_BPF		(1U << 18)
#define T_IORING_OP_BPF			65
#define T_IORING_OP_LAST_612		58	/* 58..64: unsupported in 6.12 */

#define T_BPF_OP_SHIFT			24
#define T_BPF_BUF1_TYPE_SHIFT		21
#define T_BPF_BUF2_TYPE_SHIFT		18
#define T_BPF_BUF_TYPE_MASK		7
#define T_BPF_CUSTOM_FLAGS_MASK		((1U << 18) - 1)
#define T_BPF_BUF_NONE			0
#define T_BPF_BUF_PLAIN			1
#define T_BPF_BUF_FIXED			2

/* sqe->bpf_op_flags from its four fields */
#define T_BPF_OP_FLAGS(op, buf1, buf2, flags)				\
	((((uint32_t)(op) & 0xff) << T_BPF_OP_SHIFT) |			\
	 (((uint32_t)(buf1) & T_BPF_BUF_TYPE_MASK) << T_BPF_BUF1_TYPE_SHIFT) | \
	 (((uint32_t)(buf2) & T_BPF_BUF_TYPE_MASK) << T_BPF_BUF2_TYPE_SHIFT) | \
	 ((uint32_t)(flags) & T_BPF_CUSTOM_FLAGS_MASK))

#ifndef IORING_ENTER_EXT_ARG
#define IORING_ENTER_EXT_ARG		(1U << 3)
#endif
#ifndef IORING_TIMEOUT_ETIME_SUCCESS
#define IORING_TIMEOUT_ETIME_SUCCESS	(1U << 5)
#endif
#ifndef IORING_FEAT_MIN_TIMEOUT
#define IORING_FEAT_MIN_TIMEOUT		(1U << 15)
#endif

/* 6.12 layout; Debian 12 names the min_wait_usec field "pad" */
struct t_getevents_arg {
	uint64_t sigmask;
	uint32_t sigmask_sz;
	uint32_t min_wait_usec;
	uint64_t ts;
};

/* ---- the ring ------------------------------------------------------------ */

struct uring {
	int fd;
	unsigned int flags;			/* setup flags */
	struct io_uring_params p;		/* as returned by io_uring_setup */
	/* mmaps */
	void *ring_ptr;
	size_t ring_sz;
	struct io_uring_sqe *sqes;
	size_t sqes_sz;
	/* SQ */
	unsigned int *sq_head, *sq_tail, *sq_array;
	unsigned int sq_mask, sq_entries;
	unsigned int sqe_tail;			/* local: SQEs handed out */
	unsigned int sqe_head;			/* local: SQEs published */
	/* CQ */
	unsigned int *cq_head, *cq_tail;
	unsigned int cq_mask, cq_entries;
	struct io_uring_cqe *cqes;
};

/*
 * uring_init(r, entries, flags, cq_entries): cq_entries 0 = default (no
 * IORING_SETUP_CQSIZE), else CQSIZE is added. Returns 0 or -errno.
 */
int uring_init(struct uring *r, unsigned int entries, unsigned int flags,
	       unsigned int cq_entries);
/* like uring_init with a caller-filled params (flags/cq_entries/wq_fd ...) */
int uring_init_params(struct uring *r, unsigned int entries,
		      struct io_uring_params *p);
void uring_exit(struct uring *r);

/* raw syscalls, -errno on failure */
int t_io_uring_setup(unsigned int entries, struct io_uring_params *p);
int t_io_uring_enter(int fd, unsigned int to_submit, unsigned int min_complete,
		     unsigned int flags, const void *arg, size_t argsz);
int t_io_uring_register(int fd, unsigned int opcode, const void *arg,
			unsigned int nr_args);

/* a zeroed SQE at the local SQ tail, NULL if the SQ is full */
struct io_uring_sqe *uring_get_sqe(struct uring *r);
/* publish the SQEs handed out so far (SQ tail store); returns how many */
unsigned int uring_flush(struct uring *r);
/* flush + io_uring_enter(to_submit = flushed, min_complete = wait, GETEVENTS if wait) */
int uring_submit(struct uring *r);
int uring_submit_and_wait(struct uring *r, unsigned int wait);

/* CQEs ready in the CQ */
unsigned int uring_cq_ready(struct uring *r);
/* copy the oldest CQE into *cqe and consume it; -EAGAIN if none */
int uring_peek_cqe(struct uring *r, struct io_uring_cqe *cqe);
/*
 * wait up to timeout_ms (< 0: forever) for one CQE, copy + consume it.
 * Returns 0, -ETIME on timeout, or the io_uring_enter error.
 */
int uring_wait_cqe(struct uring *r, struct io_uring_cqe *cqe, int timeout_ms);
/* wait for n CQEs, store them in out[] in arrival order; returns count or -errno */
int uring_wait_cqes(struct uring *r, struct io_uring_cqe *out, unsigned int n,
		    int timeout_ms);

int uring_register_buffers(struct uring *r, const struct iovec *iov,
			   unsigned int nr);

/* SQE fillers (the SQE must come from uring_get_sqe: zeroed) */
void sqe_nop(struct io_uring_sqe *sqe, uint64_t user_data);
/* IORING_OP_BPF: bpf_op_flags = T_BPF_OP_FLAGS(op, buf1, buf2, flags) */
void sqe_bpf(struct io_uring_sqe *sqe, uint32_t bpf_op_flags,
	     uint64_t user_data);
/* buffer 1 (PLAIN: addr/len; FIXED: address inside the registered buffer, len, buf_index) */
void sqe_bpf_buf1(struct io_uring_sqe *sqe, uint64_t addr, uint32_t len,
		  uint16_t buf_index);
/* buffer 2: addr3 / optlen (offset 44, the splice_fd_in union) */
void sqe_bpf_buf2(struct io_uring_sqe *sqe, uint64_t addr, uint32_t len);
void sqe_timeout(struct io_uring_sqe *sqe, struct __kernel_timespec *ts,
		 unsigned int count, unsigned int timeout_flags,
		 uint64_t user_data);

/* fill *ts with ms milliseconds */
void t_ms_to_ts(struct __kernel_timespec *ts, long ms);

#endif /* TESTS_LIB_URING_H */
