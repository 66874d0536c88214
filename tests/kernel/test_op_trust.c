// SPDX-License-Identifier: GPL-2.0
/*
 * test_op_trust - an unprivileged process can't keep a global op id from
 * its owner (issue 9 item 3, kernel patch 0015; the trust model is in
 * docs/kernel-abi.md, IORING_OP_BPF "Behaviour").
 *
 * A child drops to uid/gid 65534, sets up an IORING_SETUP_BPF ring (no
 * privilege needed) and queues an IORING_OP_BPF request (plain buffer:
 * pinned at prep, the op's issue_fn isn't sleepable) linked behind a
 * POLL_ADD on a pipe that nobody writes. Root then unregisters the op
 * and must register the id again at once. The queued request belongs to
 * the old registration: when it is finally issued it completes with
 * -ECANCELED, and neither registration's programs run for it.
 *
 *   queued_request_does_not_pin  the pipe is written after the
 *                                re-registration: the request completes
 *   ring_closed_with_queued_request  the child is killed instead: its ring
 *                                is closed with the request queued
 *
 * With a reference per request instead (as the series had it before
 * 0015 took its final form) the re-registration failed with -EBUSY until
 * the child was gone, and the queued request ran the old op's programs.
 * Programs: op_trust.bpf.c.
 */
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "t_helpers.h"
#include "op_trust.skel.h"

#define ID_TRUST	90
#define OLD_RES		1111
#define NEW_RES		2222
#define NOBODY		65534
#define IORING_OP_POLL_ADD_	6

/* what the unprivileged child reports on its status pipe */
struct t_msg {
	int kind;		/* MSG_QUEUED or MSG_DONE */
	int a, b;		/* QUEUED: submit's result, euid; DONE: the CQEs' res */
};

enum { MSG_QUEUED = 1, MSG_DONE = 2 };
enum { CHILD_WAIT, CHILD_HOLD };

static struct op_trust *skel;

static void child_send(int fd, int kind, int a, int b)
{
	struct t_msg m = { kind, a, b };

	if (write(fd, &m, sizeof(m)) != sizeof(m))
		_exit(3);
}

/*
 * The unprivileged process: POLL_ADD(poll_fd) -> IORING_OP_BPF(op), then
 * either wait for both CQEs (CHILD_WAIT) or block until killed.
 */
static void child_run(int poll_fd, int st_fd, int mode)
{
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe *sqe;
	int res_poll = 0, res_bpf = 0;
	struct uring r;
	void *buf;
	int ret, n;

	/*
	 * Keep nothing of the parent's but the two pipes: an inherited
	 * struct_ops link fd would keep the op registered.
	 */
	for (int fd = 3; fd < 1024; fd++)
		if (fd != poll_fd && fd != st_fd)
			close(fd);
	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY)) {
		child_send(st_fd, MSG_QUEUED, -errno, (int)geteuid());
		_exit(1);
	}
	buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ret = uring_init(&r, 8, T_IORING_SETUP_BPF, 0);
	if (ret || buf == MAP_FAILED) {
		child_send(st_fd, MSG_QUEUED, ret ? ret : -ENOMEM, (int)geteuid());
		_exit(1);
	}
	sqe = uring_get_sqe(&r);
	sqe->opcode = IORING_OP_POLL_ADD_;
	sqe->fd = poll_fd;
	sqe->poll32_events = POLLIN;
	sqe->user_data = 1;
	sqe->flags = IOSQE_IO_LINK;
	sqe = uring_get_sqe(&r);
	sqe_bpf(sqe, T_BPF_OP_FLAGS(ID_TRUST, T_BPF_BUF_PLAIN, 0, 0), 2);
	sqe_bpf_buf1(sqe, (uintptr_t)buf, 4096, 0);
	ret = uring_submit(&r);
	child_send(st_fd, MSG_QUEUED, ret, (int)geteuid());
	if (ret != 2)
		_exit(1);
	if (mode == CHILD_HOLD) {
		for (;;)
			pause();
	}
	n = uring_wait_cqes(&r, cqes, 2, 30000);
	for (int i = 0; i < n; i++) {
		if (cqes[i].user_data == 1)
			res_poll = cqes[i].res;
		else
			res_bpf = cqes[i].res;
	}
	child_send(st_fd, MSG_DONE, n == 2 ? res_poll : n, res_bpf);
	uring_exit(&r);
	_exit(0);
}

/* fork the child; 0 and *pid, *st (its status pipe's read end) */
static int child_start(int poll_fd, int mode, pid_t *pid, int *st)
{
	int sp[2];

	if (pipe(sp))
		return -errno;
	*pid = fork();
	if (*pid < 0) {
		close(sp[0]);
		close(sp[1]);
		return -errno;
	}
	if (!*pid) {
		close(sp[0]);
		child_run(poll_fd, sp[1], mode);
	}
	close(sp[1]);
	*st = sp[0];
	return 0;
}

/* read one message within ms: 0, -ETIME, or -EPIPE (the child is gone) */
static int child_recv(int st, struct t_msg *m, int ms)
{
	struct pollfd pfd = { .fd = st, .events = POLLIN };
	ssize_t n;

	if (poll(&pfd, 1, ms) != 1)
		return -ETIME;
	n = read(st, m, sizeof(*m));
	return n == sizeof(*m) ? 0 : -EPIPE;
}

static void child_reap(pid_t pid, int st, bool kill_it, int *status)
{
	if (kill_it)
		kill(pid, SIGKILL);
	waitpid(pid, status, 0);
	close(st);
}

/* the child's request is queued: as uid 65534, 2 SQEs submitted */
static bool child_queued(int st)
{
	struct t_msg m = { 0 };

	if (!CHECK_EQ(child_recv(st, &m, T_CQE_TIMEOUT_MS), 0,
		      "the uid 65534 child reports its submission"))
		return false;
	if (!CHECK_EQ(m.b, NOBODY, "the child's euid"))
		return false;
	return CHECK_EQ(m.a, 2, "uid 65534: IORING_SETUP_BPF ring, submit "
			"[POLL_ADD on an idle pipe] -> [IORING_OP_BPF]");
}

static bool need_skel(void)
{
	static bool tried;

	if (!tried) {
		tried = true;
		skel = op_trust__open_and_load();
		CHECK_PTR(skel, "op_trust__open_and_load");
	}
	return skel;
}

static void t_queued_request_does_not_pin(void)
{
	struct bpf_link *l_old = NULL, *l_new = NULL;
	struct t_msg m = { 0 };
	int pp[2], st, ret, status = 0;
	struct uring r;
	pid_t pid;
	double t0;

	if (!need_skel())
		return;
	if (!CHECK_EQ(uring_init(&r, 8, T_IORING_SETUP_BPF, 0), 0, "root's BPF ring"))
		return;
	if (!CHECK_EQ(pipe(pp), 0, "pipe")) {
		uring_exit(&r);
		return;
	}
	if (!CHECK_EQ(t_attach(skel->maps.old_op, &l_old), 0, "register old_op (id 90)"))
		goto out;
	if (!CHECK_EQ(child_start(pp[0], CHILD_WAIT, &pid, &st), 0, "fork"))
		goto out;
	if (!child_queued(st)) {
		child_reap(pid, st, true, &status);
		goto out;
	}
	CHECK_EQ(skel->bss->prep_calls[0], 1, "old_op's prep_fn ran for the "
		 "unprivileged request (anyone may invoke an op)");

	t0 = t_now_ms();
	t_detach(&l_old);
	T_DEBUG("unregister took %.0f ms", t_now_ms() - t0);
	ret = t_attach(skel->maps.new_op, &l_new);
	CHECK_EQ(ret, 0, "re-register id 90 at once, while the uid 65534 "
		 "process keeps a request of the old registration queued");
	if (!ret)
		CHECK_BPF_RES(&r, T_BPF_OP_FLAGS(ID_TRUST, 0, 0, 0), 0, NEW_RES,
			      "root's request after the re-registration");

	/* let the queued request go */
	CHECK_EQ(write(pp[1], "x", 1), 1, "write the pipe");
	if (CHECK_EQ(child_recv(st, &m, 2 * T_CQE_TIMEOUT_MS), 0,
		     "the child reports its CQEs")) {
		CHECK_EQ(m.kind, MSG_DONE, "message kind");
		CHECK_GT(m.a, 0, "POLL_ADD's res (POLLIN)");
		CHECK_EQ(m.b, -ECANCELED, "the queued request of the "
			 "unregistered op (neither OLD_RES 1111 nor NEW_RES 2222)");
	}
	child_reap(pid, st, false, &status);
	CHECK_TRUE(WIFEXITED(status) && !WEXITSTATUS(status), "the child exited with 0");

	CHECK_EQ(skel->bss->issue_calls[0], 0, "old_op's issue_fn calls");
	CHECK_EQ(skel->bss->fail_calls[0], 0, "old_op's fail_fn calls");
	CHECK_EQ(skel->bss->cleanup_calls[0], 0, "old_op's cleanup_fn calls "
		 "(the request outlived its registration)");
	if (!ret) {
		/* root's one request, nothing of the child's */
		CHECK_EQ(skel->bss->prep_calls[1], 1, "new_op's prep_fn calls");
		CHECK_EQ(skel->bss->issue_calls[1], 1, "new_op's issue_fn calls");
		CHECK_EQ(skel->bss->fail_calls[1], 0, "new_op's fail_fn calls");
		CHECK_EQ(skel->bss->cleanup_calls[1], 1, "new_op's cleanup_fn calls");
	}
out:
	t_detach(&l_old);
	t_detach(&l_new);
	close(pp[0]);
	close(pp[1]);
	uring_exit(&r);
}

static void t_ring_closed_with_queued_request(void)
{
	struct bpf_link *l_old = NULL, *l_new = NULL;
	int pp[2], st, ret, status = 0, calls[2][4];
	struct uring r;
	pid_t pid;

	if (!need_skel())
		return;
	if (!CHECK_EQ(uring_init(&r, 8, T_IORING_SETUP_BPF, 0), 0, "root's BPF ring"))
		return;
	if (!CHECK_EQ(pipe(pp), 0, "pipe")) {
		uring_exit(&r);
		return;
	}
	if (!CHECK_EQ(t_attach(skel->maps.new_op, &l_new), 0, "register new_op (id 90)"))
		goto out;
	if (!CHECK_EQ(child_start(pp[0], CHILD_HOLD, &pid, &st), 0, "fork"))
		goto out;
	if (!child_queued(st)) {
		child_reap(pid, st, true, &status);
		goto out;
	}
	t_detach(&l_new);
	ret = t_attach(skel->maps.old_op, &l_old);
	CHECK_EQ(ret, 0, "register id 90 again (old_op) at once, while the "
		 "uid 65534 process keeps a request of new_op queued");
	for (int i = 0; i < 2; i++) {
		calls[i][0] = skel->bss->prep_calls[i];
		calls[i][1] = skel->bss->issue_calls[i];
		calls[i][2] = skel->bss->fail_calls[i];
		calls[i][3] = skel->bss->cleanup_calls[i];
	}
	/* the ring is closed with the request queued: it is cancelled */
	child_reap(pid, st, true, &status);
	CHECK_TRUE(WIFSIGNALED(status), "the child was killed");
	/* ring teardown is asynchronous: give it time to run the cleanup */
	usleep(500 * 1000);
	for (int i = 0; i < 2; i++) {
		const char *op = i ? "new_op" : "old_op";

		if (!CHECK_EQ(skel->bss->issue_calls[i], calls[i][1], "issue_fn calls") ||
		    !CHECK_EQ(skel->bss->fail_calls[i], calls[i][2], "fail_fn calls") ||
		    !CHECK_EQ(skel->bss->cleanup_calls[i], calls[i][3], "cleanup_fn calls"))
			T_INFO("%s ran for the cancelled request", op);
	}
	if (!ret)
		CHECK_BPF_RES(&r, T_BPF_OP_FLAGS(ID_TRUST, 0, 0, 0), 0, OLD_RES,
			      "root's request after the re-registration");
out:
	t_detach(&l_old);
	t_detach(&l_new);
	close(pp[0]);
	close(pp[1]);
	uring_exit(&r);
}

int main(int argc, char **argv)
{
	T_INIT(argc, argv);
	REQUIRE_ROOT();
	REQUIRE_BTF_TYPE("uring_bpf_ops", "IORING_OP_BPF");
	REQUIRE_BTF_TYPE("uring_bpf_data", "IORING_OP_BPF");

	RUN(t_queued_request_does_not_pin);
	RUN(t_ring_closed_with_queued_request);

	if (skel)
		op_trust__destroy(skel);
	return T_DONE();
}
