// SPDX-License-Identifier: GPL-2.0
/*
 * sized.bpf.c - a loop program that sizes its ring region from a global
 * the loader does not know (region_bytes), for the loader's error when
 * the verifier refuses it.
 *
 * What it shows: with region_bytes left at 0, bpf_io_uring_get_region()
 * is asked for 0 bytes and the verifier refuses the write through the
 * pointer it returns; the loader then names the const volatile globals
 * that were 0 at load and how to set them, instead of blaming the
 * program. With --set region_bytes=64 it loads, rewrites the CQ head with
 * its own value once and stops.
 *
 * Run:  iouring-bpf run sized.bpf.o                       (exit 5)
 *       iouring-bpf run sized.bpf.o --set region_bytes=64 (exit 6: it
 *           submits nothing; add --expect-cqes 0 --expect ran=1: exit 0)
 */
#include "loop_defs.h"

char LICENSE[] SEC("license") = "GPL";

const volatile unsigned int region_bytes;
int ran;

SEC("struct_ops.s/loop_step")
int BPF_PROG(sized_step, struct io_ring_ctx *ring, struct iou_loop_params *lp)
{
	__u32 *head;
	__u8 *hdr;

	hdr = bpf_io_uring_get_region(ring, IOU_REGION_CQ, region_bytes);
	if (!hdr)
		return IOU_LOOP_STOP;
	if (cq_head_offset > 60)
		return IOU_LOOP_STOP;
	head = (__u32 *)(hdr + cq_head_offset);
	*head = *(volatile __u32 *)head;
	ran = 1;
	return IOU_LOOP_STOP;
}

SEC(".struct_ops.link")
struct io_uring_bpf_ops sized_ops = {
	.loop_step = (void *)sized_step,
};
