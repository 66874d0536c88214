// SPDX-License-Identifier: GPL-2.0
/*
 * attach_own - an application that attaches its own BPF object with
 * libiouring-bpf: it registers the op of rot13.bpf.o (this folder) under
 * an op id, then uses it on its own IORING_SETUP_BPF ring (liburing): one
 * request copies TEXT from buffer 1 into buffer 2. On exit the op is gone.
 *
 *   cc -o attach_own attach_own.c $(pkg-config --cflags --libs iouring-bpf) -luring
 *   ./attach_own rot13.bpf.o TEXT    exit 0: copied; 77: no IORING_OP_BPF
 */
#include <stdio.h>
#include <string.h>
#include <liburing.h>
#include <iouring-bpf.h>

static int fail(const char *what, const struct iouring_bpf_error *err)
{
	fprintf(stderr, "attach_own: %s: %s\n", what, err->msg);
	return err->status == IOURING_BPF_NOFEATURE ? 77 : 1;
}

int main(int argc, char **argv)
{
	struct io_uring_params p = { 0 };
	struct iouring_bpf_error err;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct iouring_bpf *h;
	struct io_uring ring;
	char out[256] = "";
	int ret;

	if (argc != 3 || strlen(argv[2]) >= sizeof(out)) {
		fprintf(stderr, "usage: attach_own FILE.bpf.o TEXT (TEXT < 256 bytes)\n");
		return 2;
	}
	/* open, check the kernel, load, register: ring_fd -1 for an op */
	h = iouring_bpf_attach(-1, argv[1], NULL, &err);
	if (!h)
		return fail(argv[1], &err);
	/*
	 * the ring flag of IORING_OP_BPF on this kernel (bit 20 is another
	 * flag on mainline: the library knows which)
	 */
	p.flags = iouring_bpf_op_setup_flag();
	ret = io_uring_queue_init_params(8, &ring, &p);
	if (ret) {
		fprintf(stderr, "attach_own: io_uring_setup: %s\n", strerror(-ret));
		iouring_bpf_detach(h);
		return 1;
	}
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_rw(IORING_OP_BPF, sqe, -1, argv[2], strlen(argv[2]), 0);
	sqe->addr3 = (unsigned long)out;	/* buffer 2: addr3, optlen */
	sqe->file_index = sizeof(out) - 1;	/* optlen in newer headers */
	sqe->rw_flags = iouring_bpf_op_flags(h, IORING_BPF_BUF_TYPE_PLAIN,
					     IORING_BPF_BUF_TYPE_PLAIN, 0);
	io_uring_submit_and_wait(&ring, 1);
	ret = io_uring_wait_cqe(&ring, &cqe);
	if (!ret) {
		ret = cqe->res;
		io_uring_cqe_seen(&ring, cqe);
	}
	printf("op %d: res=%d out=\"%s\"\n", iouring_bpf_op_id(h), ret, out);
	io_uring_queue_exit(&ring);
	iouring_bpf_detach(h);
	return ret == (int)strlen(argv[2]) && !strcmp(out, argv[2]) ? 0 : 1;
}
