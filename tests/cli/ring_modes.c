// SPDX-License-Identifier: GPL-2.0
/*
 * ring_modes.c - every built-in loop program through libiouring-bpf on
 * the three SQ modes of a ring: an SQ array, IORING_SETUP_NO_SQARRAY, and
 * IORING_SETUP_SQ_REWIND (Linux 7.0+, with NO_SQARRAY: the kernel takes
 * SQEs from index 0 on every submit, head and tail stay 0). One program
 * object serves every mode; the library tells it the mode when it binds
 * the ring (progs/iouring_bpf.h, "The three SQ modes").
 *
 * Per mode, on a SINGLE_ISSUER|DEFER_TASKRUN ring made with io_uring_setup():
 *  - nop-chain, 1000 NOPs at depth 1 (ring given by fd alone: the library
 *    reads its flags from the kernel) and at depth 4 (with its
 *    io_uring_params): one io_uring_enter(), completed == issued == 1000,
 *    no error (it checks every CQE's user_data), the SQ head and tail as
 *    the mode wants them (1000, or 0 and 0 on SQ_REWIND), iou_sq_rewind as
 *    the mode; after detach one NOP from user space completes;
 *  - copy, a 1 MiB + 123 byte file in 64 KiB blocks: the output is
 *    identical, the program says DONE;
 *  - batch-wait, cq-stats, hybrid-poll (they submit the application's
 *    SQEs): two rounds of 4 NOPs queued by the application complete, in
 *    order, each once; on SQ_REWIND the application stores the count in
 *    the SQ tail and the program zeroes it (progs/iouring_bpf.h, "The
 *    application's SQEs on an SQ_REWIND ring"); cq-stats: a further call
 *    with nothing queued submits nothing, and on SQ_REWIND a tail above
 *    sq_entries stops it with an error and no request;
 *  - with $RING_MODES_APP_OBJ (build/progs/cq_stats.bpf.o), on SQ_REWIND:
 *    the object with iou_app_sqes set to 1 (built with a header that had
 *    no count in the tail) is refused at attach (USAGE);
 *  - with $RING_MODES_TAIL_OBJ (examples/mainline_nops.bpf.o), on the
 *    NO_SQARRAY rings: an object of liburing's style that fills SQEs at
 *    the SQ tail runs, and is refused (USAGE) on SQ_REWIND;
 *  - SQ_REWIND only: io_uring_params that claim SQ_REWIND for a ring
 *    without it: nop-chain stops with an error and completes nothing.
 * On a kernel without SQ_REWIND (the project's 6.12: there bit 20 is
 * IORING_SETUP_BPF) the SQ_REWIND mode is not run and said so.
 *
 * Usage: ring_modes [sqarray|nosqarray|rewind]...  (default: all three)
 * Files go to a directory made in $TMPDIR (default /tmp).
 * Exit: 0 every check held, 1 a check failed, 77 no loop hook.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "start.h"	/* the engine's one-call start */
#include "ring.h"

/* Debian 12's headers predate it; our own name, not liburing's */
#define RM_SETUP_SQ_REWIND	(1U << 20)

#define NR		1000
#define COPY_SIZE	(1024 * 1024 + 123)

static int fails, rewind_ran;

#include "check_line.h"

struct mode {
	const char	*name;
	unsigned int	flags;
};

static const struct mode modes[] = {
	{ "sqarray",	0 },
	{ "nosqarray",	IORING_SETUP_NO_SQARRAY },
	{ "rewind",	IORING_SETUP_NO_SQARRAY | RM_SETUP_SQ_REWIND },
};

static int is_rewind(const struct mode *m)
{
	return !!(m->flags & RM_SETUP_SQ_REWIND);
}

static int make_ring(struct ring *r, const struct mode *m)
{
	int ret = ring_init(r, 8, 32, IORING_SETUP_SINGLE_ISSUER |
			    IORING_SETUP_DEFER_TASKRUN | m->flags);

	if (ret)
		printf("FAIL: a %s ring: %s\n", m->name, strerror(-ret));
	return ret;
}

/* the exit info's kind and message, for the output */
static int exit_kind(struct iouring_bpf *h, char *msg, size_t len)
{
	struct iou_exit_info ei;
	int kind = iouring_bpf_exit_info(h, &ei);

	snprintf(msg, len, "%s", kind < 0 ? "(no exit info)" : ei.msg);
	return kind;
}

/* one NOP from user space, by hand (the program moved the SQ tail) */
static int user_nop(struct ring *r, const struct mode *m)
{
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	unsigned int idx = 0, head;
	int ret;

	if (!is_rewind(m))
		idx = *r->sq_tail & r->sq_mask;
	if (r->sq_array)
		r->sq_array[idx] = idx;
	sqe = &r->sqes[idx];
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_NOP;
	sqe->user_data = 0xfeed;
	if (!is_rewind(m))	/* SQ_REWIND: the tail stays 0 */
		__atomic_store_n(r->sq_tail, *r->sq_tail + 1, __ATOMIC_RELEASE);
	ret = io_uring_enter_raw(r->fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0);
	if (ret < 0)
		return ret;
	head = *r->cq_head;
	if (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE))
		return -ENODATA;
	cqe = &r->cqes[head & r->cq_mask];
	ret = cqe->user_data == 0xfeed ? cqe->res : -EPROTO;
	__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
	return ret;
}

static void nop_chain(const struct mode *m, int depth, int by_fd)
{
	char nr[32], dp[32], msg[IOU_EXIT_MSG_LEN];
	const char *params[] = { nr, dp, NULL };
	unsigned int want = is_rewind(m) ? 0 : NR;
	long long done = -1, issued = -1, errors = -1, rw = -1;
	struct iouring_bpf_error err;
	struct iouring_bpf *h;
	struct ring r;
	int ret, kind;

	if (make_ring(&r, m)) {
		fails++;
		return;
	}
	snprintf(nr, sizeof(nr), "nr=%d", NR);
	snprintf(dp, sizeof(dp), "depth=%d", depth);
	h = iouring_bpf_open("nop-chain", &err);
	if (h && iouring_bpf_start(h, r.fd, by_fd ? NULL : &r.p, params,
				   &err)) {
		iouring_bpf_close(h);
		h = NULL;
	}
	CHECK(h, "%s: attach nop-chain (depth %d, ring by %s)%s%s", m->name,
	      depth, by_fd ? "fd" : "fd and params", h ? "" : ": ",
	      h ? "" : err.msg);
	if (!h) {
		ring_exit(&r);
		return;
	}
	ret = io_uring_enter_raw(r.fd, 0, 0, IORING_ENTER_GETEVENTS, NULL, 0);
	iouring_bpf_var_int(h, "completed", &done);
	iouring_bpf_var_int(h, "issued", &issued);
	iouring_bpf_var_int(h, "errors", &errors);
	iouring_bpf_var_int(h, "iou_sq_rewind", &rw);
	kind = exit_kind(h, msg, sizeof(msg));
	CHECK(ret == 0 && done == NR && issued == NR && !errors &&
	      kind == IOU_EXIT_KIND_DONE,
	      "%s: one enter (ret %d): completed %lld of %d, issued %lld, errors %lld, exit %d \"%s\"",
	      m->name, ret, done, NR, issued, errors, kind, msg);
	CHECK(*r.sq_head == want && *r.sq_tail == want && *r.cq_head == NR &&
	      *r.cq_tail == NR,
	      "%s: SQ head %u tail %u (want %u), CQ head %u tail %u (want %d)",
	      m->name, *r.sq_head, *r.sq_tail, want, *r.cq_head, *r.cq_tail,
	      NR);
	CHECK(rw == is_rewind(m), "%s: the library set iou_sq_rewind to %lld",
	      m->name, rw);
	iouring_bpf_detach(h);
	ret = user_nop(&r, m);
	CHECK(ret == 0, "%s: after detach a NOP from user space: res %d",
	      m->name, ret);
	ring_exit(&r);
}

static int fill_file(const char *path, size_t size)
{
	unsigned int seed = 12345;
	char *b = malloc(size);
	size_t i;
	int fd, ok;

	if (!b)
		return -1;
	for (i = 0; i < size; i++) {
		seed = seed * 1103515245 + 12345;
		b[i] = seed >> 16;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ok = fd >= 0 && write(fd, b, size) == (ssize_t)size;
	if (fd >= 0)
		close(fd);
	free(b);
	return ok ? 0 : -1;
}

/* 1 if the two files have the same bytes */
static int same_file(const char *a, const char *b)
{
	char ba[65536], bb[65536];
	int fa = open(a, O_RDONLY), fb = open(b, O_RDONLY), same = 0;
	ssize_t na, nb;

	if (fa < 0 || fb < 0)
		goto out;
	for (;;) {
		na = read(fa, ba, sizeof(ba));
		nb = read(fb, bb, sizeof(bb));
		if (na != nb || na < 0 || memcmp(ba, bb, na))
			goto out;
		if (!na)
			break;
	}
	same = 1;
out:
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return same;
}

static void run_copy(const struct mode *m, const char *dir)
{
	char in[256], out[256], fi[32], fo[32], fb[48], msg[IOU_EXIT_MSG_LEN];
	const char *params[] = { fi, fo, fb, "block=65536", NULL };
	static char buf[65536] __attribute__((aligned(4096)));
	struct iouring_bpf_error err;
	struct iouring_bpf *h;
	long long written = -1;
	int ret, kind, fdi, fdo;
	struct ring r;

	snprintf(in, sizeof(in), "%s/copy-in", dir);
	snprintf(out, sizeof(out), "%s/copy-out-%s", dir, m->name);
	if (fill_file(in, COPY_SIZE)) {
		CHECK(0, "%s: cannot write %s", m->name, in);
		return;
	}
	fdi = open(in, O_RDONLY);
	fdo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (make_ring(&r, m) || fdi < 0 || fdo < 0) {
		CHECK(0, "%s: copy setup", m->name);
		goto out;
	}
	snprintf(fi, sizeof(fi), "fd_in=%d", fdi);
	snprintf(fo, sizeof(fo), "fd_out=%d", fdo);
	/* a built-in takes numbers only: the buffer's address */
	snprintf(fb, sizeof(fb), "buf=%llu", (unsigned long long)(unsigned long)buf);
	h = iouring_bpf_attach(r.fd, "copy", params, &err);
	CHECK(h, "%s: attach copy%s%s", m->name, h ? "" : ": ",
	      h ? "" : err.msg);
	if (h) {
		ret = io_uring_enter_raw(r.fd, 0, 0, IORING_ENTER_GETEVENTS,
					 NULL, 0);
		iouring_bpf_var_int(h, "bytes_written", &written);
		kind = exit_kind(h, msg, sizeof(msg));
		CHECK(ret == 0 && kind == IOU_EXIT_KIND_DONE &&
		      written == COPY_SIZE,
		      "%s: copy: enter %d, exit %d \"%s\", %lld of %d bytes written",
		      m->name, ret, kind, msg, written, COPY_SIZE);
		iouring_bpf_detach(h);
		CHECK(same_file(in, out), "%s: copy: the output is identical",
		      m->name);
	}
	ring_exit(&r);
out:
	if (fdi >= 0)
		close(fdi);
	if (fdo >= 0)
		close(fdo);
	unlink(out);
}

/*
 * one round of the application's SQEs: 4 NOPs (user_data first..first+3)
 * queued by ring_get_sqe() and published by ring_flush(): the SQ tail
 * moves, or on SQ_REWIND it holds the count (progs/iouring_bpf.h, "The
 * application's SQEs on an SQ_REWIND ring"). The number of CQEs reaped,
 * the wrong ones in *bad.
 */
static unsigned int app_round(struct ring *r, const struct mode *m,
			      const char *prog, __u64 first, unsigned int *bad)
{
	unsigned int i, got = 0, pending;
	int tries;

	for (i = 0; i < 4; i++)
		ring_prep_nop(ring_get_sqe(r), first + i);
	/*
	 * to_submit: v3's kernel submits them before the program runs,
	 * mainline's hook ignores it and the program submits them
	 */
	pending = ring_flush(r);
	for (tries = 0; tries < 20 && ring_cq_ready(r) < 4; tries++, pending = 0)
		if (io_uring_enter_raw(r->fd, pending, 0,
				       IORING_ENTER_GETEVENTS, NULL, 0) < 0)
			break;
	if (is_rewind(m)) {
		CHECK(*r->sq_tail == 0 && *r->sq_head == 0,
		      "%s: %s took the count from the SQ tail and zeroed it (tail %u, head %u)",
		      m->name, prog, *r->sq_tail, *r->sq_head);
		r->sqe_tail = 0;	/* the next SQE goes to index 0 */
	}
	while (ring_cq_ready(r)) {
		struct io_uring_cqe *cqe = ring_peek_cqe(r);

		*bad += cqe->res != 0 || cqe->user_data != first + got;
		got++;
		ring_cq_advance(r, 1);
	}
	return got;
}

/* an SQ_REWIND tail that is no count: the program refuses it */
static void app_bad_count(struct ring *r, struct iouring_bpf *h,
			  const char *prog)
{
	char msg[IOU_EXIT_MSG_LEN];
	int ret, kind;

	__atomic_store_n(r->sq_tail, r->sq_entries + 1, __ATOMIC_RELEASE);
	ret = io_uring_enter_raw(r->fd, 0, 0, IORING_ENTER_GETEVENTS, NULL, 0);
	kind = exit_kind(h, msg, sizeof(msg));
	CHECK(ret == 0 && kind == IOU_EXIT_KIND_ERROR &&
	      strstr(msg, "SQ tail above sq_entries") && !ring_cq_ready(r) &&
	      *r->sq_tail == 0,
	      "rewind: %s refuses an SQ tail of sq_entries + 1: enter %d, exit %d \"%s\", %u CQEs, tail now %u",
	      prog, ret, kind, msg, ring_cq_ready(r), *r->sq_tail);
}

/*
 * a program that submits the application's SQEs, on every mode: two
 * rounds of 4 NOPs complete, in order, each once (on SQ_REWIND both at
 * index 0..3); cq-stats, whose wait returns when nothing is in flight:
 * a further call submits nothing again, and on SQ_REWIND a tail that is
 * no count stops it with an error
 */
static void app_sqes(const struct mode *m, const char *prog)
{
	struct iouring_bpf_error err;
	struct iouring_bpf *h;
	unsigned int got, bad = 0, want_head = is_rewind(m) ? 0 : 8;
	struct ring r;

	if (make_ring(&r, m)) {
		fails++;
		return;
	}
	h = iouring_bpf_attach(r.fd, prog, NULL, &err);
	CHECK(h, "%s: attach %s%s%s", m->name, prog, h ? "" : ": ",
	      h ? "" : err.msg);
	if (!h) {
		ring_exit(&r);
		return;
	}
	got = app_round(&r, m, prog, 1, &bad);
	got += app_round(&r, m, prog, 5, &bad);
	CHECK(got == 8 && !bad && *r.sq_head == want_head,
	      "%s: %s: the application's 2 x 4 NOPs completed (%u CQEs, %u wrong, SQ head %u, want %u)",
	      m->name, prog, got, bad, *r.sq_head, want_head);
	if (!strcmp(prog, "cq-stats")) {
		long long cqes = -1, submits = -1;
		int ret = io_uring_enter_raw(r.fd, 0, 0, IORING_ENTER_GETEVENTS,
					     NULL, 0);

		iouring_bpf_var_int(h, "nr_cqes", &cqes);
		iouring_bpf_var_int(h, "submits", &submits);
		CHECK(ret == 0 && !ring_cq_ready(&r) && cqes == 8,
		      "%s: %s: a call with nothing queued submits nothing (enter %d, %u new CQEs; it counted %lld CQEs, %lld submitting calls)",
		      m->name, prog, ret, ring_cq_ready(&r), cqes, submits);
		if (is_rewind(m))
			app_bad_count(&r, h, prog);
	}
	iouring_bpf_detach(h);
	ring_exit(&r);
}

/*
 * an object that submits the application's SQEs, built before the SQ
 * tail carried their count on SQ_REWIND (iou_app_sqes 1): refused there
 */
static void app_sqes_old(const struct mode *m, const char *obj)
{
	struct iouring_bpf_error err;
	struct iouring_bpf *h;
	struct ring r;
	int ret;

	if (make_ring(&r, m)) {
		fails++;
		return;
	}
	h = iouring_bpf_open(obj, &err);
	ret = h ? iouring_bpf_set_var(h, "iou_app_sqes", 1, &err) : -1;
	if (!ret)
		ret = iouring_bpf_start(h, r.fd, NULL, NULL, &err);
	CHECK(h && ret && err.status == IOURING_BPF_USAGE &&
	      strstr(err.msg, "SQ_REWIND") &&
	      strstr(err.msg, "rebuild it with the current iouring_bpf.h"),
	      "%s: an object with iou_app_sqes 1 (an older header) is refused (status %d): %s",
	      m->name, ret ? err.status : 0, ret ? err.msg : "attached");
	iouring_bpf_close(h);
	ring_exit(&r);
}

/* params that say SQ_REWIND for a ring without it: no wrong result */
static void wrong_params(void)
{
	const char *params[] = { "nr=100", NULL };
	char msg[IOU_EXIT_MSG_LEN];
	struct io_uring_params p;
	struct iouring_bpf_error err;
	struct iouring_bpf *h;
	long long done = -1;
	struct ring r;
	int ret, kind;

	if (make_ring(&r, &modes[1])) {
		fails++;
		return;
	}
	p = r.p;
	p.flags |= RM_SETUP_SQ_REWIND;
	h = iouring_bpf_open("nop-chain", &err);
	ret = h ? iouring_bpf_start(h, r.fd, &p, params, &err) : -1;
	CHECK(h && !ret, "params claiming SQ_REWIND for a NO_SQARRAY ring: attach%s%s",
	      ret ? ": " : "", ret ? err.msg : "");
	if (h && !ret) {
		ret = io_uring_enter_raw(r.fd, 0, 0, IORING_ENTER_GETEVENTS,
					 NULL, 0);
		iouring_bpf_var_int(h, "completed", &done);
		kind = exit_kind(h, msg, sizeof(msg));
		CHECK(kind == IOU_EXIT_KIND_ERROR && done == 0 &&
		      *r.sq_head == 0,
		      "the program saw the wrong mode and stopped: exit %d \"%s\", completed %lld",
		      kind, msg, done);
	}
	iouring_bpf_close(h);
	ring_exit(&r);
}

/*
 * an object that fills SQEs at the SQ tail and does not know SQ_REWIND
 * (examples/mainline_nops.bpf.o: liburing's names, sq_tail_offset): on an
 * SQ_REWIND ring its second NOP would go where the kernel never looks
 */
static void tail_object(const struct mode *m, const char *obj)
{
	const char *params[] = { "nr=5", NULL };
	struct iouring_bpf_error err;
	struct iouring_bpf *h;
	struct ring r;

	if (make_ring(&r, m)) {
		fails++;
		return;
	}
	h = iouring_bpf_attach(r.fd, obj, params, &err);
	if (!h && err.status == IOURING_BPF_NOFEATURE) {
		/* written for mainline's hook only: not on our kernel */
		printf("not run: %s: %s\n", m->name, err.msg);
		ring_exit(&r);
		return;
	}
	if (is_rewind(m)) {
		CHECK(!h && err.status == IOURING_BPF_USAGE &&
		      strstr(err.msg, "SQ tail") &&
		      strstr(err.msg, "SQ_REWIND"),
		      "%s: an object that fills SQEs at the tail is refused (status %d): %s",
		      m->name, h ? 0 : err.status, h ? "attached" : err.msg);
	} else {
		int ret = h ? io_uring_enter_raw(r.fd, 0, 0,
						 IORING_ENTER_GETEVENTS, NULL,
						 0) : -1;

		CHECK(h && !ret && *r.sq_tail == 5 && *r.cq_head == 5,
		      "%s: %s ran 5 NOPs (enter %d, SQ tail %u, CQ head %u)%s%s",
		      m->name, obj, ret, *r.sq_tail, *r.cq_head,
		      h ? "" : ": ", h ? "" : err.msg);
	}
	iouring_bpf_detach(h);
	ring_exit(&r);
}

static void run_mode(const struct mode *m, const char *dir)
{
	enum iouring_bpf_loop_api api = iouring_bpf_kernel_loop_api();

	if (is_rewind(m) && api != IOURING_BPF_LOOP_71 &&
	    api != IOURING_BPF_LOOP_72) {
		printf("not run: %s: kernel has the %s loop hook and no SQ_REWIND (bit 20 is IORING_SETUP_BPF there)\n",
		       m->name, iouring_bpf_loop_api_key(api));
		return;
	}
	rewind_ran += is_rewind(m);
	nop_chain(m, 1, 1);
	nop_chain(m, 4, 0);
	run_copy(m, dir);
	app_sqes(m, "batch-wait");
	app_sqes(m, "cq-stats");
	app_sqes(m, "hybrid-poll");
	if (getenv("RING_MODES_APP_OBJ") && is_rewind(m))
		app_sqes_old(m, getenv("RING_MODES_APP_OBJ"));
	/* mainline_nops assumes NO_SQARRAY: not on the SQ-array ring */
	if (getenv("RING_MODES_TAIL_OBJ") && m->flags)
		tail_object(m, getenv("RING_MODES_TAIL_OBJ"));
	if (is_rewind(m))
		wrong_params();
}

int main(int argc, char **argv)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char dir[200], path[240];
	size_t i;
	int a;

	if (iouring_bpf_kernel_loop_api() == IOURING_BPF_LOOP_NONE) {
		printf("kernel has no loop hook\n");
		return 77;
	}
	snprintf(dir, sizeof(dir), "%s/ring_modes.XXXXXX", tmp);
	if (!mkdtemp(dir)) {
		fprintf(stderr, "ring_modes: cannot make a directory in %s: %s (set TMPDIR)\n",
			tmp, strerror(errno));
		return 1;
	}
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		for (a = 1; a < argc; a++)
			if (!strcmp(argv[a], modes[i].name))
				break;
		if (argc == 1 || a < argc)
			run_mode(&modes[i], dir);
	}
	snprintf(path, sizeof(path), "%s/copy-in", dir);
	unlink(path);
	rmdir(dir);
	printf("%s: %d failed checks; SQ_REWIND %s\n", fails ? "FAIL" : "ok",
	       fails, rewind_ran ? "tested" : "not tested (kernel has none)");
	return fails ? 1 : 0;
}
