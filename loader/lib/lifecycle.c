// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * lifecycle.c - the engine's start in one call, for the bench and the
 * project's tests: set params, check the kernel, bind the ring (loop
 * programs), load, attach. The CLI's commands write the same steps in a
 * straight line where they add their own between them (run.c's
 * run_start(), load.c's load_start(), runfile.c's file_start()); the
 * library calls nothing back.
 *
 * Nothing on disk changes before attach: an @>PATH global holds a
 * reserved fd until then (setvar.c), and a refused attach undoes it.
 */
#include <errno.h>
#include <string.h>
#include "internal.h"

int iouring_bpf_start(struct iouring_bpf *h, int ring_fd,
		      const struct io_uring_params *p,
		      const char *const *params, struct iouring_bpf_error *err)
{
	const char *const *kv;
	int ret = 0;

	if (err)
		err->msg[0] = '\0';
	for (kv = params; kv && *kv && !ret; kv++)
		ret = iouring_bpf_set(h, *kv, err);
	if (!ret)
		ret = iouring_bpf_check_kernel(h, err);
	if (!ret && h->kind == IOURING_BPF_KIND_LOOP)
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
