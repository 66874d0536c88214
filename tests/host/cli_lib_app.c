// SPDX-License-Identifier: GPL-2.0
/*
 * cli_lib_app.c - a program on the CLI's engine (engine.h, the --set
 * language of setarg.h, the one-call start of start.h), linked from the
 * internal archive without the CLI's commands. On a kernel without the features it checks
 * the library says so (status 3); everywhere it checks the error statuses
 * and that parameters are readable and settable by name before load, and
 * (where this kernel makes io_uring rings) the ring globals of a
 * SQE128|CQE32 ring, and the refusal of such a ring for an object without
 * iou_cqe_size (OBJ: examples/mainline_nops.bpf.o, if given).
 * Usage: cli_lib_app [OBJ]  (exit 0 ok, 1 failure)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "setarg.h"
#include "start.h"

static int fails;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		fails++;						\
		printf("FAIL %s:%d: ", __FILE__, __LINE__);		\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	}								\
} while (0)

/*
 * the geometry of a SQE128|CQE32 ring without SQ array (the rings region
 * ends with its CQEs), bound with its io_uring_params
 */
static void big_entries(const char *obj)
{
	struct io_uring_params p = {
		.flags = IORING_SETUP_SINGLE_ISSUER |
			 IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SQE128 |
			 IORING_SETUP_CQE32 | IORING_SETUP_NO_SQARRAY,
	};
	long long sqe = 0, cqe = 0, sqes = 0, rings = 0;
	struct iouring_bpf_error err;
	struct iouring_bpf *h;
	int fd = syscall(__NR_io_uring_setup, 8, &p);

	if (fd < 0) {
		printf("no SQE128|CQE32 ring on this kernel: geometry not checked\n");
		return;
	}
	h = iouring_bpf_open("nop-chain", &err);
	CHECK(h && !iouring_bpf_set_ring(h, fd, &p, &err),
	      "nop-chain on a SQE128|CQE32 ring: %s", err.msg);
	if (h) {
		iouring_bpf_var_int(h, "iou_sqe_size", &sqe);
		iouring_bpf_var_int(h, "iou_cqe_size", &cqe);
		iouring_bpf_var_int(h, "iou_sqes_size", &sqes);
		iouring_bpf_var_int(h, "iou_rings_size", &rings);
		CHECK(sqe == 128 && cqe == 32 && sqes == 128LL * p.sq_entries &&
		      rings == p.cq_off.cqes + 32LL * p.cq_entries,
		      "SQE128|CQE32 geometry: sqe %lld cqe %lld sqes %lld rings %lld",
		      sqe, cqe, sqes, rings);
		iouring_bpf_close(h);
	}
	if (obj) {
		h = iouring_bpf_open(obj, &err);
		CHECK(h && iouring_bpf_set_ring(h, fd, &p, &err) &&
		      err.status == IOURING_BPF_USAGE &&
		      strstr(err.msg, "no iou_cqe_size"),
		      "%s (16-byte CQEs) refused for a CQE32 ring: %s", obj,
		      err.msg);
		iouring_bpf_close(h);
	}
	close(fd);
}

/*
 * a built-in parameter's range (progs/NAME/unit.c) holds for every way
 * it is set: the start's params, --set's language, iouring_bpf_set_var();
 * a refused value leaves the old one (depth=0 would hang the
 * application's io_uring_enter())
 */
static void param_ranges(void)
{
	const struct iouring_bpf_prog *p = iouring_bpf_prog_find("nop-chain");
	const char *zero[] = { "depth=0", NULL };
	const char *big[] = { "depth=4097", NULL };
	struct setarg_res res = { 0 };
	struct iouring_bpf_error err;
	struct iouring_bpf *h;
	long long lo = -1, hi = -1, v = -1;

	CHECK(p && !iouring_bpf_prog_param_range(p, "depth", &lo, &hi) &&
	      lo == 1 && hi == 4096, "nop-chain depth range %lld..%lld", lo,
	      hi);
	CHECK(p && iouring_bpf_prog_param_range(p, "nosuch", NULL, NULL) ==
	      -ENOENT, "no range for a parameter nop-chain does not have");
	CHECK(p && iouring_bpf_prog_param_check(p, "depth", 0, &err) &&
	      err.status == IOURING_BPF_USAGE &&
	      strstr(err.msg, "depth=0 is out of range: depth takes 1..4096"),
	      "param_check depth=0: %s", err.msg);
	CHECK(p && !iouring_bpf_prog_param_check(p, "depth", 4096, &err),
	      "param_check depth=4096: %s", err.msg);

	h = iouring_bpf_attach(-1, "nop-chain", zero, &err);
	CHECK(!h && err.status == IOURING_BPF_USAGE &&
	      strstr(err.msg, "depth=0 is out of range"),
	      "attach with depth=0: %d %s", err.status, err.msg);
	iouring_bpf_detach(h);
	h = iouring_bpf_attach(-1, "nop-chain", big, &err);
	CHECK(!h && err.status == IOURING_BPF_USAGE &&
	      strstr(err.msg, "depth=4097 is out of range"),
	      "attach with depth=4097: %d %s", err.status, err.msg);
	iouring_bpf_detach(h);

	h = iouring_bpf_open("nop-chain", &err);
	CHECK(h, "open nop-chain: %s", h ? "" : err.msg);
	if (!h)
		return;
	CHECK(setarg_apply(h, &res, "depth=0", &err) &&
	      err.status == IOURING_BPF_USAGE, "set depth=0 refused");
	CHECK(iouring_bpf_set_var(h, "depth", 0, &err) &&
	      err.status == IOURING_BPF_USAGE, "set_var depth 0 refused");
	CHECK(setarg_apply(h, &res, "depth=0x1001", &err) &&
	      err.status == IOURING_BPF_USAGE, "set depth=0x1001 refused");
	CHECK(!iouring_bpf_var_int(h, "depth", &v) && v == 1,
	      "depth stays 1 after the refusals, got %lld", v);
	CHECK(setarg_apply(h, &res, "depth=18446744073709551615", &err) &&
	      err.status == IOURING_BPF_USAGE &&
	      strstr(err.msg, "does not fit"),
	      "set depth=2^64-1 (a __u32) refused: %s", err.msg);
	CHECK(setarg_apply(h, &res, "nr=18446744073709551615", &err) &&
	      err.status == IOURING_BPF_USAGE &&
	      strstr(err.msg, "out of range"),
	      "set nr=2^64-1 (a __u64 past LLONG_MAX) refused: %s", err.msg);
	CHECK(iouring_bpf_set_var(h, "depth", -1, &err) &&
	      err.status == IOURING_BPF_USAGE && strstr(err.msg, "does not fit"),
	      "set_var depth -1 (a __u32) refused: %s", err.msg);
	CHECK(iouring_bpf_set_var(h, "depth", 1LL << 32, &err) &&
	      err.status == IOURING_BPF_USAGE && strstr(err.msg, "does not fit"),
	      "set_var depth 2^32 refused: %s", err.msg);
	CHECK(setarg_apply(h, &res, "depth=@/dev/null", &err) &&
	      err.status == IOURING_BPF_USAGE && !res.nfds,
	      "a built-in takes no file, and opens none: %s", err.msg);
	CHECK(!iouring_bpf_var_int(h, "depth", &v) && v == 1,
	      "depth still 1, got %lld", v);
	CHECK(!setarg_apply(h, &res, "depth=4096", &err) &&
	      !iouring_bpf_var_int(h, "depth", &v) && v == 4096,
	      "set depth=4096: %s", err.msg);
	CHECK(!iouring_bpf_set_var(h, "nr", 0, &err),
	      "nr=0 is in range: %s", err.msg);
	CHECK(iouring_bpf_set_var(h, "nosuch", 0, &err) &&
	      err.status == IOURING_BPF_USAGE && strstr(err.msg, "its globals:"),
	      "set_var of no global names the globals: %s", err.msg);
	iouring_bpf_close(h);
	setarg_free(&res);
}

int main(int argc, char **argv)
{
	const char *bad_params[] = { "nosuch=1", NULL };
	struct setarg_res res = { 0 };
	struct iouring_bpf_error err;
	struct iouring_bpf *h;
	long long v;
	int have;

	h = iouring_bpf_attach(-1, "no-such-program", NULL, &err);
	CHECK(!h && err.status == IOURING_BPF_USAGE, "unknown program: %d %s",
	      err.status, err.msg);

	h = iouring_bpf_attach(-1, "nop", bad_params, &err);
	CHECK(!h && err.status == IOURING_BPF_USAGE &&
	      strstr(err.msg, "nosuch"), "bad parameter: %d %s", err.status,
	      err.msg);

	h = iouring_bpf_open("batch-wait", &err);
	CHECK(h, "open batch-wait: %s", h ? "" : err.msg);
	if (h) {
		CHECK(iouring_bpf_kind(h) == IOURING_BPF_KIND_LOOP, "kind");
		CHECK(!iouring_bpf_var_int(h, "batch", &v) && v == 4,
		      "default batch=4, got %lld", v);
		CHECK(!setarg_apply(h, &res, "batch=9", &err), "set: %s",
		      err.msg);
		CHECK(!iouring_bpf_var_int(h, "batch", &v) && v == 9,
		      "batch=9 after set, got %lld", v);
		CHECK(iouring_bpf_set_op_id(h, 3, &err) &&
		      err.status == IOURING_BPF_USAGE, "op id on a loop program");
		iouring_bpf_close(h);
		setarg_free(&res);
	}

	h = iouring_bpf_open("nop", &err);
	CHECK(h && iouring_bpf_kind(h) == IOURING_BPF_KIND_OP &&
	      iouring_bpf_op_id(h) == 1, "nop: an op with id 1");
	if (h) {
		CHECK(iouring_bpf_set_op_id(h, 300, &err) &&
		      err.status == IOURING_BPF_USAGE, "op id 300 refused");
		CHECK(!iouring_bpf_set_op_id(h, 200, &err) &&
		      iouring_bpf_op_id(h) == 200, "op id 200");
		iouring_bpf_close(h);
	}

	big_entries(argc > 1 ? argv[1] : NULL);
	param_ranges();

	have = iouring_bpf_kernel_has_type("uring_bpf_ops");
	if (have == 0) {
		h = iouring_bpf_attach(-1, "nop", NULL, &err);
		CHECK(!h && err.status == IOURING_BPF_NOFEATURE,
		      "attach on a kernel without the feature: %d %s",
		      err.status, err.msg);
	}
	printf("library checks done (kernel %s the features), %d failed\n",
	       have > 0 ? "has" : "lacks", fails);
	return fails ? 1 : 0;
}
