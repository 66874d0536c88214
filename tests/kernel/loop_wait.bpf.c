// SPDX-License-Identifier: GPL-2.0
/*
 * loop_wait.bpf.c - loop programs for test_loop_wait: how the CQ wait
 * calls the program (patches 0021, 0026-0029).
 *
 * User space fills the ring layout and the mode into .rodata before load,
 * sets the struct_ops map's ring_fd, loads, attaches. Modes:
 *   W_FIRST_NOP   first call: queue one NOP, submit it, wait for its CQE;
 *                 STOP once it is seen. Needs a call before the first sleep.
 *   W_NEXT_CQE    always wait for one CQE more than the CQ has now, until
 *                 wait_ms have passed (ls->timeout): the sleep must sleep.
 *   W_SPIN        always ask to be called again at once (target = the CQ
 *                 tail as it is), until wait_ms have passed.
 *   W_ASYNC_NOPS  first call: queue `target` NOPs with IOSQE_ASYNC (io-wq
 *                 forks a worker from inside this sleepable program), wait
 *                 for all of them, STOP.
 *   W_KEEP        WAIT, leaving ls as the kernel set it: cq_tail = CQ head
 *                 + min_complete, timeout = the EXT_ARG timeout.
 * worker_state, a task iterator, reports the io-wq workers of process
 * `tgid` and their migrate_disable() count (patch 0029).
 */
#include "t_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

enum { W_FIRST_NOP, W_NEXT_CQE, W_SPIN, W_ASYNC_NOPS, W_KEEP };

const volatile __u32 sq_tail_off, sq_mask;
const volatile __u32 cq_head_off, cq_tail_off, cq_mask, cqes_off;
const volatile __u32 rings_size, sqes_size;
const volatile __u32 mode;
const volatile __u32 wait_ms = 200;

/* set before the run */
__u32 target = 1;
__u32 tgid;

/* results */
__u32 invocations, submitted, completed, cqe_errors, region_null;
int last_submit_ret;
__u64 deadline;
__u32 workers, workers_migration_disabled;

/* queue `nr` NOPs (at most 8) with sqe flags `flags` and submit them */
static __always_inline int queue_nops(struct io_ring_ctx *ring, __u8 *rings,
				      __u32 nr, __u8 flags)
{
	__u8 *sqes = bpf_io_uring_get_region(ring, 1, sqes_size);
	__u32 tail, i;

	if (!sqes)
		return -EFAULT;
	tail = rd32(rings, sq_tail_off);
	for (i = 0; i < 8 && i < nr; i++)
		t_sqe_prep(sqes, tail + i, sq_mask, T_OP_NOP, flags, i + 1);
	wr32(rings, sq_tail_off, tail + i);
	return bpf_io_uring_submit_sqes(ring, i);
}

/* consume the CQEs there are; returns the CQ head after them */
static __always_inline __u32 reap(__u8 *rings)
{
	__u32 head = rd32(rings, cq_head_off), tail = rd32(rings, cq_tail_off);
	__u32 i;

	for (i = 0; i < 16 && head != tail; i++, head++) {
		if (t_cqe_res(t_cqe_at(rings, cqes_off, head, cq_mask)))
			cqe_errors++;
		completed++;
	}
	wr32(rings, cq_head_off, head);
	return head;
}

SEC("struct_ops.s/loop")
int BPF_PROG(wait_loop, struct io_ring_ctx *ring, struct iou_loop_state *ls)
{
	__u8 *rings;
	__u32 head;
	int ret;

	invocations++;
	if (mode == W_KEEP)
		return T_RES_WAIT;
	rings = bpf_io_uring_get_region(ring, 0, rings_size);
	if (!rings) {
		region_null++;
		return T_RES_STOP;
	}

	if (mode == W_NEXT_CQE || mode == W_SPIN) {
		if (!deadline)
			deadline = bpf_ktime_get_ns() + (__u64)wait_ms * 1000000ULL;
		ls->timeout = deadline;
		ls->cq_tail = rd32(rings, cq_tail_off) + (mode == W_NEXT_CQE);
		return T_RES_WAIT;
	}

	/* W_FIRST_NOP, W_ASYNC_NOPS */
	head = reap(rings);
	if (submitted && completed >= submitted)
		return T_RES_STOP;
	if (!submitted) {
		ret = queue_nops(ring, rings, mode == W_FIRST_NOP ? 1 : target,
				 mode == W_FIRST_NOP ? 0 : T_SQE_ASYNC);
		last_submit_ret = ret;
		if (ret <= 0)
			return T_RES_STOP;
		submitted = ret;
	}
	ls->cq_tail = head + 1;
	return T_RES_WAIT;
}

SEC("iter/task")
int worker_state(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;
	char comm[8];

	if (!task || task->tgid != tgid)
		return 0;
	bpf_probe_read_kernel_str(comm, sizeof(comm), task->comm);
	if (comm[0] != 'i' || comm[1] != 'o' || comm[2] != 'u' ||
	    comm[3] != '-' || comm[4] != 'w' || comm[5] != 'r' || comm[6] != 'k')
		return 0;
	workers++;
	if (task->migration_disabled)
		workers_migration_disabled++;
	return 0;
}

SEC(".struct_ops.link")
struct io_uring_ops ops = {
	.loop = (void *)wait_loop,
};
