// SPDX-License-Identifier: GPL-2.0
/*
 * test_loop_skel.c - the v3 loop hook as the posted selftest uses it: a
 * program with its own hand-written types (conf_loop.bpf.c), attached
 * through its libbpf skeleton to a liburing ring, submits N NOPs from BPF
 * inside one io_uring_enter(); then the link is destroyed and the ring
 * works as before.
 *
 * Exit 0 pass, 1 fail, 77 skip (reason last): not root, or no
 * struct io_uring_ops in the kernel's BTF.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <liburing.h>
#include <bpf/libbpf.h>
#include "conf_loop.skel.h"

#ifndef IORING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER	(1U << 12)
#endif
#ifndef IORING_SETUP_DEFER_TASKRUN
#define IORING_SETUP_DEFER_TASKRUN	(1U << 13)
#endif

#define NR	8

static int failed;

#define CHECK(cond, name, fmt, ...) do {				\
	if (cond) {							\
		printf("ok %s\n", name);				\
	} else {							\
		failed++;						\
		printf("not ok %s: " fmt " (line %d)\n", name,	\
		       ##__VA_ARGS__, __LINE__);			\
	}								\
} while (0)

static int skip(const char *why)
{
	printf("%s\n", why);
	return 77;
}

static int btf_has_io_uring_ops(void)
{
	FILE *f = fopen("/sys/kernel/btf/vmlinux", "rb");
	static char buf[1 << 16];
	const char *needle = "\0io_uring_ops\0";
	size_t n, keep = 0, nl = 14;
	int found = 0;

	if (!f)
		return 0;
	while (!found && (n = fread(buf + keep, 1, sizeof(buf) - keep, f)) > 0) {
		n += keep;
		found = memmem(buf, n, needle, nl) != NULL;
		keep = nl - 1;
		memmove(buf, buf + n - keep, keep);
	}
	fclose(f);
	return found;
}

int main(void)
{
	struct io_uring_params p = {
		.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
	};
	struct io_uring ring;
	struct conf_loop *skel;
	struct bpf_link *link;
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	unsigned int rings, i, calls;
	int ret, bad = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid())
		return skip("not root (struct_ops needs CAP_BPF)");
	if (!btf_has_io_uring_ops())
		return skip("kernel BTF has no struct io_uring_ops (no v3 loop hook)");
	ret = io_uring_queue_init_params(16, &ring, &p);
	if (ret) {
		printf("io_uring_queue_init_params: %s\n", strerror(-ret));
		return 1;
	}

	skel = conf_loop__open();
	if (!skel) {
		printf("conf_loop__open: %s\n", strerror(errno));
		return 1;
	}
	rings = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.sq_off.array + p.sq_entries * 4 > rings)
		rings = p.sq_off.array + p.sq_entries * 4;
	skel->rodata->sq_tail_off = p.sq_off.tail;
	skel->rodata->sq_mask = p.sq_entries - 1;
	skel->rodata->sq_array_off = p.sq_off.array;
	skel->rodata->cq_head_off = p.cq_off.head;
	skel->rodata->cq_tail_off = p.cq_off.tail;
	skel->rodata->rings_size = rings;
	skel->rodata->sqes_size = p.sq_entries * sizeof(struct io_uring_sqe);
	skel->rodata->nr = NR;
	skel->struct_ops.ops->ring_fd = ring.ring_fd;
	ret = conf_loop__load(skel);
	if (ret) {
		printf("not ok load: %s\n", strerror(-ret));
		return 1;
	}
	link = bpf_map__attach_struct_ops(skel->maps.ops);
	if (!link) {
		printf("not ok attach: %s\n", strerror(errno));
		return 1;
	}
	printf("ok attached to ring fd %d\n", ring.ring_fd);

	/* nothing submitted by user space: the program queues and submits */
	ret = io_uring_enter(ring.ring_fd, 0, 0, IORING_ENTER_GETEVENTS, NULL);
	CHECK(ret == 0, "enter_returns_0", "io_uring_enter returned %d", ret);
	CHECK(skel->bss->written == NR && skel->data->submit_ret == NR,
	      "program_submitted_nr", "wrote %u SQEs, bpf_io_uring_submit_sqes returned %d, want %d",
	      skel->bss->written, skel->data->submit_ret, NR);
	CHECK(skel->bss->calls >= 2, "program_ran_until_stop", "called %u times", skel->bss->calls);
	CHECK(*ring.sq.khead == NR, "kernel_consumed_sqes", "SQ head %u, want %d",
	      *ring.sq.khead, NR);
	CHECK(io_uring_cq_ready(&ring) == NR, "cqes_ready", "%u CQEs, want %d",
	      io_uring_cq_ready(&ring), NR);
	for (i = 0; i < NR; i++) {
		if (io_uring_peek_cqe(&ring, &cqe) || !cqe) {
			bad++;
			break;
		}
		if (cqe->res != 0 || cqe->user_data != i + 1)
			bad++;
		io_uring_cqe_seen(&ring, cqe);
	}
	CHECK(!bad, "nops_completed_in_order", "%d CQEs missing, failed or out of order", bad);

	/* detach: io_uring_enter is plain again, the program no longer runs */
	bpf_link__destroy(link);
	calls = skel->bss->calls;
	ring.sq.sqe_head = ring.sq.sqe_tail = *ring.sq.khead;	/* BPF filled these */
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_nop(sqe);
	sqe->user_data = 77;
	ret = io_uring_submit_and_wait(&ring, 1);
	CHECK(ret == 1, "detached_submit", "io_uring_submit_and_wait returned %d", ret);
	ret = io_uring_peek_cqe(&ring, &cqe);
	CHECK(!ret && cqe && cqe->user_data == 77 && cqe->res == 0, "detached_nop_completes",
	      "peek %d, user_data %llu, res %d", ret, cqe ? (unsigned long long)cqe->user_data : 0,
	      cqe ? cqe->res : 0);
	if (!ret)
		io_uring_cqe_seen(&ring, cqe);
	CHECK(skel->bss->calls == calls, "detached_program_not_called",
	      "called %u more times", skel->bss->calls - calls);

	conf_loop__destroy(skel);
	io_uring_queue_exit(&ring);
	printf("%s\n", failed ? "FAILED" : "all passed");
	return failed ? 1 : 0;
}
