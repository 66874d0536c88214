/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * iouring-bpf-broker.h - attach a loop program without privilege, through
 * iouring-bpfd (the broker daemon, docs/broker.md). Included by
 * iouring-bpf.h.
 *
 *	struct io_uring_params p = { .flags = IORING_SETUP_R_DISABLED };
 *	const char *params[] = { "nr=1000", NULL };
 *	struct iouring_bpf_error err;
 *	struct iouring_bpf_broker *b;
 *	int fd = iouring_bpf_ring_setup(IOURING_BPF_KIND_LOOP, 64, &p, &err);
 *
 *	b = iouring_bpf_broker_attach(NULL, fd, "nop-chain", params, &err);
 *	if (!b)
 *		errx(err.status, "%s", err.msg);
 *	... io_uring_enter() as usual: the program runs in this process ...
 *	iouring_bpf_broker_detach(b);
 *
 * The daemon checks its policy (the program, the user, each parameter's
 * bounds, per-user limits), that the ring is this process's own with
 * SINGLE_ISSUER | DEFER_TASKRUN, registers the ring filter the policy
 * gives the program (then the ring must be made IORING_SETUP_R_DISABLED;
 * the call enables it once attached), loads and attaches. The program
 * stays attached while the connection is open: until
 * iouring_bpf_broker_detach() or this process exits.
 *
 * Errors: as iouring-bpf.h's, with the daemon's status and message
 * (PERM for a policy's refusal, USAGE for a bad request, FAIL when the
 * daemon cannot be reached: msg says how to start it).
 */
#ifndef __IOURING_BPF_BROKER_H
#define __IOURING_BPF_BROKER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

struct iouring_bpf;
struct iouring_bpf_error;
struct iouring_bpf_broker;	/* a connection with one program attached */

/*
 * the daemon's socket when the caller gives none (and there is no
 * IOURING_BPF_BROKER_SOCKET in the environment)
 */
#define IOURING_BPF_BROKER_SOCKET	"/run/iouring-bpfd.sock"

/*
 * Attach prog (a built-in's name, or an installed object's name as the
 * policy lists it) with params ("KEY=VALUE" integers, NULL-ended, or
 * NULL) to ring_fd through the daemon at socket (NULL: the default).
 * NULL on error, err filled.
 */
struct iouring_bpf_broker *
iouring_bpf_broker_attach(const char *socket, int ring_fd, const char *prog,
			  const char *const *params,
			  struct iouring_bpf_error *err);

/*
 * The same for a built-in program opened in this process
 * (iouring_bpf_open(), its parameters set, iouring_bpf_set_ring() done):
 * the values of its parameters go to the daemon, and once attached its
 * .bss and .data (iouring_bpf_var(), _section(), _exit_info()) show the
 * attached program's, read-only (a write there faults). 0 or a
 * negative errno, err filled.
 */
int iouring_bpf_broker_start(struct iouring_bpf *h, const char *socket,
			     int ring_fd, struct iouring_bpf_broker **out,
			     struct iouring_bpf_error *err);

/*
 * the attached program's data section (".bss" or ".data"), mapped
 * read-only here and live; NULL if the daemon passed none. The program's
 * parameters (.rodata) are the ones this process asked for.
 */
const void *iouring_bpf_broker_section(const struct iouring_bpf_broker *b,
				       const char *sec, size_t *size);
/* the loop binding the daemon used ("mainline-7.2", "v3", ...) */
const char *iouring_bpf_broker_binding(const struct iouring_bpf_broker *b);
/* detach (close the connection: the daemon detaches and unloads); NULL ok */
void iouring_bpf_broker_detach(struct iouring_bpf_broker *b);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* __IOURING_BPF_BROKER_H */
