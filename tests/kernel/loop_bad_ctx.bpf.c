// SPDX-License-Identifier: GPL-2.0
/*
 * loop_bad_ctx.bpf.c - MUST NOT LOAD: writes through the io_ring_ctx
 * pointer (ctx->flags). Only cq_tail and timeout of iou_loop_state are
 * writable.
 */
#include "t_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("struct_ops.s/loop")
int BPF_PROG(bad_ctx_loop, struct io_ring_ctx *ring, struct iou_loop_state *ls)
{
	ring->flags = 0;
	return T_RES_STOP;
}

SEC(".struct_ops.link")
struct io_uring_ops ops = {
	.loop = (void *)bad_ctx_loop,
};
