// SPDX-License-Identifier: GPL-2.0
/*
 * attach_own - an application that attaches its own BPF object with
 * libiouring-bpf: it registers the op of rot13.bpf.o (this folder) under
 * its op id, then uses it on its own IORING_OP_BPF ring (liburing): one
 * request copies TEXT from buffer 1 into buffer 2. On exit the op is gone.
 *
 *   cc -o attach_own attach_own.c $(pkg-config --cflags --libs iouring-bpf) -luring
 *   ./attach_own rot13.bpf.o TEXT    exit 0: copied; 77: no IORING_OP_BPF
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <liburing.h>
#include <bpf/libbpf.h>
#include <iouring-bpf/iouring-bpf.h>

int main(int argc, char **argv)
{
	IOURING_BPF_OPTS(iouring_bpf_kernel, k);
	IOURING_BPF_OPTS(iouring_bpf_obj_info, info);
	struct io_uring_params p = { 0 };
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct bpf_object *obj;
	struct bpf_link *link;
	struct io_uring ring;
	char out[256] = "";
	int ret;

	if (argc != 3 || strlen(argv[2]) >= sizeof(out)) {
		fprintf(stderr, "usage: attach_own FILE.bpf.o TEXT (TEXT < 256 bytes)\n");
		return 2;
	}
	/* libbpf opens the object; an op program needs no ring to load */
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "attach_own: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	ret = iouring_bpf_obj_load(obj);
	link = ret ? NULL : iouring_bpf_obj_attach(obj, NULL);
	if (!link) {	/* the library said why on stderr */
		bpf_object__close(obj);
		return ret == -EOPNOTSUPP ? 77 : 1;
	}
	/*
	 * the ring flag of IORING_OP_BPF on this kernel (bit 20 is another
	 * flag on mainline: the library knows which), and the op id
	 */
	iouring_bpf_kernel_probe(&k);
	iouring_bpf_obj_info(obj, &info);
	p.flags = k.op_setup_flag;
	ret = io_uring_queue_init_params(8, &ring, &p);
	if (ret) {
		fprintf(stderr, "attach_own: io_uring_setup: %s\n", strerror(-ret));
		bpf_link__destroy(link);
		bpf_object__close(obj);
		return 1;
	}
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_rw(IORING_OP_BPF, sqe, -1, argv[2], strlen(argv[2]), 0);
	sqe->addr3 = (unsigned long)out;	/* buffer 2: addr3, optlen */
	sqe->file_index = sizeof(out) - 1;	/* optlen in newer headers */
	sqe->rw_flags = iou_bpf_op_flags(info.op_id, IORING_BPF_BUF_TYPE_PLAIN,
					 IORING_BPF_BUF_TYPE_PLAIN, 0);
	io_uring_submit_and_wait(&ring, 1);
	ret = io_uring_wait_cqe(&ring, &cqe);
	if (!ret) {
		ret = cqe->res;
		io_uring_cqe_seen(&ring, cqe);
	}
	printf("op %d: res=%d out=\"%s\"\n", info.op_id, ret, out);
	io_uring_queue_exit(&ring);
	bpf_link__destroy(link);
	bpf_object__close(obj);
	return ret == (int)strlen(argv[2]) && !strcmp(out, argv[2]) ? 0 : 1;
}
