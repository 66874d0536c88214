// SPDX-License-Identifier: GPL-2.0
/*
 * iowq_migration.bpf.c - the loop program and task iterator of
 * test_iowq_migration: does an io-wq worker forked from inside a loop
 * program inherit the program's disabled migration?
 *
 * A loop program is sleepable (it calls bpf_io_uring_submit_sqes()), and
 * the struct_ops trampoline runs a sleepable program between
 * migrate_disable() and migrate_enable(). A request submitted with
 * IOSQE_ASYNC goes to io-wq; when the task has no idle io-wq worker, io-wq
 * forks one at once, in the submitting task: here, inside the program. A
 * new task must start with migration enabled. On a kernel whose fork
 * copies the parent's migration_disabled, the worker starts with
 * migration_disabled = 1, never runs the matching migrate_enable(), and
 * after its first sleep stays pinned to one CPU (its cpus_ptr no longer
 * points at its own cpus_mask); a load balancer that moves it before that
 * first sleep hits the WARN_ON_ONCE(is_migration_disabled(p)) in
 * set_task_cpu().
 *
 * hook_loop, the loop program (works on both loop hooks, progs/iouring_bpf.h):
 *   first call: record current->migration_disabled (the program's own
 *   state: 1 under the trampoline), queue `nr` NOPs with IOSQE_ASYNC,
 *   submit them, then stay `hold_us` microseconds in the program (the new
 *   worker waits on this CPU's run queue, where an idle CPU may pull it);
 *   later calls: reap the CQEs, STOP when all `nr` have come.
 * worker_state, a task iterator: for each io-wq worker (PF_IO_WORKER) of
 *   process `tgid`, count it, whether its migration_disabled is set and
 *   whether its cpus_ptr is pinned away from its cpus_mask.
 */
#define IOU_LOOP_PROGRAM
#include "iouring_bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define PF_IO_WORKER	0x00000010

const volatile __u32 nr = 4;		/* IOSQE_ASYNC NOPs, at most 64 */
const volatile __u32 hold_us;		/* stay in the program after submitting */
const volatile __u32 tgid;		/* the iterator's process */

/* results */
__u32 calls, issued, completed, cqe_errors, submit_errors;
__u32 prog_migration_disabled;		/* current's count, in the program */
__u32 workers, workers_migration_disabled, workers_pinned;

static long hold_step(__u64 i, void *deadline)
{
	return bpf_ktime_get_ns() >= *(__u64 *)deadline;
}

IOU_LOOP_PROG(hook_loop)
{
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct iou_ring r;
	__u64 deadline;
	__u32 i;

	calls++;
	if (iou_ring_init(L, &r))
		return IOU_STOP;
	for (i = 0; i < IOU_MAX_BATCH; i++) {
		cqe = iou_cqe_peek(&r);
		if (!cqe)
			break;
		if (cqe->res)
			cqe_errors++;
		completed++;
		iou_cq_advance(&r, 1);
	}
	if (issued) {
		if (completed >= issued)
			return IOU_STOP;
		iou_wait_target(L, iou_cq_head_get(&r) + issued - completed);
		return IOU_WAIT;
	}

	prog_migration_disabled = bpf_get_current_task_btf()->migration_disabled;
	if (!iou_ring_can_submit(L, &r))
		return IOU_STOP;
	for (i = 0; i < IOU_MAX_BATCH && i < nr; i++) {
		sqe = iou_sqe_get(&r);
		if (!sqe)
			break;
		iou_prep_nop(sqe, i + 1);
		sqe->flags |= IOU_SQE_ASYNC;
	}
	iou_sq_commit(&r);
	if (iou_submit(L, i) != (int)i) {
		submit_errors++;
		return IOU_STOP;
	}
	issued = i;
	if (hold_us) {
		deadline = bpf_ktime_get_ns() + (__u64)hold_us * 1000;
		bpf_loop(1 << 23, hold_step, &deadline, 0);
	}
	iou_wait_target(L, iou_cq_head_get(&r) + issued);
	return IOU_WAIT;
}

IOU_LOOP_OPS(hook_ops, hook_loop);

SEC("iter/task")
int worker_state(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;

	if (!task || task->tgid != tgid || !(task->flags & PF_IO_WORKER))
		return 0;
	workers++;
	if (task->migration_disabled)
		workers_migration_disabled++;
	if ((void *)task->cpus_ptr != (void *)&task->cpus_mask)
		workers_pinned++;
	return 0;
}
