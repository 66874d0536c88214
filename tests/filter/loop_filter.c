// SPDX-License-Identifier: GPL-2.0
/*
 * loop_filter.c - a ring filter and a loop program on the same ring: the
 * filter judges the requests the program submits from inside
 * io_uring_enter() as it judges the application's. nop-chain (nr=10) is
 * attached to two loop rings; the second has the filter "deny nop". On
 * the first, 10 NOPs complete with 0; on the second, the first NOP the
 * program submits completes with -EACCES and nop-chain stops with an
 * error whose code is that result (-13).
 *
 * Usage: loop_filter. Exit 0 pass, 1 fail, 77 (with the reason as the
 * last line) if the kernel lacks the loop hook or filters. Needs the
 * privileges to load BPF (root).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "start.h"	/* the engine's one-call start */

static int skip(const struct iouring_bpf_error *err)
{
	printf("%s\n", err->msg);
	return 77;
}

/* attach nop-chain to a new loop ring (with the policy, if any), run it */
static int run(const char *policy, long long *completed, long long *errors,
	       struct iou_exit_info *ei)
{
	const char *params[] = { "nr=10", NULL };
	struct iouring_bpf_error err;
	struct io_uring_params p;
	struct iouring_bpf_filter *f;
	struct iouring_bpf *h;
	int fd, ret;

	memset(&p, 0, sizeof(p));
	fd = iou_ring_setup(IOURING_BPF_KIND_LOOP, 64, &p, &err);
	if (fd < 0)
		return err.status == IOURING_BPF_NOFEATURE ? skip(&err) : 1;
	if (policy) {
		f = iouring_bpf_filter_compile(policy, "deny-nop", NULL, &err);
		if (!f || iouring_bpf_filter_apply(f, fd, &err)) {
			iouring_bpf_filter_free(f);
			if (err.status == IOURING_BPF_NOFEATURE)
				return skip(&err);
			printf("FAIL: filter: %s\n", err.msg);
			return 1;
		}
		iouring_bpf_filter_free(f);
	}
	h = iouring_bpf_attach(fd, "nop-chain", params, &err);
	if (!h) {
		if (err.status == IOURING_BPF_NOFEATURE)
			return skip(&err);
		printf("FAIL: attach nop-chain: %s\n", err.msg);
		return 1;
	}
	ret = syscall(__NR_io_uring_enter, fd, 0, 0, IORING_ENTER_GETEVENTS,
		      NULL, 0);
	printf("%s: io_uring_enter returned %d\n", policy ? "deny nop" : "no filter",
	       ret < 0 ? -errno : ret);
	iouring_bpf_var_int(h, "completed", completed);
	iouring_bpf_var_int(h, "errors", errors);
	iouring_bpf_exit_info(h, ei);
	iouring_bpf_detach(h);
	close(fd);
	return 0;
}

int main(void)
{
	struct iou_exit_info e1 = { 0 }, e2 = { 0 };
	long long c1 = -1, c2 = -1, x1 = -1, x2 = -1;
	int ret, fails = 0;

	ret = run(NULL, &c1, &x1, &e1);
	if (ret)
		return ret;
	printf("  completed %lld, errors %lld, exit kind %d code %lld: %s\n",
	       c1, x1, e1.kind, (long long)e1.code, e1.msg);
	ret = run("default allow\ndeny nop\n", &c2, &x2, &e2);
	if (ret)
		return ret;
	printf("  completed %lld, errors %lld, exit kind %d code %lld: %s\n",
	       c2, x2, e2.kind, (long long)e2.code, e2.msg);
	if (c1 != 10 || x1 != 0 || e1.kind != IOU_EXIT_KIND_DONE) {
		printf("FAIL: without a filter nop-chain must complete 10 NOPs\n");
		fails++;
	}
	if (e2.kind != IOU_EXIT_KIND_ERROR || e2.code != -EACCES) {
		printf("FAIL: with 'deny nop' the program's first NOP must fail with -EACCES and stop it\n");
		fails++;
	}
	if (c2 > 0) {
		printf("FAIL: with 'deny nop', %lld NOPs completed with 0\n", c2);
		fails++;
	}
	printf("%s\n", fails ? "FAIL" : "ok: the ring filter denied the NOPs the loop program submitted");
	return fails ? 1 : 0;
}
