// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * attach_skel - the lifecycle of libiouring-bpf 2 in a straight line, on a
 * liburing ring, twice: the built-in nop-chain (by name: no BPF toolchain
 * needed) and a program of the application's own from its bpftool
 * skeleton (examples/template/myloop.bpf.c, myloop.skel.h).
 *
 *   bpftool gen skeleton myloop.bpf.o > myloop.skel.h
 *   cc -o attach_skel attach_skel.c $(pkg-config --cflags --libs iouring-bpf) -luring
 *   ./attach_skel [N]
 *
 * Each run: a ring with SINGLE_ISSUER | DEFER_TASKRUN (an SQ array: any
 * liburing), the program's N NOPs inside one io_uring_enter(), its
 * counters and exit info checked, detached. Messages are the library's
 * (stderr, "libiouring-bpf: ..."); libbpf's own go to the library's print
 * callback at DEBUG level, which drops them. Exit 0 both ran; 4 not
 * privileged (EPERM); 77 no loop hook; 1 anything else.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <liburing.h>
#include <bpf/libbpf.h>
#include <iouring-bpf/iouring-bpf.h>
#include <iouring-bpf/liburing.h>
#include "myloop.skel.h"

static int exit_code(int err)
{
	return err == -EPERM ? 4 : err == -EOPNOTSUPP ? 77 : 1;
}

static int ring_init(struct io_uring *ring)
{
	int ret = io_uring_queue_init(64, ring, IORING_SETUP_SINGLE_ISSUER |
				      IORING_SETUP_DEFER_TASKRUN);

	if (ret)
		fprintf(stderr, "attach_skel: io_uring_queue_init: %s\n",
			strerror(-ret));
	return ret;
}

/* nop-chain, opened by name: its parameters are globals by name */
static int builtin(long long n)
{
	struct io_uring_params p = { 0 };
	struct bpf_link *link = NULL;
	struct iou_exit_info ei;
	struct bpf_object *obj;
	struct io_uring ring;
	long long done = -1;
	int err;

	if (ring_init(&ring))
		return 1;
	obj = iouring_bpf_builtin_open("nop-chain", NULL);
	err = obj ? iouring_bpf_obj_set_global(obj, "nr", n) : -errno;
	if (!err)
		err = iouring_bpf_liburing_params(&ring, &p);
	if (!err) {
		IOURING_BPF_OPTS(iouring_bpf_ring_opts, o, .params = &p);

		err = iouring_bpf_obj_bind_ring(obj, ring.ring_fd, &o);
	}
	if (!err)
		err = iouring_bpf_obj_load(obj);
	if (!err) {
		link = iouring_bpf_obj_attach(obj, NULL);
		err = link ? 0 : -errno;
	}
	if (!err) {
		err = io_uring_enter(ring.ring_fd, 0, 0,
				     IORING_ENTER_GETEVENTS, NULL);
		iouring_bpf_obj_get_global(obj, "completed", &done);
		iouring_bpf_obj_exit_info(obj, &ei);
		printf("nop-chain: enter %d, completed %lld of %lld, exit %s\n",
		       err, done, n, iou_exit_kind_name(ei.kind));
		if (!err && done != n)
			err = -EPROTO;
	}
	bpf_link__destroy(link);
	bpf_object__close(obj);
	io_uring_queue_exit(&ring);
	return err ? exit_code(err) : 0;
}

/* the application's own program: its skeleton, fields by name */
static int own(long long n)
{
	struct bpf_link *link = NULL;
	struct iou_exit_info ei;
	struct io_uring ring;
	struct myloop *skel;
	int err;

	if (ring_init(&ring))
		return 1;
	skel = myloop__open();
	err = skel ? 0 : -errno;
	if (!err) {
		skel->rodata->count = n;
		err = iouring_bpf_obj_bind_liburing(skel->obj, &ring);
	}
	if (!err)
		err = iouring_bpf_obj_load(skel->obj);
	if (!err) {
		link = iouring_bpf_obj_attach(skel->obj, NULL);
		err = link ? 0 : -errno;
	}
	if (!err) {
		err = io_uring_enter(ring.ring_fd, 0, 0,
				     IORING_ENTER_GETEVENTS, NULL);
		iouring_bpf_obj_exit_info(skel->obj, &ei);
		printf("myloop: enter %d, done %u of %lld, exit %s: %s\n", err,
		       skel->bss->done, n, iou_exit_kind_name(ei.kind), ei.msg);
		if (!err && (skel->bss->done != n ||
			     ei.kind != IOU_EXIT_KIND_DONE))
			err = -EPROTO;
	}
	bpf_link__destroy(link);
	myloop__destroy(skel);
	io_uring_queue_exit(&ring);
	return err ? exit_code(err) : 0;
}

int main(int argc, char **argv)
{
	long long n = argc > 1 ? atoll(argv[1]) : 100;
	int ret = builtin(n);

	if (ret)
		return ret;
	return own(n);
}
