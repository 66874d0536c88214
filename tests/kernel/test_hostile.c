// SPDX-License-Identifier: GPL-2.0
/*
 * test_hostile - a table of hostile BPF programs for both APIs: every
 * struct_ops member left out, every kfunc pointer argument as NULL, a map
 * value, a stack pointer or a number, every return value and every write a
 * program can try. Each row states what must happen:
 *
 *   verifier  the load fails (and the verifier log says why)
 *   attach    the load works, registering the map fails with that errno
 *   cqe       the IORING_OP_BPF request completes with that res (inline
 *             and with IOSQE_ASYNC)
 *   enter     io_uring_enter(GETEVENTS) with the loop program attached
 *             returns that value
 *
 * Rows that need a kernel fix name it; on a kernel without the fix the row
 * FAILS with "kernel lacks fix: ..." and the case is not run when running
 * it would oops (t_fixes.h says how each fix is detected).
 *
 * Programs: hostile_op.bpf.c, hostile_loop.bpf.c (one struct_ops map per
 * row; only the row's map is created, so only its programs are loaded).
 *
 *   test_hostile              run every row (one subtest per row)
 *   test_hostile -l           list the rows
 *   test_hostile --markdown   print the table (docs), run nothing
 */
#include <fcntl.h>
#include <limits.h>

#include "t_helpers.h"
#include "t_fixes.h"
#include "hostile_op.skel.h"
#include "hostile_loop.skel.h"

enum api { OP, LOOP };
enum expect { VERIFIER, ATTACH, CQE, ENTER };

/* how a row sets up its programs' globals (before its requests) */
struct op_params {
	int prep_ret, issue_ret, set_res_on, set_res;
	unsigned int key;
};

struct loop_params {
	int ret_first, past_timeout;
	int ring_fd;		/* 0: the row's ring; RING_FD_BAD / _DEVNULL */
};
#define RING_FD_BAD	1
#define RING_FD_DEVNULL	2

struct row {
	const char *name;	/* subtest name */
	enum api api;
	const char *member;	/* what is hostile: member / kfunc arg / value */
	const char *what;
	const char *map;	/* the struct_ops map of the row */
	unsigned int id;	/* op id of the map (OP) */
	enum expect exp;
	int want;		/* errno (ATTACH), res (CQE), return (ENTER) */
	const char *log;	/* VERIFIER: a line the log must contain */
	enum t_fix fix;		/* the kernel fix the row needs */
	struct op_params op;
	struct loop_params lp;
	int extra;		/* X_* further checks */
};

/* further checks */
#define X_COPY		1	/* 16 bytes of buffer 1 reached buffer 2 */
#define X_FAIL_CALLED	2	/* fail_fn ran for each request */
#define X_TWO_CALLS	4	/* the loop program ran twice */
#define X_ONE_CALL	8	/* the loop program ran once */
#define X_SUBMIT0	16	/* submit_sqes(ctx, ~0U) returned 0 */
#define X_MC16		32	/* io_uring_bpf_req_memcpy() returned 16 */

#define MC_LEN 16
#define EIOCBQUEUED 529

/* the log lines the verifier prints for each kind of refusal */
#define L_NOT_SCALAR	"must point to scalar, or struct with scalar"
#define L_SCALAR_PTR	"type=scalar expected="
#define L_TRUSTED_NULL	"Possibly NULL pointer passed to trusted arg0"
#define L_SLEEPABLE	"program must be sleepable to call sleepable kfunc"
#define L_READ_ONLY	"only read is supported"
#define L_BEYOND	"access beyond struct"
#define L_MEM_OR_NULL	"invalid mem access"
#define L_WANT_DESC	"expected pointer to STRUCT bpf_req_mem_desc"

#define OPR(n, m, w, map, id, e, want, ...) \
	{ n, OP, m, w, map, id, e, want, __VA_ARGS__ }
#define LPR(n, m, w, map, e, want, ...) \
	{ n, LOOP, m, w, map, 0, e, want, __VA_ARGS__ }

static const struct row rows[] = {
	/* ---- uring_bpf_ops members left out ---- */
	OPR("op_no_prep", "prep_fn", "left out", "op_no_prep", 111, CQE, 0,
	    .fix = FIX_PREP_OPTIONAL),
	OPR("op_no_issue", "issue_fn", "left out", "op_no_issue", 112, CQE, -ECANCELED),
	OPR("op_no_fail", "fail_fn", "left out, issue_fn fails -EIO", "op_no_fail", 113,
	    CQE, -EIO, .op = { .issue_ret = -EIO }),
	OPR("op_no_cleanup", "cleanup_fn", "left out", "op_no_cleanup", 114, CQE, 0),
	OPR("op_id_only", "all four", "left out (only .id)", "op_id_only", 115, CQE,
	    -ECANCELED, .fix = FIX_PREP_OPTIONAL),
	OPR("op_fail_cleanup_only", "prep_fn, issue_fn", "left out (fail_fn, cleanup_fn set)",
	    "op_fail_cleanup_only", 116, CQE, -ECANCELED, .fix = FIX_PREP_OPTIONAL),
	/* ---- return values ---- */
	OPR("op_prep_0", "prep_fn return", "0 (issue_fn 0)", "op_full", 110, CQE, 0),
	OPR("op_prep_1", "prep_fn return", "1", "op_full", 110, CQE, -EINVAL,
	    .op = { .prep_ret = 1 }),
	OPR("op_prep_eiocbqueued", "prep_fn return", "-EIOCBQUEUED", "op_full", 110, CQE,
	    -EINVAL, .op = { .prep_ret = -EIOCBQUEUED }),
	OPR("op_prep_enomem", "prep_fn return", "-ENOMEM", "op_full", 110, CQE, -ENOMEM,
	    .op = { .prep_ret = -ENOMEM }),
	OPR("op_prep_int_min", "prep_fn return", "INT_MIN", "op_full", 110, CQE, -EINVAL,
	    .op = { .prep_ret = INT_MIN }),
	OPR("op_prep_int_max", "prep_fn return", "INT_MAX", "op_full", 110, CQE, -EINVAL,
	    .op = { .prep_ret = INT_MAX }),
	OPR("op_issue_1", "issue_fn return", "1", "op_full", 110, CQE, -EINVAL,
	    .op = { .issue_ret = 1 }),
	OPR("op_issue_eiocbqueued", "issue_fn return", "-EIOCBQUEUED", "op_full", 110, CQE,
	    -EINVAL, .op = { .issue_ret = -EIOCBQUEUED }),
	OPR("op_issue_enomem", "issue_fn return", "-ENOMEM (fail_fn runs)", "op_full", 110,
	    CQE, -ENOMEM, .op = { .issue_ret = -ENOMEM }, .extra = X_FAIL_CALLED),
	OPR("op_issue_int_min", "issue_fn return", "INT_MIN", "op_full", 110, CQE, -EINVAL,
	    .op = { .issue_ret = INT_MIN }),
	OPR("op_issue_int_max", "issue_fn return", "INT_MAX", "op_full", 110, CQE, -EINVAL,
	    .op = { .issue_ret = INT_MAX }),
	OPR("op_set_result_int_min", "uring_bpf_set_result(res)", "INT_MIN", "op_full", 110,
	    CQE, -EINVAL, .op = { .set_res_on = 1, .set_res = INT_MIN }),
	OPR("op_set_result_int_max", "uring_bpf_set_result(res)", "INT_MAX", "op_full", 110,
	    CQE, INT_MAX, .op = { .set_res_on = 1, .set_res = INT_MAX }),
	OPR("op_set_result_enomem", "uring_bpf_set_result(res)", "-ENOMEM, issue_fn 0",
	    "op_full", 110, CQE, -ENOMEM, .op = { .set_res_on = 1, .set_res = -ENOMEM }),
	OPR("op_set_result_then_fail", "uring_bpf_set_result(res)", "7, issue_fn -EIO",
	    "op_full", 110, CQE, -EIO,
	    .op = { .set_res_on = 1, .set_res = 7, .issue_ret = -EIO }),
	/* ---- writes ---- */
	OPR("op_write_pdu", "data->pdu[0..23]", "written in prep_fn, read in issue_fn",
	    "op_w_pdu", 117, CQE, 300),
	OPR("op_write_past_pdu", "data + 64", "write one byte past pdu[23]", "op_w_past",
	    118, VERIFIER, 0, NULL),
	OPR("op_read_past_pdu", "data + 64", "read one byte past pdu[23]", "op_r_past",
	    119, VERIFIER, 0, L_BEYOND),
	OPR("op_write_opf", "data->opf", "write (read-only)", "op_w_opf", 120, VERIFIER, 0,
	    NULL),
	OPR("op_write_buf1_addr", "data->buf1_addr", "write a kernel address (read-only)",
	    "op_w_buf1", 121, VERIFIER, 0, NULL),
	OPR("op_write_file", "data->file", "write (read-only)", "op_w_file", 122, VERIFIER,
	    0, NULL),
	OPR("op_write_sqe", "prep_fn's sqe", "write sqe->user_data", "op_w_sqe", 123,
	    VERIFIER, 0, L_READ_ONLY),
	OPR("op_write_req", "uring_bpf_data_to_req()", "write req->flags", "op_w_req", 124,
	    VERIFIER, 0, L_READ_ONLY),
	/* ---- io_uring_bpf_req_memcpy(data, dest, src, len) ---- */
	OPR("memcpy_desc_stack", "memcpy dest, src", "stack descriptors", "op_mc_stack",
	    130, CQE, MC_LEN, .extra = X_COPY),
	OPR("memcpy_dest_null", "memcpy dest", "NULL", "op_mc_dest_null", 131, CQE,
	    -EINVAL, .fix = FIX_MEMCPY_NULL_DESC),
	OPR("memcpy_src_null", "memcpy src", "NULL", "op_mc_src_null", 132, CQE, -EINVAL,
	    .fix = FIX_MEMCPY_NULL_DESC),
	OPR("memcpy_dest_map", "memcpy dest", "map value (NULL-checked)", "op_mc_dest_map",
	    133, CQE, MC_LEN, .extra = X_COPY),
	OPR("memcpy_dest_map_unchecked_hit", "memcpy dest",
	    "map lookup passed unchecked, key 0 (a value)", "op_mc_dest_map_unchecked", 134,
	    CQE, MC_LEN, .extra = X_COPY),
	OPR("memcpy_dest_map_unchecked_miss", "memcpy dest",
	    "map lookup passed unchecked, key 1 (NULL)", "op_mc_dest_map_unchecked", 134,
	    CQE, -EINVAL, .fix = FIX_MEMCPY_NULL_DESC, .op = { .key = 1 }),
	OPR("memcpy_dest_scalar", "memcpy dest", "a number (0x1000)", "op_mc_dest_scalar",
	    135, VERIFIER, 0, L_SCALAR_PTR),
	OPR("memcpy_src_scalar", "memcpy src", "a number (0x1000)", "op_mc_src_scalar", 136,
	    VERIFIER, 0, L_SCALAR_PTR),
	OPR("memcpy_dest_pdu", "memcpy dest", "the request's pdu (a BTF object)",
	    "op_mc_dest_pdu", 137, VERIFIER, 0, L_WANT_DESC),
	OPR("memcpy_data_null", "memcpy data", "NULL", "op_mc_data_null", 140, VERIFIER, 0,
	    L_NOT_SCALAR),
	OPR("memcpy_data_stack", "memcpy data", "stack pointer", "op_mc_data_stack", 141,
	    VERIFIER, 0, L_NOT_SCALAR),
	OPR("memcpy_data_scalar", "memcpy data", "a number (0x1000)", "op_mc_data_scalar",
	    142, VERIFIER, 0, L_NOT_SCALAR),
	OPR("memcpy_data_map", "memcpy data", "map value", "op_mc_data_map", 143, VERIFIER,
	    0, L_NOT_SCALAR),
	OPR("set_result_data_null", "uring_bpf_set_result data", "NULL", "op_setres_null",
	    144, VERIFIER, 0, L_NOT_SCALAR),
	OPR("data_to_req_null", "uring_bpf_data_to_req data", "NULL", "op_to_req_null", 145,
	    VERIFIER, 0, L_NOT_SCALAR),
	OPR("memcpy_non_sleepable", "memcpy caller", "non-sleepable issue_fn",
	    "op_mc_nonsleepable", 146, CQE, MC_LEN, .fix = FIX_MEMCPY_NON_SLEEPABLE,
	    .extra = X_COPY),
	OPR("memcpy_in_prep", "memcpy caller", "sleepable prep_fn", "op_mc_in_prep", 147,
	    CQE, 0, .extra = X_COPY | X_MC16),
	/* ---- io_uring_ops ---- */
	LPR("loop_left_out", "loop", "left out (only ring_fd)", "lo_no_loop", ATTACH,
	    -EINVAL, .fix = FIX_LOOP_REQUIRED),	/* at load (map update) or attach */
	LPR("loop_ring_fd_bad", "ring_fd", "-1", "lo_ret", ATTACH, -EBADF,
	    .lp = { .ring_fd = RING_FD_BAD }),
	LPR("loop_ring_fd_devnull", "ring_fd", "/dev/null", "lo_ret", ATTACH, -EOPNOTSUPP,
	    .lp = { .ring_fd = RING_FD_DEVNULL }),
	LPR("loop_ret_wait", "loop return", "IOU_RES_WAIT, target reached (runs again)",
	    "lo_ret", ENTER, 0, .lp = { .ret_first = 0 }, .extra = X_TWO_CALLS),
	LPR("loop_ret_stop", "loop return", "IOU_RES_STOP", "lo_ret", ENTER, 0,
	    .lp = { .ret_first = 1 }, .extra = X_ONE_CALL),
	LPR("loop_ret_2", "loop return", "2", "lo_ret", ENTER, -EINVAL,
	    .lp = { .ret_first = 2 }),
	LPR("loop_ret_minus_1", "loop return", "-1", "lo_ret", ENTER, -EINVAL,
	    .lp = { .ret_first = -1 }),
	LPR("loop_ret_int_min", "loop return", "INT_MIN", "lo_ret", ENTER, -EINVAL,
	    .lp = { .ret_first = INT_MIN }),
	LPR("loop_ret_int_max", "loop return", "INT_MAX", "lo_ret", ENTER, -EINVAL,
	    .lp = { .ret_first = INT_MAX }),
	LPR("loop_past_timeout", "ls->timeout, ls->cq_tail",
	    "1 ns (long past), target never reached", "lo_ret", ENTER, -ETIME,
	    .lp = { .past_timeout = 1 }),
	LPR("submit_ctx_null", "submit_sqes ctx", "NULL", "lo_submit_null", VERIFIER, 0,
	    L_TRUSTED_NULL),
	LPR("submit_ctx_stack", "submit_sqes ctx", "stack pointer", "lo_submit_stack",
	    VERIFIER, 0, L_NOT_SCALAR),
	LPR("submit_ctx_map", "submit_sqes ctx", "map value", "lo_submit_map", VERIFIER, 0,
	    L_NOT_SCALAR),
	LPR("submit_ctx_scalar", "submit_sqes ctx", "a number (0x1000)", "lo_submit_scalar",
	    VERIFIER, 0, L_NOT_SCALAR),
	LPR("region_ctx_null", "get_region ctx", "NULL", "lo_region_null", VERIFIER, 0,
	    L_TRUSTED_NULL),
	LPR("region_ctx_stack", "get_region ctx", "stack pointer", "lo_region_stack",
	    VERIFIER, 0, L_NOT_SCALAR),
	LPR("region_ctx_map", "get_region ctx", "map value", "lo_region_map", VERIFIER, 0,
	    L_NOT_SCALAR),
	LPR("region_ctx_scalar", "get_region ctx", "a number (0x1000)", "lo_region_scalar",
	    VERIFIER, 0, L_NOT_SCALAR),
	LPR("submit_nr_huge", "submit_sqes nr", "~0U with an empty SQ", "lo_submit_huge",
	    ENTER, 0, .extra = X_SUBMIT0),
	LPR("submit_non_sleepable", "submit_sqes caller", "non-sleepable loop",
	    "lo_submit_nonsleepable", VERIFIER, 0, L_SLEEPABLE),
	LPR("region_unchecked", "get_region return", "used without a NULL check",
	    "lo_region_unchecked", VERIFIER, 0, L_MEM_OR_NULL),
	LPR("loop_write_ctx", "ctx", "write ctx->flags", "lo_w_ctx", VERIFIER, 0, NULL),
	LPR("loop_write_ls_hole", "ls + 4", "write bytes 4-7 (between the fields)",
	    "lo_w_ls_hole", VERIFIER, 0, NULL),
	LPR("loop_write_ls_past", "ls + 16", "write one byte past the struct",
	    "lo_w_ls_past", VERIFIER, 0, NULL),
};
#define NR_ROWS (sizeof(rows) / sizeof(rows[0]))

static const struct row *cur;
static char got[256];

static const char *expect_str(const struct row *w, char *b, size_t n)
{
	char e[48];

	switch (w->exp) {
	case VERIFIER:
		snprintf(b, n, "verifier refuses%s%s%s", w->log ? " (\"" : "",
			 w->log ? w->log : "", w->log ? "\")" : "");
		break;
	case ATTACH:
		snprintf(b, n, "%s fails %s", w->fix == FIX_LOOP_REQUIRED ?
			 "load or attach" : "attach", t_fmt(e, sizeof(e), w->want));
		break;
	case CQE:
		snprintf(b, n, "CQE res %s", t_fmt(e, sizeof(e), w->want));
		break;
	case ENTER:
		snprintf(b, n, "io_uring_enter returns %s", t_fmt(e, sizeof(e), w->want));
		break;
	}
	if (w->extra & X_COPY)
		strncat(b, ", 16 bytes copied", n - strlen(b) - 1);
	if (w->extra & X_FAIL_CALLED)
		strncat(b, ", fail_fn called", n - strlen(b) - 1);
	if (w->extra & X_TWO_CALLS)
		strncat(b, ", 2 calls", n - strlen(b) - 1);
	if (w->extra & X_ONE_CALL)
		strncat(b, ", 1 call", n - strlen(b) - 1);
	if (w->extra & X_SUBMIT0)
		strncat(b, ", submit_sqes returns 0", n - strlen(b) - 1);
	if (w->extra & X_MC16)
		strncat(b, ", memcpy returns 16", n - strlen(b) - 1);
	return b;
}

/* only the row's map is created: libbpf loads only that map's programs */
static bool only_map(struct bpf_object *obj, const char *name)
{
	struct bpf_map *m;
	bool found = false;

	bpf_object__for_each_map(m, obj) {
		if (!(bpf_map__type(m) == BPF_MAP_TYPE_STRUCT_OPS))
			continue;
		bpf_map__set_autocreate(m, !strcmp(bpf_map__name(m), name));
		found |= !strcmp(bpf_map__name(m), name);
	}
	if (!found)
		FAIL("no struct_ops map '%s' in the object", name);
	return found;
}

/* the last line of the log that names the problem, for the table */
static void log_tail(char *b, size_t n)
{
	const char *s = t_libbpf_log(), *hit = NULL, *p;

	/* the line before "processed N insns" or "-- END PROG LOAD LOG --" */
	for (p = s; (p = strstr(p, "\n")); p++) {
		if (!strncmp(p + 1, "processed ", 10) ||
		    !strncmp(p + 1, "-- END PROG LOAD LOG", 20)) {
			const char *q = p;

			while (q > s && q[-1] != '\n')
				q--;
			hit = q;
			break;
		}
	}
	if (!hit) {
		snprintf(b, n, "(no verifier log)");
		return;
	}
	snprintf(b, n, "%.*s", (int)strcspn(hit, "\n"), hit);
}

/* load: true if the row goes on (loaded as expected) */
static bool check_load(int err)
{
	char line[200];

	log_tail(line, sizeof(line));
	if (cur->exp == VERIFIER) {
		if (!err) {
			FAIL("the verifier accepted it");
			snprintf(got, sizeof(got), "loaded");
			return false;
		}
		snprintf(got, sizeof(got), "refused: %s", line);
		if (cur->log && !strstr(t_libbpf_log(), cur->log))
			FAIL("refused (%d), but the log lacks \"%s\"; its last line: %s",
			     err, cur->log, line);
		return false;
	}
	if (err) {
		snprintf(got, sizeof(got), "load failed %d: %s", err, line);
		FAIL("load failed (%d): %s", err, line);
		return false;
	}
	return true;
}

/* attach: true if the row goes on (attached) */
static bool check_attach(struct bpf_map *map, struct bpf_link **link)
{
	char e[48];
	int ret = t_attach(map, link);

	if (cur->exp == ATTACH) {
		snprintf(got, sizeof(got), "attach %s", t_fmt(e, sizeof(e), ret));
		CHECK_EQ(ret, cur->want, "registering the map");
		return false;
	}
	if (ret) {
		snprintf(got, sizeof(got), "attach %s", t_fmt(e, sizeof(e), ret));
		CHECK_EQ(ret, 0, "registering the map");
		return false;
	}
	return true;
}

/* ---- IORING_OP_BPF rows ---------------------------------------------------- */

static void run_op_requests(struct hostile_op *s, struct uring *r)
{
	unsigned char src[64], dst[2][64];
	char e[48];
	int res[2] = { 0, 0 };

	for (int i = 0; i < (int)sizeof(src); i++)
		src[i] = 0xa0 + i;
	memset(dst, 0, sizeof(dst));
	for (int async = 0; async < 2; async++) {
		struct io_uring_sqe *sqe = uring_get_sqe(r);
		struct io_uring_cqe cqe;
		char msg[64];
		int ret;

		snprintf(msg, sizeof(msg), "request%s", async ? " (IOSQE_ASYNC)" : "");
		sqe_bpf(sqe, T_BPF_OP_FLAGS(cur->id, T_BPF_BUF_PLAIN, T_BPF_BUF_PLAIN, 0),
			0x100 + async);
		sqe_bpf_buf1(sqe, (uintptr_t)src, sizeof(src), 0);
		sqe_bpf_buf2(sqe, (uintptr_t)dst[async], sizeof(dst[async]));
		sqe->flags = async ? IOSQE_ASYNC : 0;
		ret = uring_submit(r);
		if (!CHECK_EQ(ret, 1, msg))
			return;
		ret = uring_wait_cqe(r, &cqe, T_CQE_TIMEOUT_MS);
		if (!CHECK_EQ(ret, 0, msg))
			return;
		res[async] = cqe.res;
		CHECK_EQ(cqe.res, cur->want, msg);
		if (cur->extra & X_COPY)
			CHECK_MEM(dst[async], src, MC_LEN, "buffer 2 after the copy");
	}
	snprintf(got, sizeof(got), "CQE res %s", t_fmt(e, sizeof(e), res[0]));
	if (res[1] != res[0])
		snprintf(got + strlen(got), sizeof(got) - strlen(got),
			 " (async %d)", res[1]);
	if (cur->extra & X_FAIL_CALLED)
		CHECK_EQ(s->bss->fail_calls, 2, "fail_fn calls");
	if (cur->extra & X_MC16)
		CHECK_EQ(s->data->mc_ret, MC_LEN, "io_uring_bpf_req_memcpy() in prep_fn");
}

static void run_op_row(void)
{
	struct bpf_link *link = NULL;
	struct hostile_op *s;
	struct bpf_map *map;
	struct uring r;
	int err;

	s = hostile_op__open();
	if (!CHECK_PTR(s, "hostile_op__open"))
		return;
	if (!only_map(s->obj, cur->map))
		goto out;
	map = bpf_object__find_map_by_name(s->obj, cur->map);
	err = hostile_op__load(s);
	if (!check_load(err))
		goto out;
	s->bss->prep_ret = cur->op.prep_ret;
	s->bss->issue_ret = cur->op.issue_ret;
	s->bss->set_res_on = cur->op.set_res_on;
	s->bss->set_res = cur->op.set_res;
	s->bss->key = cur->op.key;
	{
		/* struct bpf_req_mem_desc: buf_id 2 (the destination), offset 0 */
		struct { __u8 buf_id; __u32 offset; } d = { 2, 0 };
		__u32 k = 0;

		bpf_map__update_elem(s->maps.descs, &k, sizeof(k), &d, sizeof(d), 0);
	}
	if (!check_attach(map, &link))
		goto out;
	if (CHECK_EQ(uring_init(&r, 8, T_IORING_SETUP_BPF, 0), 0,
		     "io_uring_setup(IORING_SETUP_BPF)")) {
		run_op_requests(s, &r);
		uring_exit(&r);
	}
	/* nothing is in flight: the op id must be free again */
	t_detach(&link);
	if (CHECK_EQ(t_attach(map, &link), 0, "re-register after the ring exited"))
		t_detach(&link);
out:
	hostile_op__destroy(s);
}

/* ---- loop rows ---------------------------------------------------------- */

static void run_loop_enter(struct hostile_loop *s, struct uring *r)
{
	char e[48];
	int ret;

	ret = t_io_uring_enter(r->fd, 0, 0, IORING_ENTER_GETEVENTS, NULL, 0);
	snprintf(got, sizeof(got), "io_uring_enter %s, %d call(s)",
		 t_fmt(e, sizeof(e), ret), s->bss->calls);
	CHECK_EQ(ret, cur->want, "io_uring_enter(0, 0, GETEVENTS)");
	if (cur->extra & X_TWO_CALLS)
		CHECK_EQ(s->bss->calls, 2, "loop program calls");
	if (cur->extra & X_ONE_CALL)
		CHECK_EQ(s->bss->calls, 1, "loop program calls");
	if (cur->extra & X_SUBMIT0)
		CHECK_EQ(s->data->submit_ret, 0, "bpf_io_uring_submit_sqes(ctx, ~0U)");
}

static void run_loop_row(void)
{
	struct bpf_link *link = NULL;
	struct hostile_loop *s;
	/* every map of the object has the type of lo_ret */
	typeof(((struct hostile_loop *)0)->struct_ops.lo_ret) ops;
	struct bpf_map *map;
	struct uring r;
	size_t sz;
	int err, nullfd = -1;

	if (!CHECK_EQ(uring_init(&r, 8, T_LOOP_RING_FLAGS, 8), 0,
		      "io_uring_setup(SINGLE_ISSUER|DEFER_TASKRUN|NO_SQARRAY)"))
		return;
	s = hostile_loop__open();
	if (!CHECK_PTR(s, "hostile_loop__open"))
		goto out_ring;
	if (!only_map(s->obj, cur->map))
		goto out;
	map = bpf_object__find_map_by_name(s->obj, cur->map);
	ops = bpf_map__initial_value(map, &sz);
	if (!CHECK_PTR(ops, "the struct_ops map's data"))
		goto out;
	ops->ring_fd = r.fd;
	if (cur->lp.ring_fd == RING_FD_BAD) {
		ops->ring_fd = -1;
	} else if (cur->lp.ring_fd == RING_FD_DEVNULL) {
		nullfd = open("/dev/null", O_RDWR | O_CLOEXEC);
		ops->ring_fd = nullfd;
	}
	err = hostile_loop__load(s);
	if (cur->fix == FIX_LOOP_REQUIRED && err) {
		/* the fix refuses the map when it is loaded (->validate) */
		snprintf(got, sizeof(got), "load (map update) %d", err);
		CHECK_EQ(err, cur->want, "loading a loop ops map without .loop");
		goto out;
	}
	if (!check_load(err))
		goto out;
	s->bss->ret_first = cur->lp.ret_first;
	s->bss->past_timeout = cur->lp.past_timeout;
	if (cur->fix == FIX_LOOP_REQUIRED) {
		/*
		 * Without the fix the map registers, and the next wait calls
		 * address 0 holding uring_lock: never enter the ring then.
		 */
		err = t_attach(map, &link);
		if (!err) {
			t_detach(&link);
			snprintf(got, sizeof(got), "attached (not entered: it would oops)");
			FAIL("kernel lacks fix: %s (the map registered; the ring was "
			     "not entered, the wait would call address 0)",
			     t_fix_name(cur->fix));
			goto out;
		}
		snprintf(got, sizeof(got), "attach %d", err);
		CHECK_EQ(err, cur->want, "registering a loop ops map without .loop");
		goto out;
	}
	if (!check_attach(map, &link))
		goto out;
	run_loop_enter(s, &r);
	t_detach(&link);
out:
	hostile_loop__destroy(s);
	if (nullfd >= 0)
		close(nullfd);
out_ring:
	uring_exit(&r);
}

/* ---- the table ---------------------------------------------------------- */

static void run_row(void)
{
	char exp[160];

	got[0] = 0;
	if (cur->fix && !t_fix_present(cur->fix)) {
		/* the case would oops (or cannot pass): don't run it */
		snprintf(got, sizeof(got), "not run");
		FAIL("kernel lacks fix: %s", t_fix_name(cur->fix));
	} else if (cur->api == OP) {
		run_op_row();
	} else {
		run_loop_row();
	}
	printf("# %-13s | %-26s | %-44s | %s | got: %s\n",
	       cur->api == OP ? "uring_bpf_ops" : "io_uring_ops", cur->member,
	       cur->what, expect_str(cur, exp, sizeof(exp)), got);
}

static void markdown(void)
{
	char exp[160];

	printf("| row | API | member / argument / value | hostile | expectation | needs |\n");
	printf("| --- | --- | --- | --- | --- | --- |\n");
	for (size_t i = 0; i < NR_ROWS; i++) {
		const struct row *w = &rows[i];

		printf("| `%s` | %s | %s | %s | %s | %s |\n", w->name,
		       w->api == OP ? "op" : "loop", w->member, w->what,
		       expect_str(w, exp, sizeof(exp)),
		       w->fix ? t_fix_name(w->fix) : "");
	}
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--markdown")) {
		markdown();
		return 0;
	}
	T_INIT(argc, argv);
	if (!T.list) {
		REQUIRE_ROOT();
		REQUIRE_BTF_TYPE("uring_bpf_ops", "IORING_OP_BPF");
		REQUIRE_BTF_TYPE("io_uring_ops", "the io_uring loop hook");
		t_fixes_probe();
	}
	for (size_t i = 0; i < NR_ROWS; i++) {
		cur = &rows[i];
		t_run(rows[i].name, run_row);
	}
	return T_DONE();
}
