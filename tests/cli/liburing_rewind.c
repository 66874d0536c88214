// SPDX-License-Identifier: GPL-2.0
/*
 * liburing_rewind.c - an SQ_REWIND ring made by liburing 2.15 (which
 * knows the flag: io_uring_get_sqe() fills from index 0, io_uring_submit()
 * passes the count as to_submit and starts over) served by libiouring-bpf
 * through iouring-bpf/liburing.h. Built on the host by tests/Makefile
 * against the liburing tests/host/fetch_liburing.sh unpacks (linked
 * statically: the VM has Debian 12's 2.3).
 *
 * The ring: SINGLE_ISSUER | DEFER_TASKRUN | NO_SQARRAY | SQ_REWIND |
 * CQSIZE, 8 SQ and 32 CQ entries, made by io_uring_queue_init_params().
 *  1. nop-chain (the program fills its own SQEs), 1000 NOPs at depth 4
 *     in one io_uring_enter(): completed == issued == 1000, no error, exit
 *     DONE, the SQ head and tail still 0, the CQ head 1000; after detach
 *     liburing submits and reaps a NOP of its own.
 *  2. cq-stats (it submits the application's SQEs): rounds of 3, 8 and 5
 *     requests (NOPs and 8-byte reads of /dev/zero) queued with
 *     io_uring_get_sqe(), published with iouring_bpf_liburing_publish()
 *     and submitted with io_uring_submit_and_wait(); the CQEs reaped with
 *     io_uring_wait_cqe(), each request once, in order, with its result;
 *     the program zeroed the SQ tail after each round, and its counts
 *     (CQEs, positive results, submitting calls) equal the application's.
 * Exit: 0 every check held, 1 one failed, 77 the kernel has no SQ_REWIND
 * (the project's 6.12 kernel: bit 20 is IORING_SETUP_BPF there) or no
 * loop hook.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <liburing.h>
#include <bpf/libbpf.h>
#include <iouring-bpf/liburing.h>

#ifndef IORING_SETUP_SQ_REWIND
#error "liburing_rewind needs liburing 2.14+ (IORING_SETUP_SQ_REWIND)"
#endif

#define NR	1000
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static int fails;

#include "check_line.h"

static int make_ring(struct io_uring *ring)
{
	struct io_uring_params p;
	int ret;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
		  IORING_SETUP_NO_SQARRAY | IORING_SETUP_SQ_REWIND |
		  IORING_SETUP_CQSIZE;
	p.cq_entries = 32;
	ret = io_uring_queue_init_params(8, ring, &p);
	CHECK(!ret, "liburing %d.%d made an SQ_REWIND ring: %s",
	      io_uring_major_version(), io_uring_minor_version(),
	      ret ? strerror(-ret) : "fd ok");
	return ret;
}

static int exit_kind(struct bpf_object *obj, char *msg, size_t len)
{
	struct iou_exit_info ei;
	int kind = iouring_bpf_obj_exit_info(obj, &ei);

	snprintf(msg, len, "%s", kind < 0 ? "(no exit info)" : ei.msg);
	return kind;
}

/*
 * The built-in name with nr and depth (if >= 0) bound to the liburing
 * ring, loaded and attached: the link, or NULL (the library printed why)
 */
static struct bpf_link *attach(struct io_uring *ring, const char *name,
			       long long nr, long long depth,
			       struct bpf_object **objp)
{
	struct bpf_object *obj = iouring_bpf_builtin_open(name, NULL);
	struct bpf_link *link = NULL;
	int ret = obj ? 0 : -errno;

	if (!ret && nr >= 0)
		ret = iouring_bpf_obj_set_global(obj, "nr", nr);
	if (!ret && depth >= 0)
		ret = iouring_bpf_obj_set_global(obj, "depth", depth);
	if (!ret)
		ret = iouring_bpf_obj_bind_liburing(obj, ring);
	if (!ret)
		ret = iouring_bpf_obj_load(obj);
	if (!ret) {
		link = iouring_bpf_obj_attach(obj, NULL);
		ret = link ? 0 : -errno;
	}
	CHECK(link, "attach %s through iouring_bpf_obj_bind_liburing(): %s",
	      name, ret ? strerror(-ret) : "ok");
	if (!link) {
		bpf_object__close(obj);
		obj = NULL;
	}
	*objp = obj;
	return link;
}

static long long global(struct bpf_object *obj, const char *name)
{
	long long v = -1;

	iouring_bpf_obj_get_global(obj, name, &v);
	return v;
}

static void nop_chain(void)
{
	long long done, issued, errors, rw;
	char msg[IOU_EXIT_MSG_LEN];
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	struct bpf_object *obj;
	struct bpf_link *link;
	struct io_uring ring;
	int ret, kind;

	if (make_ring(&ring))
		return;
	link = attach(&ring, "nop-chain", NR, 4, &obj);
	if (!link)
		goto out;
	ret = io_uring_enter(ring.ring_fd, 0, 0, IORING_ENTER_GETEVENTS, NULL);
	done = global(obj, "completed");
	issued = global(obj, "issued");
	errors = global(obj, "errors");
	rw = global(obj, "iou_sq_rewind");
	kind = exit_kind(obj, msg, sizeof(msg));
	CHECK(ret == 0 && done == NR && issued == NR && !errors && rw == 1 &&
	      kind == IOU_EXIT_KIND_DONE,
	      "nop-chain: one enter (ret %d): completed %lld of %d, issued %lld, errors %lld, iou_sq_rewind %lld, exit %d \"%s\"",
	      ret, done, NR, issued, errors, rw, kind, msg);
	CHECK(*ring.sq.khead == 0 && *ring.sq.ktail == 0 &&
	      *ring.cq.khead == NR && *ring.cq.ktail == NR,
	      "nop-chain: SQ head %u tail %u (want 0 0), CQ head %u tail %u (want %d)",
	      *ring.sq.khead, *ring.sq.ktail, *ring.cq.khead, *ring.cq.ktail,
	      NR);
	bpf_link__destroy(link);
	bpf_object__close(obj);
	iouring_bpf_liburing_resync(&ring);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_nop(sqe);
	io_uring_sqe_set_data64(sqe, 0xfeed);
	ret = io_uring_submit_and_wait(&ring, 1);
	if (ret >= 0)
		ret = io_uring_wait_cqe(&ring, &cqe);
	CHECK(ret == 0 && cqe->user_data == 0xfeed && cqe->res == 0,
	      "after detach liburing's own NOP: ret %d, res %d", ret,
	      ret ? 0 : cqe->res);
	if (!ret)
		io_uring_cqe_seen(&ring, cqe);
out:
	io_uring_queue_exit(&ring);
}

static void cq_stats(void)
{
	static const unsigned int rounds[] = { 3, 8, 5 };
	long long cqes, pos, submits;
	unsigned int r, i, n, total = 0, reads = 0;
	struct io_uring_cqe *cqe;
	struct bpf_object *obj;
	struct bpf_link *link;
	struct io_uring ring;
	__u64 buf[8][1];
	int fd, ret;

	fd = open("/dev/zero", O_RDONLY);
	if (make_ring(&ring) || fd < 0) {
		CHECK(fd >= 0, "open /dev/zero: %s", strerror(errno));
		goto close;
	}
	link = attach(&ring, "cq-stats", -1, -1, &obj);
	if (!link)
		goto out;
	for (r = 0; r < ARRAY_SIZE(rounds); r++) {
		unsigned int got = 0, bad = 0, published;

		n = rounds[r];
		for (i = 0; i < n; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

			if (!sqe)
				break;
			if (i % 2)
				io_uring_prep_read(sqe, fd, buf[i], 8, 0);
			else
				io_uring_prep_nop(sqe);
			io_uring_sqe_set_data64(sqe, total + i + 1);
		}
		iouring_bpf_liburing_publish(&ring);
		published = *ring.sq.ktail;
		ret = io_uring_submit_and_wait(&ring, n);
		CHECK(i == n && published == n && ret >= 0 &&
		      *ring.sq.ktail == 0 && *ring.sq.khead == 0,
		      "round %u: %u SQEs from index 0, SQ tail published %u, submit_and_wait %d, then SQ tail %u head %u (want 0 0)",
		      r + 1, i, published, ret, *ring.sq.ktail,
		      *ring.sq.khead);
		while (got < n) {
			ret = io_uring_wait_cqe(&ring, &cqe);
			if (ret)
				break;
			bad += cqe->user_data != total + got + 1 ||
			       cqe->res != (got % 2 ? 8 : 0);
			reads += cqe->res == 8;
			io_uring_cqe_seen(&ring, cqe);
			got++;
		}
		CHECK(got == n && !bad,
		      "round %u: %u of %u CQEs reaped (%u wrong; last wait %d)",
		      r + 1, got, n, bad, ret);
		total += n;
	}
	cqes = global(obj, "nr_cqes");
	pos = global(obj, "nr_pos");
	submits = global(obj, "submits");
	CHECK(cqes == total && pos == reads &&
	      submits == ARRAY_SIZE(rounds),
	      "cq-stats counted %lld CQEs (app %u), %lld positive (app %u), %lld submitting calls (want %zu)",
	      cqes, total, pos, reads, submits,
	      ARRAY_SIZE(rounds));
	bpf_link__destroy(link);
	bpf_object__close(obj);
out:
	io_uring_queue_exit(&ring);
close:
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	IOURING_BPF_OPTS(iouring_bpf_kernel, k);

	if (iouring_bpf_kernel_probe(&k) || !k.sq_rewind ||
	    (k.loop_api != IOURING_BPF_LOOP_71 &&
	     k.loop_api != IOURING_BPF_LOOP_72)) {
		printf("not run: the kernel has no SQ_REWIND with the mainline loop hook (Linux 7.0+; bit 20 is IORING_SETUP_BPF on the project's kernel)\n");
		return 77;
	}
	nop_chain();
	cq_stats();
	printf("%s: %d failed checks\n", fails ? "FAIL" : "ok", fails);
	return fails ? 1 : 0;
}
