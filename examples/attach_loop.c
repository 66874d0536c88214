// SPDX-License-Identifier: GPL-2.0
/*
 * attach_loop - an application that attaches a built-in loop program of
 * libiouring-bpf (nop-chain) to a ring of its own: the program issues and
 * reaps N NOPs inside one io_uring_enter(), and says STOP when all are
 * done. The library picks the binding of the running kernel (v3 or
 * mainline).
 *
 *   cc -o attach_loop attach_loop.c $(pkg-config --cflags --libs iouring-bpf)
 *   ./attach_loop [N]    exit 0: N NOPs completed; 77: no loop hook here
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <iouring-bpf.h>

static int fail(const char *what, const struct iouring_bpf_error *err)
{
	fprintf(stderr, "attach_loop: %s: %s\n", what, err->msg);
	return err->status == IOURING_BPF_NOFEATURE ? 77 : 1;
}

int main(int argc, char **argv)
{
	long long n = argc > 1 ? atoll(argv[1]) : 1000, done = -1;
	struct io_uring_params p = { 0 };
	struct iouring_bpf_error err;
	const char *params[] = { NULL, NULL };
	struct iouring_bpf *h;
	char nr[32];
	int fd, ret;

	/* a ring with the flags a loop program needs; the fd is ours */
	fd = iouring_bpf_ring_setup(IOURING_BPF_KIND_LOOP, 64, &p, &err);
	if (fd < 0)
		return fail("ring", &err);
	snprintf(nr, sizeof(nr), "nr=%lld", n);
	params[0] = nr;
	h = iouring_bpf_attach(fd, "nop-chain", params, &err);
	if (!h)
		return fail("nop-chain", &err);

	ret = syscall(__NR_io_uring_enter, fd, 0, 0, IORING_ENTER_GETEVENTS,
		      NULL, 0);
	iouring_bpf_var_int(h, "completed", &done);
	printf("io_uring_enter: %d; nop-chain completed %lld of %lld NOPs (binding %s)\n",
	       ret, done, n, iouring_bpf_loop_api_key(iouring_bpf_loop_binding(h)));
	iouring_bpf_detach(h);
	close(fd);
	return ret == 0 && done == n ? 0 : 1;
}
