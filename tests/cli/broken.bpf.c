// SPDX-License-Identifier: GPL-2.0
/*
 * broken.bpf.c - deliberately wrong: issue_fn reads past the end of
 * struct uring_bpf_data, which the verifier must refuse. Used by
 * test_load_broken.sh to check that `iouring-bpf load` shows the verifier's
 * message and the failing instruction, and exits 5.
 */
#include "iouring_bpf.h"

char LICENSE[] SEC("license") = "GPL";

IOU_OP_PREP(broken_prep)
{
	return 0;
}

IOU_OP_ISSUE(broken_issue)
{
	return *((__u8 *)data + 70);	/* the struct is 64 bytes */
}

IOU_OP_OPS(broken_ops, 30, broken_prep, broken_issue);
