// SPDX-License-Identifier: GPL-2.0
/*
 * op_memcpy_ns.bpf.c - op_memcpy.bpf.c with a NON-sleepable issue_fn
 * (op id 41), as programs written for the posted series call the kfunc.
 * It runs under rcu_read_lock() and must not fault: the kernel pins the
 * request's plain buffers at prep and the kfunc copies between pinned
 * pages (test_op_memcpy/memcpy_in_non_sleepable_prog: it loads, copies
 * into never-touched pages correctly, with no lockdep report).
 */
#define MC_ISSUE_SEC "struct_ops/issue_fn"
#define MC_OP_ID 41
#include "op_memcpy.bpf.c"
