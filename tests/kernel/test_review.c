// SPDX-License-Identifier: GPL-2.0
/*
 * test_review - lifetime and locking defects found in review of the posted
 * series (kernel/README.md, patches 0020, 0024, 0013), each checked here by
 * a test that fails, hangs or makes the debug kernel report without its fix:
 *
 *   fixed_buf_unregister_inflight  (0020) buffers unregistered while an
 *       IORING_OP_BPF request using a fixed buffer waits behind a timeout:
 *       the request still copies the right bytes, and KASAN sees nothing
 *   same_ops_two_rings             (0024) one struct_ops map attached twice,
 *       ring_fd meanwhile naming another ring: the second attach is -EBUSY
 *   rdisabled_enabled_elsewhere    (0013) a ring created R_DISABLED by one
 *       thread and enabled by another, whose first use of the ring is a wait
 *       running a loop program that submits: completes, no self-deadlock
 *
 * Programs: op_memcpy.bpf.c and loop.bpf.c (shared with test_op_memcpy and
 * test_loop).
 */
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "t_helpers.h"
#include "op_memcpy.h"
#include "op_memcpy.skel.h"
#include "loop.skel.h"

#define ID_MEMCPY	40	/* op_memcpy.bpf.c's op id */
#define BUF_SIZE	4096
#define LOOP_M_NOPS	0	/* loop.bpf.c's mode */

static unsigned char *map_buf(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * TIMEOUT(ms) hard-linked to a memcpy of the whole fixed buffer 0 (registered
 * from src: sqe->addr is its user address) into dst
 */
static int queue_linked_copy(struct uring *r, unsigned char *src,
			     unsigned char *dst, long ms)
{
	struct __kernel_timespec ts;
	struct io_uring_sqe *sqe;

	t_ms_to_ts(&ts, ms);
	sqe = uring_get_sqe(r);
	if (!sqe)
		return -EBUSY;
	sqe_timeout(sqe, &ts, 0, 0, 1);
	/* HARDLINK: the timeout's -ETIME must not cancel the copy */
	sqe->flags = IOSQE_IO_HARDLINK;
	sqe = uring_get_sqe(r);
	if (!sqe)
		return -EBUSY;
	sqe_bpf(sqe, T_BPF_OP_FLAGS(ID_MEMCPY, T_BPF_BUF_FIXED,
				    T_BPF_BUF_PLAIN, 0), 2);
	sqe_bpf_buf1(sqe, (uint64_t)(uintptr_t)src, BUF_SIZE, 0);
	sqe_bpf_buf2(sqe, (uint64_t)(uintptr_t)dst, BUF_SIZE);
	return uring_submit(r);
}

static void t_fixed_buf_unregister_inflight(void)
{
	struct bpf_link *link = NULL;
	struct io_uring_cqe cqe[2];
	struct op_memcpy *skel;
	unsigned char *src, *dst;
	struct uring r = { .fd = -1 };
	struct iovec iov;
	double t0;
	int ret, i;

	skel = op_memcpy__open_and_load();
	if (!CHECK_PTR(skel, "op_memcpy__open_and_load"))
		return;
	/* slot 0: copy BUF_SIZE bytes from buffer 1 to buffer 2 */
	skel->bss->params[0] = (struct mc_param){ .dst_id = 2, .src_id = 1,
						  .len = BUF_SIZE };
	if (!CHECK_EQ(t_attach(skel->maps.memcpy_op, &link), 0, "attach memcpy_op"))
		goto out;
	src = map_buf(BUF_SIZE);
	dst = map_buf(BUF_SIZE);
	if (!CHECK_PTR(src, "mmap") || !CHECK_PTR(dst, "mmap"))
		goto out;
	for (i = 0; i < BUF_SIZE; i++)
		src[i] = (unsigned char)(i * 7 + 3);
	ret = uring_init(&r, 8, T_IORING_SETUP_BPF, 0);
	if (!CHECK_EQ(ret, 0, "io_uring_setup(IORING_SETUP_BPF)"))
		goto out;
	iov.iov_base = src;
	iov.iov_len = BUF_SIZE;
	if (!CHECK_EQ(uring_register_buffers(&r, &iov, 1), 0, "register buffer"))
		goto out;

	if (!CHECK_EQ(queue_linked_copy(&r, src, dst, 300), 2,
		      "submit TIMEOUT(300 ms) -> IORING_OP_BPF memcpy (fixed)"))
		goto out;
	/*
	 * The copy was prepared (buffer looked up) at submission and runs
	 * when the timeout fires. Unregistering now must either wait for it
	 * or leave it a buffer that is still alive; the posted patch freed
	 * the buffer under it.
	 */
	t0 = t_now_ms();
	ret = t_io_uring_register(r.fd, IORING_UNREGISTER_BUFFERS, NULL, 0);
	CHECK_EQ(ret, 0, "IORING_UNREGISTER_BUFFERS with the copy in flight");
	T_DEBUG("unregister took %.0f ms", t_now_ms() - t0);

	ret = uring_wait_cqes(&r, cqe, 2, T_CQE_TIMEOUT_MS);
	if (!CHECK_EQ(ret, 2, "both CQEs"))
		goto out;
	for (i = 0; i < 2; i++) {
		if (cqe[i].user_data == 2)
			CHECK_EQ(cqe[i].res, BUF_SIZE,
				 "memcpy from the unregistered fixed buffer");
		else
			CHECK_EQ(cqe[i].res, -ETIME, "the timeout");
	}
	if (memcmp(src, dst, BUF_SIZE))
		FAIL("the copy's destination differs from the fixed buffer");
out:
	if (r.fd >= 0)
		uring_exit(&r);
	t_detach(&link);
	op_memcpy__destroy(skel);
}

static struct loop *loop_open_for(struct uring *r)
{
	struct loop *s = loop__open();

	if (!CHECK_PTR(s, "loop__open"))
		return NULL;
	T_SET_RING_RODATA(s->rodata, r);
	s->rodata->mode = LOOP_M_NOPS;
	s->struct_ops.ops->ring_fd = r->fd;
	if (!CHECK_EQ(loop__load(s), 0, "loop__load")) {
		loop__destroy(s);
		return NULL;
	}
	return s;
}

static void t_same_ops_two_rings(void)
{
	struct bpf_link *l1 = NULL, *l2 = NULL;
	struct uring a = { .fd = -1 }, b = { .fd = -1 };
	struct loop *s;
	int keep_a = -1, a_fd;

	if (!CHECK_EQ(uring_init(&a, 8, T_LOOP_RING_FLAGS, 8), 0, "ring A") ||
	    !CHECK_EQ(uring_init(&b, 8, T_LOOP_RING_FLAGS, 8), 0, "ring B"))
		goto out;
	s = loop_open_for(&a);
	if (!s)
		goto out;
	if (!CHECK_EQ(t_attach(s->maps.ops, &l1), 0, "attach to ring A"))
		goto out_skel;
	/* keep ring A open elsewhere, and make ring_fd's number name ring B */
	a_fd = a.fd;
	keep_a = dup(a_fd);
	if (!CHECK_EQ(dup2(b.fd, a_fd) == a_fd, 1, "dup2(ring B, ring_fd)"))
		goto out_skel;
	CHECK_EQ(t_attach(s->maps.ops, &l2), -EBUSY,
		 "attach the same ops again, ring_fd now naming ring B");
	t_detach(&l2);
	t_detach(&l1);
	/* ring A must be usable after its ops went: a NOP completes */
	a.fd = keep_a;
	keep_a = -1;
	{
		struct io_uring_sqe *sqe = uring_get_sqe(&a);
		struct io_uring_cqe cqe;

		sqe_nop(sqe, 7);
		if (CHECK_EQ(uring_submit(&a), 1, "NOP on ring A after detach"))
			CHECK_EQ(uring_wait_cqe(&a, &cqe, T_CQE_TIMEOUT_MS), 0,
				 "NOP on ring A completes");
	}
	/* ring A's old fd number was dup2()ed over: close it as ring B's alias */
	close(a_fd);
out_skel:
	t_detach(&l2);
	t_detach(&l1);
	loop__destroy(s);
out:
	if (keep_a >= 0)
		close(keep_a);
	if (a.fd >= 0)
		uring_exit(&a);
	if (b.fd >= 0)
		uring_exit(&b);
}

struct waiter {
	struct uring *r;
	int ret;
	volatile int done;
};

/* the thread that enables the ring (so owns it) and waits on it */
static void *enable_and_wait(void *arg)
{
	struct waiter *w = arg;

	w->ret = t_io_uring_register(w->r->fd, IORING_REGISTER_ENABLE_RINGS,
				     NULL, 0);
	if (!w->ret)
		w->ret = t_io_uring_enter(w->r->fd, 0, 0, IORING_ENTER_GETEVENTS,
					  NULL, 0);
	w->done = 1;
	return NULL;
}

static void t_rdisabled_enabled_elsewhere(void)
{
	struct waiter w = { .ret = -1 };
	struct bpf_link *link = NULL;
	struct uring r = { .fd = -1 };
	struct loop *s;
	pthread_t th;
	double t0;
	int ret;

	ret = uring_init(&r, 8, T_LOOP_RING_FLAGS | IORING_SETUP_R_DISABLED, 8);
	if (!CHECK_EQ(ret, 0, "ring with R_DISABLED|SINGLE_ISSUER|DEFER_TASKRUN"))
		return;
	s = loop_open_for(&r);
	if (!s)
		goto out;
	s->bss->target = 8;
	if (!CHECK_EQ(t_attach(s->maps.ops, &link), 0, "attach loop program"))
		goto out_skel;

	w.r = &r;
	if (!CHECK_EQ(pthread_create(&th, NULL, enable_and_wait, &w), 0,
		      "pthread_create"))
		goto out_skel;
	/* without the fix the thread deadlocks on uring_lock: don't join it */
	t0 = t_now_ms();
	while (!w.done && t_now_ms() - t0 < 20000)
		usleep(10000);
	if (!w.done) {
		FAIL("the enabling thread's io_uring_enter() did not return in "
		     "20 s (self-deadlock on uring_lock?)");
		return;	/* leak everything: the thread holds it */
	}
	pthread_join(th, NULL);
	CHECK_EQ(w.ret, 0, "enable, then io_uring_enter(GETEVENTS) from that thread");
	CHECK_EQ(s->bss->completed, 8, "NOPs the loop program completed");
	CHECK_EQ(s->bss->submit_errors, 0, "bpf_io_uring_submit_sqes errors");
out_skel:
	t_detach(&link);
	loop__destroy(s);
out:
	uring_exit(&r);
}

int main(int argc, char **argv)
{
	T_INIT(argc, argv);
	REQUIRE_ROOT();
	REQUIRE_BTF_TYPE("uring_bpf_ops", "IORING_OP_BPF");
	REQUIRE_BTF_TYPE("io_uring_ops", "the io_uring loop hook");

	RUN(t_fixed_buf_unregister_inflight);
	RUN(t_same_ops_two_rings);
	RUN(t_rdisabled_enabled_elsewhere);
	return T_DONE();
}
