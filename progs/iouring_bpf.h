/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iouring_bpf.h - the one header every program in progs/ includes.
 *
 * It gives a BPF program, compiled CO-RE against vmlinux/vmlinux.h:
 *
 *   1. the kfuncs of both io_uring + BPF series (declared __weak, so an
 *      object still opens on a kernel that lacks some of them; the loader
 *      probes BTF before it loads anything);
 *   2. ring access for loop programs: SQ/CQ through offsets that the loader
 *      copies from struct io_uring_params into .rodata before load (iou_*
 *      variables below), CQE walking, SQE filling (NOP, READ, WRITE, BPF op)
 *      on the three SQ modes (SQ array, NO_SQARRAY, SQ_REWIND; "The three
 *      SQ modes" below);
 *   3. a THIN binding to the struct_ops types:
 *        IORING_OP_BPF ops     struct uring_bpf_ops   (Ming Lei's series)
 *        loop hook             struct io_uring_ops    (Pavel Begunkov's v3,
 *                              our kernel) and struct io_uring_bpf_ops
 *                              (mainline, Linux 7.1 and 7.2+)
 *      Programs use IOU_LOOP_PROG()/IOU_LOOP_OPS(), IOU_WAIT/IOU_STOP,
 *      iou_wait_target(), iou_ring_init() and never touch struct
 *      iou_loop_state, iou_loop_params or region numbers directly: one
 *      object runs on all three kernels (section "loop binding" below);
 *   4. exit info (like sched_ext's user_exit_info.h): IOU_EXIT_DONE() and
 *      IOU_EXIT_ERROR() record why a program stopped, the loader prints it.
 *
 * A loop program says so before including it (#define IOU_LOOP_PROGRAM):
 * only then does it get the loop binding, the ring geometry globals the
 * loader fills (iou_api, iou_sq_*, iou_cq_*) and the ring helpers, so an
 * op program's .rodata holds its own parameters only.
 */
#ifndef __IOURING_BPF_H
#define __IOURING_BPF_H

/* our own kfunc declarations below; skip the ones bpftool may dump */
#define BPF_NO_KFUNC_PROTOTYPES
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "iou_opflags.h"
#include "iou_exit_info.h"

/*
 * The types only one of the kernels has. The header compiles against a
 * vmlinux.h of our kernel or of a stock 7.1/7.2 (`bpftool btf dump file
 * /sys/kernel/btf/vmlinux format c`): what it needs of a type that only
 * some kernels have, it declares itself under a CO-RE ___flavour name
 * (libbpf matches a type by its name without the flavour, struct_ops map
 * types too), and a type it only points to is declared, not defined.
 */
struct uring_bpf_data;
struct bpf_req_mem_desc;
struct io_ring_ctx;

struct uring_bpf_data___iou {		/* IORING_OP_BPF (our kernel) */
	__u32	opf;
} __attribute__((preserve_access_index));

struct bpf_req_mem_desc___iou {		/* the memcpy kfunc's argument */
	__u8		buf_id;
	unsigned int	offset;
};

struct uring_bpf_ops___iou {		/* IOU_OP_OPS() */
	unsigned short	id;
	int	(*prep_fn)(struct uring_bpf_data *data,
			   const struct io_uring_sqe *sqe);
	int	(*issue_fn)(struct uring_bpf_data *data);
	void	(*fail_fn)(struct uring_bpf_data *data);
	void	(*cleanup_fn)(struct uring_bpf_data *data);
};

/* ---------------------------------------------------------------------- */
/* uapi constants vmlinux.h cannot carry (macros, or values from our ABI)  */

#define IOU_OP_NOP		0
#define IOU_OP_READ		22
#define IOU_OP_WRITE		23

#define IOU_SQE_IO_LINK		(1U << 2)
#define IOU_SQE_ASYNC		(1U << 4)
#define IOU_CQE_F_MORE		(1U << 1)	/* more CQEs to come for this request */

/* the sizes of a ring without IORING_SETUP_SQE128 / CQE32 */
#define IOU_SQE_SIZE		64
#define IOU_CQE_SIZE		16

#ifndef EINVAL
#define EPERM		1
#define ENOENT		2
#define EIO		5
#define E2BIG		7
#define EBADF		9
#define EAGAIN		11
#define ENOMEM		12
#define EFAULT		14
#define EBUSY		16
#define EINVAL		22
#define ENOSPC		28
#define ERANGE		34
#define ETIME		62
#define EBADMSG		74
#define EOVERFLOW	75
#define EOPNOTSUPP	95
#define ECANCELED	125
#endif

#define IOU_NSEC_PER_USEC	1000ULL

/* how many CQEs/SQEs one loop invocation handles at most (verifier bound) */
#ifndef IOU_MAX_BATCH
#define IOU_MAX_BATCH		64
#endif

/* ---------------------------------------------------------------------- */
/* kfuncs                                                                 */

/* IORING_OP_BPF (uring_bpf_ops programs) */
extern void uring_bpf_set_result(struct uring_bpf_data *data, int res)
	__ksym __weak;
extern struct io_kiocb *uring_bpf_data_to_req(struct uring_bpf_data *data)
	__ksym __weak;
extern int io_uring_bpf_req_memcpy(struct uring_bpf_data *data,
				   struct bpf_req_mem_desc *dest,
				   struct bpf_req_mem_desc *src,
				   unsigned int len) __ksym __weak;

/* loop hook (io_uring_ops programs); submit_sqes makes a program sleepable */
extern int bpf_io_uring_submit_sqes(struct io_ring_ctx *ctx, __u32 nr)
	__ksym __weak;
extern __u8 *bpf_io_uring_get_region(struct io_ring_ctx *ctx, __u32 region_id,
				     const size_t rdwr_buf_size) __ksym __weak;

/* ---------------------------------------------------------------------- */
/* exit info: IOU_EXIT_INFO_DEFINE(), IOU_EXIT_DONE(), IOU_EXIT_ERROR() are  */
/* in iou_exit_info.h, the header user space reads it with                */

/* ---------------------------------------------------------------------- */
/* IORING_OP_BPF binding (struct uring_bpf_ops)                           */

#define IOU_OP_PREP(fn)							\
	SEC("struct_ops/prep_fn")					\
	int BPF_PROG(fn, struct uring_bpf_data *data,			\
		     const struct io_uring_sqe *sqe)
#define IOU_OP_ISSUE(fn)						\
	SEC("struct_ops/issue_fn")					\
	int BPF_PROG(fn, struct uring_bpf_data *data)
/*
 * issue_fn that may sleep. io_uring_bpf_req_memcpy() works in both kinds:
 * from a sleepable issue_fn it copies plain buffers from and to user
 * memory directly (faulting as needed: no pinning, the cheaper path); from
 * a non-sleepable one (run under rcu_read_lock, no faults) the kernel pins
 * the request's plain buffers at prep and it copies between pinned pages.
 */
#define IOU_OP_ISSUE_SLEEPABLE(fn)					\
	SEC("struct_ops.s/issue_fn")					\
	int BPF_PROG(fn, struct uring_bpf_data *data)
#define IOU_OP_FAIL(fn)							\
	SEC("struct_ops/fail_fn")					\
	void BPF_PROG(fn, struct uring_bpf_data *data)
#define IOU_OP_CLEANUP(fn)						\
	SEC("struct_ops/cleanup_fn")					\
	void BPF_PROG(fn, struct uring_bpf_data *data)

/*
 * The op: `IOU_OP_OPS(name, id, prep, issue);` The loader's --id N
 * overrides the id before load. Programs that need fail_fn/cleanup_fn write
 * the struct themselves, with SEC(".struct_ops.link").
 */
#define IOU_OP_OPS(__name, __id, __prep, __issue)			\
	SEC(".struct_ops.link") struct uring_bpf_ops___iou __name = {	\
		.id = (__id),						\
		.prep_fn = (void *)__prep,				\
		.issue_fn = (void *)__issue,				\
	}

/* the 18 bits of sqe->bpf_op_flags that belong to the program */
static __always_inline __u32 iou_op_flags(struct uring_bpf_data *data)
{
	return ((struct uring_bpf_data___iou *)data)->opf &
	       IORING_BPF_CUSTOM_FLAGS_MASK;
}

static __always_inline void iou_op_set_result(struct uring_bpf_data *data,
					      int res)
{
	uring_bpf_set_result(data, res);
}

/*
 * copy len bytes from buffer src_id (1|2) at src_off to dst_id at dst_off;
 * from IOU_OP_ISSUE() or IOU_OP_ISSUE_SLEEPABLE() (see above). From
 * prep_fn, fail_fn and cleanup_fn, plain buffers can be copied only when
 * the op's issue_fn is not sleepable (they are pinned then).
 */
static __always_inline int iou_op_memcpy(struct uring_bpf_data *data,
					 __u8 dst_id, unsigned int dst_off,
					 __u8 src_id, unsigned int src_off,
					 unsigned int len)
{
	struct bpf_req_mem_desc___iou dst = { .buf_id = dst_id, .offset = dst_off };
	struct bpf_req_mem_desc___iou src = { .buf_id = src_id, .offset = src_off };

	return io_uring_bpf_req_memcpy(data, (struct bpf_req_mem_desc *)&dst,
				       (struct bpf_req_mem_desc *)&src, len);
}

#ifdef IOU_LOOP_PROGRAM
/* ---------------------------------------------------------------------- */
/* loop binding -- the one place that knows the three loop APIs           */

/*
 * One object runs on three kernels. It carries two struct_ops maps that
 * point at the same program; the loader creates the one the running
 * kernel has (bpf_map__set_autocreate(other, false)) and tells the
 * program which through iou_api (.rodata, so the verifier sees a constant
 * and never looks at the other kernels' branches):
 *
 *   IOU_API_V3   our kernel: v3's struct io_uring_ops, callback `loop`,
 *                struct iou_loop_state { cq_tail; timeout }, WAIT/STOP,
 *                regions 0 rings / 1 SQEs
 *   IOU_API_71   Linux 7.1: struct io_uring_bpf_ops, callback `loop_step`
 *                (struct io_ring_ctx *, struct iou_loop_params *),
 *                struct iou_loop_params { cq_wait_idx },
 *                IOU_LOOP_CONTINUE 0 / IOU_LOOP_STOP 1, regions
 *                IOU_REGION_MEM 0 / IOU_REGION_CQ 1 / IOU_REGION_SQ 2
 *   IOU_API_72   Linux 7.2+: the same with an opaque struct iou_ctx *: a
 *                program that reads through it fails verification
 *
 * The callback's two arguments are passed on untyped (void *): the kernel
 * types them from its own BTF, and the kfuncs take them as they are. The
 * wait index is the first 32 bits of both iou_loop_state and
 * iou_loop_params (struct iou_loop_args below); only v3 has a timeout.
 *
 * How the hooks differ, as seen from a program:
 *
 *   v3 (tested in tests/cli and tests/kernel):
 *  - io_uring_enter() submits the caller's SQEs, then runs the callback
 *    on the wake-ups of its GETEVENTS wait: the wait first sleeps until
 *    the kernel's target (cq.head + min_complete) is reached, so with
 *    min_complete 0 the program runs at once;
 *  - WAIT sleeps until the CQ tail reaches the target or the timeout (the
 *    caller's, or the program's); a timeout ends the wait with 0 if CQEs
 *    are ready, -ETIME if the CQ is empty.
 *
 *   mainline (7.1, 7.2):
 *  - EVERY io_uring_enter() on the ring runs the loop instead of the
 *    normal submit-and-wait, whatever its arguments: the kernel submits
 *    none of the caller's SQEs, and the program cannot see to_submit,
 *    min_complete or the caller's timeout. lp is zeroed once per
 *    io_uring_enter() (wait index 0 on the first step), not per step;
 *  - CONTINUE sleeps until the CQ tail reaches cq_wait_idx (at once if it
 *    already has), runs task work, calls the program again. There is no
 *    timeout: a program that needs a deadline keeps time itself
 *    (iou_now_ns()) and polls; io_uring_enter() returns 0 after STOP,
 *    -EINTR on a signal.
 *
 * Programs ask about behaviour, not versions: iou_kernel_submits(),
 * iou_sees_enter_args(), iou_has_wait_timeout(), iou_enter_submit().
 */
#define IOU_API_V3		0
#define IOU_API_71		1
#define IOU_API_72		2

/* set by the loader before load (lib/attach.c), from the kernel's BTF */
const volatile __u32 iou_api;

#define IOU_WAIT		0	/* IOU_RES_WAIT, IOU_LOOP_CONTINUE */
#define IOU_STOP		1	/* IOU_RES_STOP, IOU_LOOP_STOP */

/*
 * the struct_ops types and v3's loop state, flavoured: each kernel has one
 * of the two ops types, and a vmlinux.h carries only its own kernel's.
 * libbpf matches a struct_ops type by its name without the ___flavour.
 */
struct iou_loop_args;
struct io_uring_ops___v3 {
	int (*loop)(void *ctx, struct iou_loop_args *lp);
	__u32 ring_fd;
	void *priv;
};

struct iou_loop_state___v3 {
	__u32	cq_tail;
	__s64	timeout;
} __attribute__((preserve_access_index));

struct iou_loop_params___mainline;
struct io_uring_bpf_ops___mainline {
	int (*loop_step)(void *ctx, struct iou_loop_params___mainline *lp);
	__u32 ring_fd;
	void *priv;
};

/* the wait index, at offset 0 in every version (no CO-RE relocation) */
struct iou_loop_args {
	__u32	cq_idx;
};

struct iou_loop {
	void			*ctx;	/* io_ring_ctx (v3, 7.1), iou_ctx (7.2) */
	struct iou_loop_args	*lp;	/* iou_loop_state / iou_loop_params */
	__u32			mode;	/* IOU_RING_*: a constant, see below */
};

/*
 * The ring's mode, as the geometry globals the loader sets say
 * (iou_sq_array, iou_sq_rewind, iou_sqe_size, iou_cqe_size; further
 * down). IOU_LOOP_PROG() reads them once per call and runs a copy of the
 * program's body made for that mode, where L->mode (and the iou_ring's
 * mode) is a constant: the SQ and CQ helpers test constants, the
 * compiler keeps in each copy only its mode's code, and the verifier
 * only looks at the copy the ring's mode selects. A request costs no
 * test of the mode at all (nop-chain: about 20 instructions per NOP).
 */
#define IOU_RING_SQ_ARRAY	(1U << 0)	/* the ring has an SQ array */
#define IOU_RING_SQ_REWIND	(1U << 1)	/* SQEs from index 0 (7.0+) */
#define IOU_RING_BIG		(1U << 2)	/* SQE128 or CQE32 */

/*
 * IOU_LOOP_PROG(fn) { ... } defines the loop callback; the body sees
 * `struct iou_loop *L` and returns IOU_WAIT or IOU_STOP. Sleepable,
 * because iou_submit() calls bpf_io_uring_submit_sqes().
 */
#define __IOU_LOOP_BODY(fn, l, m)	({ (l).mode = (m); ____iou_##fn(&(l)); })
#define IOU_LOOP_PROG(fn)						\
	static __always_inline int ____iou_##fn(struct iou_loop *L);	\
	SEC("struct_ops.s/loop")					\
	int BPF_PROG(fn, void *ring, struct iou_loop_args *lp)		\
	{								\
		struct iou_loop ___l = { .ctx = ring, .lp = lp };	\
									\
		if (iou_sqe_size != IOU_SQE_SIZE ||			\
		    iou_cqe_size != IOU_CQE_SIZE) {			\
			if (iou_sq_rewind)				\
				return __IOU_LOOP_BODY(fn, ___l,	\
					IOU_RING_SQ_REWIND | IOU_RING_BIG); \
			if (iou_sq_array)				\
				return __IOU_LOOP_BODY(fn, ___l,	\
					IOU_RING_SQ_ARRAY | IOU_RING_BIG); \
			return __IOU_LOOP_BODY(fn, ___l, IOU_RING_BIG);	\
		}							\
		if (iou_sq_rewind)					\
			return __IOU_LOOP_BODY(fn, ___l, IOU_RING_SQ_REWIND); \
		if (iou_sq_array)					\
			return __IOU_LOOP_BODY(fn, ___l, IOU_RING_SQ_ARRAY); \
		return __IOU_LOOP_BODY(fn, ___l, 0);			\
	}								\
	static __always_inline int ____iou_##fn(struct iou_loop *L)

/*
 * `IOU_LOOP_OPS(name, fn);` -- both maps, name (v3) and name_ml
 * (mainline); the loader creates one and sets its ring_fd before load.
 */
#define IOU_LOOP_OPS(__name, __fn)					\
	SEC(".struct_ops.link") struct io_uring_ops___v3 __name = {	\
		.loop = (void *)__fn,					\
	};								\
	SEC(".struct_ops.link")						\
	struct io_uring_bpf_ops___mainline __name##_ml = {		\
		.loop_step = (void *)__fn,				\
	}

/* the kernel submitted the caller's SQEs before calling us (v3) */
static __always_inline int iou_kernel_submits(void)
{
	return iou_api == IOU_API_V3;
}

/* a fresh wait's target is cq.head + min_complete (v3); mainline: 0 */
static __always_inline int iou_sees_enter_args(void)
{
	return iou_api == IOU_API_V3;
}

/* WAIT/CONTINUE can end on a timeout (v3 only) */
static __always_inline int iou_has_wait_timeout(void)
{
	return iou_api == IOU_API_V3;
}

/* the program may read through the ctx pointer (not 7.2's iou_ctx) */
static __always_inline int iou_ctx_readable(void)
{
	return iou_api != IOU_API_72;
}

static __always_inline __u32 iou_region_rings(void)
{
	return iou_api == IOU_API_V3 ? 0 : 1;	/* v3 rings, IOU_REGION_CQ */
}

static __always_inline __u32 iou_region_sqes(void)
{
	return iou_api == IOU_API_V3 ? 1 : 2;	/* v3 SQEs, IOU_REGION_SQ */
}

/* wake the waiter when the CQ tail reaches cq_tail */
static __always_inline void iou_wait_target(struct iou_loop *L, __u32 cq_tail)
{
	L->lp->cq_idx = cq_tail;
}

/*
 * the wait index as it is: v3 sets it to cq.head + min_complete on a
 * fresh wait; mainline zeroes it once per io_uring_enter()
 */
static __always_inline __u32 iou_wait_target_get(struct iou_loop *L)
{
	return L->lp->cq_idx;
}

/*
 * end the wait (-ETIME) at abs_ns, CLOCK_MONOTONIC (bpf_ktime_get_ns());
 * v3 only: mainline has no timeout, the call does nothing there
 */
static __always_inline void iou_wait_timeout(struct iou_loop *L, __u64 abs_ns)
{
	if (iou_has_wait_timeout())
		((struct iou_loop_state___v3 *)L->lp)->timeout = abs_ns;
}

/* the wait's timeout (v3); mainline: never (S64_MAX) */
static __always_inline __u64 iou_wait_timeout_get(struct iou_loop *L)
{
	if (iou_has_wait_timeout())
		return ((struct iou_loop_state___v3 *)L->lp)->timeout;
	return 0x7fffffffffffffffULL;
}

static __always_inline void iou_sq_rewind_reset(void);

/*
 * submit nr SQEs (after iou_sq_commit()); returns how many were taken. On
 * an SQ_REWIND ring the kernel takes them from index 0, and the next SQE
 * goes to index 0 again: the SQEs a short submission left are not kept
 * (the built-in programs stop on a short submission).
 */
static __always_inline int iou_submit(struct iou_loop *L, __u32 nr)
{
	int ret = bpf_io_uring_submit_sqes(L->ctx, nr);

	if (L->mode & IOU_RING_SQ_REWIND)
		iou_sq_rewind_reset();
	return ret;
}

/* ---------------------------------------------------------------------- */
/* ring geometry (set by the loader from struct io_uring_params)          */

const volatile __u32 iou_sq_head;	/* sq_off.head */
const volatile __u32 iou_sq_tail;	/* sq_off.tail */
const volatile __u32 iou_sq_mask;	/* sq_entries - 1 */
const volatile __u32 iou_sq_entries;
const volatile __u32 iou_sq_array;	/* sq_off.array, 0 with NO_SQARRAY */
const volatile __u32 iou_cq_head;	/* cq_off.head */
const volatile __u32 iou_cq_tail;	/* cq_off.tail */
const volatile __u32 iou_cq_mask;	/* cq_entries - 1 */
const volatile __u32 iou_cq_entries;
const volatile __u32 iou_cqes;		/* cq_off.cqes */
const volatile __u64 iou_rings_size;	/* bytes of region 0 we touch */
const volatile __u64 iou_sqes_size;	/* sq_entries * iou_sqe_size */
/*
 * 64 or 128 (IORING_SETUP_SQE128), 16 or 32 (IORING_SETUP_CQE32): the
 * verifier knows them as constants, like every value above
 */
const volatile __u32 iou_sqe_size = IOU_SQE_SIZE;
const volatile __u32 iou_cqe_size = IOU_CQE_SIZE;
/*
 * 1 on an SQ_REWIND ring; the loader sets it only for a mainline binding
 * (on the project's 6.12 kernel the same bit is IORING_SETUP_BPF)
 */
const volatile __u32 iou_sq_rewind;

#define IOU_SETUP_NO_SQARRAY	(1U << 16)
#define IOU_SETUP_SQ_REWIND	(1U << 20)	/* Linux 7.0+ (mainline) */

/*
 * The three SQ modes, chosen at run time from iou_sq_array and
 * iou_sq_rewind (one object serves all three: IOU_LOOP_PROG() runs the
 * body's copy for the ring's mode, see IOU_RING_SQ_ARRAY):
 *
 *   SQ array      the kernel takes the SQEs whose indexes the SQ array
 *                 holds between head and tail; iou_sqe_get() writes
 *                 array[idx] = idx, iou_sq_commit() moves the tail.
 *   NO_SQARRAY    (6.6+) head and tail index the SQEs directly; the
 *                 same without the array.
 *   SQ_REWIND     (7.0+, with NO_SQARRAY) the kernel ignores head and
 *                 tail (they stay 0) and takes SQEs from index 0 on every
 *                 submit, as many as the submit's count. iou_sqe_get()
 *                 fills index 0, 1, ..., iou_sq_commit() counts them in
 *                 iou_sq_rw_queued, iou_submit() starts over at 0. Every
 *                 submit reuses the same first SQEs, so they stay in
 *                 cache: the point of the mode (docs/performance.md).
 *
 * Programs use the same calls in every mode. One thing an SQ_REWIND ring
 * hides from a loop program: how many SQEs the application put at index
 * 0. Without a program, io_uring_enter()'s to_submit says it; mainline's
 * hook runs the program instead and passes no argument on. So a program
 * that submits the application's SQEs (IOU_APP_SQES(), iou_enter_submit())
 * takes the count from the one word of the ring such a kernel leaves
 * alone, the SQ tail ("The application's SQEs on an SQ_REWIND ring"
 * below).
 */

/* SQEs filled at index 0.. since the last submit (SQ_REWIND rings only) */
__u32 iou_sq_rw_queued;

static __always_inline void iou_sq_rewind_reset(void)
{
	*(volatile __u32 *)&iou_sq_rw_queued = 0;
}

/*
 * The application's SQEs on an SQ_REWIND ring (the protocol between an
 * application and a program that submits its SQEs, on mainline's hook):
 *
 *   the application writes its SQEs at index 0, 1, ..., n - 1, as for
 *   any SQ_REWIND ring, then stores n in the SQ tail (sq_off.tail; the
 *   kernel neither reads nor writes it on such a ring) and calls
 *   io_uring_enter() as usual (to_submit n, or anything: it is not seen);
 *   the program (iou_enter_submit()) submits that many from index 0 and
 *   stores 0 back: a tail of 0 means "no new SQE".
 *
 * It is what the application does on the other modes, where publishing
 * the tail is how SQEs are queued; only the tail's meaning differs (a
 * count from index 0 instead of a running counter). With liburing: call
 * iouring_bpf_liburing_publish(ring) (iouring-bpf/liburing.h) before
 * io_uring_submit(); it stores liburing's own count there. A tail above
 * sq_entries is refused: the program stops with IOU_EXIT_ERROR, submits
 * nothing and zeroes the tail (an application that wrote a running
 * counter, as on an SQ-array ring, learns it at once). As on any SQ_REWIND
 * ring, the SQEs a short submission leaves are dropped, not kept.
 * An application that also submits while no program is attached (the
 * kernel then takes to_submit and leaves the tail) stores 0 after that
 * io_uring_enter(), or n again before the next one: a program would
 * otherwise see the old count.
 */

/*
 * `IOU_APP_SQES();` at file scope in a program that submits the
 * application's SQEs (iou_loop_ring(L, r, 0), iou_enter_submit()). The
 * value says which SQ_REWIND protocol it speaks: 2, the SQ tail above.
 * The library refuses to bind an object with 1 (built with an older
 * header, which had none) to an SQ_REWIND ring.
 */
#define IOU_APP_SQES_TAIL_COUNT	2
#define IOU_APP_SQES()							\
	const volatile __u32 iou_app_sqes = IOU_APP_SQES_TAIL_COUNT

struct iou_ring {
	__u8	*rings;		/* region 0: headers, CQEs, SQ array */
	__u8	*sqes;		/* region 1: SQEs */
	__u32	*sq_head_p;	/* the ring's indexes, found once, so that */
	__u32	*sq_tail_p;	/* an access need not look up the offset */
	__u32	*cq_head_p;
	__u32	*cq_tail_p;
	__u32	sq_tail;	/* local SQ tail, published by iou_sq_commit */
	__u32	sq_queued;	/* SQEs filled since the last commit */
	__u32	sq_ok;		/* the SQ layout we were given is the ring's */
	__u32	mode;		/* IOU_RING_*, the loop's: a constant */
};

static __always_inline __u32 iou_ring_sqe_size(struct iou_ring *r)
{
	return r->mode & IOU_RING_BIG ? iou_sqe_size : IOU_SQE_SIZE;
}

static __always_inline __u32 iou_ring_cqe_size(struct iou_ring *r)
{
	return r->mode & IOU_RING_BIG ? iou_cqe_size : IOU_CQE_SIZE;
}

/*
 * Does the ring have the SQ mode the loader gave us (iou_sq_array,
 * iou_sq_rewind)?
 * The loader reads it from the kernel for a ring given by fd; this check
 * guards against a caller's wrong io_uring_params. v3 and 7.1 read the
 * ring's flags through the ctx.
 * 7.2's ctx is opaque: there the flags word is read with
 * bpf_probe_read_kernel() at the offset CO-RE gives for io_ring_ctx
 * (the iou_ctx pointer is the io_ring_ctx); -1 if that read fails.
 */
static __always_inline int iou_ring_sq_layout_ok(struct iou_loop *L)
{
	unsigned int flags = 0;

	if (iou_ctx_readable()) {
		flags = ((struct io_ring_ctx *)L->ctx)->flags;
	} else if (bpf_probe_read_kernel(&flags, sizeof(flags),
			(__u8 *)L->ctx +
			bpf_core_field_offset(struct io_ring_ctx, flags))) {
		return -1;
	}
	if (!(flags & IOU_SETUP_NO_SQARRAY) != !!iou_sq_array)
		return 0;
	/* bit 20 is SQ_REWIND on mainline only (IORING_SETUP_BPF on v3) */
	if (iou_api != IOU_API_V3 &&
	    !(flags & IOU_SETUP_SQ_REWIND) != !iou_sq_rewind)
		return 0;
	return 1;
}

/* map the regions; 0 or -EFAULT (then the program should IOU_EXIT_ERROR) */
static __always_inline int iou_ring_init(struct iou_loop *L,
					 struct iou_ring *r)
{
	__u8 *rings, *sqes;

	rings = bpf_io_uring_get_region(L->ctx, iou_region_rings(),
					iou_rings_size);
	if (!rings)
		return -EFAULT;
	sqes = bpf_io_uring_get_region(L->ctx, iou_region_sqes(),
				       iou_sqes_size);
	if (!sqes)
		return -EFAULT;
	r->rings = rings;
	r->sqes = sqes;
	r->sq_head_p = (__u32 *)(rings + iou_sq_head);
	r->sq_tail_p = (__u32 *)(rings + iou_sq_tail);
	r->cq_head_p = (__u32 *)(rings + iou_cq_head);
	r->cq_tail_p = (__u32 *)(rings + iou_cq_tail);
	r->mode = L->mode;
	/* SQ_REWIND: the tail stays 0 and is not used (iou_sq_next()) */
	r->sq_tail = r->mode & IOU_RING_SQ_REWIND ?
		     0 : *(volatile __u32 *)r->sq_tail_p;
	r->sq_queued = 0;
	r->sq_ok = 0;
	return 0;
}

/*
 * may this program fill SQEs? Checks the SQ layout against the ring (see
 * iou_ring_sq_layout_ok()); call it once after iou_ring_init()
 */
static __always_inline int iou_ring_can_submit(struct iou_loop *L,
					       struct iou_ring *r)
{
	r->sq_ok = iou_ring_sq_layout_ok(L) == 1;
	return r->sq_ok;
}

/* CQ side ------------------------------------------------------------- */

static __always_inline __u32 iou_cq_head_get(struct iou_ring *r)
{
	return *(volatile __u32 *)r->cq_head_p;
}

static __always_inline __u32 iou_cq_tail_get(struct iou_ring *r)
{
	return *(volatile __u32 *)r->cq_tail_p;
}

/* CQEs posted and not yet consumed */
static __always_inline __u32 iou_cq_ready(struct iou_ring *r)
{
	return iou_cq_tail_get(r) - iou_cq_head_get(r);
}

/* the CQE at ring index idx (a head/tail counter, masked here) */
static __always_inline struct io_uring_cqe *iou_cqe_at(struct iou_ring *r,
						       __u32 idx)
{
	return (void *)(r->rings + iou_cqes +
			(__u64)(idx & iou_cq_mask) * iou_ring_cqe_size(r));
}

/* the oldest CQE not yet consumed, or NULL if the CQ is empty */
static __always_inline struct io_uring_cqe *iou_cqe_peek(struct iou_ring *r)
{
	__u32 head = iou_cq_head_get(r);

	if (iou_cq_tail_get(r) == head)
		return NULL;
	return iou_cqe_at(r, head);
}

/* consume n CQEs (user space will not see them) */
static __always_inline void iou_cq_advance(struct iou_ring *r, __u32 n)
{
	*(volatile __u32 *)r->cq_head_p = iou_cq_head_get(r) + n;
}

/*
 * Walk the CQEs between head and tail, at most IOU_MAX_BATCH:
 *
 *	__u32 i, head = iou_cq_head_get(&r), n = iou_cq_ready(&r);
 *	iou_for_each_cqe(i, n) {
 *		struct io_uring_cqe *cqe = iou_cqe_at(&r, head + i);
 *		...
 *	}
 *	iou_cq_advance(&r, i);
 */
#define iou_for_each_cqe(__i, __n)					\
	for ((__i) = 0; (__i) < (__n) && (__i) < IOU_MAX_BATCH; (__i)++)

/* SQ side ------------------------------------------------------------- */

/*
 * the SQ counter of the next SQE to fill: the local tail, or on an
 * SQ_REWIND ring the SQEs filled since the last submit (from index 0)
 */
static __always_inline __u32 iou_sq_next(struct iou_ring *r)
{
	if (r->mode & IOU_RING_SQ_REWIND)
		return *(volatile __u32 *)&iou_sq_rw_queued + r->sq_queued;
	return r->sq_tail;
}

static __always_inline __u32 iou_sq_space(struct iou_ring *r)
{
	if (r->mode & IOU_RING_SQ_REWIND)
		return iou_sq_entries - iou_sq_next(r);
	return iou_sq_entries - (r->sq_tail - *(volatile __u32 *)r->sq_head_p);
}

/*
 * SQEs committed and not yet taken by the kernel; read from the ring (or
 * from iou_sq_rw_queued), so that the verifier tracks no count that
 * differs from path to path
 */
static __always_inline __u32 iou_sq_pending(struct iou_ring *r)
{
	if (r->mode & IOU_RING_SQ_REWIND)
		return *(volatile __u32 *)&iou_sq_rw_queued;
	return *(volatile __u32 *)r->sq_tail_p -
	       *(volatile __u32 *)r->sq_head_p;
}

/* next free SQE, zeroed (all 128 bytes with SQE128), or NULL if full */
static __always_inline struct io_uring_sqe *iou_sqe_get(struct iou_ring *r)
{
	__u32 idx = iou_sq_next(r) & iou_sq_mask;
	struct io_uring_sqe *sqe;

	if (!r->sq_ok || !iou_sq_space(r))
		return NULL;
	if (r->mode & IOU_RING_SQ_ARRAY)
		*(__u32 *)(r->rings + iou_sq_array + (__u64)idx * 4) = idx;
	sqe = (void *)(r->sqes + (__u64)idx * iou_ring_sqe_size(r));
	__builtin_memset(sqe, 0, IOU_SQE_SIZE);
	if (iou_ring_sqe_size(r) > IOU_SQE_SIZE)
		__builtin_memset((__u8 *)sqe + IOU_SQE_SIZE, 0, IOU_SQE_SIZE);
	r->sq_tail++;
	r->sq_queued++;
	return sqe;
}

/*
 * Publish the SQEs filled so far; returns how many to submit. The kernel
 * takes SQEs only when they are submitted, so publishing early is fine.
 * The tail is read back from the ring: the same value, but one the
 * verifier knows nothing about. So a loop that fills a varying number of
 * SQEs per step and commits after each one is one verifier state per step,
 * not one per path (nop-chain hit the 1M-instruction limit without it).
 */
static __always_inline __u32 iou_sq_commit(struct iou_ring *r)
{
	__u32 n = r->sq_queued;

	if (r->mode & IOU_RING_SQ_REWIND) {
		/* head and tail stay 0: count in iou_sq_rw_queued instead */
		*(volatile __u32 *)&iou_sq_rw_queued = iou_sq_next(r);
	} else {
		*(volatile __u32 *)r->sq_tail_p = r->sq_tail;
		r->sq_tail = *(volatile __u32 *)r->sq_tail_p;
	}
	r->sq_queued = 0;
	return n;
}

/* submit n committed SQEs: 0 if all went in, else why not (-EAGAIN: fewer) */
static __always_inline int iou_submit_all(struct iou_loop *L, __u32 n)
{
	int ret;

	if (!n)
		return 0;
	ret = iou_submit(L, n);
	if (ret == n)
		return 0;
	return ret < 0 ? ret : -EAGAIN;
}

/*
 * Mainline runs the program instead of submitting the caller's SQEs: a
 * program whose meaning includes "the application's requests run" calls
 * this on each step. It submits what the application published (SQ tail
 * - head; on an SQ_REWIND ring the count the application stored in the
 * SQ tail, which it then zeroes: "The application's SQEs on an SQ_REWIND
 * ring" above) and returns how many went in (<0: the kfunc's error;
 * -E2BIG: an SQ_REWIND tail above sq_entries, nothing submitted). On v3
 * the kernel has submitted them before the wait: it does nothing,
 * returns 0.
 */
static __always_inline int iou_enter_submit(struct iou_loop *L,
					    struct iou_ring *r)
{
	__u32 n;

	if (iou_kernel_submits())
		return 0;
	if (r->mode & IOU_RING_SQ_REWIND) {
		n = *(volatile __u32 *)r->sq_tail_p;
		if (!n)
			return 0;
		*(volatile __u32 *)r->sq_tail_p = 0;
		if (n > iou_sq_entries)
			return -E2BIG;
		return iou_submit(L, n);
	}
	n = iou_sq_pending(r);
	return n ? iou_submit(L, n) : 0;
}

static __always_inline void iou_prep_nop(struct io_uring_sqe *sqe,
					 __u64 user_data)
{
	sqe->opcode = IOU_OP_NOP;
	sqe->user_data = user_data;
}

static __always_inline void iou_prep_rw(struct io_uring_sqe *sqe, __u8 op,
					int fd, __u64 addr, __u32 len,
					__u64 off, __u64 user_data)
{
	sqe->opcode = op;
	sqe->fd = fd;
	sqe->addr = addr;
	sqe->len = len;
	sqe->off = off;
	sqe->user_data = user_data;
}

static __always_inline void iou_prep_read(struct io_uring_sqe *sqe, int fd,
					  __u64 addr, __u32 len, __u64 off,
					  __u64 user_data)
{
	iou_prep_rw(sqe, IOU_OP_READ, fd, addr, len, off, user_data);
}

static __always_inline void iou_prep_write(struct io_uring_sqe *sqe, int fd,
					   __u64 addr, __u32 len, __u64 off,
					   __u64 user_data)
{
	iou_prep_rw(sqe, IOU_OP_WRITE, fd, addr, len, off, user_data);
}

/* an IORING_OP_BPF request for op id `op` with plain buffers (0 = none) */
static __always_inline void iou_prep_bpf(struct io_uring_sqe *sqe, __u32 op,
					 __u64 buf1, __u32 len1,
					 __u64 buf2, __u32 len2,
					 __u32 flags, __u64 user_data)
{
	__u32 t1 = buf1 ? IORING_BPF_BUF_TYPE_PLAIN : IORING_BPF_BUF_TYPE_NONE;
	__u32 t2 = buf2 ? IORING_BPF_BUF_TYPE_PLAIN : IORING_BPF_BUF_TYPE_NONE;

	sqe->opcode = IOU_OP_BPF;
	sqe->addr = buf1;
	sqe->len = len1;
	sqe->addr3 = buf2;
	sqe->optlen = len2;
	/* bpf_op_flags shares the union (and offset 28) with rw_flags */
	sqe->rw_flags = iou_bpf_op_flags(op, t1, t2, flags);
	sqe->user_data = user_data;
}

/*
 * The prologue of every loop step: map the ring's regions, then either
 * check that the ring's SQ layout is the one the loader gave (own_sqes: the
 * program fills SQEs itself) or, on mainline's hook, submit the SQEs the
 * application queued (iou_enter_submit()). Returns how many of the app's
 * SQEs went in (0 on v3 or with own_sqes), or <0 with the exit info set:
 * the program then returns IOU_STOP.
 */
static __always_inline int iou_loop_ring(struct iou_loop *L,
					 struct iou_ring *r, int own_sqes)
{
	int sub;

	if (iou_ring_init(L, r)) {
		IOU_EXIT_ERROR(-EFAULT, 0, "cannot map the ring regions");
		return -EFAULT;
	}
	/*
	 * the app's SQEs on SQ_REWIND: the tail is a count only if the ring
	 * is one (on another ring it is a running counter)
	 */
	if (own_sqes || ((r->mode & IOU_RING_SQ_REWIND) && !iou_kernel_submits())) {
		if (!iou_ring_can_submit(L, r)) {
			IOU_EXIT_ERROR(-EINVAL, 0, "the ring's SQ layout is not the one given");
			return -EINVAL;
		}
		if (own_sqes)
			return 0;
	}
	sub = iou_enter_submit(L, r);
	if (sub == -E2BIG)
		IOU_EXIT_ERROR(sub, 0, "SQ_REWIND ring: SQ tail above sq_entries; store there how many SQEs you wrote from index 0");
	else if (sub < 0)
		IOU_EXIT_ERROR(sub, 0, "submitting the app's SQEs failed");
	return sub;
}
#endif /* IOU_LOOP_PROGRAM */

/* time helpers -------------------------------------------------------- */

static __always_inline __u64 iou_now_ns(void)
{
	return bpf_ktime_get_ns();
}

#endif /* __IOURING_BPF_H */
