/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * filter_internal.h - the policy compiler's pieces (filter_*.c): the
 * parsed policy, the layout of struct io_uring_bpf_ctx it is compiled
 * against, and the compiled programs. Not installed; the host tests of the
 * compiler include it to check the generated code against the policy.
 */
#ifndef __IOURING_BPF_FILTER_INTERNAL_H
#define __IOURING_BPF_FILTER_INTERNAL_H

#include <linux/filter.h>
#include <linux/types.h>
#include "engine.h"

#define IOUF_MAX_OPS		256	/* opcodes are a __u8 in the ctx */
#define IOUF_MAX_RULES		512
#define IOUF_MAX_TESTS		8	/* per rule, joined by "and" */
#define IOUF_MAX_VALUES		64	/* per test */
#define IOUF_MAX_INSNS		4096	/* BPF_MAXINSNS */
#define IOUF_MAX_TEXT		(1 << 20)

/* what a test can read; each field is known for some opcodes only */
enum iouf_field {
	F_USER_DATA, F_SQE_FLAGS,			/* every opcode */
	F_FAMILY, F_TYPE, F_PROTOCOL,			/* socket (family: connect) */
	F_PORT, F_ADDR,					/* connect */
	F_FLAGS, F_ACCMODE, F_MODE, F_RESOLVE,		/* openat, openat2 */
	F_NR
};

enum iouf_cmp {
	C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE, C_IN, C_NOTIN, C_HAS, C_NOTHAS
};

struct iouf_value {
	__u64	lo, hi;		/* a number, or the range lo..hi */
	__u8	addr[16];	/* F_ADDR: network order */
	int	prefix;		/* F_ADDR: prefix length */
	int	v6;		/* F_ADDR: an IPv6 address */
};

struct iouf_test {
	int		col;		/* of its field in the policy line */
	enum iouf_field	field;
	enum iouf_cmp	cmp;
	int		nvals;
	struct iouf_value vals[IOUF_MAX_VALUES];
};

struct iouf_rule {
	int		line, col;	/* where it starts in the policy */
	int		allow;
	__u8		ops[IOUF_MAX_OPS];	/* 1: the rule is for opcode i */
	int		ntests;
	struct iouf_test tests[IOUF_MAX_TESTS];
};

/* where a field lives in struct io_uring_bpf_ctx */
struct iouf_loc {
	int	off;		/* -1: not in this layout */
	int	size;
};

enum iouf_payload { P_NONE, P_SOCKET, P_OPEN, P_CONNECT, P_NR };

struct iouf_layout {
	char		source[300];	/* "kernel BTF", a file, "built-in ..." */
	int		from_btf;
	int		ctx_size;
	struct iouf_loc	user_data, sqe_flags;
	struct iouf_loc	socket_family, socket_type, socket_protocol;
	struct iouf_loc	open_flags, open_mode, open_resolve;
	struct iouf_loc	connect_family, connect_port, connect_v4, connect_v6;
	int		payload_size[P_NR];	/* sizeof each union member */
	int		nr_ops;			/* IORING_OP_LAST */
	char		opname[IOUF_MAX_OPS][24]; /* "openat"; "" unknown */
};

struct iouf_policy {
	char		name[256];
	int		default_allow;	/* -1 until a "default" line */
	int		default_line;
	int		nrules;
	struct iouf_rule *rules;
};

/* one registration: a program for one opcode */
struct iouf_prog {
	unsigned int	opcode;
	unsigned int	flags;		/* IO_URING_BPF_FILTER_* */
	unsigned int	pdu_size;
	unsigned int	len;
	struct sock_filter *insns;
	int		*lines;		/* the policy line of each insn, 0: none */
};

struct iouring_bpf_filter {
	char			*text;		/* the policy, for show */
	struct iouf_policy	pol;
	struct iouf_layout	lay;
	int			nprogs;
	struct iouf_prog	progs[IOUF_MAX_OPS + 1];
};

/* filter_layout.c */
int iouf_layout_load(struct iouf_layout *lay, const char *btf_path,
		     struct iouring_bpf_error *err);
void iouf_layout_builtin(struct iouf_layout *lay);
const char *iouf_field_name(enum iouf_field f);
/* the payload an opcode has, from its name: P_NONE if none */
enum iouf_payload iouf_op_payload(const char *opname);
/* the ctx field at byte off (a 32-bit load), for the disassembler */
const char *iouf_layout_describe(const struct iouf_layout *lay, int off,
				 const char *opname);

/*
 * filter_policy.c: err->msg is "NAME:LINE:COL: what is wrong; what to do"
 * (COL counts bytes from 1, as compilers do)
 */
int iouf_parse(struct iouf_policy *pol, const struct iouf_layout *lay,
	       const char *text, struct iouring_bpf_error *err);
void iouf_policy_free(struct iouf_policy *pol);
/* the policy's decision for opcode op and a ctx (a reference evaluator,
 * for the tests): 1 allow, 0 deny */
int iouf_eval(const struct iouf_policy *pol, const struct iouf_layout *lay,
	      unsigned int op, const void *ctx);

/* filter_compile.c */
int iouf_compile(struct iouring_bpf_filter *f, struct iouring_bpf_error *err);
/* structural checks of a program, as the kernel makes them: 0 or -EINVAL
 * with why */
int iouf_check_prog(const struct iouf_prog *p, int ctx_size, char *why,
		    size_t len);
/* run a program on ctx (classic BPF, the kernel's subset): its return */
__u32 iouf_run(const struct sock_filter *insns, unsigned int len,
	       const void *ctx, int ctx_size);

#endif /* __IOURING_BPF_FILTER_INTERNAL_H */
