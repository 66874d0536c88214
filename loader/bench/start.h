/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * start.h - a program started in one call, for the bench and the
 * project's tests (start.c): open, parameters, the kernel check, the ring
 * (loop programs), load, attach. The CLI's commands write these steps in
 * a straight line themselves; applications use libiouring-bpf's
 * iouring_bpf_obj_*() on their skeleton.
 */
#ifndef __IOURING_BPF_START_H
#define __IOURING_BPF_START_H

#include "engine.h"

/*
 * After open: set params ("NAME=NUMBER", NULL-ended, NULL for none: a
 * built-in program takes its listed parameters, a .bpf.o any integer
 * global), check the kernel, bind ring_fd (loop programs; p NULL: the
 * layout read from the kernel; ignored for op programs), load, attach.
 * 0 or a negative errno with err filled; h stays the caller's either way.
 */
int iouring_bpf_start(struct iouring_bpf *h, int ring_fd,
		      const struct io_uring_params *p,
		      const char *const *params, struct iouring_bpf_error *err);
/*
 * open prog (a built-in's name or a .bpf.o) and start it; NULL with err
 * filled (NOFEATURE, PERM, REJECTED with the verifier's log, USAGE)
 */
struct iouring_bpf *iouring_bpf_attach(int ring_fd, const char *prog,
				       const char *const *params,
				       struct iouring_bpf_error *err);
/* detach, unload and free h (iouring_bpf_close()); NULL is a no-op */
void iouring_bpf_detach(struct iouring_bpf *h);

#endif /* __IOURING_BPF_START_H */
