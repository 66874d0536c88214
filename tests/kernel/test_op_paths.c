// SPDX-License-Identifier: GPL-2.0
/*
 * test_op_paths - every way the kernel calls an op's programs gives the
 * same results (kernel patch 0038: non-sleepable prep_fn and issue_fn run
 * without their trampolines, sleepable ones through them under SRCU).
 *
 *   every_path     the six ops of op_paths.bpf.c (prep_fn non-sleepable,
 *                  sleepable or absent; issue_fn non-sleepable or
 *                  sleepable), each with no buffer and with a plain
 *                  buffer (pinned at prep for a non-sleepable issue_fn),
 *                  inline and from io-wq (IOSQE_ASYNC): every CQE's res,
 *                  and each program called once per request
 *   run_counts     with BPF run statistics on, each program's run_cnt
 *                  grows by one per request, direct call or trampoline
 *   reregister     all six ids register again at once after their links
 *                  are destroyed
 *
 * Programs: op_paths.bpf.c.
 */
#include <sys/mman.h>

#include "t_helpers.h"
#include "op_paths.skel.h"

#define NR_PATHS	6
#define ID_BASE		100
#define PREPPED_BIAS	7	/* res without prep_fn: this + buffer length */
#define PER_CASE	4	/* requests per (op, buffer, inline/async) */
#define BUF_LEN		8192

static struct op_paths *skel;
static struct bpf_link *links[NR_PATHS];
static struct uring ring;
static unsigned char *buf;

static struct bpf_map *path_map(int v)
{
	struct bpf_map *maps[NR_PATHS] = {
		skel->maps.path_op_0, skel->maps.path_op_1,
		skel->maps.path_op_2, skel->maps.path_op_3,
		skel->maps.path_op_4, skel->maps.path_op_5,
	};

	return maps[v];
}

static bool has_prep(int v)
{
	return v < 4;
}

static bool setup_tried, setup_ok;

/* load, attach the six ops, a ring and a buffer: once */
static bool need_setup(void)
{
	int v;

	if (setup_tried) {
		if (!setup_ok)
			FAIL("setup failed (see the first subtest that failed)");
		return setup_ok;
	}
	setup_tried = true;
	skel = op_paths__open_and_load();
	if (!CHECK_PTR(skel, "op_paths__open_and_load"))
		return false;
	for (v = 0; v < NR_PATHS; v++)
		if (!CHECK_EQ(t_attach(path_map(v), &links[v]), 0,
			      "register an op"))
			return false;
	if (!CHECK_EQ(uring_init(&ring, 64, T_IORING_SETUP_BPF, 0), 0,
		      "io_uring_setup(IORING_SETUP_BPF)"))
		return false;
	buf = mmap(NULL, BUF_LEN, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!CHECK_NE((long)buf, (long)MAP_FAILED, "mmap"))
		return false;
	setup_ok = true;
	return true;
}

/* PER_CASE requests of op v; res checked; false on a failed check */
static bool run_case(int v, bool plain, bool async)
{
	unsigned int len = plain ? BUF_LEN - v : 0;
	struct io_uring_cqe cqe;
	bool ok = true;
	int i, ret;

	for (i = 0; i < PER_CASE; i++) {
		struct io_uring_sqe *sqe = uring_get_sqe(&ring);
		unsigned int off = 1000 * (v + 1) + i;

		if (!CHECK_PTR(sqe, "an SQE"))
			return false;
		sqe_bpf(sqe, T_BPF_OP_FLAGS(ID_BASE + v, plain ?
				T_BPF_BUF_PLAIN : T_BPF_BUF_NONE,
				T_BPF_BUF_NONE, 0), i);
		if (plain)
			sqe_bpf_buf1(sqe, (uintptr_t)buf, len, 0);
		sqe->off = off;
		sqe->flags = async ? IOSQE_ASYNC : 0;
	}
	ret = uring_submit(&ring);
	if (!CHECK_EQ(ret, PER_CASE, "submit"))
		return false;
	for (i = 0; i < PER_CASE; i++) {
		long long want;

		ret = uring_wait_cqe(&ring, &cqe, T_CQE_TIMEOUT_MS);
		if (!CHECK_EQ(ret, 0, "a CQE"))
			return false;
		want = has_prep(v) ? 1000 * (v + 1) + cqe.user_data :
			PREPPED_BIAS;
		want += len;
		if (cqe.res != want) {
			FAIL("op %d (%s buffer, %s) request %llu: res %d, want %lld",
			     v, plain ? "plain" : "no", async ? "io-wq" : "inline",
			     (unsigned long long)cqe.user_data, cqe.res, want);
			ok = false;
		}
	}
	return ok;
}

static void t_every_path(void)
{
	int v, p, a, want;

	if (!need_setup())
		return;
	for (v = 0; v < NR_PATHS; v++)
		for (p = 0; p < 2; p++)
			for (a = 0; a < 2; a++)
				if (!run_case(v, p, a))
					return;
	want = 2 * 2 * PER_CASE;
	for (v = 0; v < NR_PATHS; v++) {
		CHECK_EQ(skel->bss->issue_calls[v], want, "issue_fn calls");
		CHECK_EQ(skel->bss->prep_calls[v], has_prep(v) ? want : 0,
			 "prep_fn calls");
	}
}

static long long run_cnt(struct bpf_program *prog)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_prog_get_info_by_fd(bpf_program__fd(prog), &info, &len))
		return -errno;
	return info.run_cnt;
}

static void t_run_counts(void)
{
	struct bpf_program *issue[NR_PATHS], *prep[NR_PATHS] = { NULL };
	long long before[NR_PATHS], pbefore[NR_PATHS] = { 0 };
	int v, fd;

	if (!need_setup())
		return;
	fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (!CHECK_NE(fd, -1, "bpf(BPF_ENABLE_STATS)"))
		return;
	issue[0] = skel->progs.issue_0; prep[0] = skel->progs.prep_0;
	issue[1] = skel->progs.issue_1; prep[1] = skel->progs.prep_1;
	issue[2] = skel->progs.issue_2; prep[2] = skel->progs.prep_2;
	issue[3] = skel->progs.issue_3; prep[3] = skel->progs.prep_3;
	issue[4] = skel->progs.issue_4;
	issue[5] = skel->progs.issue_5;
	for (v = 0; v < NR_PATHS; v++) {
		before[v] = run_cnt(issue[v]);
		if (prep[v])
			pbefore[v] = run_cnt(prep[v]);
	}
	for (v = 0; v < NR_PATHS; v++)
		if (!run_case(v, false, false))
			goto out;
	for (v = 0; v < NR_PATHS; v++) {
		CHECK_EQ(run_cnt(issue[v]) - before[v], PER_CASE,
			 "issue_fn run_cnt growth");
		if (prep[v])
			CHECK_EQ(run_cnt(prep[v]) - pbefore[v], PER_CASE,
				 "prep_fn run_cnt growth");
	}
out:
	close(fd);
}

static void t_reregister(void)
{
	int v;

	if (!need_setup())
		return;
	for (v = 0; v < NR_PATHS; v++)
		t_detach(&links[v]);
	for (v = 0; v < NR_PATHS; v++)
		CHECK_EQ(t_attach(path_map(v), &links[v]), 0,
			 "register the id again");
	/* run_case() reports what failed */
	run_case(0, true, false);
}

int main(int argc, char **argv)
{
	int v;

	T_INIT(argc, argv);
	REQUIRE_ROOT();
	REQUIRE_BTF_TYPE("uring_bpf_ops", "IORING_OP_BPF");
	REQUIRE_BTF_TYPE("uring_bpf_data", "IORING_OP_BPF");

	RUN(t_every_path);
	RUN(t_run_counts);
	RUN(t_reregister);

	if (setup_ok)
		uring_exit(&ring);
	for (v = 0; v < NR_PATHS; v++)
		t_detach(&links[v]);
	if (skel)
		op_paths__destroy(skel);
	return T_DONE();
}
