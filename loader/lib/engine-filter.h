/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * engine-filter.h - io_uring filters (mainline Linux 7.2+,
 * CONFIG_IO_URING_BPF): a policy, compiled to classic BPF, that decides
 * per request whether a ring may run it. Included by iouring-bpf.h;
 * docs/filters.md is the policy reference.
 *
 *	struct iouring_bpf_error err;
 *	struct iouring_bpf_filter *f;
 *
 *	f = iouring_bpf_filter_load("no-network", NULL, &err);
 *	if (!f || iouring_bpf_filter_apply(f, ring_fd, &err))
 *		errx(err.status, "%s", err.msg);
 *	iouring_bpf_filter_free(f);	// the ring keeps its filters
 *
 * Filters cannot be removed or loosened: a ring (ring_fd) keeps them until
 * it is closed; the calling task (ring_fd -1, needs no_new_privs or
 * CAP_SYS_ADMIN) and its children keep them for every ring created after.
 * Policies applied one after another only tighten: a `default deny` one
 * has a program for every opcode, never relying on DENY_REST (which
 * fills only opcodes that have no program yet).
 * Errors as in iouring-bpf.h: FAIL (a malformed policy: one line
 * "POLICY:LINE:COL: ..."), USAGE, NOFEATURE (no filters in this kernel), PERM,
 * REJECTED (the kernel refused a program or its payload size).
 */
#ifndef __IOURING_BPF_FILTER_H
#define __IOURING_BPF_FILTER_H

#include <stdio.h>
#include <linux/filter.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif


struct iouring_bpf_error;
struct iouring_bpf_filter;	/* a compiled policy */

/*
 * Compile policy text (name: for messages). btf: NULL for the running
 * kernel's BTF (the built-in 7.2.13 layout when it has none), or a
 * vmlinux / raw BTF file to compile for another kernel.
 */
struct iouring_bpf_filter *
iouring_bpf_filter_compile(const char *text, const char *name,
			   const char *btf, struct iouring_bpf_error *err);
/* the same for a file, or a policy shipped with the library ("no-network") */
struct iouring_bpf_filter *
iouring_bpf_filter_load(const char *policy, const char *btf,
			struct iouring_bpf_error *err);
void iouring_bpf_filter_free(struct iouring_bpf_filter *f);

/*
 * Register every program of f on ring_fd, or on the calling task if
 * ring_fd is -1. Each program is first registered on a scratch ring, so a
 * program or payload size the kernel refuses is found before ring_fd or
 * the task is changed.
 */
int iouring_bpf_filter_apply(const struct iouring_bpf_filter *f, int ring_fd,
			     struct iouring_bpf_error *err);

/* one registration of a compiled policy (IORING_REGISTER_BPF_FILTER) */
struct iouring_bpf_filter_prog {
	unsigned int	opcode;
	const char	*opname;	/* "openat" */
	unsigned int	flags;		/* IO_URING_BPF_FILTER_DENY_REST (1) */
	unsigned int	pdu_size;	/* payload bytes the program reads */
	unsigned int	len;
	const struct sock_filter *insns;
};

int iouring_bpf_filter_count(const struct iouring_bpf_filter *f);
/* i in 0..count-1, in registration order: 0, or -1 if out of range */
int iouring_bpf_filter_prog(const struct iouring_bpf_filter *f, int i,
			    struct iouring_bpf_filter_prog *out);
/* 1 for "default allow", 0 for "default deny" */
int iouring_bpf_filter_default_allow(const struct iouring_bpf_filter *f);
/* where the layout of struct io_uring_bpf_ctx came from */
const char *iouring_bpf_filter_layout(const struct iouring_bpf_filter *f);

/* the programs, disassembled and explained line by line */
void iouring_bpf_filter_show(const struct iouring_bpf_filter *f, FILE *out);
/* the programs as C: struct sock_filter arrays and their registrations */
void iouring_bpf_filter_export_c(const struct iouring_bpf_filter *f,
				 FILE *out);

/* the policies shipped with the library: a NULL-ended list of names */
const char *const *iouring_bpf_filter_policies(void);
/* the text of a shipped policy; NULL if there is none of that name */
const char *iouring_bpf_filter_policy_text(const char *name);

/* what the running kernel offers */
struct iouring_bpf_filter_kinfo {
	int	available;		/* IORING_REGISTER_BPF_FILTER works */
	int	nr_ops;			/* opcodes asked (IORING_OP_LAST) */
	unsigned char pdu_size[256];	/* payload bytes per opcode */
	char	opname[256][24];	/* "openat" (kernel BTF, else 7.2.13's) */
	char	payloads[256];		/* "connect 24, openat 24, ..." */
	char	why[256];		/* if not available */
};

/*
 * Ask the kernel, on a scratch ring (the calling task is not changed):
 * registers an allow-all program per opcode with a 0-byte payload and
 * IO_URING_BPF_FILTER_SZ_STRICT; -EMSGSIZE returns the kernel's size.
 * 0, or -errno if io_uring itself is unavailable.
 */
int iouring_bpf_filter_probe(struct iouring_bpf_filter_kinfo *ki);


#ifdef __cplusplus
}
#endif

#endif /* __IOURING_BPF_FILTER_H */
