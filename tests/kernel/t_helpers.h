/* SPDX-License-Identifier: GPL-2.0 */
/*
 * t_helpers.h - user-space helpers shared by tests/kernel/test_*.c:
 * struct_ops attach/detach returning -errno, the ring layout for loop
 * programs' .rodata, one-shot IORING_OP_BPF submission.
 */
#ifndef TESTS_KERNEL_T_HELPERS_H
#define TESTS_KERNEL_T_HELPERS_H

#include <errno.h>
#include <pthread.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "check.h"
#include "uring.h"

/* generous bound for one CQE to arrive under QEMU TCG + KASAN */
#define T_CQE_TIMEOUT_MS 10000

/* attach a struct_ops map: 0 and *link, or -errno (bpf(LINK_CREATE) error) */
static inline int t_attach(struct bpf_map *map, struct bpf_link **link)
{
	struct bpf_link *l;

	errno = 0;
	l = bpf_map__attach_struct_ops(map);
	if (!l) {
		*link = NULL;
		return errno ? -errno : -EINVAL;
	}
	*link = l;
	return 0;
}

static inline void t_detach(struct bpf_link **link)
{
	if (*link) {
		bpf_link__destroy(*link);
		*link = NULL;
	}
}

/* the ring layout a loop program needs, into its .rodata (before load) */
#define T_SET_RING_RODATA(ro, r) do {					\
	(ro)->sq_tail_off = (r)->p.sq_off.tail;				\
	(ro)->sq_mask = (r)->sq_mask;					\
	(ro)->cq_head_off = (r)->p.cq_off.head;				\
	(ro)->cq_tail_off = (r)->p.cq_off.tail;				\
	(ro)->cq_mask = (r)->cq_mask;					\
	(ro)->cqes_off = (r)->p.cq_off.cqes;				\
	(ro)->rings_size = (r)->p.cq_off.cqes +				\
		(r)->cq_entries * sizeof(struct io_uring_cqe);		\
	(ro)->sqes_size = (r)->sq_entries * sizeof(struct io_uring_sqe);\
} while (0)

/* the loop hook's ring: SINGLE_ISSUER | DEFER_TASKRUN | NO_SQARRAY, 8/8 */
#define T_LOOP_RING_FLAGS (IORING_SETUP_SINGLE_ISSUER |			\
			   IORING_SETUP_DEFER_TASKRUN |			\
			   IORING_SETUP_NO_SQARRAY)

/*
 * submit one IORING_OP_BPF request and wait for its CQE.
 * Returns 0 with *res = cqe.res, or a negative error of the ring itself.
 */
static inline int t_bpf_one(struct uring *r, uint32_t opf, uint8_t sqe_flags,
			    uint64_t ud, int *res)
{
	struct io_uring_sqe *sqe = uring_get_sqe(r);
	struct io_uring_cqe cqe;
	int ret;

	if (!sqe)
		return -EBUSY;
	sqe_bpf(sqe, opf, ud);
	sqe->flags = sqe_flags;
	ret = uring_submit(r);
	if (ret != 1)
		return ret < 0 ? ret : -EIO;
	ret = uring_wait_cqe(r, &cqe, T_CQE_TIMEOUT_MS);
	if (ret)
		return ret;
	if (cqe.user_data != ud)
		return -EBADMSG;
	*res = cqe.res;
	return 0;
}

/* CHECK that one request completes with `want` (reports the caller's line) */
static inline bool t_check_bpf_res(int line, struct uring *r, uint32_t opf,
				   uint8_t sqe_flags, int want, const char *msg)
{
	int res = 0x7fffffff, rc;
	char b1[64], b2[64];

	rc = t_bpf_one(r, opf, sqe_flags, 0x5eed, &res);
	if (rc) {
		t_failf(line, "%s: submit/wait failed: %s%s", msg,
			t_fmt(b1, sizeof(b1), rc),
			rc == -ETIME ? " (no CQE: the request never completed)" : "");
		return false;
	}
	if (res != want) {
		t_failf(line, "%s: cqe.res: expected %s, got %s", msg,
			t_fmt(b1, sizeof(b1), want), t_fmt(b2, sizeof(b2), res));
		return false;
	}
	return true;
}
#define CHECK_BPF_RES(r, opf, sqe_flags, want, msg) \
	t_check_bpf_res(__LINE__, (r), (opf), (sqe_flags), (want), (msg))

/* bpf_link__destroy in a thread, so that a destroy which blocks on
 * in-flight requests cannot deadlock the test (the main thread keeps
 * reaping CQEs meanwhile) */
struct t_destroyer {
	pthread_t th;
	struct bpf_link *link;		/* NULL: the thread does nothing */
	int delay_ms;			/* sleep this long first */
	double t_start, t_end;
	volatile int done;
};

static inline void *t_destroyer_fn(void *arg)
{
	struct t_destroyer *d = arg;

	if (d->delay_ms)
		usleep(d->delay_ms * 1000);
	d->t_start = t_now_ms();
	if (d->link)
		bpf_link__destroy(d->link);
	d->t_end = t_now_ms();
	__atomic_store_n(&d->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static inline int t_destroy_async(struct t_destroyer *d, struct bpf_link *link,
				  int delay_ms)
{
	d->link = link;
	d->delay_ms = delay_ms;
	d->done = 0;
	return -pthread_create(&d->th, NULL, t_destroyer_fn, d);
}

/* wait up to ms for the destroyer; true if it finished (and was joined) */
static inline bool t_destroy_wait(struct t_destroyer *d, int ms)
{
	double end = t_now_ms() + ms;

	while (!__atomic_load_n(&d->done, __ATOMIC_ACQUIRE)) {
		if (t_now_ms() > end)
			return false;
		usleep(1000);
	}
	pthread_join(d->th, NULL);
	return true;
}

#endif
