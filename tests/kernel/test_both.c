// SPDX-License-Identifier: GPL-2.0
/*
 * test_both - both series on one kernel: a loop program (io_uring_ops) on
 * an IORING_SETUP_BPF | SINGLE_ISSUER | DEFER_TASKRUN | NO_SQARRAY ring
 * submits IORING_OP_BPF requests whose op (uring_bpf_ops, id 60) is
 * registered by the other struct_ops map of the same object.
 * Program: both.bpf.c.
 */
#include "t_helpers.h"
#include "both.skel.h"

#define ID_BOTH 60

struct bt {
	struct uring r;
	struct both *s;
	struct bpf_link *op_link, *loop_link;
};

static bool bt_open(struct bt *b, uint32_t opf, uint8_t sqe_flags, int expect_res,
		    bool register_op)
{
	int ret;

	memset(b, 0, sizeof(*b));
	ret = uring_init(&b->r, 8, T_IORING_SETUP_BPF | T_LOOP_RING_FLAGS, 8);
	if (!CHECK_EQ(ret, 0, "io_uring_setup(BPF|SINGLE_ISSUER|DEFER_TASKRUN|"
		      "NO_SQARRAY|CQSIZE)"))
		return false;
	b->s = both__open();
	if (!CHECK_PTR(b->s, "both__open"))
		goto fail;
	T_SET_RING_RODATA(b->s->rodata, &b->r);
	b->s->rodata->sqe_op_flags = opf;
	b->s->rodata->sqe_flags = sqe_flags;
	b->s->struct_ops.loop_ops->ring_fd = b->r.fd;
	ret = both__load(b->s);
	if (!CHECK_EQ(ret, 0, "both__load"))
		goto fail;
	b->s->bss->expect_res = expect_res;
	if (register_op &&
	    !CHECK_EQ(t_attach(b->s->maps.nop_op, &b->op_link), 0,
		      "register the IORING_OP_BPF op (id 60)"))
		goto fail;
	if (!CHECK_EQ(t_attach(b->s->maps.loop_ops, &b->loop_link), 0,
		      "attach the loop program to the ring"))
		goto fail;
	return true;
fail:
	t_detach(&b->op_link);
	if (b->s)
		both__destroy(b->s);
	b->s = NULL;
	uring_exit(&b->r);
	return false;
}

static void bt_close(struct bt *b)
{
	t_detach(&b->loop_link);
	t_detach(&b->op_link);
	if (b->s)
		both__destroy(b->s);
	uring_exit(&b->r);
}

/* n more requests from the loop (counters continue across runs) */
static void bt_run(struct bt *b, unsigned int n, const char *what)
{
	struct both__bss *s = b->s->bss;
	unsigned int s0 = s->submitted, c0 = s->completed, m0 = s->res_mismatch;
	unsigned int h0 = *b->r.cq_head;
	char msg[160];
	int ret;

	s->target = c0 + n;
	ret = t_io_uring_enter(b->r.fd, 0, 0, IORING_ENTER_GETEVENTS, NULL, 0);
	snprintf(msg, sizeof(msg), "%s: io_uring_enter(fd, 0, 0, GETEVENTS)", what);
	CHECK_EQ(ret, 0, msg);
	CHECK_EQ(s->region_null, 0, "get_region returned NULL");
	CHECK_EQ(s->submit_errors, 0, "bpf_io_uring_submit_sqes(ctx, 1) != 1");
	CHECK_EQ(s->submitted - s0, n, "IORING_OP_BPF requests submitted by the loop");
	CHECK_EQ(s->completed - c0, n, "their CQEs consumed by the loop");
	if (!CHECK_EQ(s->res_mismatch - m0, 0, "CQEs with an unexpected res"))
		T_INFO("first CQE res %d, expected %d", s->first_res, s->expect_res);
	CHECK_EQ(s->bad_user_data, 0, "CQEs out of order");
	CHECK_EQ(*b->r.cq_head - h0, n, "CQ head advanced by the loop");
}

static void t_loop_submits_bpf_ops(void)
{
	struct bt b;

	if (!bt_open(&b, T_BPF_OP_FLAGS(ID_BOTH, 0, 0, 0), 0, 0, true))
		return;
	bt_run(&b, 64, "64 IORING_OP_BPF NOPs from the loop");
	CHECK_EQ(b.s->bss->op_prep_calls, 64, "op prep_fn calls");
	CHECK_EQ(b.s->bss->op_issue_calls, 64, "op issue_fn calls");
	bt_close(&b);
}

static void t_loop_submits_bpf_ops_async(void)
{
	struct bt b;

	if (!bt_open(&b, T_BPF_OP_FLAGS(ID_BOTH, 0, 0, 0), IOSQE_ASYNC, 0, true))
		return;
	bt_run(&b, 32, "32 IORING_OP_BPF NOPs from the loop, IOSQE_ASYNC");
	CHECK_EQ(b.s->bss->op_issue_calls, 32, "op issue_fn calls");
	bt_close(&b);
}

static void t_loop_submits_unregistered_op(void)
{
	struct bt b;

	/* the op is not registered: every request completes -EOPNOTSUPP, and
	 * the loop sees it */
	if (!bt_open(&b, T_BPF_OP_FLAGS(ID_BOTH, 0, 0, 0), 0, -EOPNOTSUPP, false))
		return;
	bt_run(&b, 8, "8 requests for an unregistered op");
	CHECK_EQ(b.s->bss->op_issue_calls, 0, "op issue_fn calls");
	bt_close(&b);
}

static void t_unregister_op_between_runs(void)
{
	struct bt b;

	if (!bt_open(&b, T_BPF_OP_FLAGS(ID_BOTH, 0, 0, 0), 0, 0, true))
		return;
	bt_run(&b, 8, "8 NOPs with the op registered");
	t_detach(&b.op_link);
	b.s->bss->expect_res = -EOPNOTSUPP;
	bt_run(&b, 4, "4 requests after the op was unregistered");
	if (CHECK_EQ(t_attach(b.s->maps.nop_op, &b.op_link), 0, "register the op again")) {
		b.s->bss->expect_res = 0;
		bt_run(&b, 4, "4 NOPs after registering again");
	}
	CHECK_EQ(b.s->bss->op_issue_calls, 12, "op issue_fn calls");
	bt_close(&b);
}

int main(int argc, char **argv)
{
	T_INIT(argc, argv);
	REQUIRE_ROOT();
	REQUIRE_BTF_TYPE("uring_bpf_ops", "IORING_OP_BPF");
	REQUIRE_BTF_TYPE("io_uring_ops", "the io_uring loop hook");

	RUN(t_loop_submits_bpf_ops);
	RUN(t_loop_submits_bpf_ops_async);
	RUN(t_loop_submits_unregistered_op);
	RUN(t_unregister_op_between_runs);
	return T_DONE();
}
