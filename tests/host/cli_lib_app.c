// SPDX-License-Identifier: GPL-2.0
/*
 * cli_lib_app.c - an application linking libiouring-bpf.a the way the
 * README says, without the CLI. On a kernel without the features it checks
 * the library says so (status 3); everywhere it checks the error statuses
 * and that parameters are readable and settable by name before load.
 * Usage: cli_lib_app  (exit 0 ok, 1 failure)
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <iouring-bpf.h>

static int fails;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		fails++;						\
		printf("FAIL %s:%d: ", __FILE__, __LINE__);		\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	}								\
} while (0)

int main(void)
{
	const char *bad_params[] = { "nosuch=1", NULL };
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
		CHECK(!iouring_bpf_set(h, "batch=9", &err), "set: %s", err.msg);
		CHECK(!iouring_bpf_var_int(h, "batch", &v) && v == 9,
		      "batch=9 after set, got %lld", v);
		CHECK(iouring_bpf_set_op_id(h, 3, &err) &&
		      err.status == IOURING_BPF_USAGE, "op id on a loop program");
		iouring_bpf_close(h);
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
