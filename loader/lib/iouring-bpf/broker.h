/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * iouring-bpf/broker.h - attach a loop program without privilege, through
 * iouring-bpfd, the broker daemon (docs/broker.md). Since 2.1 (version
 * node IOURING_BPF_2.1).
 *
 *	struct io_uring ring;
 *	struct io_uring_params p = {
 *		.flags = IORING_SETUP_SINGLE_ISSUER |
 *			 IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_R_DISABLED,
 *	};
 *	struct bpf_object *obj = iouring_bpf_builtin_open("nop-chain", NULL);
 *	int conn;
 *
 *	io_uring_queue_init_params(64, &ring, &p);
 *	iouring_bpf_obj_set_global(obj, "nr", 1000);
 *	IOURING_BPF_OPTS(iouring_bpf_broker_opts, o, .obj = obj);
 *	conn = iouring_bpf_broker_attach(ring.ring_fd, NULL, &o);
 *	if (conn < 0)
 *		... -conn is the errno; the daemon's message went to the
 *		    print callback ...
 *	io_uring_enter(ring.ring_fd, 0, 0, IORING_ENTER_GETEVENTS, NULL);
 *	iouring_bpf_obj_get_global(obj, "completed", &v);	(live)
 *	close(conn);			(detached)
 *	bpf_object__close(obj);
 *
 * The daemon checks its policy (the program, the user, each parameter's
 * bounds, per-user limits), that the ring is this process's own with
 * SINGLE_ISSUER | DEFER_TASKRUN, registers the limits the policy puts on
 * the ring's opcodes (a ring filter on Linux 7.2+, else io_uring's
 * restrictions: then the ring must have been made
 * IORING_SETUP_R_DISABLED, and this call enables it once attached), binds,
 * loads and attaches. The program stays attached while the connection
 * is open: until close() of the fd this call returns, or this process
 * exits.
 */
#ifndef __IOURING_BPF_BROKER_H
#define __IOURING_BPF_BROKER_H

#include "iouring-bpf.h"

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

/*
 * the daemon's socket when opts->socket is NULL and the environment has
 * no IOURING_BPF_BROKER_SOCKET
 */
#define IOURING_BPF_BROKER_SOCKET	"/run/iouring-bpfd.sock"

struct iouring_bpf_broker_opts {
	size_t			sz;	/* sizeof(struct iouring_bpf_broker_opts) */
	/* the daemon's socket (NULL: as above) */
	const char		*socket;
	/*
	 * the program's parameters, "NAME=VALUE" (integers), NULL-ended;
	 * NULL: none (the program's defaults, or obj's values)
	 */
	const char *const	*params;
	/*
	 * a built-in program opened here (iouring_bpf_builtin_open()),
	 * its parameters set (iouring_bpf_obj_set_global()), not loaded.
	 * Its parameters' values go to the daemon (params after them), prog
	 * may be NULL (obj's name), and once attached obj's .bss and .data
	 * are the attached program's, mapped read-only: obj_get_global()
	 * and obj_exit_info() read it live, as after a direct attach.
	 * NULL: nothing is read back.
	 */
	struct bpf_object	*obj;
};

/*
 * Attach prog (a built-in's name, or an installed object's name as the
 * policy lists it) to the ring ring_fd through the daemon. The connection
 * (a file descriptor, close-on-exec) on success: the program is attached
 * until it is closed. Else a negative errno, with the daemon's reason at
 * IOURING_BPF_WARN: -EPERM (the policy refused: program, user, a
 * parameter outside its bounds, a limit; or the socket's mode), -EINVAL
 * (a bad request, the verifier refused the program), -ERANGE (a parameter
 * out of the program's own range), -EOPNOTSUPP (the kernel or the ring
 * cannot serve the program), -ENOENT or -ECONNREFUSED (no daemon at the
 * socket: the message says how to start one), -EBUSY (the ring has a
 * program), -EPROTO (not an iouring-bpfd at the other end).
 */
int iouring_bpf_broker_attach(int ring_fd, const char *prog,
			      const struct iouring_bpf_broker_opts *opts);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* __IOURING_BPF_BROKER_H */
