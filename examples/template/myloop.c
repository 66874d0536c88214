// SPDX-License-Identifier: GPL-2.0
/*
 * myloop.c - the application of your loop program: its bpftool skeleton
 * (myloop.skel.h, made by the Makefile) and libiouring-bpf 2, in a
 * straight line. It makes a ring the hook takes, binds the program to
 * it, loads, attaches, lets the program run `count` NOPs inside one
 * io_uring_enter(), prints what the program counted and why it stopped.
 *
 * Run:   ./myloop [COUNT]      (as root: loading BPF needs CAP_BPF)
 * Exit:  0 done; 1 failed; 77 this kernel has no loop hook.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>
#include <iouring-bpf/iouring-bpf.h>
#include "myloop.skel.h"

int main(int argc, char **argv)
{
	struct bpf_link *link = NULL;
	struct iou_exit_info ei;
	struct myloop *skel;
	int fd, err;

	fd = iouring_bpf_ring_setup(IOURING_BPF_KIND_LOOP, 64, NULL);
	if (fd < 0)
		return 1;
	skel = myloop__open();
	if (!skel)
		return 1;
	skel->rodata->count = argc > 1 ? atoi(argv[1]) : 100;
	err = iouring_bpf_obj_bind_ring(skel->obj, fd, NULL);
	if (!err)
		err = iouring_bpf_obj_load(skel->obj);
	if (!err) {
		link = iouring_bpf_obj_attach(skel->obj, NULL);
		err = link ? 0 : -errno;
	}
	if (!err) {
		err = syscall(__NR_io_uring_enter, fd, 0, 0,
			      IORING_ENTER_GETEVENTS, NULL, 0);
		iouring_bpf_obj_exit_info(skel->obj, &ei);
		printf("enter %d: done %u, failed %u; exit %s: %s\n", err,
		       skel->bss->done, skel->bss->failed,
		       iou_exit_kind_name(ei.kind), ei.msg);
		if (!err && ei.kind != IOU_EXIT_KIND_DONE)
			err = -EPROTO;
	}
	bpf_link__destroy(link);
	myloop__destroy(skel);
	close(fd);
	return err == -EOPNOTSUPP ? 77 : err ? 1 : 0;
}
