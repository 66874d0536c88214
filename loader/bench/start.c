// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * start.c - the engine's start in one call, for the bench and the
 * project's tests (start.h). Parameters are numbers: the --set language
 * (files, buffers, arrays, strings) is the CLI's (cli/setarg.c), and what
 * a built-in takes is numbers anyway.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "start.h"

/* "NAME=NUMBER": a built-in's listed parameter, or any integer global */
static int set_param(struct iouring_bpf *h, const char *kv,
		     struct iouring_bpf_error *err)
{
	const struct iouring_bpf_prog *prog = iouring_bpf_builtin(h);
	const char *eq = strchr(kv, '=');
	char name[128];
	long long v;
	char *end;

	if (!eq || eq == kv || eq - kv >= (long)sizeof(name))
		return iouring_bpf_errorf(err, IOURING_BPF_USAGE, EINVAL,
					  "bad parameter '%.200s': expected NAME=NUMBER",
					  kv);
	snprintf(name, sizeof(name), "%.*s", (int)(eq - kv), kv);
	errno = 0;
	v = strtoll(eq + 1, &end, 0);
	if (errno || end == eq + 1 || *end)
		return iouring_bpf_errorf(err, IOURING_BPF_USAGE,
					  errno ? errno : EINVAL,
					  "bad parameter '%.200s': %s is not a number that fits 64 bits",
					  kv, eq + 1);
	if (prog && !iouring_bpf_prog_param(prog, name))
		return iouring_bpf_errorf(err, IOURING_BPF_USAGE, ENOENT,
					  "%s has no parameter '%s'",
					  iouring_bpf_name(h), name);
	return iouring_bpf_set_var(h, name, v, err);
}

int iouring_bpf_start(struct iouring_bpf *h, int ring_fd,
		      const struct io_uring_params *p,
		      const char *const *params, struct iouring_bpf_error *err)
{
	const char *const *kv;
	int ret = 0;

	if (err)
		err->msg[0] = '\0';
	for (kv = params; kv && *kv && !ret; kv++)
		ret = set_param(h, *kv, err);
	if (!ret)
		ret = iouring_bpf_check_kernel(h, err);
	if (!ret && iouring_bpf_kind(h) == IOURING_BPF_KIND_LOOP)
		ret = iouring_bpf_set_ring(h, ring_fd, p, err);
	if (!ret)
		ret = iouring_bpf_load(h, err);
	if (!ret)
		ret = iouring_bpf_attach_link(h, err);
	return ret;
}

struct iouring_bpf *iouring_bpf_attach(int ring_fd, const char *prog,
				       const char *const *params,
				       struct iouring_bpf_error *err)
{
	struct iouring_bpf *h = iouring_bpf_open(prog, err);

	if (h && iouring_bpf_start(h, ring_fd, NULL, params, err)) {
		iouring_bpf_close(h);
		return NULL;
	}
	return h;
}

void iouring_bpf_detach(struct iouring_bpf *h)
{
	iouring_bpf_close(h);
}
