// SPDX-License-Identifier: GPL-2.0
/*
 * filter_fuzz.c - the policy compiler against itself, on the host (no
 * kernel needed): tests/host/test_filter_compiler runs it.
 *
 *  1. random well-formed policies (rules, tests, lists, ranges, address
 *     prefixes on every field) are compiled; each program must pass the
 *     kernel's structural checks (allowed opcodes, aligned loads inside
 *     struct io_uring_bpf_ctx, jumps inside the program, a return at the
 *     end), and decide on random contexts as the reference evaluator of
 *     the rules decides (filter_policy.c, iouf_eval);
 *  2. random mutations of those policies and of the shipped ones: the
 *     compiler must either accept the text (then 1. holds for it too) or
 *     refuse it with one line and status 1 or 2; never crash.
 *
 * Usage: filter_fuzz [--seed N] [--iterations N]. Exit 0, or 1 with the
 * first disagreement (the policy, the opcode, the context) printed.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "filter_internal.h"

static unsigned long long rng;

static unsigned int rnd(unsigned int n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return n ? (unsigned int)(rng >> 33) % n : 0;
}

static const char *pick(const char *const *a, int n)
{
	return a[rnd(n)];
}

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const char *const any_vals_ud[] = { "0", "1", "0x1234", "4294967296", "18446744073709551615", "77" };
static const char *const sqe_vals[] = { "fixed_file", "io_link", "async", "buffer_select", "3", "0" };
static const char *const fam_vals[] = { "inet", "inet6", "unix", "netlink", "0", "2-10", "1-1" };
static const char *const type_vals[] = { "stream", "dgram", "raw", "1-3", "5" };
static const char *const proto_vals[] = { "tcp", "udp", "0", "6-17", "262" };
static const char *const port_vals[] = { "80", "443", "0", "1024-65535", "22", "53-53", "65535" };
static const char *const addr_vals[] = { "127.0.0.0/8", "::1", "10.0.0.0/8", "192.0.2.1", "2001:db8::/32", "0.0.0.0/0", "::/0", "127.0.0.1/32", "fe80::/10", "10.1.2.3/31" };
static const char *const flag_vals[] = { "creat", "trunc", "wronly", "rdwr", "append", "tmpfile", "directory", "cloexec", "64" };
static const char *const acc_vals[] = { "rdonly", "wronly", "rdwr", "0-1" };
static const char *const mode_vals[] = { "0644", "0", "0777", "0600-0700", "07777" };
static const char *const res_vals[] = { "beneath", "in_root", "no_symlinks", "cached", "3" };

struct fdesc {
	const char *name;
	const char *const *vals;
	int n;
	int kind;	/* 0 numeric, 1 flag word, 2 addr/user_data (no order) */
};

static const struct fdesc any_f[] = {
	{ "user_data", any_vals_ud, N(any_vals_ud), 2 },
	{ "sqe_flags", sqe_vals, N(sqe_vals), 1 },
};
static const struct fdesc sock_f[] = {
	{ "family", fam_vals, N(fam_vals), 0 },
	{ "type", type_vals, N(type_vals), 0 },
	{ "protocol", proto_vals, N(proto_vals), 0 },
};
static const struct fdesc conn_f[] = {
	{ "family", fam_vals, N(fam_vals), 0 },
	{ "port", port_vals, N(port_vals), 0 },
	{ "addr", addr_vals, N(addr_vals), 2 },
};
static const struct fdesc open_f[] = {
	{ "flags", flag_vals, N(flag_vals), 1 },
	{ "accmode", acc_vals, N(acc_vals), 0 },
	{ "mode", mode_vals, N(mode_vals), 0 },
	{ "resolve", res_vals, N(res_vals), 1 },
};

static void add_value(char *out, size_t len, const struct fdesc *f, int list)
{
	const char *v;
	int k, n = list ? 1 + rnd(3) : 1;
	size_t at;

	for (k = 0; k < n; k++) {
		do {
			v = pick(f->vals, f->n);
		} while (!list && strchr(v, '-'));
		at = strlen(out);
		snprintf(out + at, len - at, "%s%s", k ? ", " : "", v);
	}
}

static void gen_test(char *out, size_t len, const struct fdesc *f)
{
	static const char *const num_ops[] = { "==", "!=", "<", "<=", ">", ">=", "in", "not in" };
	static const char *const bit_ops[] = { "has", "not has", "==", "!=" };
	static const char *const un_ops[] = { "==", "!=", "in", "not in" };
	const char *op = f->kind == 0 ? pick(num_ops, N(num_ops)) :
			 f->kind == 1 ? pick(bit_ops, N(bit_ops)) : pick(un_ops, N(un_ops));
	int list = strstr(op, "in") || strstr(op, "has");
	size_t at = strlen(out);
	const struct fdesc *ff = f;

	if (!strcmp(f->name, "user_data") || !strcmp(f->name, "addr"))
		list = strstr(op, "in") != NULL;
	snprintf(out + at, len - at, "%s %s ", f->name, op);
	if (!list && !strcmp(f->name, "addr")) {
		at = strlen(out);
		snprintf(out + at, len - at, "%s", pick(addr_vals, N(addr_vals)));
		return;
	}
	add_value(out, len, ff, list);
}

static void gen_policy(char *out, size_t len)
{
	static const char *const groups[][4] = {
		{ "socket", NULL }, { "connect", NULL }, { "openat", "openat2" },
		{ "nop", "read" }, { "socket", "connect" },
	};
	int r, nr = 1 + rnd(6), t;

	snprintf(out, len, "# generated\ndefault %s\n", rnd(2) ? "allow" : "deny");
	for (r = 0; r < nr; r++) {
		int g = rnd(N(groups)), nt = rnd(4);
		const struct fdesc *fs;
		int nf;
		size_t at = strlen(out);

		snprintf(out + at, len - at, "%s %s%s%s", rnd(2) ? "allow" : "deny",
			 groups[g][0], groups[g][1] ? ", " : "",
			 groups[g][1] ? groups[g][1] : "");
		fs = g == 0 ? sock_f : g == 1 ? conn_f : g == 2 ? open_f : any_f;
		nf = g == 0 ? N(sock_f) : g == 1 ? N(conn_f) : g == 2 ? N(open_f) : N(any_f);
		if (g == 4) {		/* socket, connect share family */
			fs = sock_f;
			nf = 1;
		}
		for (t = 0; t < nt; t++) {
			const struct fdesc *f = rnd(4) ? &fs[rnd(nf)] : &any_f[rnd(2)];

			at = strlen(out);
			snprintf(out + at, len - at, " %s ", t ? "and" : "if");
			gen_test(out, len, f);
		}
		at = strlen(out);
		snprintf(out + at, len - at, "\n");
	}
}

static void put32(unsigned char *c, int off, unsigned int v)
{
	memcpy(c + off, &v, 4);
}

/* a context for opcode op: structured fields, sometimes random bytes */
static void gen_ctx(unsigned char *c, int size, const struct iouf_layout *lay,
		    const char *opname)
{
	static const unsigned int fams[] = { 1, 2, 10, 16, 0, 3 };
	static const unsigned int ports[] = { 80, 443, 22, 0, 1024, 65535, 53 };
	static const char *const v4[] = { "127.0.0.1", "10.1.2.3", "10.1.2.2", "192.0.2.1", "8.8.8.8", "0.0.0.0" };
	static const char *const v6[] = { "::1", "2001:db8::1", "fe80::1", "::", "2001:db9::1" };
	int i;

	for (i = 0; i < size; i++)
		c[i] = rnd(4) ? 0 : rnd(256);
	if (!rnd(8))
		return;
	put32(c, lay->user_data.off, rnd(3) ? pick(any_vals_ud, 3)[0] - '0' : rnd(0xffffffff));
	put32(c, lay->user_data.off + 4, rnd(4) ? 0 : rnd(3));
	c[lay->sqe_flags.off] = rnd(2) ? 1 << rnd(7) : rnd(128);
	if (!strcmp(opname, "socket")) {
		put32(c, lay->socket_family.off, fams[rnd(N(fams))]);
		put32(c, lay->socket_type.off, (1 + rnd(5)) | (rnd(2) ? 0x80000 : 0));
		put32(c, lay->socket_protocol.off, rnd(2) ? 6 : rnd(20));
	} else if (!strcmp(opname, "connect")) {
		unsigned int f = fams[rnd(3)];
		unsigned short p = htons(ports[rnd(N(ports))]);

		put32(c, lay->connect_family.off, f);
		memcpy(c + lay->connect_port.off, &p, 2);
		if (f == 2)
			inet_pton(AF_INET, v4[rnd(N(v4))], c + lay->connect_v4.off);
		else if (f == 10)
			inet_pton(AF_INET6, v6[rnd(N(v6))], c + lay->connect_v6.off);
	} else if (!strncmp(opname, "openat", 6)) {
		static const unsigned int fl[] = { 0, 1, 2, 0x40, 0x241, 0x8000, 0x410002, 0x80400, 0x200 };

		put32(c, lay->open_flags.off, fl[rnd(N(fl))] | (rnd(2) ? 0x8000 : 0));
		put32(c, lay->open_flags.off + 4, rnd(6) ? 0 : 1);
		put32(c, lay->open_mode.off, rnd(2) ? 0644 : rnd(07777));
		put32(c, lay->open_mode.off + 4, rnd(6) ? 0 : 1);
		put32(c, lay->open_resolve.off, rnd(64));
		put32(c, lay->open_resolve.off + 4, rnd(6) ? 0 : 2);
	}
}

static int check_filter(const struct iouring_bpf_filter *f, const char *text,
			int nctx)
{
	unsigned char ctx[256];
	char why[200];
	int i, k, op;

	for (i = 0; i < f->nprogs; i++)
		if (iouf_check_prog(&f->progs[i], f->lay.ctx_size, why, sizeof(why))) {
			printf("FAIL: program %d fails the kernel's checks: %s\npolicy:\n%s\n",
			       i, why, text);
			return 1;
		}
	for (op = 0; op < f->lay.nr_ops; op++) {
		const struct iouf_prog *p = NULL;

		for (i = 0; i < f->nprogs; i++)
			if (f->progs[i].opcode == (unsigned int)op)
				p = &f->progs[i];
		/*
		 * stacked after a policy with a program for op, DENY_REST
		 * would not cover op: a default deny needs its own program
		 */
		if (!p && !f->pol.default_allow) {
			printf("FAIL: default deny and no program for opcode %d (%s): stacked after another policy it would not be denied\npolicy:\n%s\n",
			       op, f->lay.opname[op], text);
			return 1;
		}
		for (k = 0; k < (p && p->len > 1 ? nctx : 2); k++) {
			int want, got;

			gen_ctx(ctx, f->lay.ctx_size, &f->lay, f->lay.opname[op]);
			want = iouf_eval(&f->pol, &f->lay, op, ctx);
			got = p ? !!iouf_run(p->insns, p->len, ctx, f->lay.ctx_size) :
			      f->pol.default_allow;
			if (want != got) {
				printf("FAIL: opcode %s: the rules say %s, the program %s\npolicy:\n%s\nctx:",
				       f->lay.opname[op], want ? "allow" : "deny",
				       got ? "allows" : "denies", text);
				for (i = 0; i < f->lay.ctx_size; i++)
					printf(" %02x", ctx[i]);
				printf("\n");
				return 1;
			}
		}
	}
	return 0;
}

static void mutate(char *s, size_t cap)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789 ,.:/-=!<>#@*\n\t_";
	size_t n = strlen(s);
	int m = 1 + rnd(4);

	while (m--) {
		size_t at = n ? rnd(n) : 0;

		switch (rnd(4)) {
		case 0:
			if (n)
				s[at] = chars[rnd(sizeof(chars) - 1)];
			break;
		case 1:
			if (n) {
				memmove(s + at, s + at + 1, n - at);
				n--;
			}
			break;
		case 2:
			if (n + 2 < cap) {
				memmove(s + at + 1, s + at, n - at + 1);
				s[at] = chars[rnd(sizeof(chars) - 1)];
				n++;
			}
			break;
		case 3:
			if (n)
				s[at] = (char)(1 + rnd(255));
			break;
		}
	}
}

/*
 * A long policy: its programs need jumps past 255 instructions, which
 * the compiler routes through 32-bit JA; checked like the random ones.
 */
static int long_policy(void)
{
	static char text[65536];
	struct iouring_bpf_error err;
	struct iouring_bpf_filter *f;
	size_t at;
	int r, i, far = 0, ret;
	unsigned int pc;

	snprintf(text, sizeof(text), "default deny\n");
	for (r = 0; r < 4; r++) {
		at = strlen(text);
		snprintf(text + at, sizeof(text) - at, "%s connect if port in %d",
			 r % 2 ? "deny" : "allow", r * 1000);
		for (i = 1; i < 60; i++) {
			at = strlen(text);
			snprintf(text + at, sizeof(text) - at, ", %d-%d",
				 r * 1000 + i * 10, r * 1000 + i * 10 + 3);
		}
		at = strlen(text);
		snprintf(text + at, sizeof(text) - at,
			 " and addr not in 10.%d.0.0/16", r);
		for (i = 1; i < 40; i++) {
			at = strlen(text);
			snprintf(text + at, sizeof(text) - at, ", 2001:db8::%x:%x",
				 r, i);
		}
		at = strlen(text);
		snprintf(text + at, sizeof(text) - at, "\n");
	}
	f = iouring_bpf_filter_compile(text, "long", NULL, &err);
	if (!f) {
		printf("FAIL: the long policy was refused: %s\n", err.msg);
		return 1;
	}
	for (i = 0; i < f->nprogs; i++)
		for (pc = 0; pc < f->progs[i].len; pc++)
			far += f->progs[i].insns[pc].code == (BPF_JMP | BPF_JA) &&
			       f->progs[i].insns[pc].k > 255;
	if (!far) {
		printf("FAIL: the long policy has no jump past 255 instructions: the far-jump path is not tested\n");
		return 1;
	}
	ret = check_filter(f, text, 3000);
	for (i = 0, pc = 0; i < f->nprogs; i++)	/* connect's, the long one */
		if (f->progs[i].len > pc)
			pc = f->progs[i].len;
	if (!ret)
		printf("filter_fuzz: a %u-instruction program with %d far jumps matched the rules on 3000 contexts\n",
		       pc, far);
	iouring_bpf_filter_free(f);
	return ret;
}

int main(int argc, char **argv)
{
	static char text[16384];
	struct iouring_bpf_error err;
	struct iouring_bpf_filter *f;
	const char *const *shipped = iouring_bpf_filter_policies();
	unsigned long long seed = 1;
	long iters = 2000, i;
	long compiled = 0, refused = 0, accepted_mut = 0, nship = 0;

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--seed"))
			seed = strtoull(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--iterations"))
			iters = strtol(argv[i + 1], NULL, 0);
	}
	rng = seed;
	if (long_policy())
		return 1;
	while (shipped[nship])
		nship++;
	for (i = 0; i < iters; i++) {
		gen_policy(text, sizeof(text));
		f = iouring_bpf_filter_compile(text, "gen", NULL, &err);
		if (!f) {
			printf("FAIL: a generated policy was refused: %s\npolicy:\n%s\n",
			       err.msg, text);
			return 1;
		}
		compiled++;
		if (check_filter(f, text, 40))
			return 1;
		iouring_bpf_filter_free(f);

		/* a mutation of it, or of a shipped policy */
		if (rnd(2) && nship)
			snprintf(text, sizeof(text), "%s",
				 iouring_bpf_filter_policy_text(shipped[rnd(nship)]));
		mutate(text, sizeof(text));
		f = iouring_bpf_filter_compile(text, "mut", NULL, &err);
		if (!f) {
			if (!err.msg[0] || strchr(err.msg, '\n') ||
			    (err.status != 1 && err.status != 2)) {
				printf("FAIL: refusal is not one line with status 1 or 2 (status %d): '%s'\npolicy:\n%s\n",
				       err.status, err.msg, text);
				return 1;
			}
			refused++;
			continue;
		}
		accepted_mut++;
		if (check_filter(f, text, 10))
			return 1;
		iouring_bpf_filter_free(f);
	}
	printf("filter_fuzz: seed %llu: %ld generated policies compiled and matched the rules; %ld mutations refused with one line, %ld accepted and matched\n",
	       seed, compiled, refused, accepted_mut);
	return 0;
}
