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
 * `load --broker` is refused (cli_broker_load()): load pins and exits,
 * and attaches to another process's ring, while the broker attaches to
 * the connecting process's own ring for as long as it stays connected.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
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

	if (!iouring_bpf_builtin(h))
		return iouring_bpf_errorf(err, IOURING_BPF_USAGE, EINVAL,
					  "--broker runs built-in programs (`iouring-bpf list`); the broker opens an installed object itself, by the name its policy gives it");
	if (iouring_bpf_kind(h) != IOURING_BPF_KIND_LOOP)
		return iouring_bpf_errorf(err, IOURING_BPF_USAGE, EINVAL,
					  "%s is an IORING_OP_BPF op: it serves every ring of the system, so the broker does not attach it; --broker is for loop programs",
					  iouring_bpf_name(h));
	fd = iou_broker_attach(ring_fd, NULL, &o, err);
	if (fd < 0)
		return fd;
	broker_fd = fd;
	return 0;
}

void cli_broker_detach(void)
{
	if (broker_fd >= 0)
		close(broker_fd);
	broker_fd = -1;
}

int cli_broker_load(void)
{
	return cli_fail(EXIT_USAGE, "load",
			"--broker: the broker attaches to a ring of the connecting process only, and only while that process stays connected; load pins a program on another process's ring (--ring PID:FD) and exits, which leaves the daemon nothing to attach. From the application that owns the ring, call iouring_bpf_broker_attach() (<iouring-bpf/broker.h>); for a built-in, use `iouring-bpf run --broker PROG`");
}
