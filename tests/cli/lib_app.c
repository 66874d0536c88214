// SPDX-License-Identifier: GPL-2.0
/*
 * lib_app.c - an application attaching programs to its own ring with
 * libiouring-bpf.a (no CLI): nop-chain on its DEFER_TASKRUN ring, without
 * and with an SQ array (the library reads the ring's layout from the
 * kernel, given the fd alone); set_ring() of fd -1 and of fd 0 fail with
 * the same status, and so do io_uring_params that are not the ring's;
 * then the nop op for its
 * IORING_SETUP_BPF ring; after each detach the ring behaves as before.
 * The library picks the loop binding of the kernel (v3 or mainline); on a
 * kernel without IORING_OP_BPF (stock 7.1+) the op part is left out.
 * Usage: lib_app PATH/TO/nop.bpf.o   (exit 0 ok, 1 failure, 77 no feature)
 */
#include <stdio.h>
#include <string.h>
#include "start.h"	/* the engine's one-call start */
#include "ring.h"

static int fails;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		fails++;						\
		printf("FAIL %s:%d: ", __FILE__, __LINE__);		\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	} else {							\
		printf("ok: ");						\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	}								\
} while (0)

static int op_res(struct ring *r, int op)
{
	struct io_uring_cqe cqe;

	ring_prep_bpf(ring_get_sqe(r), iou_bpf_op_flags(op, 0, 0, 0), 0, 0, 0,
		      0, 0, 1);
	if (ring_wait_cqe(r, &cqe))
		return 1;
	return cqe.res;
}

/*
 * nop-chain attached by fd alone (the library reads the layout) to a ring
 * of these flags: 50 NOPs in one enter, then a plain enter after detach.
 * 77 if the kernel has no loop hook, 1 if the ring cannot be made.
 */
static int attach_nop_chain(unsigned int layout, const char *what)
{
	const char *params[] = { "nr=50", NULL };
	struct iouring_bpf_error err;
	struct iouring_bpf *h;
	struct ring r;
	long long v = -1;
	int ret;

	ret = ring_init(&r, 16, 32, IORING_SETUP_SINGLE_ISSUER |
			IORING_SETUP_DEFER_TASKRUN | layout);
	if (ret) {
		printf("ring: %s\n", strerror(-ret));
		return 1;
	}
	h = iouring_bpf_attach(r.fd, "nop-chain", params, &err);
	if (!h && err.status == IOURING_BPF_NOFEATURE) {
		printf("%s\n", err.msg);
		return 77;
	}
	CHECK(h, "attach nop-chain to my ring %s%s%s", what, h ? "" : ": ",
	      h ? "" : err.msg);
	if (h) {
		ret = ring_wait(&r, 0, 10000000000LL);
		CHECK(ret == 0 && *r.sq_head == 50 && !ring_cq_ready(&r),
		      "one enter ran 50 NOPs from BPF (ret %d, sq head %u, %u CQEs left)",
		      ret, *r.sq_head, ring_cq_ready(&r));
		CHECK(!iouring_bpf_var_int(h, "completed", &v) && v == 50,
		      "the program's completed counter: %lld", v);
		CHECK(!iouring_bpf_var_int(h, "iou_sq_array", &v) &&
		      v == (layout ? 0 : r.p.sq_off.array),
		      "the SQ array offset the library read: %lld (io_uring_params: %u)",
		      v, layout ? 0 : r.p.sq_off.array);
		CHECK(iouring_bpf_loop_binding(h) ==
		      iouring_bpf_kernel_loop_api() &&
		      iouring_bpf_loop_binding(h) != IOURING_BPF_LOOP_NONE,
		      "the library's binding is the kernel's: %s",
		      iouring_bpf_loop_api_key(iouring_bpf_loop_binding(h)));
		iouring_bpf_detach(h);
		ret = ring_wait(&r, 0, 10000000000LL);
		CHECK(ret == 0 && *r.sq_head == 50, "after detach: a plain enter (ret %d, sq head %u)",
		      ret, *r.sq_head);
	}
	ring_exit(&r);
	return 0;
}

int main(int argc, char **argv)
{
	struct iouring_bpf_error err;
	struct iouring_bpf *h;
	struct ring r;
	int ret, arr;

	if (argc != 2)
		return 2;
	for (arr = 0; arr < 2; arr++) {
		ret = attach_nop_chain(arr ? 0 : IORING_SETUP_NO_SQARRAY,
				       arr ? "with an SQ array" :
				       "without an SQ array");
		if (ret)
			return ret;
	}

	/* a fd that is not open and one that is no ring: the same status */
	h = iouring_bpf_open("nop-chain", &err);
	CHECK(h, "open nop-chain");
	if (!h)
		return 1;
	ret = iouring_bpf_set_ring(h, -1, NULL, &err);
	CHECK(ret < 0 && err.status == IOURING_BPF_USAGE &&
	      strstr(err.msg, "not an open file descriptor"),
	      "set_ring(-1): status %d: %s", err.status, err.msg);
	ret = iouring_bpf_set_ring(h, 0, NULL, &err);
	CHECK(ret < 0 && err.status == IOURING_BPF_USAGE &&
	      strstr(err.msg, "not an io_uring"),
	      "set_ring(0): status %d: %s", err.status, err.msg);
	/* with io_uring_params: the same checks, and the entries must match */
	ret = ring_init(&r, 16, 32, IORING_SETUP_SINGLE_ISSUER |
			IORING_SETUP_DEFER_TASKRUN);
	CHECK(!ret, "a loop ring for set_ring(fd, p)");
	if (!ret) {
		struct io_uring_params p = r.p;

		ret = iouring_bpf_set_ring(h, -1, &p, &err);
		CHECK(ret < 0 && err.status == IOURING_BPF_USAGE &&
		      strstr(err.msg, "not an open file descriptor"),
		      "set_ring(-1, p): status %d: %s", err.status, err.msg);
		p.sq_entries = 8;
		ret = iouring_bpf_set_ring(h, r.fd, &p, &err);
		CHECK(ret < 0 && err.status == IOURING_BPF_USAGE &&
		      strstr(err.msg, "the io_uring_params given say 8/32"),
		      "set_ring(fd, p of 8 SQ entries) on a 16-entry ring: status %d: %s",
		      err.status, err.msg);
		ring_exit(&r);
	}
	iouring_bpf_close(h);

	if (iouring_bpf_kernel_has_type("uring_bpf_ops") == 0) {
		h = iouring_bpf_attach(-1, argv[1], NULL, &err);
		CHECK(!h && err.status == IOURING_BPF_NOFEATURE,
		      "no IORING_OP_BPF in this kernel: the op is refused (%s)",
		      h ? "attached!" : err.msg);
		iouring_bpf_detach(h);
		printf("%d failed\n", fails);
		return fails ? 1 : 0;
	}
	ret = ring_init(&r, 16, 32, IOU_SETUP_BPF_OP);
	CHECK(!ret, "a SETUP_BPF ring");
	if (ret)
		return 1;
	CHECK(op_res(&r, 1) == -95, "op 1 before attach: -EOPNOTSUPP");
	h = iouring_bpf_attach(-1, argv[1], NULL, &err);
	CHECK(h, "attach %s%s%s", argv[1], h ? "" : ": ", h ? "" : err.msg);
	if (h) {
		CHECK(iouring_bpf_op_id(h) == 1, "its op id is 1");
		CHECK(op_res(&r, 1) == 0, "op 1 attached: res 0");
		iouring_bpf_detach(h);
		CHECK(op_res(&r, 1) == -95, "op 1 after detach: -EOPNOTSUPP");
	}
	ring_exit(&r);
	printf("%d failed\n", fails);
	return fails ? 1 : 0;
}
