// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * attach_liburing - an application with a liburing ring attaches the
 * built-in loop program nop-chain to it through <iouring-bpf/liburing.h>:
 * the program issues and reaps N NOPs inside one io_uring_enter(), then
 * the application checks what it sees of the ring and uses it through
 * liburing again.
 *
 *   cc -o attach_liburing attach_liburing.c \
 *	$(pkg-config --cflags --libs iouring-bpf) -luring
 *   ./attach_liburing [-f FLAG,...] [-d DEPTH] [-L] [-F] [-W] [N]
 *
 * The ring is SINGLE_ISSUER | DEFER_TASKRUN (what the loop hook needs)
 * with 8 SQ entries, plus the FLAGs: nosqarray sqe128 cqe32 cqsize (32
 * CQ entries) submit-all coop-taskrun taskrun-flag clamp cqe-mixed
 * sqe-mixed sq-rewind (SQ_REWIND, Linux 7.0+, with nosqarray: exit 77 on
 * a kernel without it); iopoll and no-defer (drop DEFER_TASKRUN) make
 * rings the hook refuses. A ring with an SQ array is made by liburing.
 * A NO_SQARRAY ring is made by liburing only if it is 2.6 or later;
 * with an older liburing (Debian 12: 2.3), which would write its SQ
 * index array over the ring's header, it is made with io_uring_setup() and attached by fd (the library
 * reads its layout from the kernel); -L makes it with liburing anyway, to
 * see the helper refuse it. -F attaches a liburing ring by its fd alone
 * (iouring_bpf_obj_bind_ring(obj, ring.ring_fd, NULL): the layout read
 * from the kernel)
 * instead of through the helper. -W (for the tests) hands the library a
 * wrong layout, the ring's flags without SQE128 and CQE32: nop-chain must
 * then find that its last CQE is not its last NOP's and report an error.
 *
 * Checks: nop-chain's counters (completed == issued == N, no errors); the
 * ring's SQ and CQ heads as the application maps them moved by N (the
 * program wrote where liburing reads; on SQ_REWIND the SQ head and tail
 * stay 0); an SQ_REWIND ring is made by liburing only if it knows the
 * flag (2.14+), else with io_uring_setup(); after detach, one NOP submitted
 * and reaped from user space completes. Exit: 0 all held; 1 a check
 * failed, or the library refused (its message on stderr: the bind, the
 * load or the attach); 2 the helper refused the liburing ring; 4 not
 * privileged (EPERM); 77 no loop hook, or a flag this kernel does not
 * know.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <liburing.h>
#include <bpf/libbpf.h>
#include <iouring-bpf/liburing.h>

#ifndef IORING_SETUP_CQE_MIXED
#define IORING_SETUP_CQE_MIXED	(1U << 18)
#endif
#ifndef IORING_SETUP_SQE_MIXED
#define IORING_SETUP_SQE_MIXED	(1U << 19)
#endif
/*
 * IORING_SETUP_SQ_REWIND (Linux 7.0+; liburing 2.14+ defines it): under a
 * name of ours, since older headers lack it and the project's kernel uses
 * the bit for IORING_SETUP_BPF
 */
#ifdef IORING_SETUP_SQ_REWIND
#define APP_SETUP_SQ_REWIND	IORING_SETUP_SQ_REWIND
#define APP_LIBURING_REWIND	1	/* this liburing submits from index 0 */
#else
#define APP_SETUP_SQ_REWIND	(1U << 20)
#define APP_LIBURING_REWIND	0
#endif

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define SQ_ENTRIES	8
#define CQ_ENTRIES	32	/* with cqsize */
#define USER_DATA	0xfeedULL

static const struct {
	const char	*name;
	unsigned int	flag;
} flag_names[] = {
	{ "nosqarray",		IORING_SETUP_NO_SQARRAY },
	{ "sqe128",		IORING_SETUP_SQE128 },
	{ "cqe32",		IORING_SETUP_CQE32 },
	{ "cqsize",		IORING_SETUP_CQSIZE },
	{ "submit-all",		IORING_SETUP_SUBMIT_ALL },
	{ "coop-taskrun",	IORING_SETUP_COOP_TASKRUN },
	{ "taskrun-flag",	IORING_SETUP_TASKRUN_FLAG },
	{ "clamp",		IORING_SETUP_CLAMP },
	{ "cqe-mixed",		IORING_SETUP_CQE_MIXED },
	{ "sqe-mixed",		IORING_SETUP_SQE_MIXED },
	{ "sq-rewind",		APP_SETUP_SQ_REWIND },
	{ "iopoll",		IORING_SETUP_IOPOLL },
	{ "no-defer",		IORING_SETUP_DEFER_TASKRUN },	/* removed */
};

/* the ring as this program sees it, from liburing or mapped by hand */
struct app_ring {
	struct io_uring		lr;		/* made by liburing */
	int			by_liburing;
	int			fd;
	struct io_uring_params	p;
	void			*rings;		/* mapped by hand (raw fd) */
	size_t			rings_len;
	void			*sqes;
	size_t			sqes_len;
	unsigned int		*sq_head, *sq_tail, *cq_head, *cq_tail;
};

static int parse_flags(char *list, unsigned int *flags)
{
	char *name;
	size_t i;

	for (name = strtok(list, ","); name; name = strtok(NULL, ",")) {
		for (i = 0; i < ARRAY_SIZE(flag_names); i++)
			if (!strcmp(name, flag_names[i].name))
				break;
		if (i == ARRAY_SIZE(flag_names)) {
			fprintf(stderr, "attach_liburing: unknown flag '%s'\n",
				name);
			return -1;
		}
		if (flag_names[i].flag == IORING_SETUP_DEFER_TASKRUN)
			*flags &= ~IORING_SETUP_DEFER_TASKRUN;
		else
			*flags |= flag_names[i].flag;
	}
	return 0;
}

/* an io_uring_setup() ring mapped by hand: nothing writes an SQ array */
static int raw_ring(struct app_ring *r, unsigned int flags)
{
	size_t cqe = flags & IORING_SETUP_CQE32 ? 32 : 16;
	size_t sqe = flags & IORING_SETUP_SQE128 ? 128 : 64;
	char *base;

	memset(&r->p, 0, sizeof(r->p));
	r->p.flags = flags;
	if (flags & IORING_SETUP_CQSIZE)
		r->p.cq_entries = CQ_ENTRIES;
	r->fd = io_uring_setup(SQ_ENTRIES, &r->p);
	if (r->fd < 0)
		return r->fd;
	r->rings_len = r->p.cq_off.cqes + r->p.cq_entries * cqe;
	if (!(flags & IORING_SETUP_NO_SQARRAY) &&
	    r->p.sq_off.array + r->p.sq_entries * 4 > r->rings_len)
		r->rings_len = r->p.sq_off.array + r->p.sq_entries * 4;
	r->sqes_len = r->p.sq_entries * sqe;
	r->rings = mmap(NULL, r->rings_len, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQ_RING);
	r->sqes = mmap(NULL, r->sqes_len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	if (r->rings == MAP_FAILED || r->sqes == MAP_FAILED)
		return -errno;
	base = r->rings;
	r->sq_head = (unsigned int *)(base + r->p.sq_off.head);
	r->sq_tail = (unsigned int *)(base + r->p.sq_off.tail);
	r->cq_head = (unsigned int *)(base + r->p.cq_off.head);
	r->cq_tail = (unsigned int *)(base + r->p.cq_off.tail);
	return 0;
}

static int make_ring(struct app_ring *r, unsigned int flags, int force)
{
	struct io_uring_params p = { .flags = flags };
	int ret;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if (flags & IORING_SETUP_CQSIZE)
		p.cq_entries = CQ_ENTRIES;
	if ((flags & IORING_SETUP_NO_SQARRAY) &&
	    !IOURING_BPF_LIBURING_NO_SQARRAY && !force)
		return raw_ring(r, flags);
	if ((flags & APP_SETUP_SQ_REWIND) && !APP_LIBURING_REWIND)
		return raw_ring(r, flags);	/* liburing would move the tail */
	ret = io_uring_queue_init_params(SQ_ENTRIES, &r->lr, &p);
	if (ret)
		return ret;
	if ((r->lr.flags ^ flags) & IORING_SETUP_NO_SQARRAY) {
		/* liburing 2.6+ adds NO_SQARRAY unasked: make it by hand */
		io_uring_queue_exit(&r->lr);
		return raw_ring(r, flags);
	}
	r->by_liburing = 1;
	r->fd = r->lr.ring_fd;
	r->sq_head = r->lr.sq.khead;
	r->sq_tail = r->lr.sq.ktail;
	r->cq_head = r->lr.cq.khead;
	r->cq_tail = r->lr.cq.ktail;
	return 0;
}

/* one NOP from user space after detach: its CQE's res, or -errno */
static int user_nop(struct app_ring *r, int *stale)
{
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	size_t cqe_sz = r->p.flags & IORING_SETUP_CQE32 ? 32 : 16;
	size_t sqe_sz = r->p.flags & IORING_SETUP_SQE128 ? 128 : 64;
	unsigned int idx;
	int ret;

	if (r->by_liburing) {
		/* liburing's own copy of the SQ tail did not see the program */
		*stale = !io_uring_get_sqe(&r->lr);
		iouring_bpf_liburing_resync(&r->lr);
		sqe = io_uring_get_sqe(&r->lr);
		if (!sqe)
			return -ENOSPC;
		io_uring_prep_nop(sqe);
		io_uring_sqe_set_data64(sqe, USER_DATA);
		ret = io_uring_submit_and_wait(&r->lr, 1);
		if (ret < 0)
			return ret;
		ret = io_uring_peek_cqe(&r->lr, &cqe);
		if (ret)
			return ret;
		ret = cqe->user_data == USER_DATA ? cqe->res : -EPROTO;
		io_uring_cqe_seen(&r->lr, cqe);
		return ret;
	}
	*stale = 0;
	/* SQ_REWIND: the SQE at index 0, head and tail stay 0 */
	idx = r->p.flags & APP_SETUP_SQ_REWIND ? 0 :
	      *r->sq_tail & (r->p.sq_entries - 1);
	if (!(r->p.flags & IORING_SETUP_NO_SQARRAY))
		((unsigned int *)((char *)r->rings + r->p.sq_off.array))[idx] = idx;
	sqe = (void *)((char *)r->sqes + idx * sqe_sz);
	memset(sqe, 0, sqe_sz);
	sqe->opcode = IORING_OP_NOP;
	sqe->user_data = USER_DATA;
	if (!(r->p.flags & APP_SETUP_SQ_REWIND))
		__atomic_store_n(r->sq_tail, *r->sq_tail + 1,
				 __ATOMIC_RELEASE);
	ret = io_uring_enter(r->fd, 1, 1, IORING_ENTER_GETEVENTS, NULL);
	if (ret < 0)
		return ret;
	if (*r->cq_head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE))
		return -ENODATA;
	cqe = (void *)((char *)r->rings + r->p.cq_off.cqes +
		       (*r->cq_head & (r->p.cq_entries - 1)) * cqe_sz);
	ret = cqe->user_data == USER_DATA ? cqe->res : -EPROTO;
	__atomic_store_n(r->cq_head, *r->cq_head + 1, __ATOMIC_RELEASE);
	return ret;
}

static void close_ring(struct app_ring *r)
{
	if (r->by_liburing) {
		io_uring_queue_exit(&r->lr);
		return;
	}
	if (r->rings && r->rings != MAP_FAILED)
		munmap(r->rings, r->rings_len);
	if (r->sqes && r->sqes != MAP_FAILED)
		munmap(r->sqes, r->sqes_len);
	if (r->fd >= 0)
		close(r->fd);
}

/*
 * nop-chain with nr and depth, bound to r: by the helper (from liburing's
 * struct), by fd (the layout from the kernel) or, -W, with the helper's
 * layout minus SQE128 and CQE32; loaded and attached. 0, or an exit code
 * (the library, or this program for the helper's refusal, said why).
 */
static int attach(struct app_ring *r, int how, long long n, long long depth,
		  struct bpf_object **objp, struct bpf_link **linkp)
{
	IOURING_BPF_OPTS(iouring_bpf_ring_opts, ro);
	struct io_uring_params p;
	struct bpf_object *obj;
	int ret;

	obj = iouring_bpf_builtin_open("nop-chain", NULL);
	if (!obj)
		return 1;
	*objp = obj;
	ret = iouring_bpf_obj_set_global(obj, "nr", n);
	if (!ret)
		ret = iouring_bpf_obj_set_global(obj, "depth", depth);
	if (ret)
		return 2;
	if (how == 'L' || how == 'W') {
		ret = iouring_bpf_liburing_params(&r->lr, &p);
		if (ret) {
			fprintf(stderr, "attach_liburing: %s\n",
				(r->lr.flags & IORING_SETUP_NO_SQARRAY) ?
				"the ring has IORING_SETUP_NO_SQARRAY, which this liburing does not support (2.6 is the first that does): it wrote its SQ index array over the ring's header at setup; create the ring without it" :
				strerror(-ret));
			return 2;
		}
		if (how == 'W')
			p.flags &= ~(IORING_SETUP_SQE128 | IORING_SETUP_CQE32);
		ro.params = &p;
	}
	ret = iouring_bpf_obj_bind_ring(obj, r->fd, ro.params ? &ro : NULL);
	if (!ret)
		ret = iouring_bpf_obj_load(obj);
	if (ret == -EOPNOTSUPP)
		return 77;
	if (ret)
		return ret == -EPERM ? 4 : ret == -EINVAL ? 2 : 1;
	*linkp = iouring_bpf_obj_attach(obj, NULL);
	if (!*linkp)
		return errno == EPERM ? 4 : 1;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int flags = IORING_SETUP_SINGLE_ISSUER |
			     IORING_SETUP_DEFER_TASKRUN;
	long long n = 1000, depth = 4, done = -1, issued = -1, errors = -1;
	IOURING_BPF_OPTS(iouring_bpf_kernel, k);
	struct bpf_object *obj = NULL;
	struct bpf_link *link = NULL;
	struct app_ring r;
	int opt, force = 0, by_fd = 0, wrong = 0, ret, res, stale, bad = 0;
	unsigned int sq_want;

	while ((opt = getopt(argc, argv, "f:d:LFW")) != -1) {
		if (opt == 'f' && !parse_flags(optarg, &flags))
			continue;
		if (opt == 'd' && atoll(optarg) > 0) {
			depth = atoll(optarg);
			continue;
		}
		if (opt == 'L' || opt == 'F' || opt == 'W') {
			*(opt == 'L' ? &force : opt == 'F' ? &by_fd : &wrong) = 1;
			continue;
		}
		fprintf(stderr,
			"usage: attach_liburing [-f FLAG,...] [-d DEPTH] [-L] [-F] [-W] [N]\n");
		return 2;
	}
	if (optind < argc)
		n = atoll(argv[optind]);
	if ((flags & APP_SETUP_SQ_REWIND) &&
	    (iouring_bpf_kernel_probe(&k) || !k.sq_rewind)) {
		/* our kernel: bit 20 would make an IORING_SETUP_BPF ring */
		fprintf(stderr, "attach_liburing: kernel without SQ_REWIND (loop hook %d)\n",
			k.loop_api);
		return 77;
	}
	ret = make_ring(&r, flags, force);
	if (ret) {
		fprintf(stderr, "attach_liburing: ring with flags 0x%x: %s\n",
			flags, strerror(-ret));
		close_ring(&r);
		return ret == -EINVAL && (flags & (IORING_SETUP_CQE_MIXED |
				IORING_SETUP_SQE_MIXED)) ? 77 : 1;
	}
	if (r.by_liburing)
		r.p.flags = r.lr.flags;

	/* the ring's fd and its layout, from liburing's struct or by fd */
	if (wrong && !r.by_liburing) {
		fprintf(stderr, "attach_liburing: -W needs a ring made by liburing\n");
		close_ring(&r);
		return 2;
	}
	ret = attach(&r, wrong ? 'W' : r.by_liburing && !by_fd ? 'L' : 'F',
		     n, depth, &obj, &link);
	if (ret) {
		bpf_object__close(obj);
		close_ring(&r);
		return ret;
	}

	/* the whole workload: one enter, the program stops when done */
	ret = io_uring_enter(r.fd, 0, 0, IORING_ENTER_GETEVENTS, NULL);
	iouring_bpf_obj_get_global(obj, "completed", &done);
	iouring_bpf_obj_get_global(obj, "issued", &issued);
	iouring_bpf_obj_get_global(obj, "errors", &errors);
	printf("flags 0x%x, ring by %s, attached %s: io_uring_enter %d; ",
	       r.p.flags, r.by_liburing ? "liburing" : "io_uring_setup",
	       wrong ? "with a wrong layout" :
	       r.by_liburing && !by_fd ? "through the helper" : "by fd", ret);
	printf("nop-chain completed %lld of %lld NOPs, issued %lld, errors %lld\n",
	       done, n, issued, errors);
	bad |= ret != 0 || done != n || issued != n || errors != 0;

	/* the program wrote the heads the application reads */
	printf("ring as mapped here: SQ head %u tail %u, CQ head %u tail %u\n",
	       *r.sq_head, *r.sq_tail, *r.cq_head, *r.cq_tail);
	/* on an SQ_REWIND ring the SQ head and tail stay 0 */
	sq_want = r.p.flags & APP_SETUP_SQ_REWIND ? 0 : n;
	bad |= *r.sq_head != sq_want || *r.sq_tail != sq_want ||
	       *r.cq_head != (unsigned int)n || *r.cq_tail != (unsigned int)n;

	bpf_link__destroy(link);
	bpf_object__close(obj);
	res = user_nop(&r, &stale);
	printf("after detach: a NOP from %s: res %d%s\n",
	       r.by_liburing ? "liburing" : "user space", res,
	       !r.by_liburing ? "" : stale ?
	       " (liburing's SQ copy was stale: io_uring_get_sqe() gave NULL before the resync)" :
	       " (liburing's SQ copy was not stale)");
	bad |= res != 0;
	close_ring(&r);
	if (bad)
		fprintf(stderr, "attach_liburing: a check failed (above)\n");
	return bad;
}
