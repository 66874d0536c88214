// SPDX-License-Identifier: GPL-2.0
/*
 * loop_noprog.bpf.c - an io_uring_ops map with no loop program, only
 * ring_fd (set by the test before load). Every function member of a
 * struct_ops map may be left out; the wait calls ->loop unconditionally,
 * so the kernel must refuse this map (-EINVAL, patch 0030) rather than
 * attach it and call address 0 on the next GETEVENTS
 * (test_loop/no_loop_program_refused).
 */
#include "t_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC(".struct_ops.link")
struct io_uring_ops ops = {
	.ring_fd = 0,
};
