/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ring.h - a minimal io_uring for the CLI's workloads, benchmarks and
 * probe, and the tests of the loader (tests/cli): raw syscalls, one
 * mmap'ed ring, SQE/CQE helpers. Not liburing. The kernel tests keep their own on purpose
 * (tests/lib/uring.h says why).
 * All functions returning int give 0 (or a count) on success and -errno on
 * failure. Below: the io_uring ABI of our patched 6.12 kernel
 * (docs/kernel-abi.md) on top of Debian 12's <linux/io_uring.h> (6.1),
 * which lacks most of it; constants are #ifndef-guarded, newer headers win.
 */
#ifndef __IOURING_BPF_RING_H
#define __IOURING_BPF_RING_H

#include <stddef.h>
#include <sys/uio.h>
#include <linux/types.h>
/* IORING_OP_BPF, IORING_SETUP_BPF, SINGLE_ISSUER, DEFER_TASKRUN, NO_SQARRAY */
#include "../lib/engine.h"
/* op id, buffer types and the 18 program flag bits */
#include "../../progs/iou_opflags.h"

#ifndef IORING_FEAT_BPF
#define IORING_FEAT_BPF			(1U << 18)
#endif

/* sqe->bpf_op_flags shares the union with rw_flags (offset 28) */
#define IOU_SQE_BPF_OP_FLAGS(sqe)	((sqe)->rw_flags)
/* buffer 2 length: sqe->optlen, which is sqe->file_index in 6.1 headers */
#define IOU_SQE_OPTLEN(sqe)		((sqe)->file_index)

/* 6.12's layout: min_wait_usec took the old pad word */
struct iou_getevents_arg {
	__u64	sigmask;
	__u32	sigmask_sz;
	__u32	min_wait_usec;
	__u64	ts;
};

#define SEC_NS		1000000000LL

struct ring {
	int			fd;
	unsigned int		flags;		/* setup flags we asked for */
	struct io_uring_params	p;		/* as the kernel filled it */

	void			*ring_mem;	/* SQ + CQ headers (single mmap) */
	size_t			ring_sz;
	struct io_uring_sqe	*sqes;
	size_t			sqes_sz;

	unsigned int		*sq_head, *sq_tail, *sq_array;
	unsigned int		sq_mask, sq_entries;
	unsigned int		sqe_tail;	/* local, published by flush */
	/*
	 * IORING_SETUP_SQ_REWIND (Linux 7.0+): SQEs from index 0 on every
	 * submit, the kernel ignores head and tail. sqe_tail then counts the
	 * SQEs filled since the last submit, and flush stores that count in
	 * the SQ tail, where a loop program that submits the application's
	 * SQEs reads it (progs/iouring_bpf.h); a submit sets both back to 0.
	 */
	int			sq_rewind;
	unsigned int		*cq_head, *cq_tail;
	unsigned int		cq_mask, cq_entries;
	struct io_uring_cqe	*cqes;
};

int io_uring_setup_raw(unsigned int entries, struct io_uring_params *p);
int io_uring_enter_raw(int fd, unsigned int to_submit,
		       unsigned int min_complete, unsigned int flags,
		       const void *arg, size_t argsz);

/* entries SQEs; cq_entries 0 = kernel default (2 * entries) */
int ring_init(struct ring *r, unsigned int entries, unsigned int cq_entries,
	      unsigned int flags);
/* map a ring made elsewhere (iouring_bpf_ring_setup()); r owns fd after */
int ring_init_fd(struct ring *r, int fd, const struct io_uring_params *p);
void ring_exit(struct ring *r);

/* a zeroed SQE, or NULL when the SQ is full */
struct io_uring_sqe *ring_get_sqe(struct ring *r);
/* publish SQEs filled so far; returns how many are waiting to be taken */
unsigned int ring_flush(struct ring *r);
/* flush, then io_uring_enter(to_submit = all, min_complete = wait) */
int ring_submit_and_wait(struct ring *r, unsigned int wait);
static inline int ring_submit(struct ring *r)
{
	return ring_submit_and_wait(r, 0);
}
/* io_uring_enter(GETEVENTS, min_complete) with an optional timeout (ns) */
int ring_wait(struct ring *r, unsigned int min_complete, long long timeout_ns);

unsigned int ring_cq_ready(const struct ring *r);
/* the next CQE or NULL; ring_cq_advance() consumes */
struct io_uring_cqe *ring_peek_cqe(const struct ring *r);
void ring_cq_advance(struct ring *r, unsigned int n);
/* wait for one CQE (submitting pending SQEs first), copy it out, consume */
int ring_wait_cqe(struct ring *r, struct io_uring_cqe *out);

int ring_register_buffers(struct ring *r, const struct iovec *iov,
			  unsigned int nr);
/* 1 if the kernel supports opcode op, 0 if not, -errno if the probe fails */
int ring_probe_op(int ring_fd, unsigned int op);

/*
 * Ring setup flags by name, for the CLI's --ring-flags: the mainline
 * names, lower case with '-' for '_' (IORING_SETUP_NO_SQARRAY is
 * "no-sqarray"). Only the flags a loop ring can take are named (not
 * SQPOLL, IOPOLL: the loop hook refuses them; nor those that need more
 * than a flag: ATTACH_WQ, R_DISABLED, NO_MMAP, REGISTERED_FD_ONLY).
 */
#ifndef IORING_SETUP_SQ_REWIND
/*
 * Linux 7.0+: SQEs are taken from index 0 on every submit, head and
 * tail unused; needs NO_SQARRAY. The same bit is IORING_SETUP_BPF on
 * the project's 6.12 kernel: ask for it only where the kernel has the
 * mainline loop hook (it came in 7.0, before the hook in 7.1).
 */
#define IORING_SETUP_SQ_REWIND		(1U << 20)
#endif

struct ring_flag_name {
	const char	*name;
	unsigned int	flag;
	const char	*what;
};

extern const struct ring_flag_name ring_flag_names[];
/* "name1,name2,..." of every named flag: the list an error shows */
const char *ring_flag_list(void);
/*
 * flags as "single-issuer|defer-taskrun|..." into buf ("none" for 0; a
 * bit without a name as 0x...)
 */
const char *ring_flags_str(unsigned int flags, char *buf, size_t len);
/*
 * "NAME,NAME,..." (the flags, all of them) or "+NAME,-NAME,..." (base
 * with those added or taken away; every item signed or none) into *out:
 * 0, or -1 with the offending word (or the mix) in bad
 */
int ring_flags_parse(const char *list, unsigned int base, unsigned int *out,
		     char *bad, size_t badlen);

void ring_prep_nop(struct io_uring_sqe *sqe, __u64 user_data);
void ring_prep_rw(struct io_uring_sqe *sqe, __u8 op, int fd,
		  const void *addr, __u32 len, __u64 off, __u64 user_data);
/*
 * IORING_OP_BPF: buf1 addr/len (FIXED: also buf_index, and addr is a user
 * address inside the registered buffer, as for READ_FIXED), buf2 PLAIN
 */
void ring_prep_bpf(struct io_uring_sqe *sqe, __u32 op_flags,
		   __u64 addr1, __u32 len1, __u16 buf_index,
		   __u64 addr2, __u32 len2, __u64 user_data);

#endif /* __IOURING_BPF_RING_H */
