// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * filter_compile.c - rules to classic BPF, one program per opcode the
 * policy names, in the subset io_uring takes (aligned 32-bit loads from
 * struct io_uring_bpf_ctx, ALU, jumps, returns; no byte loads): a
 * program returns 1 to allow the request, 0 to fail it with -EACCES.
 *
 * Per opcode, the rules that name it become, in order:
 *	rule:	test 1 ... test n (each jumps to the next rule if it fails)
 *		ret allow|deny
 *	...
 *		ret DEFAULT
 * Fields narrower than a word are loaded as their word and shifted and
 * masked; 64-bit fields are read as two words (low, then high: a little-
 * endian kernel); the port is in network order and is swapped with X.
 * A `default deny` policy has a program for every opcode (`ret 0` where
 * it has no rule), so that it also denies opcodes an earlier policy gave
 * programs to; iouf_compile() says why DENY_REST alone would not.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "filter_internal.h"
#include "internal.h"

#if __BYTE_ORDER != __LITTLE_ENDIAN
#error "the filter compiler assumes a little-endian kernel (x86-64, arm64)"
#endif

#ifndef IO_URING_BPF_FILTER_DENY_REST
#define IO_URING_BPF_FILTER_DENY_REST	1
#endif

/* a pseudo instruction: jumps name labels, resolved at the end */
struct pinsn {
	__u16	code;
	__u32	k;
	int	jt, jf;		/* labels (conditional jumps, JA uses jt) */
	int	line, col;	/* where in the policy it comes from */
	int	far;		/* emitted as Jc 0,1; JA jt; JA jf */
};

#define MAX_PINSNS	(IOUF_MAX_INSNS * 2)
#define MAX_LABELS	(IOUF_MAX_INSNS * 2)

struct gen {
	const struct iouf_layout *lay;
	struct iouring_bpf_error *err;
	const char	*opname;
	const char	*pname;		/* the policy, for messages */
	int		line, col;	/* of the rule or test being compiled */
	int		overflow_line, overflow_col;
	int		n, nlabels;
	struct pinsn	p[MAX_PINSNS];
	int		label[MAX_LABELS];	/* pseudo index it is bound to */
	int		overflow;
};

static void overflowed(struct gen *g)
{
	if (!g->overflow) {
		g->overflow_line = g->line;
		g->overflow_col = g->col;
	}
	g->overflow = 1;
}

static int new_label(struct gen *g)
{
	if (g->nlabels >= MAX_LABELS) {
		overflowed(g);
		return 0;
	}
	g->label[g->nlabels] = -1;
	return g->nlabels++;
}

static void here(struct gen *g, int l)
{
	g->label[l] = g->n;
}

static void emit(struct gen *g, __u16 code, __u32 k, int jt, int jf)
{
	if (g->n >= MAX_PINSNS) {
		overflowed(g);
		return;
	}
	g->p[g->n++] = (struct pinsn){ code, k, jt, jf, g->line, g->col, 0 };
}

static void stmt(struct gen *g, __u16 code, __u32 k)
{
	emit(g, code, k, -1, -1);
}

static void ja(struct gen *g, int l)
{
	emit(g, BPF_JMP | BPF_JA, 0, l, -1);
}

/* if A <op> k goto t else goto f */
static void jcond(struct gen *g, __u16 op, __u32 k, int t, int f)
{
	emit(g, BPF_JMP | op | BPF_K, k, t, f);
}

static void ld(struct gen *g, int off)
{
	stmt(g, BPF_LD | BPF_W | BPF_ABS, off);
}

static int bad_loc(struct gen *g, const char *what, const struct iouf_loc *l,
		   int sizes)
{
	if (l->off < 0)
		return iou_fail(g->err, IOURING_BPF_FAIL, ENOENT,
				"%s:%d:%d: %s is not in struct io_uring_bpf_ctx of this layout (%s); the kernel cannot filter on it",
				g->pname, g->line, g->col, what, g->lay->source);
	if (!(sizes & l->size) || (l->size >= 4 && l->off % 4) ||
	    (l->size < 4 && l->off % 4 + l->size > 4) ||
	    l->off + (l->size > 4 ? l->size : 4) > g->lay->ctx_size + 3)
		return iou_fail(g->err, IOURING_BPF_FAIL, EINVAL,
				"%s:%d:%d: %s is %d bytes at offset %d in this layout (%s): not readable with aligned 32-bit loads",
				g->pname, g->line, g->col, what, l->size, l->off,
				g->lay->source);
	return 0;
}

/* A = the narrow field at l (1 or 2 bytes inside one word) */
static void ld_narrow(struct gen *g, const struct iouf_loc *l)
{
	int shift = (l->off % 4) * 8;

	ld(g, l->off & ~3);
	if (shift)
		stmt(g, BPF_ALU | BPF_RSH | BPF_K, shift);
	stmt(g, BPF_ALU | BPF_AND | BPF_K, l->size == 1 ? 0xff : 0xffff);
}

/* A = the port, in host order, from its network-order bytes */
static void ld_port(struct gen *g, const struct iouf_loc *l)
{
	int shift = (l->off % 4) * 8;

	ld(g, l->off & ~3);
	if (shift)
		stmt(g, BPF_ALU | BPF_RSH | BPF_K, shift);
	stmt(g, BPF_ALU | BPF_AND | BPF_K, 0xff);	/* first byte: high */
	stmt(g, BPF_ALU | BPF_LSH | BPF_K, 8);
	stmt(g, BPF_MISC | BPF_TAX, 0);
	ld(g, l->off & ~3);
	stmt(g, BPF_ALU | BPF_RSH | BPF_K, shift + 8);
	stmt(g, BPF_ALU | BPF_AND | BPF_K, 0xff);	/* second byte: low */
	stmt(g, BPF_ALU | BPF_OR | BPF_X, 0);
}

/* the numeric tests on A (32 bits): match -> m, else -> nm */
static void num_pred(struct gen *g, const struct iouf_test *t, int m, int nm)
{
	int i;

	switch (t->cmp) {
	case C_EQ: case C_NE:
		jcond(g, BPF_JEQ, (__u32)t->vals[0].lo, m, nm);
		return;
	case C_LT:
		if (!t->vals[0].lo)
			ja(g, nm);
		else
			jcond(g, BPF_JGE, (__u32)t->vals[0].lo, nm, m);
		return;
	case C_LE:
		jcond(g, BPF_JGT, (__u32)t->vals[0].lo, nm, m);
		return;
	case C_GT:
		jcond(g, BPF_JGT, (__u32)t->vals[0].lo, m, nm);
		return;
	case C_GE:
		jcond(g, BPF_JGE, (__u32)t->vals[0].lo, m, nm);
		return;
	default:
		break;
	}
	for (i = 0; i < t->nvals; i++) {
		const struct iouf_value *v = &t->vals[i];
		int nx = new_label(g), in = new_label(g);

		if (v->lo == v->hi) {
			jcond(g, BPF_JEQ, (__u32)v->lo, m, nx);
		} else {
			jcond(g, BPF_JGE, (__u32)v->lo, in, nx);
			here(g, in);
			jcond(g, BPF_JGT, (__u32)v->hi, nx, m);
		}
		here(g, nx);
	}
	ja(g, nm);
}

static void addr_pred(struct gen *g, const struct iouf_test *t, int m, int nm)
{
	const struct iouf_layout *lay = g->lay;
	int i, w;

	for (i = 0; i < t->nvals; i++) {
		const struct iouf_value *v = &t->vals[i];
		int nx = new_label(g), ok = new_label(g);
		int words = v->v6 ? 4 : 1;
		int base = v->v6 ? lay->connect_v6.off : lay->connect_v4.off;

		ld(g, lay->connect_family.off);
		jcond(g, BPF_JEQ, v->v6 ? AF_INET6 : AF_INET, ok, nx);
		here(g, ok);
		for (w = 0; w < words; w++) {
			__u8 mb[4] = { 0 }, nb[4];
			__u32 mask, net;
			int b, more = new_label(g);

			for (b = 0; b < 32; b++)
				if (w * 32 + b < v->prefix)
					mb[b / 8] |= 0x80 >> (b % 8);
			for (b = 0; b < 4; b++)
				nb[b] = v->addr[w * 4 + b] & mb[b];
			memcpy(&mask, mb, 4);
			memcpy(&net, nb, 4);
			if (!mask) {
				here(g, more);
				continue;
			}
			ld(g, base + 4 * w);
			if (mask != 0xffffffff)
				stmt(g, BPF_ALU | BPF_AND | BPF_K, mask);
			jcond(g, BPF_JEQ, net, more, nx);
			here(g, more);
		}
		ja(g, m);
		here(g, nx);
	}
	ja(g, nm);
}

/* the 64-bit fields: check the high word, then test the low one */
static void wide_pred(struct gen *g, const struct iouf_test *t,
		      const struct iouf_loc *l, int m, int nm)
{
	int i, lo = new_label(g);

	if (t->field == F_USER_DATA) {
		for (i = 0; i < t->nvals; i++) {
			int nx = new_label(g), hi_ok = new_label(g);

			ld(g, l->off + 4);
			jcond(g, BPF_JEQ, (__u32)(t->vals[i].lo >> 32), hi_ok, nx);
			here(g, hi_ok);
			ld(g, l->off);
			jcond(g, BPF_JEQ, (__u32)t->vals[i].lo, m, nx);
			here(g, nx);
		}
		ja(g, nm);
		return;
	}
	if (t->cmp == C_HAS || t->cmp == C_NOTHAS) {
		/* the flags are all in the low word */
		for (i = 0; i < t->nvals; i++) {
			int nx = new_label(g);

			ld(g, l->off);
			if (t->vals[i].lo != 0xffffffff)
				stmt(g, BPF_ALU | BPF_AND | BPF_K,
				     (__u32)t->vals[i].lo);
			jcond(g, BPF_JEQ, (__u32)t->vals[i].lo, m, nx);
			here(g, nx);
		}
		ja(g, nm);
		return;
	}
	/* a value above 32 bits is > every value of the policy */
	if (t->field != F_ACCMODE) {
		ld(g, l->off + 4);
		jcond(g, BPF_JEQ, 0, lo, t->cmp == C_GT || t->cmp == C_GE ? m : nm);
	}
	here(g, lo);
	ld(g, l->off);
	if (t->field == F_ACCMODE)
		stmt(g, BPF_ALU | BPF_AND | BPF_K, 3);
	num_pred(g, t, m, nm);
}

static int gen_test(struct gen *g, unsigned int op, const struct iouf_test *t,
		    int pass, int fail)
{
	const struct iouf_layout *lay = g->lay;
	int neg = t->cmp == C_NE || t->cmp == C_NOTIN || t->cmp == C_NOTHAS;
	int m = neg ? fail : pass, nm = neg ? pass : fail;
	int connect = !strcmp(lay->opname[op], "connect");
	const struct iouf_loc *l;

	switch (t->field) {
	case F_USER_DATA:
		if (bad_loc(g, "user_data", &lay->user_data, 8))
			return -1;
		wide_pred(g, t, &lay->user_data, m, nm);
		return 0;
	case F_SQE_FLAGS:
		if (bad_loc(g, "sqe_flags", &lay->sqe_flags, 1))
			return -1;
		if (t->cmp == C_HAS || t->cmp == C_NOTHAS) {
			int i;

			for (i = 0; i < t->nvals; i++) {
				int nx = new_label(g);

				ld_narrow(g, &lay->sqe_flags);
				stmt(g, BPF_ALU | BPF_AND | BPF_K,
				     (__u32)t->vals[i].lo);
				jcond(g, BPF_JEQ, (__u32)t->vals[i].lo, m, nx);
				here(g, nx);
			}
			ja(g, nm);
			return 0;
		}
		ld_narrow(g, &lay->sqe_flags);
		num_pred(g, t, m, nm);
		return 0;
	case F_FAMILY:
		l = connect ? &lay->connect_family : &lay->socket_family;
		if (bad_loc(g, connect ? "connect.family" : "socket.family", l, 4))
			return -1;
		ld(g, l->off);
		num_pred(g, t, m, nm);
		return 0;
	case F_TYPE:
	case F_PROTOCOL:
		l = t->field == F_TYPE ? &lay->socket_type : &lay->socket_protocol;
		if (bad_loc(g, t->field == F_TYPE ? "socket.type" :
			    "socket.protocol", l, 4))
			return -1;
		ld(g, l->off);
		if (t->field == F_TYPE)	/* without SOCK_NONBLOCK, SOCK_CLOEXEC */
			stmt(g, BPF_ALU | BPF_AND | BPF_K, 0xf);
		num_pred(g, t, m, nm);
		return 0;
	case F_PORT:
		if (bad_loc(g, "connect.port", &lay->connect_port, 2))
			return -1;
		ld_port(g, &lay->connect_port);
		num_pred(g, t, m, nm);
		return 0;
	case F_ADDR:
		if (bad_loc(g, "connect.family", &lay->connect_family, 4) ||
		    bad_loc(g, "connect.v4_addr", &lay->connect_v4, 4) ||
		    bad_loc(g, "connect.v6_addr", &lay->connect_v6, 16))
			return -1;
		addr_pred(g, t, m, nm);
		return 0;
	case F_FLAGS: case F_ACCMODE:
		l = &lay->open_flags;
		break;
	case F_MODE:
		l = &lay->open_mode;
		break;
	case F_RESOLVE:
		l = &lay->open_resolve;
		break;
	default:
		return iou_fail(g->err, IOURING_BPF_FAIL, EINVAL, "bad field");
	}
	if (bad_loc(g, t->field == F_MODE ? "open.mode" : t->field == F_RESOLVE ?
		    "open.resolve" : "open.flags", l, 8))
		return -1;
	wide_pred(g, t, l, m, nm);
	return 0;
}

static int reads_payload(const struct iouf_rule *r)
{
	int i;

	for (i = 0; i < r->ntests; i++)
		if (r->tests[i].field != F_USER_DATA &&
		    r->tests[i].field != F_SQE_FLAGS)
			return 1;
	return 0;
}

/* labels to offsets; conditional jumps too far for 8 bits go through JA */
static int resolve(struct gen *g, struct iouf_prog *out)
{
	int pos[MAX_PINSNS + 1], i, n, changed, lp;

	for (i = 0; i < g->n; i++)
		if (BPF_CLASS(g->p[i].code) == BPF_JMP &&
		    (g->label[g->p[i].jt] < 0 ||
		     (BPF_OP(g->p[i].code) != BPF_JA && g->label[g->p[i].jf] < 0)))
			return iou_fail(g->err, IOURING_BPF_FAIL, EINVAL,
					"internal error: unbound label in the program for %s",
					g->opname);
	do {
		changed = 0;
		for (i = 0, n = 0; i < g->n; i++) {
			pos[i] = n;
			n += g->p[i].far ? 3 : 1;
		}
		pos[g->n] = n;
		for (i = 0; i < g->n; i++) {
			struct pinsn *p = &g->p[i];

			if (BPF_CLASS(p->code) != BPF_JMP || BPF_OP(p->code) == BPF_JA ||
			    p->far)
				continue;
			if (pos[g->label[p->jt]] - pos[i] - 1 > 255 ||
			    pos[g->label[p->jf]] - pos[i] - 1 > 255) {
				p->far = 1;
				changed = 1;
			}
		}
	} while (changed);
	if (n > IOUF_MAX_INSNS) {
		/* the rule whose code passes the limit */
		for (i = 0; i < g->n && pos[i + 1] <= IOUF_MAX_INSNS; i++)
			;
		while (i > 0 && !g->p[i].line)	/* the default's return */
			i--;
		return iou_fail(g->err, IOURING_BPF_FAIL, E2BIG,
				"%s:%d:%d: the rules for opcode %s compile to %d instructions, more than the kernel's %d (this rule passes the limit); split the lists or use ranges",
				g->pname, g->p[i].line, g->p[i].col, g->opname,
				n, IOUF_MAX_INSNS);
	}
	out->insns = calloc(n, sizeof(*out->insns));
	out->lines = calloc(n, sizeof(*out->lines));
	if (!out->insns || !out->lines)
		return iou_fail(g->err, IOURING_BPF_FAIL, ENOMEM, "out of memory");
	out->len = n;
	for (i = 0; i < g->n; i++) {
		struct pinsn *p = &g->p[i];
		struct sock_filter *f = &out->insns[pos[i]];
		int at = pos[i];

		out->lines[at] = p->line;
		if (BPF_CLASS(p->code) != BPF_JMP) {
			*f = (struct sock_filter)BPF_STMT(p->code, p->k);
			continue;
		}
		if (BPF_OP(p->code) == BPF_JA) {
			*f = (struct sock_filter)BPF_STMT(p->code,
					pos[g->label[p->jt]] - at - 1);
			continue;
		}
		if (!p->far) {
			*f = (struct sock_filter)BPF_JUMP(p->code, p->k,
					pos[g->label[p->jt]] - at - 1,
					pos[g->label[p->jf]] - at - 1);
			continue;
		}
		*f = (struct sock_filter)BPF_JUMP(p->code, p->k, 0, 1);
		lp = pos[g->label[p->jt]];
		f[1] = (struct sock_filter)BPF_STMT(BPF_JMP | BPF_JA, lp - at - 2);
		lp = pos[g->label[p->jf]];
		f[2] = (struct sock_filter)BPF_STMT(BPF_JMP | BPF_JA, lp - at - 3);
		out->lines[at + 1] = out->lines[at + 2] = p->line;
	}
	return 0;
}

static int gen_op(struct iouring_bpf_filter *f, struct gen *g, unsigned int op,
		  struct iouf_prog *out)
{
	const struct iouf_policy *pol = &f->pol;
	int i, j, payload = 0, closed = 0;

	g->n = g->nlabels = g->overflow = 0;
	g->opname = f->lay.opname[op];
	for (i = 0; i < pol->nrules && !closed; i++) {
		const struct iouf_rule *r = &pol->rules[i];
		int next_rule;

		if (!r->ops[op])
			continue;
		next_rule = new_label(g);
		g->line = r->line;
		g->col = r->col;
		payload |= reads_payload(r);
		for (j = 0; j < r->ntests; j++) {
			int pass = new_label(g);

			g->col = r->tests[j].col;
			if (gen_test(g, op, &r->tests[j], pass, next_rule))
				return -1;
			here(g, pass);
		}
		g->col = r->col;
		stmt(g, BPF_RET | BPF_K, r->allow);
		here(g, next_rule);
		closed = !r->ntests;
	}
	g->line = 0;
	g->col = 0;
	if (!closed)
		stmt(g, BPF_RET | BPF_K, pol->default_allow);
	if (g->overflow)
		return iou_fail(g->err, IOURING_BPF_FAIL, E2BIG,
				"%s:%d:%d: the rules for opcode %s are too large to compile (more than %d instructions by this rule); split the lists",
				g->pname, g->overflow_line, g->overflow_col,
				g->opname, IOUF_MAX_INSNS);
	out->opcode = op;
	out->pdu_size = payload ? f->lay.payload_size[iouf_op_payload(g->opname)] : 0;
	out->flags = 0;
	return resolve(g, out);
}

/*
 * How programs of several policies combine in the kernel (io_uring/
 * bpf_filter.c, 7.2): each opcode has a list of programs, a new one is
 * put in front, and a request runs only if every program of its opcode
 * returns non-zero. DENY_REST puts a deny marker only on the opcodes that
 * have no program at that moment. So a `default deny` policy that relied
 * on DENY_REST would not deny an opcode for which an earlier policy (on
 * the task, an outer sandbox, or the ring) already had a program: that
 * opcode would then be judged by the earlier policy alone, and stacking
 * would loosen. A `default deny` policy therefore registers a program for
 * every opcode of the layout, `ret 0` for those it has no rule for, so
 * that its verdict holds for every opcode whatever was registered before
 * it; DENY_REST on its last program still covers opcodes the kernel has
 * and the layout does not know (only where nothing is registered).
 */
int iouf_compile(struct iouring_bpf_filter *f, struct iouring_bpf_error *err)
{
	struct gen *g = calloc(1, sizeof(*g));
	int deny_all = !f->pol.default_allow;
	unsigned int op;
	int i, used;
	char why[200];

	if (!g)
		return iou_fail(err, IOURING_BPF_FAIL, ENOMEM, "out of memory");
	g->lay = &f->lay;
	g->err = err;
	g->pname = f->pol.name;
	f->nprogs = 0;
	for (op = 0; op < (unsigned int)f->lay.nr_ops; op++) {
		struct iouf_prog *p = &f->progs[f->nprogs];

		for (i = 0, used = 0; i < f->pol.nrules; i++)
			used |= f->pol.rules[i].ops[op];
		if (!used && !deny_all)
			continue;
		if (gen_op(f, g, op, p)) {
			free(p->insns);
			free(p->lines);
			memset(p, 0, sizeof(*p));
			free(g);
			return -1;
		}
		/* a program that only returns `default allow` adds nothing */
		if (!deny_all && p->len == 1 &&
		    p->insns[0].k == (__u32)f->pol.default_allow) {
			free(p->insns);
			free(p->lines);
			memset(p, 0, sizeof(*p));
			continue;
		}
		if (iouf_check_prog(p, f->lay.ctx_size, why, sizeof(why))) {
			free(g);
			return iou_fail(err, IOURING_BPF_FAIL, EINVAL,
					"internal error: the program for %s fails the kernel's checks: %s",
					f->lay.opname[op], why);
		}
		f->nprogs++;
	}
	free(g);
	if (deny_all) {
		if (!f->nprogs)	/* a layout without opcodes */
			return iou_fail(err, IOURING_BPF_FAIL, EINVAL,
					"%s: the layout (%s) has no opcodes",
					f->pol.name, f->lay.source);
		/* opcodes the kernel has beyond this layout, where empty */
		f->progs[f->nprogs - 1].flags |= IO_URING_BPF_FILTER_DENY_REST;
	}
	return 0;
}

/* the instructions io_uring's classic BPF check takes */
static int allowed(__u16 code)
{
	switch (code) {
	case BPF_LD | BPF_W | BPF_ABS:
	case BPF_LD | BPF_W | BPF_LEN: case BPF_LDX | BPF_W | BPF_LEN:
	case BPF_RET | BPF_K: case BPF_RET | BPF_A:
	case BPF_ALU | BPF_ADD | BPF_K: case BPF_ALU | BPF_ADD | BPF_X:
	case BPF_ALU | BPF_SUB | BPF_K: case BPF_ALU | BPF_SUB | BPF_X:
	case BPF_ALU | BPF_MUL | BPF_K: case BPF_ALU | BPF_MUL | BPF_X:
	case BPF_ALU | BPF_DIV | BPF_K: case BPF_ALU | BPF_DIV | BPF_X:
	case BPF_ALU | BPF_AND | BPF_K: case BPF_ALU | BPF_AND | BPF_X:
	case BPF_ALU | BPF_OR | BPF_K: case BPF_ALU | BPF_OR | BPF_X:
	case BPF_ALU | BPF_XOR | BPF_K: case BPF_ALU | BPF_XOR | BPF_X:
	case BPF_ALU | BPF_LSH | BPF_K: case BPF_ALU | BPF_LSH | BPF_X:
	case BPF_ALU | BPF_RSH | BPF_K: case BPF_ALU | BPF_RSH | BPF_X:
	case BPF_ALU | BPF_NEG:
	case BPF_LD | BPF_IMM: case BPF_LDX | BPF_IMM:
	case BPF_MISC | BPF_TAX: case BPF_MISC | BPF_TXA:
	case BPF_LD | BPF_MEM: case BPF_LDX | BPF_MEM:
	case BPF_ST: case BPF_STX:
	case BPF_JMP | BPF_JA:
	case BPF_JMP | BPF_JEQ | BPF_K: case BPF_JMP | BPF_JEQ | BPF_X:
	case BPF_JMP | BPF_JGE | BPF_K: case BPF_JMP | BPF_JGE | BPF_X:
	case BPF_JMP | BPF_JGT | BPF_K: case BPF_JMP | BPF_JGT | BPF_X:
	case BPF_JMP | BPF_JSET | BPF_K: case BPF_JMP | BPF_JSET | BPF_X:
		return 1;
	}
	return 0;
}

int iouf_check_prog(const struct iouf_prog *p, int ctx_size, char *why,
		    size_t len)
{
	unsigned int i;

	if (!p->len || p->len > IOUF_MAX_INSNS) {
		snprintf(why, len, "length %u", p->len);
		return -EINVAL;
	}
	for (i = 0; i < p->len; i++) {
		const struct sock_filter *f = &p->insns[i];

		if (!allowed(f->code)) {
			snprintf(why, len, "insn %u: code 0x%x not allowed", i,
				 f->code);
			return -EINVAL;
		}
		if (f->code == (BPF_LD | BPF_W | BPF_ABS) &&
		    (f->k >= (__u32)ctx_size || f->k & 3)) {
			snprintf(why, len, "insn %u: load at %u", i, f->k);
			return -EINVAL;
		}
		if ((f->code == (BPF_LD | BPF_MEM) || f->code == (BPF_LDX | BPF_MEM) ||
		     f->code == BPF_ST || f->code == BPF_STX) && f->k >= BPF_MEMWORDS) {
			snprintf(why, len, "insn %u: scratch word %u", i, f->k);
			return -EINVAL;
		}
		if (BPF_CLASS(f->code) == BPF_JMP) {
			__u64 t = BPF_OP(f->code) == BPF_JA ? (__u64)i + 1 + f->k :
				  (__u64)i + 1 + (f->jt > f->jf ? f->jt : f->jf);

			if (t >= p->len) {
				snprintf(why, len, "insn %u: jump out of the program", i);
				return -EINVAL;
			}
		}
	}
	if (BPF_CLASS(p->insns[p->len - 1].code) != BPF_RET) {
		snprintf(why, len, "the last insn is not a return");
		return -EINVAL;
	}
	return 0;
}

__u32 iouf_run(const struct sock_filter *insns, unsigned int len,
	       const void *ctx, int ctx_size)
{
	__u32 A = 0, X = 0, M[BPF_MEMWORDS] = { 0 };
	unsigned int pc = 0, steps = 0;

	while (pc < len && steps++ < 100000) {
		const struct sock_filter *f = &insns[pc++];
		__u32 k = f->k, src = BPF_SRC(f->code) == BPF_X ? X : k;

		switch (BPF_CLASS(f->code)) {
		case BPF_LD:
			if (BPF_MODE(f->code) == BPF_ABS) {
				if (k + 4 > (__u32)ctx_size)
					return 0;
				memcpy(&A, (const char *)ctx + k, 4);
			} else if (BPF_MODE(f->code) == BPF_IMM) {
				A = k;
			} else if (BPF_MODE(f->code) == BPF_MEM) {
				A = M[k % BPF_MEMWORDS];
			} else if (BPF_MODE(f->code) == BPF_LEN) {
				A = ctx_size;
			}
			break;
		case BPF_LDX:
			X = BPF_MODE(f->code) == BPF_MEM ? M[k % BPF_MEMWORDS] :
			    BPF_MODE(f->code) == BPF_LEN ? (__u32)ctx_size : k;
			break;
		case BPF_ST:
			M[k % BPF_MEMWORDS] = A;
			break;
		case BPF_STX:
			M[k % BPF_MEMWORDS] = X;
			break;
		case BPF_ALU:
			switch (BPF_OP(f->code)) {
			case BPF_ADD:
				A += src;
				break;
			case BPF_SUB:
				A -= src;
				break;
			case BPF_MUL:
				A *= src;
				break;
			case BPF_DIV:
				if (!src)
					return 0;
				A /= src;
				break;
			case BPF_AND:
				A &= src;
				break;
			case BPF_OR:
				A |= src;
				break;
			case BPF_XOR:
				A ^= src;
				break;
			case BPF_LSH:
				A = src >= 32 ? 0 : A << src;
				break;
			case BPF_RSH:
				A = src >= 32 ? 0 : A >> src;
				break;
			case BPF_NEG:
				A = -A;
				break;
			}
			break;
		case BPF_JMP:
			switch (BPF_OP(f->code)) {
			case BPF_JA:
				pc += k;
				break;
			case BPF_JEQ:
				pc += A == src ? f->jt : f->jf;
				break;
			case BPF_JGT:
				pc += A > src ? f->jt : f->jf;
				break;
			case BPF_JGE:
				pc += A >= src ? f->jt : f->jf;
				break;
			case BPF_JSET:
				pc += A & src ? f->jt : f->jf;
				break;
			}
			break;
		case BPF_RET:
			return BPF_RVAL(f->code) == BPF_A ? A : k;
		case BPF_MISC:
			if (BPF_MISCOP(f->code) == BPF_TAX)
				X = A;
			else
				A = X;
			break;
		}
	}
	return 0;
}
