// SPDX-License-Identifier: GPL-2.0
/*
 * opclient.c - a separate process using an IORING_OP_BPF op id that
 * `iouring-bpf load` registered: creates an IORING_SETUP_BPF ring, submits
 * COUNT requests with op id OPID (no buffers) and prints "res=N" per CQE.
 * Usage: opclient OPID COUNT     (exit 0 if the requests completed at all)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ring.h"

int main(int argc, char **argv)
{
	struct io_uring_cqe cqe;
	struct ring r;
	int op, count, ret;

	if (argc != 3) {
		fprintf(stderr, "usage: opclient OPID COUNT\n");
		return 2;
	}
	op = atoi(argv[1]);
	count = atoi(argv[2]);
	ret = ring_init(&r, 32, 0, IOU_SETUP_BPF_OP);
	if (ret) {
		fprintf(stderr, "opclient: io_uring_setup(IORING_SETUP_BPF): %s\n",
			strerror(-ret));
		return 1;
	}
	for (int i = 0; i < count; i++) {
		ring_prep_bpf(ring_get_sqe(&r), iou_bpf_op_flags(op, 0, 0, 0),
			      0, 0, 0, 0, 0, i);
		ret = ring_wait_cqe(&r, &cqe);
		if (ret) {
			fprintf(stderr, "opclient: %s\n", strerror(-ret));
			return 1;
		}
		printf("res=%d\n", cqe.res);
	}
	ring_exit(&r);
	return 0;
}
