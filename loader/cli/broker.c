// SPDX-License-Identifier: GPL-2.0
/*
 * broker.c - `iouring-bpf run --broker [SOCKET] PROG`: the same run, with
 * the program attached by iouring-bpfd instead of by this process, so
 * that no privilege is needed (docs/broker.md). run.c's start is the same
 * up to the load (parameters, the kernel check, the ring, made disabled
 * here, the workload's setup); where it would load and attach, the
 * program's parameters and the ring go to the daemon through the
 * library's broker call, and the handle's data sections become
 * read-only views of the attached program's, so the workload reads its
 * counters as it does after a direct attach.
 *
 * `load --broker PROG --ring PID:FD` (cli_broker_hold()): load takes the
 * ring of another process and exits, while the daemon keeps a program
 * attached only while its client stays connected. So a holder process,
 * forked here with a copy of that ring, is the client: it attaches,
 * closes its copy of the ring and keeps the connection open until the
 * ring's owner exits (its pidfd) or `iouring-bpf unload --broker PID`
 * signals it (cli_broker_unhold()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "cli.h"
#include "engine-broker.h"

/* the connection: the program is attached while it is open */
static int broker_fd = -1;

int cli_broker_arg(const char **broker, const char **prog, const char *arg)
{
	struct stat st;

	/* --broker without =SOCKET, then an existing socket: its SOCKET */
	if (*broker && !**broker && !*prog && !stat(arg, &st) &&
	    S_ISSOCK(st.st_mode)) {
		*broker = arg;
		return 1;
	}
	return 0;
}

struct io_uring_params *cli_broker_ring(const char *socket,
					struct io_uring_params *p)
{
	/* the daemon registers the opcode limit before the ring runs */
	if (socket)
		p->flags |= IORING_SETUP_R_DISABLED;
	return p;
}

int cli_broker_attach(struct iouring_bpf *h, const char *socket, int ring_fd,
		      struct iouring_bpf_error *err)
{
	IOURING_BPF_OPTS(iouring_bpf_broker_opts, o,
		.socket = *socket ? socket : NULL,
		.obj = iouring_bpf_object(h),
	);
	int fd;

	fd = cli_broker_check(h, err);
	if (fd)
		return fd;
	fd = iou_broker_attach(ring_fd, NULL, &o, err);
	if (fd < 0)
		return fd;
	broker_fd = fd;
	return 0;
}

int cli_broker_check(struct iouring_bpf *h, struct iouring_bpf_error *err)
{
	if (!iouring_bpf_builtin(h))
		return iouring_bpf_errorf(err, IOURING_BPF_USAGE, EINVAL,
					  "--broker runs built-in programs (`iouring-bpf list`); the broker opens an installed object itself, by the name its policy gives it");
	if (iouring_bpf_kind(h) != IOURING_BPF_KIND_LOOP)
		return iouring_bpf_errorf(err, IOURING_BPF_USAGE, EINVAL,
					  "%s is an IORING_OP_BPF op: it serves every ring of the system, so the broker does not attach it; --broker is for loop programs",
					  iouring_bpf_name(h));
	return 0;
}

void cli_broker_detach(void)
{
	if (broker_fd >= 0)
		close(broker_fd);
	broker_fd = -1;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

static size_t read_all(int fd, void *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = read(fd, (char *)buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
	}
	return got;
}

/* every fd from first on but a and b */
static void close_others(int first, int a, int b)
{
	int lo = a < b ? a : b, hi = a < b ? b : a;

	if (lo > first)
		syscall(SYS_close_range, first, lo - 1, 0);
	if (hi > lo + 1)
		syscall(SYS_close_range, lo + 1, hi - 1, 0);
	syscall(SYS_close_range, hi + 1, ~0U, 0);
}

/*
 * The holder: its own session, no terminal, stdio on /dev/null; attach,
 * tell the parent the outcome on wfd, drop its copy of the ring (it must
 * not keep a dead owner's ring alive) and every other fd but the
 * connection and the owner's pidfd, then wait for either to end.
 */
static void holder(struct iouring_bpf *h, const char *socket, int ring,
		   int pidfd, int wfd) __attribute__((noreturn));
static void holder(struct iouring_bpf *h, const char *socket, int ring,
		   int pidfd, int wfd)
{
	struct iouring_bpf_error err = { 0 };
	struct pollfd pf[2];
	int nul;

	setsid();
	if (chdir("/"))
		_exit(EXIT_FAIL);
	prctl(PR_SET_NAME, CLI_BROKER_HOLDER, 0, 0, 0);
	signal(SIGPIPE, SIG_IGN);
	nul = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (nul >= 0) {
		dup2(nul, 0);
		dup2(nul, 1);
		dup2(nul, 2);
	}
	if (cli_broker_attach(h, socket, ring, &err) && !err.status)
		err.status = IOURING_BPF_FAIL;
	close(ring);
	if (write_all(wfd, &err, sizeof(err)) || err.status)
		_exit(cli_exit_code(err.status));
	close_others(3, broker_fd, pidfd);
	pf[0] = (struct pollfd){ .fd = pidfd, .events = POLLIN };
	pf[1] = (struct pollfd){ .fd = broker_fd, .events = POLLIN };
	/* the owner exited, or the daemon closed the connection (stopped) */
	while (poll(pf, 2, -1) < 0 && errno == EINTR)
		;
	_exit(EXIT_OK);
}

int cli_broker_hold(struct iouring_bpf *h, const char *socket, int ring,
		    int pidfd, struct iouring_bpf_error *err)
{
	struct io_uring_probe probe = { 0 };
	int pipefd[2], status;
	pid_t pid;

	/*
	 * An enabled SINGLE_ISSUER ring takes io_uring_register() from its
	 * submitter only (-EEXIST); any other answer is a ring with no
	 * submitter yet (IORING_SETUP_R_DISABLED: the library's call would
	 * enable it, making the holder its submitter) or without
	 * SINGLE_ISSUER. A probe changes nothing either way.
	 */
	if (syscall(__NR_io_uring_register, ring, IORING_REGISTER_PROBE,
		    &probe, 0) == 0 || errno != EEXIST)
		return iouring_bpf_errorf(err, IOURING_BPF_USAGE, EINVAL,
					  "the ring has no submitter task: it lacks IORING_SETUP_SINGLE_ISSUER, or it was made IORING_SETUP_R_DISABLED and its owner has not enabled it yet (enabling it from here would make this command its submitter); attach once the owner has enabled a ring made with SINGLE_ISSUER | DEFER_TASKRUN");
	if (pipe2(pipefd, O_CLOEXEC))
		return iouring_bpf_errorf(err, IOURING_BPF_FAIL, errno,
					  "pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return iouring_bpf_errorf(err, IOURING_BPF_FAIL, errno,
					  "fork: %s", strerror(errno));
	}
	if (!pid) {
		close(pipefd[0]);
		holder(h, socket, ring, pidfd, pipefd[1]);
	}
	close(pipefd[1]);
	memset(err, 0, sizeof(*err));
	if (read_all(pipefd[0], err, sizeof(*err)) != sizeof(*err)) {
		close(pipefd[0]);
		waitpid(pid, &status, 0);
		return iouring_bpf_errorf(err, IOURING_BPF_FAIL, EPIPE,
					  "the holder process (pid %d) ended before it said whether the program was attached (%s %d)",
					  pid, WIFSIGNALED(status) ? "signal" : "exit",
					  WIFSIGNALED(status) ? WTERMSIG(status) :
					  WEXITSTATUS(status));
	}
	close(pipefd[0]);
	if (err->status) {
		waitpid(pid, &status, 0);	/* it exits: nothing is left */
		return -(err->err ? err->err : EPERM);
	}
	return pid;
}

int cli_broker_unhold(const char *pidstr, struct iouring_bpf_error *err)
{
	char path[64], comm[32] = "";
	struct pollfd pf;
	struct stat st;
	int pid, pidfd, fd, ret;
	ssize_t n;
	char *end;

	errno = 0;
	pid = strtol(pidstr, &end, 10);
	if (errno || end == pidstr || *end || pid <= 0)
		return iouring_bpf_errorf(err, IOURING_BPF_USAGE, EINVAL,
					  "--broker %s: give the holder's pid, as `load --broker` printed it",
					  pidstr);
	/* the pidfd first: the checks below are then of this very process */
	pidfd = syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0)
		return iouring_bpf_errorf(err, IOURING_BPF_FAIL, errno,
					  "no holder %d to unload: %s (it exits by itself when the ring's owner exits)",
					  pid, strerror(errno));
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, comm, sizeof(comm) - 1);
	if (fd >= 0)
		close(fd);
	if (n > 0 && comm[n - 1] == '\n')
		comm[n - 1] = '\0';
	snprintf(path, sizeof(path), "/proc/%d", pid);
	ret = 0;
	if (n <= 0 || strcmp(comm, CLI_BROKER_HOLDER))
		ret = iouring_bpf_errorf(err, IOURING_BPF_USAGE, EINVAL,
					 "process %d (%s) is not a holder of `load --broker`: give the pid that load printed",
					 pid, n > 0 ? comm : "?");
	else if (stat(path, &st) || (st.st_uid != getuid() && getuid()))
		ret = iouring_bpf_errorf(err, IOURING_BPF_PERM, EPERM,
					 "holder %d is another user's (uid %u): only its user (or root) may unload it",
					 pid, (unsigned int)st.st_uid);
	else if (syscall(SYS_pidfd_send_signal, pidfd, SIGTERM, NULL, 0))
		ret = iouring_bpf_errorf(err, errno == EPERM ? IOURING_BPF_PERM :
					 IOURING_BPF_FAIL, errno,
					 "cannot signal holder %d: %s", pid,
					 strerror(errno));
	if (ret) {
		close(pidfd);
		return ret;
	}
	/* gone: its connection is closed, the daemon detaches */
	pf = (struct pollfd){ .fd = pidfd, .events = POLLIN };
	ret = poll(&pf, 1, 10000);
	close(pidfd);
	if (ret <= 0)
		return iouring_bpf_errorf(err, IOURING_BPF_FAIL, ETIMEDOUT,
					  "holder %d did not exit within 10 s of SIGTERM",
					  pid);
	return 0;
}
