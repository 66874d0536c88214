// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * filter_show.c - a compiled policy for people: each program
 * disassembled, every instruction with what it does in words, the field
 * of struct io_uring_bpf_ctx a load reads, and the policy line it came
 * from; and the same programs as C, for applications that register them
 * without the library.
 */
#include <stdio.h>
#include <string.h>
#include "filter_internal.h"

/* the text of line n of the policy, trimmed, or "" */
static void policy_line(const struct iouring_bpf_filter *f, int n, char *out,
			size_t len)
{
	const char *p = f->text;
	size_t k;

	out[0] = 0;
	if (!p || n <= 0)
		return;
	while (--n && (p = strchr(p, '\n')))
		p++;
	if (!p)
		return;
	while (*p == ' ' || *p == '\t')
		p++;
	for (k = 0; p[k] && p[k] != '\n' && k < len - 1; k++)
		out[k] = p[k];
	while (k && (out[k - 1] == ' ' || out[k - 1] == '\t'))
		k--;
	out[k] = 0;
}

static const char *alu_op(__u16 code)
{
	switch (BPF_OP(code)) {
	case BPF_ADD: return "add";
	case BPF_SUB: return "sub";
	case BPF_MUL: return "mul";
	case BPF_DIV: return "div";
	case BPF_AND: return "and";
	case BPF_OR: return "or";
	case BPF_XOR: return "xor";
	case BPF_LSH: return "lsh";
	case BPF_RSH: return "rsh";
	case BPF_NEG: return "neg";
	}
	return "?";
}

static const char *alu_sym(__u16 code)
{
	switch (BPF_OP(code)) {
	case BPF_ADD: return "+=";
	case BPF_SUB: return "-=";
	case BPF_MUL: return "*=";
	case BPF_DIV: return "/=";
	case BPF_AND: return "&=";
	case BPF_OR: return "|=";
	case BPF_XOR: return "^=";
	case BPF_LSH: return "<<=";
	case BPF_RSH: return ">>=";
	}
	return "?";
}

/* one instruction: mnemonic in asm, meaning in words */
static void disasm(const struct iouf_layout *lay, const char *opname,
		   const struct sock_filter *in, unsigned int pc, char *asm_,
		   size_t alen, char *what, size_t wlen)
{
	__u16 c = in->code;
	const char *rel = BPF_OP(c) == BPF_JEQ ? "==" : BPF_OP(c) == BPF_JGT ?
			  ">" : BPF_OP(c) == BPF_JGE ? ">=" : "&";
	const char *mn = BPF_OP(c) == BPF_JEQ ? "jeq" : BPF_OP(c) == BPF_JGT ?
			 "jgt" : BPF_OP(c) == BPF_JGE ? "jge" : "jset";

	switch (BPF_CLASS(c)) {
	case BPF_LD:
		if (BPF_MODE(c) == BPF_ABS) {
			snprintf(asm_, alen, "ld [%u]", in->k);
			snprintf(what, wlen, "A = 32 bits at %u: %s", in->k,
				 iouf_layout_describe(lay, in->k, opname));
		} else {
			snprintf(asm_, alen, "ld #%u", in->k);
			snprintf(what, wlen, "A = %u", in->k);
		}
		return;
	case BPF_LDX:
		snprintf(asm_, alen, "ldx #%u", in->k);
		snprintf(what, wlen, "X = %u", in->k);
		return;
	case BPF_ST: case BPF_STX:
		snprintf(asm_, alen, "%s M[%u]", BPF_CLASS(c) == BPF_ST ? "st" :
			 "stx", in->k);
		snprintf(what, wlen, "M[%u] = %s", in->k,
			 BPF_CLASS(c) == BPF_ST ? "A" : "X");
		return;
	case BPF_ALU:
		if (BPF_OP(c) == BPF_NEG) {
			snprintf(asm_, alen, "neg");
			snprintf(what, wlen, "A = -A");
		} else if (BPF_SRC(c) == BPF_X) {
			snprintf(asm_, alen, "%s x", alu_op(c));
			snprintf(what, wlen, "A %s X", alu_sym(c));
		} else {
			snprintf(asm_, alen, "%s #0x%x", alu_op(c), in->k);
			snprintf(what, wlen, "A %s 0x%x", alu_sym(c), in->k);
		}
		return;
	case BPF_JMP:
		if (BPF_OP(c) == BPF_JA) {
			snprintf(asm_, alen, "ja %u", pc + 1 + in->k);
			snprintf(what, wlen, "goto %u", pc + 1 + in->k);
			return;
		}
		snprintf(asm_, alen, "%s #0x%x, %u, %u", mn, in->k,
			 pc + 1 + in->jt, pc + 1 + in->jf);
		snprintf(what, wlen, "if A %s 0x%x (%u) goto %u else %u", rel,
			 in->k, in->k, pc + 1 + in->jt, pc + 1 + in->jf);
		return;
	case BPF_RET:
		snprintf(asm_, alen, "ret #%u", in->k);
		snprintf(what, wlen, "%s", in->k ? "ALLOW the request" :
			 "DENY the request (-EACCES)");
		return;
	case BPF_MISC:
		snprintf(asm_, alen, BPF_MISCOP(c) == BPF_TAX ? "tax" : "txa");
		snprintf(what, wlen, BPF_MISCOP(c) == BPF_TAX ? "X = A" : "A = X");
		return;
	}
	snprintf(asm_, alen, "0x%x", c);
	snprintf(what, wlen, "?");
}

/* a `default deny` policy's `ret 0` for an opcode it has no rule for */
static int deny_all_prog(const struct iouring_bpf_filter *f,
			 const struct iouf_prog *p)
{
	return !f->pol.default_allow && p->len == 1 && !p->flags &&
	       !p->lines[0] && p->insns[0].code == (BPF_RET | BPF_K) &&
	       !p->insns[0].k;
}

/* those programs on a few lines rather than one block each */
static void show_deny_all(const struct iouring_bpf_filter *f, FILE *out)
{
	int i, n = 0, col = 0;

	for (i = 0; i < f->nprogs; i++)
		n += deny_all_prog(f, &f->progs[i]);
	if (!n)
		return;
	fprintf(out, "\n%d opcode%s without a rule: one program each, `0: ret #0` (DENY: default deny),\n"
		"registered so that this policy denies them even where an earlier policy\n"
		"has a program (DENY_REST covers only opcodes with none):\n",
		n, n == 1 ? "" : "s");
	for (i = 0; i < f->nprogs; i++) {
		const struct iouf_prog *p = &f->progs[i];
		char name[32];
		int len;

		if (!deny_all_prog(f, p))
			continue;
		len = snprintf(name, sizeof(name), "%s", f->lay.opname[p->opcode]);
		if (!name[0])
			len = snprintf(name, sizeof(name), "%u", p->opcode);
		if (col && col + len + 2 > 76) {
			fputc('\n', out);
			col = 0;
		}
		col += fprintf(out, "%s%s", col ? " " : "  ", name);
	}
	fputc('\n', out);
}

void iouring_bpf_filter_show(const struct iouring_bpf_filter *f, FILE *out)
{
	char a[64], w[200], src[200];
	int i;
	unsigned int pc;

	fprintf(out, "policy %s: default %s; %d program%s; layout: %s (struct io_uring_bpf_ctx, %d bytes)\n",
		f->pol.name, f->pol.default_allow ? "allow" : "deny", f->nprogs,
		f->nprogs == 1 ? "" : "s", f->lay.source, f->lay.ctx_size);
	if (!f->nprogs)
		fprintf(out, "(no program: this policy allows every request)\n");
	show_deny_all(f, out);
	for (i = 0; i < f->nprogs; i++) {
		const struct iouf_prog *p = &f->progs[i];
		int last = -1;

		if (deny_all_prog(f, p))
			continue;

		fprintf(out, "\n%s (opcode %u): %u instruction%s, payload %u bytes%s\n",
			f->lay.opname[p->opcode], p->opcode, p->len,
			p->len == 1 ? "" : "s", p->pdu_size,
			p->flags & 1 ? ", DENY_REST: the kernel denies the opcodes it has beyond this layout's, where nothing is registered" :
			"");
		for (pc = 0; pc < p->len; pc++) {
			if (p->lines[pc] != last) {
				last = p->lines[pc];
				if (last > 0) {
					policy_line(f, last, src, sizeof(src));
					fprintf(out, "     ; line %d: %s\n", last, src);
				} else {
					fprintf(out, "     ; no rule matched: default %s\n",
						f->pol.default_allow ? "allow" : "deny");
				}
			}
			disasm(&f->lay, f->lay.opname[p->opcode], &p->insns[pc], pc, a, sizeof(a), w,
			       sizeof(w));
			fprintf(out, "%4u: %-24s %s\n", pc, a, w);
		}
	}
}

void iouring_bpf_filter_export_c(const struct iouring_bpf_filter *f,
				 FILE *out)
{
	char a[64], w[200];
	int i;
	unsigned int pc;

	fprintf(out, "/*\n * policy %s, compiled by iouring-bpf for the layout: %s.\n"
		" * Register each with io_uring_register(fd, IORING_REGISTER_BPF_FILTER,\n"
		" * &struct io_uring_bpf, 1), in this order (fd -1: the task).\n */\n",
		f->pol.name, f->lay.source);
	fprintf(out, "#include <linux/filter.h>\n\n");
	for (i = 0; i < f->nprogs; i++) {
		const struct iouf_prog *p = &f->progs[i];

		if (f->lay.opname[p->opcode][0])
			fprintf(out, "static struct sock_filter iouf_%s[] = {\n",
				f->lay.opname[p->opcode]);
		else
			fprintf(out, "static struct sock_filter iouf_op%u[] = {\n",
				p->opcode);
		for (pc = 0; pc < p->len; pc++) {
			const struct sock_filter *in = &p->insns[pc];

			disasm(&f->lay, f->lay.opname[p->opcode], in, pc, a, sizeof(a), w, sizeof(w));
			fprintf(out, "\t{ 0x%02x, %u, %u, 0x%08x },\t/* %u: %s */\n",
				in->code, in->jt, in->jf, in->k, pc, a);
		}
		fprintf(out, "};\n");
	}
	fprintf(out, "\nstatic const struct {\n\tunsigned int opcode, flags, pdu_size, len;\n"
		"\tstruct sock_filter *insns;\n} iouf_registrations[] = {\n");
	for (i = 0; i < f->nprogs; i++) {
		const struct iouf_prog *p = &f->progs[i];
		const char *on = f->lay.opname[p->opcode];

		char sym[40];

		if (on[0])
			snprintf(sym, sizeof(sym), "iouf_%s", on);
		else
			snprintf(sym, sizeof(sym), "iouf_op%u", p->opcode);
		fprintf(out, "\t{ %u /* %s */, %u%s, %u, %u, %s },\n",
			p->opcode, on, p->flags,
			p->flags & 1 ? " /* DENY_REST */" : "", p->pdu_size,
			p->len, sym);
	}
	fprintf(out, "};\n");
}
