// SPDX-License-Identifier: GPL-2.0
/*
 * use_op - an application using an IORING_OP_BPF op that someone loaded
 * with `iouring-bpf load`: plain liburing, two buffers, one SQE.
 *
 *   use_op OPID TEXT    copies TEXT from buffer 1 to buffer 2 through the
 *                       op, prints the CQE result and buffer 2
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <liburing.h>
/*
 * the opcode, the ring flag and the op flags word of our kernel's uapi
 * (Debian 12's liburing headers predate them): the ABI header the
 * programs share, installed with libiouring-bpf (the application itself
 * needs no library for this)
 */
#include <iouring-bpf/iou_opflags.h>

int main(int argc, char **argv)
{
	struct io_uring_params p = { .flags = IOU_SETUP_BPF };
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	char out[256] = "";
	unsigned int op;
	int ret;

	if (argc != 3 || strlen(argv[2]) >= sizeof(out)) {
		fprintf(stderr, "usage: use_op OPID TEXT (TEXT < 256 bytes)\n");
		return 2;
	}
	op = strtoul(argv[1], NULL, 0);
	ret = io_uring_queue_init_params(8, &ring, &p);
	if (ret) {
		fprintf(stderr, "use_op: io_uring_setup(IORING_SETUP_BPF): %s%s\n",
			strerror(-ret), ret == -EINVAL ?
			" (this kernel has no IORING_OP_BPF)" : "");
		return ret == -EINVAL ? 3 : 1;
	}

	sqe = io_uring_get_sqe(&ring);
	/* buffer 1: addr/len; buffer 2: addr3/optlen */
	io_uring_prep_rw(IOU_OP_BPF, sqe, -1, argv[2], strlen(argv[2]), 0);
	sqe->addr3 = (unsigned long)out;
	/* sqe->optlen in newer headers: the same 32 bits as file_index */
	sqe->file_index = sizeof(out) - 1;
	/* flag bit 0 for the program: "count me" */
	sqe->rw_flags = iou_bpf_op_flags(op, IORING_BPF_BUF_TYPE_PLAIN,
					 IORING_BPF_BUF_TYPE_PLAIN, 1);
	io_uring_submit_and_wait(&ring, 1);
	ret = io_uring_wait_cqe(&ring, &cqe);
	if (ret) {
		fprintf(stderr, "use_op: wait: %s\n", strerror(-ret));
		return 1;
	}
	printf("res=%d%s%s out=\"%s\"\n", cqe->res, cqe->res < 0 ? " " : "",
	       cqe->res < 0 ? strerror(-cqe->res) : "", out);
	ret = cqe->res < 0 ? 1 : 0;
	io_uring_cqe_seen(&ring, cqe);
	io_uring_queue_exit(&ring);
	return ret;
}
