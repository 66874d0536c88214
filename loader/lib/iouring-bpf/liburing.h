/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * iouring-bpf/liburing.h - libiouring-bpf for rings made by liburing.
 *
 * Header only: the library itself does not link liburing. Include it
 * after <liburing.h> and bind with the layout liburing mapped (offsets
 * from the ring's pointers, flags from ring->flags), so no BPF iterator
 * runs:
 *
 *	err = iouring_bpf_obj_bind_liburing(skel->obj, &ring);
 *	... load, attach, io_uring_enter() ...
 *	bpf_link__destroy(link);
 *	iouring_bpf_liburing_resync(&ring);	(before liburing submits again)
 *
 * liburing and IORING_SETUP_NO_SQARRAY: liburing 2.6 is the first release
 * that supports it (and asks for it by default). Earlier ones (Debian 12
 * ships 2.3) take the kernel's sq_off.array of 0 as the place of the SQ
 * index array and write it over the ring's header at setup, so a ring
 * they create with NO_SQARRAY is broken before any program runs; this
 * header refuses such a ring (-EINVAL). With those versions create rings
 * with an SQ array, or with io_uring_setup() and bind the fd.
 *
 * IORING_SETUP_SQ_REWIND (Linux 7.0+, liburing 2.14+): ring->flags says
 * so, and the library binds the program to fill its SQEs from index 0
 * (the SQ head and tail stay 0, so the resync below changes nothing).
 * A program that submits the application's SQEs (batch-wait, cq-stats,
 * hybrid-poll) learns their number from the SQ tail there: call
 * iouring_bpf_liburing_publish() before each io_uring_submit*().
 */
#ifndef __IOURING_BPF_LIBURING_H
#define __IOURING_BPF_LIBURING_H

#include <errno.h>
#include <string.h>
#include <liburing.h>
#include "iouring-bpf.h"

/* 1 if the liburing compiled against can create NO_SQARRAY rings (2.6+) */
#if defined(IO_URING_VERSION_MAJOR) && defined(IO_URING_VERSION_MINOR) && \
	(IO_URING_VERSION_MAJOR > 2 || \
	 (IO_URING_VERSION_MAJOR == 2 && IO_URING_VERSION_MINOR >= 6))
#define IOURING_BPF_LIBURING_NO_SQARRAY	1
#else
#define IOURING_BPF_LIBURING_NO_SQARRAY	0
#endif

/*
 * The io_uring_params the kernel gave ring's creator, rebuilt from the
 * ring: entries, flags and the offsets of every field liburing mapped.
 * 0, or -EBADF (no fd), -EINVAL (not mapped, or a NO_SQARRAY ring that
 * this liburing wrote its SQ array over); errors are the caller's to
 * report (the ring is the application's: the header says nothing).
 */
static inline int iouring_bpf_liburing_params(const struct io_uring *ring,
					      struct io_uring_params *p)
{
	const char *sq = (const char *)ring->sq.ring_ptr;
	const char *cq = (const char *)ring->cq.ring_ptr;

	/*
	 * no fd (IORING_SETUP_REGISTERED_FD_ONLY, io_uring_close_ring_fd()):
	 * a loop program attaches to a ring by its fd
	 */
	if (!ring || ring->ring_fd < 0)
		return ring ? -EBADF : -EINVAL;
	/* not mapped: io_uring_queue_init_params() or _mmap() first */
	if (!sq || !cq || !ring->sq.khead || !ring->cq.cqes || !p)
		return -EINVAL;
	/*
	 * NO_SQARRAY with liburing < 2.6: it wrote its SQ index array over
	 * the ring's header at setup; make the ring with an SQ array
	 */
	if ((ring->flags & IORING_SETUP_NO_SQARRAY) &&
	    (const char *)ring->sq.array == sq)
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	p->flags = ring->flags;
	p->features = ring->features;
	p->sq_entries = *ring->sq.kring_entries;
	p->cq_entries = *ring->cq.kring_entries;
	p->sq_off.head = (const char *)ring->sq.khead - sq;
	p->sq_off.tail = (const char *)ring->sq.ktail - sq;
	p->sq_off.ring_mask = (const char *)ring->sq.kring_mask - sq;
	p->sq_off.ring_entries = (const char *)ring->sq.kring_entries - sq;
	p->sq_off.flags = (const char *)ring->sq.kflags - sq;
	p->sq_off.dropped = (const char *)ring->sq.kdropped - sq;
	if (!(ring->flags & IORING_SETUP_NO_SQARRAY))
		p->sq_off.array = (const char *)ring->sq.array - sq;
	p->cq_off.head = (const char *)ring->cq.khead - cq;
	p->cq_off.tail = (const char *)ring->cq.ktail - cq;
	p->cq_off.ring_mask = (const char *)ring->cq.kring_mask - cq;
	p->cq_off.ring_entries = (const char *)ring->cq.kring_entries - cq;
	p->cq_off.overflow = (const char *)ring->cq.koverflow - cq;
	p->cq_off.cqes = (const char *)ring->cq.cqes - cq;
	if (ring->cq.kflags)
		p->cq_off.flags = (const char *)ring->cq.kflags - cq;
	return 0;
}

/*
 * iouring_bpf_obj_bind_ring() for a liburing ring: its fd and its layout.
 * The errors of iouring_bpf_liburing_params() (no message: see there),
 * then bind_ring's.
 */
static inline int iouring_bpf_obj_bind_liburing(struct bpf_object *obj,
						const struct io_uring *ring)
{
	struct io_uring_params p;
	struct iouring_bpf_ring_opts o;
	int ret = iouring_bpf_liburing_params(ring, &p);

	if (ret)
		return ret;
	memset(&o, 0, sizeof(o));
	o.sz = sizeof(o);
	o.params = &p;
	return iouring_bpf_obj_bind_ring(obj, ring->ring_fd, &o);
}

/*
 * A program that fills SQEs moves the kernel's SQ tail; liburing keeps
 * its own copy (sq.sqe_head/sqe_tail) and would then find the SQ "full"
 * (io_uring_get_sqe() returns NULL) or publish an old tail. Call this
 * after the program's io_uring_enter() returned, before liburing queues
 * SQEs again: it catches liburing's copy up with the ring. It keeps no
 * SQE that liburing queued and did not submit.
 */
static inline void iouring_bpf_liburing_resync(struct io_uring *ring)
{
	unsigned int tail = __atomic_load_n(ring->sq.ktail, __ATOMIC_ACQUIRE);

	ring->sq.sqe_head = tail;
	ring->sq.sqe_tail = tail;
}

/*
 * Before io_uring_submit() (or _and_wait()) while a program that submits
 * the application's SQEs is attached: store liburing's SQ tail in the
 * ring. On an SQ_REWIND ring that is the number of SQEs queued from index
 * 0, which the program reads there, since the loop hook does not pass
 * to_submit on (the program zeroes it when it has submitted them); on the
 * other rings it is what io_uring_submit() stores itself a moment later.
 */
static inline void iouring_bpf_liburing_publish(struct io_uring *ring)
{
	__atomic_store_n(ring->sq.ktail, ring->sq.sqe_tail, __ATOMIC_RELEASE);
}

#endif /* __IOURING_BPF_LIBURING_H */
