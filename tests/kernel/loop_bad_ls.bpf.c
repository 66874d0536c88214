// SPDX-License-Identifier: GPL-2.0
/*
 * loop_bad_ls.bpf.c - MUST NOT LOAD: writes bytes 4-7 of struct
 * iou_loop_state, which are neither cq_tail (0-3) nor timeout (8-15).
 */
#include "t_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops.s/loop")
int BPF_PROG(bad_ls_loop, struct io_ring_ctx *ring, struct iou_loop_state *ls)
{
	/* raw offset, no CO-RE: the verifier must refuse the store */
	*(volatile __u32 *)((__u8 *)ls + 4) = 1;
	return T_RES_STOP;
}

SEC(".struct_ops.link")
struct io_uring_ops ops = {
	.loop = (void *)bad_ls_loop,
};
