// SPDX-License-Identifier: GPL-2.0
/*
 * op_memcpy_ns.bpf.c - op_memcpy.bpf.c with a NON-sleepable issue_fn
 * (op id 41). io_uring_bpf_req_memcpy() pins and faults in user pages, so
 * it is KF_SLEEPABLE and the verifier must refuse this program
 * (test_op_memcpy/memcpy_in_non_sleepable_prog).
 */
#define MC_ISSUE_SEC "struct_ops/issue_fn"
#define MC_OP_ID 41
#include "op_memcpy.bpf.c"
