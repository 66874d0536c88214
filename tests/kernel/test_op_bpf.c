// SPDX-License-Identifier: GPL-2.0
/*
 * test_op_bpf - IORING_OP_BPF (struct uring_bpf_ops): setup flag, op ids,
 * registration, prep/issue results, the pdu, custom flags, links, and
 * unregistering with requests in flight (they complete with -ECANCELED). See docs/kernel-abi.md.
 * Programs: op_basic.bpf.c (most), op_pdu.bpf.c, op_id.bpf.c,
 * op_bad_opf.bpf.c / op_bad_past.bpf.c (must not load).
 */
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>

#include "t_helpers.h"
#include "op_basic.skel.h"
#include "op_pdu.skel.h"
#include "op_id.skel.h"
#include "op_bad_opf.skel.h"
#include "op_bad_past.skel.h"

/* ctl_op actions (op_basic.bpf.c) */
enum {
	A_NOP, A_PREP_ERR, A_SET_RESULT, A_ISSUE_ERR, A_ISSUE_POSITIVE,
	A_ISSUE_EIOCBQUEUED, A_ISSUE_HUGE_NEG, A_PDU, A_CHAIN_WRITE,
	A_CHAIN_READ, A_SET_RESULT_NEG,
};

#define ID_CTL		10
#define ID_FLAGS	11
#define ID_NOP		12
#define ID_INFLIGHT	14
#define ID_TWIN		15
#define ID_NOPREP	16
#define ID_NOISSUE	17
#define ID_PDU		20
#define ID_PDU_FRESH	21
#define ID_UNUSED	200

static struct op_basic *skel;

static uint32_t ctl(unsigned int action, unsigned int arg)
{
	return T_BPF_OP_FLAGS(ID_CTL, 0, 0, action | (arg << 4));
}

static bool load_tried;

/* load op_basic once, in whichever subtest needs it first */
static bool need_skel(void)
{
	int err;

	if (!load_tried) {
		load_tried = true;
		skel = op_basic__open();
		if (!CHECK_PTR(skel, "op_basic__open"))
			return false;
		/* dup_op takes nop_op's id: its registration must fail -EBUSY */
		skel->struct_ops.dup_op->id = ID_NOP;
		err = op_basic__load(skel);
		if (!CHECK_EQ(err, 0, "op_basic__load (ctl/flags/nop ops: pdu "
			      "writes, kfuncs, map access)")) {
			op_basic__destroy(skel);
			skel = NULL;
		}
		return skel != NULL;
	}
	if (!skel) {
		FAIL("op_basic.bpf.o did not load (see the first subtest that failed)");
		return false;
	}
	return true;
}

/* a plain IORING_SETUP_BPF ring (no DEFER_TASKRUN) */
static bool bpf_ring(struct uring *r, unsigned int entries, unsigned int extra)
{
	int ret = uring_init(r, entries, T_IORING_SETUP_BPF | extra, 0);

	return CHECK_EQ(ret, 0, "io_uring_setup(IORING_SETUP_BPF)");
}

/* ------------------------------------------------------------------------- */

static void t_load(void)
{
	need_skel();
}

static void t_feat_bpf(void)
{
	struct uring r;

	if (!bpf_ring(&r, 4, 0))
		return;
	CHECK_TRUE(r.p.features & T_IORING_FEAT_BPF,
		   "io_uring_params.features has IORING_FEAT_BPF (1<<18)");
	uring_exit(&r);
}

struct t_probe {
	struct io_uring_probe hdr;
	struct io_uring_probe_op ops[256];
};

static void t_reserved_opcodes(void)
{
	struct t_probe probe;
	struct uring r;
	int op, ret;

	if (!bpf_ring(&r, 8, 0))
		return;
	/* 58..64 are opcodes of later kernels: unsupported, -EINVAL */
	for (op = T_IORING_OP_LAST_612; op < T_IORING_OP_BPF; op++) {
		struct io_uring_sqe *sqe = uring_get_sqe(&r);
		struct io_uring_cqe cqe;
		char msg[64];

		sqe->opcode = op;
		sqe->fd = -1;
		sqe->user_data = op;
		snprintf(msg, sizeof(msg), "opcode %d", op);
		ret = uring_submit(&r);
		if (ret < 0) {
			/* an unknown opcode may fail the submit itself */
			CHECK_EQ(ret, -EINVAL, msg);
			continue;
		}
		ret = uring_wait_cqe(&r, &cqe, T_CQE_TIMEOUT_MS);
		if (CHECK_EQ(ret, 0, msg))
			CHECK_EQ(cqe.res, -EINVAL, msg);
	}

	memset(&probe, 0, sizeof(probe));
	ret = t_io_uring_register(r.fd, IORING_REGISTER_PROBE, &probe, 256);
	if (CHECK_EQ(ret, 0, "IORING_REGISTER_PROBE")) {
		CHECK_GE(probe.hdr.last_op, T_IORING_OP_BPF,
			 "probe last_op covers IORING_OP_BPF (65)");
		CHECK_TRUE(probe.ops[T_IORING_OP_BPF].flags & IO_URING_OP_SUPPORTED,
			   "probe reports IORING_OP_BPF supported");
		for (op = T_IORING_OP_LAST_612; op < T_IORING_OP_BPF; op++) {
			char msg[64];

			snprintf(msg, sizeof(msg), "probe: opcode %d unsupported", op);
			CHECK_TRUE(!(probe.ops[op].flags & IO_URING_OP_SUPPORTED), msg);
		}
	}
	uring_exit(&r);
}

static void t_no_setup_bpf_eacces(void)
{
	struct bpf_link *link = NULL;
	struct uring r;
	int ret;

	if (!need_skel())
		return;
	ret = uring_init(&r, 8, 0, 0);
	if (!CHECK_EQ(ret, 0, "io_uring_setup(0)"))
		return;
	if (CHECK_EQ(t_attach(skel->maps.ctl_op, &link), 0, "attach ctl_op")) {
		CHECK_BPF_RES(&r, ctl(A_NOP, 0), 0, -EACCES,
			      "registered op on a ring without IORING_SETUP_BPF");
		CHECK_BPF_RES(&r, ctl(A_NOP, 0), IOSQE_ASYNC, -EACCES,
			      "same, IOSQE_ASYNC");
	}
	CHECK_BPF_RES(&r, T_BPF_OP_FLAGS(ID_UNUSED, 0, 0, 0), 0, -EACCES,
		      "unregistered op on a ring without IORING_SETUP_BPF");
	t_detach(&link);
	uring_exit(&r);
}

static void t_unregistered_eopnotsupp(void)
{
	struct uring r;

	if (!bpf_ring(&r, 8, 0))
		return;
	CHECK_BPF_RES(&r, T_BPF_OP_FLAGS(ID_UNUSED, 0, 0, 0), 0, -EOPNOTSUPP,
		      "op id 200, nothing registered");
	CHECK_BPF_RES(&r, T_BPF_OP_FLAGS(0, 0, 0, 0), 0, -EOPNOTSUPP,
		      "op id 0, nothing registered");
	CHECK_BPF_RES(&r, T_BPF_OP_FLAGS(ID_UNUSED, 0, 0, 0), IOSQE_ASYNC,
		      -EOPNOTSUPP, "op id 200, IOSQE_ASYNC");
	uring_exit(&r);
}

static void nop_on(struct uring *r, const char *what)
{
	int p0 = skel->bss->ctl_prep_calls, i0 = skel->bss->ctl_issue_calls;
	char msg[128];

	snprintf(msg, sizeof(msg), "%s: NOP op", what);
	CHECK_BPF_RES(r, ctl(A_NOP, 0), 0, 0, msg);
	snprintf(msg, sizeof(msg), "%s: NOP op, IOSQE_ASYNC", what);
	CHECK_BPF_RES(r, ctl(A_NOP, 0), IOSQE_ASYNC, 0, msg);
	CHECK_EQ(skel->bss->ctl_prep_calls - p0, 2, "prep_fn calls");
	CHECK_EQ(skel->bss->ctl_issue_calls - i0, 2, "issue_fn calls");
}

static void t_nop(void)
{
	struct bpf_link *link = NULL;
	struct uring r;

	if (!need_skel() || !bpf_ring(&r, 8, 0))
		return;
	if (CHECK_EQ(t_attach(skel->maps.ctl_op, &link), 0, "attach ctl_op"))
		nop_on(&r, "plain BPF ring");
	t_detach(&link);
	uring_exit(&r);
}

static void t_nop_defer_taskrun(void)
{
	struct bpf_link *link = NULL;
	struct uring r;

	if (!need_skel() ||
	    !bpf_ring(&r, 8, IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN))
		return;
	if (CHECK_EQ(t_attach(skel->maps.ctl_op, &link), 0, "attach ctl_op"))
		nop_on(&r, "BPF|SINGLE_ISSUER|DEFER_TASKRUN ring");
	t_detach(&link);
	uring_exit(&r);
}

static void t_prep_error(void)
{
	struct bpf_link *link = NULL;
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe *sqe;
	struct uring r;
	int i0, ret;

	if (!need_skel() || !bpf_ring(&r, 8, 0))
		return;
	if (!CHECK_EQ(t_attach(skel->maps.ctl_op, &link), 0, "attach ctl_op"))
		goto out;
	i0 = skel->bss->ctl_issue_calls;
	CHECK_BPF_RES(&r, ctl(A_PREP_ERR, ENOSPC), 0, -ENOSPC,
		      "prep_fn returns -ENOSPC");
	CHECK_BPF_RES(&r, ctl(A_PREP_ERR, EPERM), IOSQE_ASYNC, -EPERM,
		      "prep_fn returns -EPERM, IOSQE_ASYNC");
	CHECK_EQ(skel->bss->ctl_issue_calls - i0, 0,
		 "issue_fn calls after failed preps");

	/* a failed prep breaks the link: the next request is cancelled */
	sqe = uring_get_sqe(&r);
	sqe_bpf(sqe, ctl(A_PREP_ERR, EBADMSG), 1);
	sqe->flags = IOSQE_IO_LINK;
	sqe = uring_get_sqe(&r);
	sqe_nop(sqe, 2);
	ret = uring_submit(&r);
	CHECK_GE(ret, 1, "submit [prep error] -> [NOP]");
	ret = uring_wait_cqes(&r, cqes, 2, T_CQE_TIMEOUT_MS);
	if (CHECK_EQ(ret, 2, "CQEs of the link")) {
		for (int i = 0; i < 2; i++) {
			if (cqes[i].user_data == 1)
				CHECK_EQ(cqes[i].res, -EBADMSG, "failed head's res");
			else
				CHECK_EQ(cqes[i].res, -ECANCELED, "linked NOP's res");
		}
	}
	/* failed preps hold nothing: the id can be registered again */
	t_detach(&link);
	CHECK_EQ(t_attach(skel->maps.ctl_op, &link), 0,
		 "re-register ctl_op after failed preps");
out:
	t_detach(&link);
	uring_exit(&r);
}

static void t_set_result(void)
{
	struct bpf_link *link = NULL;
	struct uring r;

	if (!need_skel() || !bpf_ring(&r, 8, 0))
		return;
	if (CHECK_EQ(t_attach(skel->maps.ctl_op, &link), 0, "attach ctl_op")) {
		CHECK_BPF_RES(&r, ctl(A_SET_RESULT, 1234), 0, 1234,
			      "uring_bpf_set_result(1234)");
		CHECK_BPF_RES(&r, ctl(A_SET_RESULT, 0x3fff), IOSQE_ASYNC, 0x3fff,
			      "uring_bpf_set_result(0x3fff), IOSQE_ASYNC");
		CHECK_BPF_RES(&r, ctl(A_SET_RESULT, 0), 0, 0,
			      "uring_bpf_set_result(0)");
		CHECK_BPF_RES(&r, ctl(A_ISSUE_ERR, EIO), 0, -EIO,
			      "issue_fn returns -EIO");
		CHECK_BPF_RES(&r, ctl(A_ISSUE_ERR, ERANGE), IOSQE_ASYNC, -ERANGE,
			      "issue_fn returns -ERANGE, IOSQE_ASYNC");
		CHECK_BPF_RES(&r, ctl(A_ISSUE_ERR, 133), 0, -133,
			      "issue_fn returns -133 (-EHWPOISON, the last errno)");
		CHECK_BPF_RES(&r, ctl(A_SET_RESULT_NEG, ENOSPC), 0, -ENOSPC,
			      "uring_bpf_set_result(-ENOSPC)");
	}
	t_detach(&link);
	uring_exit(&r);
}

/*
 * issue_fn may return only 0 or -errno: anything else must complete the
 * request with -EINVAL (the posted patch left it uncompleted forever, so
 * the CQE wait times out and ring exit hangs). Afterwards the ring exits
 * and the op id can be registered again (no request still holds the op).
 */
static void t_issue_bad_return(void)
{
	static const struct { unsigned int action, arg; const char *what; } c[] = {
		{ A_ISSUE_POSITIVE, 7, "issue_fn returns 7" },
		{ A_ISSUE_POSITIVE, 1, "issue_fn returns 1" },
		{ A_ISSUE_EIOCBQUEUED, 0, "issue_fn returns -EIOCBQUEUED (-529)" },
		{ A_ISSUE_HUGE_NEG, 0, "issue_fn returns -5000" },
		{ A_ISSUE_ERR, 512, "issue_fn returns -512 (-ERESTARTSYS, kernel-internal)" },
		{ A_ISSUE_ERR, 4095, "issue_fn returns -4095" },
	};
	struct bpf_link *link = NULL;
	struct uring r;
	unsigned int i;
	int ret;

	if (!need_skel() || !bpf_ring(&r, 8, 0))
		return;
	if (!CHECK_EQ(t_attach(skel->maps.ctl_op, &link), 0, "attach ctl_op")) {
		uring_exit(&r);
		return;
	}
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char msg[128];

		CHECK_BPF_RES(&r, ctl(c[i].action, c[i].arg), 0, -EINVAL, c[i].what);
		snprintf(msg, sizeof(msg), "%s, IOSQE_ASYNC", c[i].what);
		CHECK_BPF_RES(&r, ctl(c[i].action, c[i].arg), IOSQE_ASYNC, -EINVAL, msg);
	}
	/* the same from ops that use no custom flag bits (ids 30-32) */
	{
		struct { struct bpf_map *map; unsigned int id; const char *what; } o[] = {
			{ skel->maps.ret_positive_op, 30, "op 30: issue_fn returns 7" },
			{ skel->maps.ret_eiocbqueued_op, 31, "op 31: issue_fn returns -EIOCBQUEUED" },
			{ skel->maps.ret_huge_neg_op, 32, "op 32: issue_fn returns -5000" },
		};
		struct bpf_link *l2[3] = { NULL, NULL, NULL };

		for (i = 0; i < 3; i++) {
			if (!CHECK_EQ(t_attach(o[i].map, &l2[i]), 0, o[i].what))
				continue;
			CHECK_BPF_RES(&r, T_BPF_OP_FLAGS(o[i].id, 0, 0, 0), 0, -EINVAL, o[i].what);
			CHECK_BPF_RES(&r, T_BPF_OP_FLAGS(o[i].id, 0, 0, 0), IOSQE_ASYNC,
				      -EINVAL, o[i].what);
		}
		uring_exit(&r);
		for (i = 0; i < 3; i++) {
			t_detach(&l2[i]);
			/* nothing in flight: the ids are free again */
			if (CHECK_EQ(t_attach(o[i].map, &l2[i]), 0, "re-register after the ring exited"))
				t_detach(&l2[i]);
		}
	}
	t_detach(&link);
	/* nothing in flight: the id is free again */
	ret = t_attach(skel->maps.ctl_op, &link);
	CHECK_EQ(ret, 0, "re-register ctl_op after the ring exited");
	t_detach(&link);
}

/* uring_bpf_set_result() maps kernel-internal error codes to -EINVAL too */
static void t_set_result_internal_errno(void)
{
	static const struct { unsigned int arg; const char *what; } c[] = {
		{ 529, "uring_bpf_set_result(-EIOCBQUEUED)" },
		{ 512, "uring_bpf_set_result(-ERESTARTSYS)" },
		{ 4095, "uring_bpf_set_result(-4095)" },
		{ 5000, "uring_bpf_set_result(-5000)" },
	};
	struct bpf_link *link = NULL;
	struct uring r;

	if (!need_skel() || !bpf_ring(&r, 8, 0))
		return;
	if (CHECK_EQ(t_attach(skel->maps.ctl_op, &link), 0, "attach ctl_op")) {
		for (unsigned int i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
			CHECK_BPF_RES(&r, ctl(A_SET_RESULT_NEG, c[i].arg), i & 1 ? IOSQE_ASYNC : 0,
				      -EINVAL, c[i].what);
		}
		CHECK_BPF_RES(&r, ctl(A_SET_RESULT_NEG, 511), 0, -511,
			      "uring_bpf_set_result(-511), the last user-visible code");
	}
	t_detach(&link);
	uring_exit(&r);
}

static void t_pdu_survives(void)
{
	struct bpf_link *link = NULL;
	struct uring r;
	int res = 0, ret;

	if (!need_skel() || !bpf_ring(&r, 8, 0))
		return;
	if (!CHECK_EQ(t_attach(skel->maps.ctl_op, &link), 0, "attach ctl_op"))
		goto out;
	skel->data->pdu_bad_index = -1;
	ret = t_bpf_one(&r, ctl(A_PDU, 0), 0, 0x1122334455667788ULL, &res);
	if (CHECK_EQ(ret, 0, "submit/wait"))
		CHECK_EQ(res, 1000, "pdu[0..22] written in prep_fn, checked in issue_fn");
	ret = t_bpf_one(&r, ctl(A_PDU, 0), IOSQE_ASYNC, 0xa0, &res);
	if (CHECK_EQ(ret, 0, "submit/wait"))
		CHECK_EQ(res, 1000, "same, IOSQE_ASYNC (issue in io-wq)");
	CHECK_EQ(skel->data->pdu_bad_index, -1, "first pdu byte that did not survive");
out:
	t_detach(&link);
	uring_exit(&r);
}

static void t_pdu_last_byte(void)
{
	struct bpf_link *link = NULL;
	struct op_pdu *p;
	struct uring r;
	int res = 0, ret, err;

	p = op_pdu__open();
	if (!CHECK_PTR(p, "op_pdu__open"))
		return;
	err = op_pdu__load(p);
	if (!CHECK_EQ(err, 0, "op_pdu__load: a program writing pdu[23] (the "
		      "last byte) must pass the verifier"))
		goto out_skel;
	if (!bpf_ring(&r, 8, 0))
		goto out_skel;
	if (!CHECK_EQ(t_attach(p->maps.pdu_op, &link), 0, "attach pdu_op"))
		goto out;
	/* flag bit 0: three 8-byte stores instead of 24 byte stores */
	for (int mode = 0; mode < 2; mode++) {
		for (int async = 0; async < 2; async++) {
			char msg[128];

			snprintf(msg, sizeof(msg), "pdu[0..23] by %s stores%s",
				 mode ? "8-byte" : "1-byte",
				 async ? ", IOSQE_ASYNC" : "");
			ret = t_bpf_one(&r, T_BPF_OP_FLAGS(ID_PDU, 0, 0, mode),
					async ? IOSQE_ASYNC : 0, 0x40 + mode * 7 + async,
					&res);
			if (CHECK_EQ(ret, 0, msg))
				CHECK_EQ(res, 2400, msg);
		}
	}
	CHECK_EQ(p->data->bad_index, -1, "first pdu byte that did not survive");
out:
	t_detach(&link);
	uring_exit(&r);
out_skel:
	op_pdu__destroy(p);
}

/*
 * The pdu an op without prep_fn sees at issue is zero: before the fix it
 * held what the io_kiocb's last user left, after a POLL_ADD a kernel text
 * address (io_poll_wake) and the io_kiocb's heap address. Each round
 * completes a POLL_ADD on a pipe, then issues BPF requests on the freed
 * io_kiocbs (the ring's request cache hands the last freed one out first).
 */
static void t_pdu_starts_zeroed(void)
{
	struct bpf_link *link = NULL;
	struct io_uring_cqe cqe;
	struct io_uring_sqe *sqe;
	struct op_pdu *p;
	struct uring r;
	int pp[2], res, ret;

	p = op_pdu__open_and_load();
	if (!CHECK_PTR(p, "op_pdu__open_and_load"))
		return;
	if (!bpf_ring(&r, 8, 0))
		goto out_skel;
	if (!CHECK_EQ(pipe(pp), 0, "pipe"))
		goto out_ring;
	if (!CHECK_EQ(t_attach(p->maps.fresh_op, &link), 0, "attach fresh_op"))
		goto out;
	for (int round = 0; round < 4; round++) {
		char c;

		sqe = uring_get_sqe(&r);
		sqe->opcode = 6;	/* IORING_OP_POLL_ADD */
		sqe->fd = pp[0];
		sqe->poll32_events = POLLIN;
		sqe->user_data = 1;
		if (!CHECK_EQ(uring_submit(&r), 1, "submit POLL_ADD on a pipe") ||
		    !CHECK_EQ(write(pp[1], "x", 1), 1, "write the pipe"))
			break;
		ret = uring_wait_cqe(&r, &cqe, T_CQE_TIMEOUT_MS);
		if (!CHECK_EQ(ret, 0, "POLL_ADD's CQE"))
			break;
		CHECK_EQ(read(pp[0], &c, 1), 1, "drain the pipe");
		for (int i = 0; i < 2; i++) {
			res = 1;
			ret = t_bpf_one(&r, T_BPF_OP_FLAGS(ID_PDU_FRESH, 0, 0, 0),
					0, 2, &res);
			if (CHECK_EQ(ret, 0, "submit/wait"))
				CHECK_EQ(res, 0, "issue_fn without prep_fn: pdu all zero");
		}
	}
	CHECK_EQ(p->bss->fresh_word, 0, "first nonzero pdu word seen (a kernel "
		 "address left by POLL_ADD)");
	CHECK_EQ(p->bss->fresh_calls, 8, "fresh_op issue_fn calls");
out:
	t_detach(&link);
	close(pp[0]);
	close(pp[1]);
out_ring:
	uring_exit(&r);
out_skel:
	op_pdu__destroy(p);
}

static void t_chain_map(void)
{
	struct bpf_link *link = NULL;
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe *sqe;
	struct uring r;
	uint32_t key = 0;
	uint64_t zero = 0;
	int async, ret;

	if (!need_skel() || !bpf_ring(&r, 8, 0))
		return;
	if (!CHECK_EQ(t_attach(skel->maps.ctl_op, &link), 0, "attach ctl_op"))
		goto out;
	for (async = 0; async < 2; async++) {
		uint64_t value = 0x12345 + async * 0x1111;

		bpf_map__update_elem(skel->maps.chain, &key, sizeof(key), &zero,
				     sizeof(zero), 0);
		/* op 1 keeps sqe->off in its pdu, stores it in the map at issue;
		 * op 2, linked behind it, completes with the map's value */
		sqe = uring_get_sqe(&r);
		sqe_bpf(sqe, ctl(A_CHAIN_WRITE, 0), 1);
		sqe->off = value;
		sqe->flags = IOSQE_IO_LINK | (async ? IOSQE_ASYNC : 0);
		sqe = uring_get_sqe(&r);
		sqe_bpf(sqe, ctl(A_CHAIN_READ, 0), 2);
		ret = uring_submit(&r);
		CHECK_EQ(ret, 2, "submit the link");
		ret = uring_wait_cqes(&r, cqes, 2, T_CQE_TIMEOUT_MS);
		if (!CHECK_EQ(ret, 2, "CQEs of the link"))
			break;
		for (int i = 0; i < 2; i++) {
			if (cqes[i].user_data == 1)
				CHECK_EQ(cqes[i].res, 0, "writer's res");
			else
				CHECK_EQ(cqes[i].res, (int)value,
					 async ? "reader's res = value passed through the map (writer async)"
					       : "reader's res = value passed through the map");
		}
	}
out:
	t_detach(&link);
	uring_exit(&r);
}

static void t_custom_flags(void)
{
	static const uint32_t flags[] = { 0, 1, 0x20000, 0x15555, 0x2aaaa, 0x3ffff };
	struct bpf_link *link = NULL;
	struct uring r;
	unsigned int i;

	if (!need_skel() || !bpf_ring(&r, 8, 0))
		return;
	if (!CHECK_EQ(t_attach(skel->maps.flags_op, &link), 0, "attach flags_op"))
		goto out;
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		uint32_t opf = T_BPF_OP_FLAGS(ID_FLAGS, 0, 0, flags[i]);
		char msg[96];

		snprintf(msg, sizeof(msg), "flags 0x%05x reach data->opf", flags[i]);
		if (CHECK_BPF_RES(&r, opf, i & 1 ? IOSQE_ASYNC : 0, (int)flags[i], msg))
			CHECK_EQ(skel->bss->last_opf, opf, "data->opf == sqe->bpf_op_flags");
	}
out:
	t_detach(&link);
	uring_exit(&r);
}

static void t_register_twice_ebusy(void)
{
	struct bpf_link *l1 = NULL, *l2 = NULL;
	struct uring r;
	int ret;

	if (!need_skel() || !bpf_ring(&r, 8, 0))
		return;
	if (!CHECK_EQ(t_attach(skel->maps.nop_op, &l1), 0, "attach nop_op (id 12)"))
		goto out;
	ret = t_attach(skel->maps.dup_op, &l2);
	CHECK_EQ(ret, -EBUSY, "attach dup_op with the same id 12");
	t_detach(&l2);
	/* the first registration still works */
	CHECK_BPF_RES(&r, T_BPF_OP_FLAGS(ID_NOP, 0, 0, 0), 0, 0, "op 12 after the -EBUSY");
	/* unregistering frees the id: dup_op can take it now */
	t_detach(&l1);
	ret = t_attach(skel->maps.dup_op, &l2);
	CHECK_EQ(ret, 0, "attach dup_op after nop_op's link was destroyed");
	CHECK_BPF_RES(&r, T_BPF_OP_FLAGS(ID_NOP, 0, 0, 0), 0, 0, "op 12 served by dup_op");
out:
	t_detach(&l1);
	t_detach(&l2);
	uring_exit(&r);
}

static void t_unregister_frees_id(void)
{
	struct bpf_link *link = NULL;
	struct uring r;
	int round;

	if (!need_skel() || !bpf_ring(&r, 8, 0))
		return;
	for (round = 0; round < 3; round++) {
		char msg[64];

		snprintf(msg, sizeof(msg), "attach nop_op, round %d", round);
		if (!CHECK_EQ(t_attach(skel->maps.nop_op, &link), 0, msg))
			break;
		CHECK_BPF_RES(&r, T_BPF_OP_FLAGS(ID_NOP, 0, 0, 0), 0, 0, "registered op");
		t_detach(&link);
		CHECK_BPF_RES(&r, T_BPF_OP_FLAGS(ID_NOP, 0, 0, 0), 0, -EOPNOTSUPP,
			      "after bpf_link__destroy: nothing registered");
	}
	uring_exit(&r);
}

static void t_id_255(void)
{
	struct bpf_link *link = NULL;
	struct uring r;

	if (!need_skel() || !bpf_ring(&r, 8, 0))
		return;
	if (CHECK_EQ(t_attach(skel->maps.max_op, &link), 0, "attach op id 255")) {
		CHECK_BPF_RES(&r, T_BPF_OP_FLAGS(255, 0, 0, 0), 0, 0, "op 255");
		CHECK_BPF_RES(&r, T_BPF_OP_FLAGS(255, 0, 0, 0), IOSQE_ASYNC, 0,
			      "op 255, IOSQE_ASYNC");
	}
	t_detach(&link);
	uring_exit(&r);
}

static void t_id_ge_256_rejected(void)
{
	static const unsigned int ids[] = { 256, 257, 511, 1000, 65535 };
	struct uring r;
	unsigned int i;

	if (!bpf_ring(&r, 8, 0))
		return;
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct bpf_link *link = NULL;
		struct op_id *p = op_id__open();
		char msg[96];
		int err;

		if (!CHECK_PTR(p, "op_id__open"))
			break;
		p->struct_ops.id_op->id = ids[i];
		err = op_id__load(p);
		snprintf(msg, sizeof(msg), "load op with id %u", ids[i]);
		if (err) {
			/* refusing it at load is fine too, as long as it is -EINVAL */
			CHECK_EQ(err, -EINVAL, msg);
			T_INFO("id %u refused at load (%d)", ids[i], err);
		} else {
			snprintf(msg, sizeof(msg), "register op with id %u", ids[i]);
			err = t_attach(p->maps.id_op, &link);
			CHECK_EQ(err, -EINVAL, msg);
			t_detach(&link);
		}
		/* it must not have registered under id & 0xff */
		snprintf(msg, sizeof(msg), "op id %u (%u & 0xff) after refusing %u",
			 ids[i] & 0xff, ids[i], ids[i]);
		CHECK_BPF_RES(&r, T_BPF_OP_FLAGS(ids[i] & 0xff, 0, 0, 0), 0,
			      -EOPNOTSUPP, msg);
		op_id__destroy(p);
	}
	uring_exit(&r);
}

static void t_incomplete_ops(void)
{
	struct bpf_link *l1 = NULL, *l2 = NULL;
	struct uring r;

	if (!need_skel() || !bpf_ring(&r, 8, 0))
		return;
	if (CHECK_EQ(t_attach(skel->maps.noprep_op, &l1), 0, "attach op without prep_fn")) {
		int i0 = skel->bss->nop_issue_calls;

		CHECK_BPF_RES(&r, T_BPF_OP_FLAGS(ID_NOPREP, 0, 0, 0), 0, 0,
			      "op without prep_fn (issue_fn runs, patch 0036)");
		CHECK_BPF_RES(&r, T_BPF_OP_FLAGS(ID_NOPREP, 0, 0, 0), IOSQE_ASYNC, 0,
			      "op without prep_fn, IOSQE_ASYNC");
		CHECK_EQ(skel->bss->nop_issue_calls - i0, 2, "its issue_fn calls");
	}
	if (CHECK_EQ(t_attach(skel->maps.noissue_op, &l2), 0, "attach op without issue_fn")) {
		struct op_id *p = op_id__open();
		struct bpf_link *l3 = NULL;

		CHECK_BPF_RES(&r, T_BPF_OP_FLAGS(ID_NOISSUE, 0, 0, 0), 0, -ECANCELED,
			      "op without issue_fn");
		CHECK_BPF_RES(&r, T_BPF_OP_FLAGS(ID_NOISSUE, 0, 0, 0), IOSQE_ASYNC,
			      -ECANCELED, "op without issue_fn, IOSQE_ASYNC");
		/* the id is taken even though the op has no issue_fn (the posted
		 * patch took "no issue_fn" for "free") */
		if (CHECK_PTR(p, "op_id__open")) {
			p->struct_ops.id_op->id = ID_NOISSUE;
			if (CHECK_EQ(op_id__load(p), 0, "op_id__load"))
				CHECK_EQ(t_attach(p->maps.id_op, &l3), -EBUSY,
					 "register another op over the prep-only op's id");
			t_detach(&l3);
			op_id__destroy(p);
		}
	}
	t_detach(&l1);
	t_detach(&l2);
	uring_exit(&r);
}

static void t_verifier_rejects_bad_writes(void)
{
	struct op_bad_opf *a;
	struct op_bad_past *b;
	int err;

	a = op_bad_opf__open();
	if (CHECK_PTR(a, "op_bad_opf__open")) {
		err = op_bad_opf__load(a);
		CHECK_TRUE(err < 0, "a program writing data->opf (read-only) must not load");
		T_DEBUG("op_bad_opf load: %d", err);
		op_bad_opf__destroy(a);
	}
	b = op_bad_past__open();
	if (CHECK_PTR(b, "op_bad_past__open")) {
		err = op_bad_past__load(b);
		CHECK_TRUE(err < 0, "a program writing byte 64 (past pdu[23]) must not load");
		T_DEBUG("op_bad_past load: %d", err);
		op_bad_past__destroy(b);
	}
}

/*
 * An IORING_OP_BPF request waits in a link behind a POLL_ADD on a pipe (it
 * was prepared at submit time). The op is unregistered meanwhile, and the
 * id is free at once: requests hold no reference on their op (patch 0015).
 * When the pipe is written, the request is issued and completes with
 * -ECANCELED, without running the old op's issue_fn (safely: the VM
 * runner catches KASAN/lockdep reports). test_op_trust does the same from
 * an unprivileged process.
 */
static void t_unregister_inflight_linked(void)
{
	struct bpf_link *link = NULL;
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe *sqe;
	struct t_destroyer d;
	struct uring r;
	int ret, n, i0, pp[2];

	if (!need_skel() || !bpf_ring(&r, 8, 0))
		return;
	if (!CHECK_EQ(pipe(pp), 0, "pipe")) {
		uring_exit(&r);
		return;
	}
	if (!CHECK_EQ(t_attach(skel->maps.inflight_op, &link), 0, "attach inflight_op"))
		goto out;
	i0 = skel->bss->nop_issue_calls;
	sqe = uring_get_sqe(&r);
	sqe->opcode = 6;	/* IORING_OP_POLL_ADD */
	sqe->fd = pp[0];
	sqe->poll32_events = POLLIN;
	sqe->user_data = 1;
	sqe->flags = IOSQE_IO_LINK;
	sqe = uring_get_sqe(&r);
	sqe_bpf(sqe, T_BPF_OP_FLAGS(ID_INFLIGHT, 0, 0, 0), 2);
	ret = uring_submit(&r);
	if (!CHECK_EQ(ret, 2, "submit [POLL_ADD on a pipe] -> [BPF op]"))
		goto out;
	if (!CHECK_EQ(t_destroy_async(&d, link, 0), 0, "start destroyer thread"))
		goto out;
	link = NULL;
	if (!CHECK_TRUE(t_destroy_wait(&d, 20000),
			"bpf_link__destroy returned within 20 s"))
		goto out_leak;
	T_DEBUG("link destroy took %.0f ms", d.t_end - d.t_start);
	/* the id is free with the request still queued */
	CHECK_EQ(t_attach(skel->maps.inflight_op, &link), 0,
		 "re-register the id with the request still queued");
	t_detach(&link);
	CHECK_EQ(write(pp[1], "x", 1), 1, "write the pipe");
	n = uring_wait_cqes(&r, cqes, 2, T_CQE_TIMEOUT_MS);
	CHECK_EQ(n, 2, "CQEs of the link after unregistering");
	for (int i = 0; i < n; i++) {
		if (cqes[i].user_data == 1)
			CHECK_GT(cqes[i].res, 0, "POLL_ADD's res (POLLIN)");
		else
			CHECK_EQ(cqes[i].res, -ECANCELED, "queued BPF request's "
				 "res (its op was unregistered since prep)");
	}
	CHECK_EQ(skel->bss->nop_issue_calls - i0, 0, "issue_fn calls");
out:
	t_detach(&link);
out_leak:
	close(pp[0]);
	close(pp[1]);
	uring_exit(&r);
}

/*
 * Many IOSQE_ASYNC and inline requests while the op is unregistered: each
 * completes with the op's result (0: issued before the unregistration) or
 * -ECANCELED (issued after it), and issue_fn ran once for each 0.
 */
static void t_unregister_inflight_many(void)
{
	enum { N = 128 };
	static struct io_uring_cqe cqes[N];
	struct bpf_link *link = NULL;
	struct t_destroyer d;
	struct uring r;
	int ret, n, i0, ok = 0, canceled = 0, bad = 0, first_bad = 0;

	if (!need_skel() || !bpf_ring(&r, N, 0))
		return;
	if (!CHECK_EQ(t_attach(skel->maps.inflight_op, &link), 0, "attach inflight_op"))
		goto out;
	i0 = skel->bss->nop_issue_calls;
	for (int i = 0; i < N; i++) {
		struct io_uring_sqe *sqe = uring_get_sqe(&r);

		sqe_bpf(sqe, T_BPF_OP_FLAGS(ID_INFLIGHT, 0, 0, 0), i + 1);
		sqe->flags = i & 1 ? IOSQE_ASYNC : 0;
	}
	ret = uring_submit(&r);
	if (!CHECK_EQ(ret, N, "submit"))
		goto out;
	if (!CHECK_EQ(t_destroy_async(&d, link, 0), 0, "start destroyer thread"))
		goto out;
	link = NULL;
	n = uring_wait_cqes(&r, cqes, N, T_CQE_TIMEOUT_MS);
	CHECK_EQ(n, N, "CQEs");
	for (int i = 0; i < n; i++) {
		if (cqes[i].res == 0)
			ok++;
		else if (cqes[i].res == -ECANCELED)
			canceled++;
		else if (!bad++)
			first_bad = cqes[i].res;
	}
	T_DEBUG("%d completed by the op, %d -ECANCELED", ok, canceled);
	if (!CHECK_EQ(bad, 0, "requests prepared before the unregister that "
		      "completed with neither 0 nor -ECANCELED"))
		CHECK_EQ(first_bad, 0, "first such res");
	if (!CHECK_TRUE(t_destroy_wait(&d, 20000),
			"bpf_link__destroy returned within 20 s"))
		goto out_leak;
	CHECK_EQ(skel->bss->nop_issue_calls - i0, ok,
		 "issue_fn calls = requests completed with 0");
	CHECK_BPF_RES(&r, T_BPF_OP_FLAGS(ID_INFLIGHT, 0, 0, 0), 0, -EOPNOTSUPP,
		      "new request after the unregister");
out:
	t_detach(&link);
out_leak:
	uring_exit(&r);
}

/*
 * A prepared request (linked behind a 10 s timeout) is cancelled when its
 * ring is closed, after the op was unregistered: the id can be registered
 * again at once (patch 0015: requests hold no reference on their op; with
 * a reference per request it was free only after the asynchronous ring
 * teardown released it, so the test polls for up to 10 s).
 */
static void t_ring_exit_with_queued_request(void)
{
	struct __kernel_timespec ts;
	struct bpf_link *link = NULL;
	struct io_uring_sqe *sqe;
	struct uring r;
	double t0;
	int ret;

	if (!need_skel() || !bpf_ring(&r, 8, 0))
		return;
	if (!CHECK_EQ(t_attach(skel->maps.inflight_op, &link), 0, "attach inflight_op")) {
		uring_exit(&r);
		return;
	}
	t_ms_to_ts(&ts, 10000);
	sqe = uring_get_sqe(&r);
	sqe_timeout(sqe, &ts, 0, 0, 1);
	sqe->flags = IOSQE_IO_LINK;
	sqe = uring_get_sqe(&r);
	sqe_bpf(sqe, T_BPF_OP_FLAGS(ID_INFLIGHT, 0, 0, 0), 2);
	ret = uring_submit(&r);
	CHECK_EQ(ret, 2, "submit [TIMEOUT 10 s] -> [BPF op]");
	uring_exit(&r);		/* cancels both */
	t_detach(&link);
	t0 = t_now_ms();
	do {
		ret = t_attach(skel->maps.inflight_op, &link);
		if (ret != -EBUSY)
			break;
		usleep(20 * 1000);
	} while (t_now_ms() - t0 < 10000);
	CHECK_EQ(ret, 0, "re-register the id after the ring with the queued request exited");
	T_DEBUG("id free after %.0f ms", t_now_ms() - t0);
	t_detach(&link);
}

/*
 * Register an op while several IORING_SETUP_BPF rings exist. The posted
 * patch took every BPF ring's uring_lock at once (same lock class, nested
 * without annotation: lockdep reports it, and the VM runner fails on it).
 */
static void t_register_with_two_bpf_rings(void)
{
	struct bpf_link *link = NULL;
	struct uring r1, r2, r3;
	int ret;

	if (!need_skel() || !bpf_ring(&r1, 8, 0))
		return;
	if (!bpf_ring(&r2, 8, 0))
		goto out1;
	ret = uring_init(&r3, 8, T_IORING_SETUP_BPF | IORING_SETUP_SINGLE_ISSUER |
			 IORING_SETUP_DEFER_TASKRUN, 0);
	if (!CHECK_EQ(ret, 0, "third ring (BPF|SINGLE_ISSUER|DEFER_TASKRUN)"))
		goto out2;
	if (CHECK_EQ(t_attach(skel->maps.twin_op, &link), 0,
		     "register an op with three BPF rings open")) {
		CHECK_BPF_RES(&r1, T_BPF_OP_FLAGS(ID_TWIN, 0, 0, 0), 0, 0, "ring 1");
		CHECK_BPF_RES(&r2, T_BPF_OP_FLAGS(ID_TWIN, 0, 0, 0), 0, 0, "ring 2");
		CHECK_BPF_RES(&r3, T_BPF_OP_FLAGS(ID_TWIN, 0, 0, 0), 0, 0, "ring 3");
	}
	t_detach(&link);
	CHECK_BPF_RES(&r2, T_BPF_OP_FLAGS(ID_TWIN, 0, 0, 0), 0, -EOPNOTSUPP,
		      "ring 2 after unregistering");
	uring_exit(&r3);
out2:
	uring_exit(&r2);
out1:
	uring_exit(&r1);
}

int main(int argc, char **argv)
{
	T_INIT(argc, argv);
	REQUIRE_ROOT();
	REQUIRE_BTF_TYPE("uring_bpf_ops", "IORING_OP_BPF");
	REQUIRE_BTF_TYPE("uring_bpf_data", "IORING_OP_BPF");

	RUN(t_load);
	RUN(t_feat_bpf);
	RUN(t_reserved_opcodes);
	RUN(t_no_setup_bpf_eacces);
	RUN(t_unregistered_eopnotsupp);
	RUN(t_nop);
	RUN(t_nop_defer_taskrun);
	RUN(t_prep_error);
	RUN(t_set_result);
	RUN(t_issue_bad_return);
	RUN(t_set_result_internal_errno);
	RUN(t_pdu_survives);
	RUN(t_pdu_last_byte);
	RUN(t_pdu_starts_zeroed);
	RUN(t_chain_map);
	RUN(t_custom_flags);
	RUN(t_register_twice_ebusy);
	RUN(t_unregister_frees_id);
	RUN(t_id_255);
	RUN(t_id_ge_256_rejected);
	RUN(t_incomplete_ops);
	RUN(t_verifier_rejects_bad_writes);
	RUN(t_unregister_inflight_linked);
	RUN(t_unregister_inflight_many);
	RUN(t_ring_exit_with_queued_request);
	RUN(t_register_with_two_bpf_rings);

	if (skel)
		op_basic__destroy(skel);
	return T_DONE();
}
