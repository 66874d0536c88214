// SPDX-License-Identifier: GPL-2.0
/*
 * attach_loop - an application that attaches a built-in loop program of
 * libiouring-bpf (nop-chain) to a ring of its own: the program issues and
 * reaps N NOPs inside one io_uring_enter(), and says STOP when all are
 * done. The library picks the binding of the running kernel (v3 or
 * mainline); the lifecycle is libbpf's, in a straight line.
 *
 *   cc -o attach_loop attach_loop.c $(pkg-config --cflags --libs iouring-bpf)
 *   ./attach_loop [N]    exit 0: N NOPs completed; 77: no loop hook here
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>
#include <iouring-bpf/iouring-bpf.h>

int main(int argc, char **argv)
{
	long long n = argc > 1 ? atoll(argv[1]) : 1000, done = -1;
	struct bpf_object *obj;
	struct bpf_link *link;
	int fd, err, ret;

	/* a ring with the flags a loop program needs; the fd is ours */
	fd = iouring_bpf_ring_setup(IOURING_BPF_KIND_LOOP, 64, NULL);
	if (fd < 0)
		return 1;
	obj = iouring_bpf_builtin_open("nop-chain", NULL);
	if (!obj)
		return 1;
	err = iouring_bpf_obj_set_global(obj, "nr", n);
	if (!err)
		err = iouring_bpf_obj_bind_ring(obj, fd, NULL);
	if (!err)
		err = iouring_bpf_obj_load(obj);
	link = err ? NULL : iouring_bpf_obj_attach(obj, NULL);
	if (!link) {	/* the library said why on stderr */
		bpf_object__close(obj);
		return err == -EOPNOTSUPP ? 77 : 1;
	}

	ret = syscall(__NR_io_uring_enter, fd, 0, 0, IORING_ENTER_GETEVENTS,
		      NULL, 0);
	iouring_bpf_obj_get_global(obj, "completed", &done);
	printf("io_uring_enter: %d; nop-chain completed %lld of %lld NOPs\n",
	       ret, done, n);
	bpf_link__destroy(link);
	bpf_object__close(obj);
	close(fd);
	return ret == 0 && done == n ? 0 : 1;
}
