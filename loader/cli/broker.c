// SPDX-License-Identifier: GPL-2.0
/*
 * broker.c - `iouring-bpf run --broker [SOCKET] PROG`: the same run, with
 * the program attached by iouring-bpfd instead of by this process, so
 * that no privilege is needed (docs/broker.md). The start follows
 * iouring_bpf_start_opts()'s steps in its order (parameters, the kernel
 * check, the ring, the workload's setup) on a handle that is opened here
 * but never loaded here; where the library would load and attach, the
 * program's parameters and the ring go to the daemon, and the handle's
 * data sections become read-only views of the attached program's, so the
 * workload reads its counters as it does after a direct attach.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"

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

int cli_broker_start(struct iouring_bpf *h,
		     const struct iouring_bpf_start_opts *o, const char *socket,
		     struct iouring_bpf_broker **b, struct iouring_bpf_error *err)
{
	struct io_uring_params p;
	int i, ret, fd = o->ring_fd;

	*b = NULL;
	if (!iouring_bpf_builtin(h))
		return iouring_bpf_errorf(err, IOURING_BPF_USAGE, EINVAL,
					  "--broker runs built-in programs (`iouring-bpf list`); the broker opens an installed object itself, by the name its policy gives it");
	if (iouring_bpf_kind(h) != IOURING_BPF_KIND_LOOP)
		return iouring_bpf_errorf(err, IOURING_BPF_USAGE, EINVAL,
					  "%s is an IORING_OP_BPF op: it serves every ring of the system, so the broker does not attach it; --broker is for loop programs",
					  iouring_bpf_name(h));
	for (i = 0; o->params && o->params[i]; i++)
		if (iouring_bpf_set(h, o->params[i], err))
			return -EINVAL;
	ret = o->step ? o->step(h, IOURING_BPF_STEP_SET, o->ctx, err) : 0;
	if (!ret)
		ret = iouring_bpf_check_kernel(h, err);
	if (ret)
		return ret;
	ret = o->step ? o->step(h, IOURING_BPF_STEP_KERNEL, o->ctx, err) : 0;
	if (ret)
		return ret;
	memset(&p, 0, sizeof(p));
	if (o->ring) {
		ret = o->ring(h, o->ctx, &fd, &p, err);
		if (ret)
			return ret;
	}
	ret = iouring_bpf_set_ring(h, fd, o->ring ? &p : o->ring_params, err);
	if (!ret && o->step)
		ret = o->step(h, IOURING_BPF_STEP_RING, o->ctx, err);
	if (!ret)
		ret = iouring_bpf_broker_start(h, *socket ? socket : NULL, fd, b,
					       err);
	if (!ret && o->step)
		ret = o->step(h, IOURING_BPF_STEP_LOAD, o->ctx, err) ?:
		      o->step(h, IOURING_BPF_STEP_ATTACH, o->ctx, err);
	if (ret) {
		iouring_bpf_broker_detach(*b);
		*b = NULL;
	}
	return ret;
}
