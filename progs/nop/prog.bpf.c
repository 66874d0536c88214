// SPDX-License-Identifier: GPL-2.0
/*
 * nop - the smallest IORING_OP_BPF operation.
 *
 * What it shows: an io_uring opcode written in BPF. Ming Lei's series adds
 * IORING_OP_BPF (opcode 65); a BPF struct_ops of type `uring_bpf_ops`
 * registers an operation under an 8-bit op id, and every SQE with
 * opcode 65 and that id in sqe->bpf_op_flags (bits 31-24) runs its
 * prep_fn at submission and issue_fn when the request executes. This one
 * does nothing: prep accepts, issue completes with res 0. It is the fair
 * thing to compare with IORING_OP_NOP to see what a BPF op costs.
 *
 * Ring: must be created with IORING_SETUP_BPF (else CQE res -EACCES).
 *
 * Run:   iouring-bpf run nop --count 1000
 *        (registers op id 1, submits 1000 BPF NOPs, checks every res == 0
 *        and that prep and issue each ran exactly 1000 times)
 * Load:  iouring-bpf load nop --id 7   (then any SETUP_BPF ring can use op 7
 *        until `iouring-bpf unload nop`)
 */
#include "iouring_bpf.h"

char LICENSE[] SEC("license") = "GPL";

IOU_EXIT_INFO_DEFINE();

/* counters the loader reads after a run */
__u64 nr_prep, nr_issue;

IOU_OP_PREP(nop_prep)
{
	__sync_fetch_and_add(&nr_prep, 1);
	return 0;
}

IOU_OP_ISSUE(nop_issue)
{
	__sync_fetch_and_add(&nr_issue, 1);
	return 0;	/* CQE res 0: uring_bpf_set_result() never called */
}

IOU_OP_OPS(nop_ops, 1, nop_prep, nop_issue);
