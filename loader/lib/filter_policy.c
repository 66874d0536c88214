// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * filter_policy.c - the policy language: parse a policy into rules, and
 * a reference evaluator of those rules (what the compiled programs must
 * decide; the host tests compare the two). docs/filters.md is the manual:
 *
 *	# a comment
 *	default allow|deny
 *	allow|deny OPCODE[,OPCODE|@GROUP|*]... [if TEST [and TEST]...]
 *	TEST:  FIELD ==|!=|<|<=|>|>= VALUE
 *	       FIELD in|not in VALUE[,VALUE]...   (VALUE may be LOW-HIGH)
 *	       FIELD has|not has FLAG[,FLAG]...   (any of them fully set)
 *
 * Rules apply in order, per opcode: the first rule that names the opcode
 * and whose tests all hold decides; if none does, the default does. Every
 * error is one line: "POLICY:LINE:COL: what is wrong; what to do", COL
 * the byte (from 1) where the word at fault starts, or the end of the line
 * when something is missing there.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <linux/openat2.h>
#include "filter_internal.h"
#include "internal.h"

/* the kernel's O_LARGEFILE (user space's is 0 on 64-bit): io_uring adds
 * it to every open on a 64-bit kernel, so the filter sees it set */
#if defined(__aarch64__)
#define IOUF_O_LARGEFILE	0400000
#else
#define IOUF_O_LARGEFILE	0100000
#endif

struct sym {
	const char	*name;
	__u64		val;
};

static const struct sym families[] = {
	{ "unspec", AF_UNSPEC }, { "unix", AF_UNIX }, { "local", AF_UNIX },
	{ "inet", AF_INET }, { "inet6", AF_INET6 }, { "netlink", AF_NETLINK },
	{ "packet", AF_PACKET }, { "can", AF_CAN }, { "tipc", AF_TIPC },
	{ "bluetooth", AF_BLUETOOTH }, { "alg", AF_ALG }, { "vsock", AF_VSOCK },
	{ "xdp", AF_XDP }, { NULL, 0 },
};

static const struct sym types[] = {
	{ "stream", SOCK_STREAM }, { "dgram", SOCK_DGRAM }, { "raw", SOCK_RAW },
	{ "rdm", SOCK_RDM }, { "seqpacket", SOCK_SEQPACKET },
	{ "packet", SOCK_PACKET }, { NULL, 0 },
};

static const struct sym protocols[] = {
	{ "default", 0 }, { "icmp", IPPROTO_ICMP }, { "tcp", IPPROTO_TCP },
	{ "udp", IPPROTO_UDP }, { "icmpv6", IPPROTO_ICMPV6 },
	{ "sctp", IPPROTO_SCTP }, { "udplite", IPPROTO_UDPLITE },
	{ "mptcp", 262 }, { NULL, 0 },
};

static const struct sym open_flags[] = {
	{ "wronly", O_WRONLY }, { "rdwr", O_RDWR }, { "creat", O_CREAT },
	{ "excl", O_EXCL }, { "noctty", O_NOCTTY }, { "trunc", O_TRUNC },
	{ "append", O_APPEND }, { "nonblock", O_NONBLOCK }, { "dsync", O_DSYNC },
	{ "sync", O_SYNC }, { "direct", O_DIRECT }, { "largefile", IOUF_O_LARGEFILE },
	{ "directory", O_DIRECTORY }, { "nofollow", O_NOFOLLOW },
	{ "noatime", O_NOATIME }, { "cloexec", O_CLOEXEC }, { "path", O_PATH },
	{ "tmpfile", O_TMPFILE }, { NULL, 0 },
};

static const struct sym accmodes[] = {
	{ "rdonly", O_RDONLY }, { "wronly", O_WRONLY }, { "rdwr", O_RDWR },
	{ NULL, 0 },
};

static const struct sym resolves[] = {
	{ "no_xdev", RESOLVE_NO_XDEV }, { "no_magiclinks", RESOLVE_NO_MAGICLINKS },
	{ "no_symlinks", RESOLVE_NO_SYMLINKS }, { "beneath", RESOLVE_BENEATH },
	{ "in_root", RESOLVE_IN_ROOT }, { "cached", 0x20 }, { NULL, 0 },
};

static const struct sym sqe_flags[] = {
	{ "fixed_file", 1 }, { "io_drain", 2 }, { "io_link", 4 },
	{ "io_hardlink", 8 }, { "async", 16 }, { "buffer_select", 32 },
	{ "cqe_skip_success", 64 }, { NULL, 0 },
};

/* per field: its symbols, largest value, and what it is known for */
static const struct {
	const struct sym *syms;
	__u64		max;
	int		bits;		/* a flag word: ==, !=, has, not has */
	const char	*ops;		/* "" every opcode, else a list */
} fields[F_NR] = {
	[F_USER_DATA] = { NULL, ~0ULL, 0, "" },
	[F_SQE_FLAGS] = { sqe_flags, 0xff, 1, "" },
	[F_FAMILY] = { families, 0xffffffff, 0, "socket connect" },
	[F_TYPE] = { types, 15, 0, "socket" },
	[F_PROTOCOL] = { protocols, 0xffffffff, 0, "socket" },
	[F_PORT] = { NULL, 65535, 0, "connect" },
	[F_ADDR] = { NULL, 0, 0, "connect" },
	[F_FLAGS] = { open_flags, 0xffffffff, 1, "openat openat2" },
	[F_ACCMODE] = { accmodes, 3, 0, "openat openat2" },
	[F_MODE] = { NULL, 07777, 0, "openat openat2" },
	[F_RESOLVE] = { resolves, 0xffffffff, 1, "openat openat2" },
};

static const struct {
	const char *name;
	const char *ops;
} groups[] = {
	{ "network", "socket connect accept bind listen send recv sendmsg recvmsg send_zc sendmsg_zc recv_zc shutdown" },
	{ "open", "openat openat2" },
	{ "fs-change", "renameat unlinkat mkdirat symlinkat linkat fsetxattr setxattr ftruncate fallocate" },
	{ "read", "read readv read_fixed readv_fixed read_multishot" },
	{ "write", "write writev write_fixed writev_fixed" },
};

static int word_in(const char *list, const char *w)
{
	size_t n = strlen(w);
	const char *p = list;

	while ((p = strstr(p, w))) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

/* --- the parser ------------------------------------------------------- */

#define MAX_TOK	512

struct parser {
	const struct iouf_layout *lay;
	struct iouf_policy *pol;
	struct iouring_bpf_error *err;
	int	line;
	char	*tok[MAX_TOK];
	int	col[MAX_TOK];	/* where each token starts, from 1 */
	int	ntok, pos;
	int	ecol;		/* > 0: the column of the error to come */
};

/* the column of token i, or just past the line's last word */
static int col_of(const struct parser *ps, int i)
{
	if (i >= 0 && i < ps->ntok)
		return ps->col[i];
	if (ps->ntok <= 0 || ps->ntok > MAX_TOK)
		return 1;
	return ps->col[ps->ntok - 1] + (int)strlen(ps->tok[ps->ntok - 1]);
}

/* the next error points at token i (at the end of the line if i is past it) */
static void at(struct parser *ps, int i)
{
	ps->ecol = col_of(ps, i);
}

__attribute__((format(printf, 2, 3)))
static int perr(struct parser *ps, const char *fmt, ...)
{
	char msg[700];
	va_list ap;

	int col = ps->ecol > 0 ? ps->ecol : col_of(ps, ps->pos - 1);

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ps->ecol = 0;
	return iou_fail(ps->err, IOURING_BPF_FAIL, EINVAL, "%s:%d:%d: %s",
			ps->pol->name, ps->line, col, msg);
}

static const char *peek(struct parser *ps)
{
	return ps->pos < ps->ntok ? ps->tok[ps->pos] : NULL;
}

static const char *next(struct parser *ps)
{
	return ps->pos < ps->ntok ? ps->tok[ps->pos++] : NULL;
}

static int is_op_char(char c)
{
	return c == '=' || c == '!' || c == '<' || c == '>';
}

/* split line (modified in place) into words, ',' and operators */
static int tokenize(struct parser *ps, char *line)
{
	static char ops[MAX_TOK][3];
	char *p = line;
	int n = 0;

	ps->ntok = ps->pos = 0;
	while (*p) {
		if (isspace((unsigned char)*p)) {
			*p++ = 0;
			continue;
		}
		if (*p == '#') {
			*p = 0;
			break;
		}
		ps->ecol = (int)(p - line) + 1;
		if (ps->ntok >= MAX_TOK - 1)
			return perr(ps, "line too long (more than %d words); split the rule",
				    MAX_TOK - 1);
		if (*p == ',' || is_op_char(*p)) {
			int len = *p != ',' && p[1] == '=' ? 2 : 1;

			memcpy(ops[n], p, len);
			ops[n][len] = 0;
			ps->col[ps->ntok] = ps->ecol;
			ps->tok[ps->ntok++] = ops[n++];
			*p = 0;
			if (len == 2)
				*++p = 0;
			p++;
			continue;
		}
		if (!isalnum((unsigned char)*p) && !strchr("_@*.:/-+", *p))
			return perr(ps, "unexpected character '%c'; words are letters, digits and _ @ * . : / -",
				    isprint((unsigned char)*p) ? *p : '?');
		ps->col[ps->ntok] = ps->ecol;
		ps->tok[ps->ntok++] = p;
		while (*p && (isalnum((unsigned char)*p) || strchr("_@*.:/-+", *p)))
			p++;
	}
	ps->ecol = 0;
	return 0;
}

static int opcode_of(const struct iouf_layout *lay, const char *name)
{
	int i;

	for (i = 0; i < lay->nr_ops; i++)
		if (lay->opname[i][0] && !strcmp(lay->opname[i], name))
			return i;
	return -1;
}

static int parse_ops(struct parser *ps, struct iouf_rule *r)
{
	const struct iouf_layout *lay = ps->lay;
	const char *w;
	int want = 1, any = 0, i;
	size_t g;

	while ((w = peek(ps)) && strcmp(w, "if")) {
		ps->pos++;
		if (!strcmp(w, ",")) {
			if (want)
				return perr(ps, "an opcode is missing before ','");
			want = 1;
			continue;
		}
		if (!want)
			return perr(ps, "'%s' after an opcode: separate opcodes with ',' and start the conditions with 'if'",
				    w);
		want = 0;
		any = 1;
		if (!strcmp(w, "*") || !strcmp(w, "@all")) {
			for (i = 0; i < lay->nr_ops; i++)
				r->ops[i] = !!lay->opname[i][0];
			continue;
		}
		if (w[0] == '@') {
			for (g = 0; g < sizeof(groups) / sizeof(groups[0]); g++)
				if (!strcmp(groups[g].name, w + 1))
					break;
			if (g == sizeof(groups) / sizeof(groups[0]))
				return perr(ps, "unknown group '%s'; groups: @all @network @open @fs-change @read @write",
					    w);
			/* a group takes the opcodes this kernel has */
			for (i = 0; i < lay->nr_ops; i++)
				if (lay->opname[i][0] &&
				    word_in(groups[g].ops, lay->opname[i]))
					r->ops[i] = 1;
			continue;
		}
		i = opcode_of(lay, w);
		if (i < 0) {
			char low[32];
			size_t k;

			for (k = 0; w[k] && k < sizeof(low) - 1; k++)
				low[k] = tolower((unsigned char)w[k]);
			low[k] = 0;
			if (!strncmp(low, "ioring_op_", 10) &&
			    opcode_of(lay, low + 10) >= 0)
				return perr(ps, "write opcode '%s' as '%s'", w,
					    low + 10);
			perr(ps, "unknown opcode '%s' (this layout, %s, has %d opcodes: nop, read, openat, socket, connect, ...)",
			     w, lay->source, lay->nr_ops);
			if (ps->err)
				ps->err->see = IOURING_BPF_SEE_OPS;
			return -EINVAL;
		}
		r->ops[i] = 1;
	}
	if (!any)
		return perr(ps, "'%s' needs an opcode: allow|deny OPCODE[,OPCODE] [if ...]",
			    r->allow ? "allow" : "deny");
	if (want) {
		at(ps, ps->pos);
		return perr(ps, "an opcode is missing after ','");
	}
	return 0;
}

static int parse_num(const char *s, __u64 *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

static int parse_addr(struct parser *ps, const char *w, struct iouf_value *v)
{
	char buf[64], *slash;
	int max;

	snprintf(buf, sizeof(buf), "%s", w);
	slash = strchr(buf, '/');
	if (slash)
		*slash = 0;
	v->v6 = !!strchr(buf, ':');
	max = v->v6 ? 128 : 32;
	if (inet_pton(v->v6 ? AF_INET6 : AF_INET, buf, v->addr) != 1)
		return perr(ps, "'%s' is not an IPv4 or IPv6 address (write 10.0.0.0/8, 192.0.2.1, ::1, 2001:db8::/32)",
			    w);
	v->prefix = max;
	if (slash) {
		__u64 pl;

		if (parse_num(slash + 1, &pl) || pl > (__u64)max)
			return perr(ps, "bad prefix length in '%s': 0..%d", w, max);
		v->prefix = (int)pl;
	}
	return 0;
}

/* a value of field f: a symbol, a number, or (ranges) LOW-HIGH */
static int parse_value(struct parser *ps, enum iouf_field f, const char *w,
		       int ranges, struct iouf_value *v)
{
	const struct sym *s;
	char buf[64], *dash;

	memset(v, 0, sizeof(*v));
	if (f == F_ADDR)
		return parse_addr(ps, w, v);
	snprintf(buf, sizeof(buf), "%s", w);
	dash = isdigit((unsigned char)buf[0]) ? strchr(buf, '-') : NULL;
	if (dash) {
		if (!ranges)
			return perr(ps, "a range '%s' needs 'in' or 'not in'", w);
		*dash = 0;
		if (parse_num(buf, &v->lo) || parse_num(dash + 1, &v->hi) ||
		    v->lo > v->hi)
			return perr(ps, "bad range '%s': write LOW-HIGH with LOW <= HIGH",
				    w);
	} else {
		for (s = fields[f].syms; s && s->name; s++)
			if (!strcmp(s->name, w))
				break;
		if (s && s->name) {
			v->lo = v->hi = s->val;
		} else if (parse_num(w, &v->lo)) {
			char list[400] = "";
			size_t n = 0;

			for (s = fields[f].syms; s && s->name && n < 300; s++)
				n += snprintf(list + n, sizeof(list) - n, "%s%s",
					      n ? " " : "", s->name);
			return perr(ps, "'%s' is not a value of %s: %s%s", w,
				    iouf_field_name(f),
				    fields[f].syms ? "use a number or one of " :
				    "use a number", list);
		} else {
			v->hi = v->lo;
		}
	}
	if (v->hi > fields[f].max)
		return perr(ps, "%s is out of range for %s (0..%llu)", w,
			    iouf_field_name(f),
			    (unsigned long long)fields[f].max);
	if (f == F_USER_DATA && v->lo != v->hi)
		return perr(ps, "user_data takes single values, not ranges");
	return 0;
}

static int parse_test(struct parser *ps, struct iouf_rule *r)
{
	static const char *const cmps[] = {
		[C_EQ] = "==", [C_NE] = "!=", [C_LT] = "<", [C_LE] = "<=",
		[C_GT] = ">", [C_GE] = ">=", [C_IN] = "in", [C_HAS] = "has",
	};
	struct iouf_test *t;
	const char *w, *fw;
	int i, f, list;

	if (r->ntests >= IOUF_MAX_TESTS)
		return perr(ps, "more than %d tests in one rule; split the rule",
			    IOUF_MAX_TESTS);
	t = &r->tests[r->ntests++];
	t->col = col_of(ps, ps->pos);
	fw = next(ps);
	if (!fw) {
		at(ps, ps->ntok);
		return perr(ps, "a test is missing after 'if'/'and': FIELD OP VALUE");
	}
	for (f = 0; f < F_NR; f++)
		if (!strcmp(fw, iouf_field_name(f)))
			break;
	if (f == F_NR)
		return perr(ps, "unknown field '%s'; fields: user_data sqe_flags (any opcode), family type protocol (socket), family port addr (connect), flags accmode mode resolve (openat, openat2)",
			    fw);
	t->field = f;
	/* the field must exist for every opcode of the rule, in this layout */
	for (i = 0; i < ps->lay->nr_ops; i++) {
		const char *on = ps->lay->opname[i];

		if (!r->ops[i])
			continue;
		if (fields[f].ops[0] && !word_in(fields[f].ops, on))
			return perr(ps, "field '%s' is not known for opcode %s (only for %s); give those opcodes their own rule",
				    fw, on, fields[f].ops);
	}
	w = next(ps);
	if (!w)
		at(ps, ps->ntok);
	if (!w)
		return perr(ps, "'%s' needs an operator: == != < <= > >= in, not in, has, not has",
			    fw);
	t->cmp = -1;
	if (!strcmp(w, "not")) {
		at(ps, ps->pos - 1);
		w = next(ps);
		if (w && !strcmp(w, "in"))
			t->cmp = C_NOTIN;
		else if (w && !strcmp(w, "has"))
			t->cmp = C_NOTHAS;
		else
			return perr(ps, "'not' must be followed by 'in' or 'has'");
		ps->ecol = 0;
	} else {
		for (i = 0; i < (int)(sizeof(cmps) / sizeof(cmps[0])); i++)
			if (cmps[i] && !strcmp(cmps[i], w))
				t->cmp = i;
	}
	if ((int)t->cmp < 0)
		return perr(ps, "unknown operator '%s'; use == != < <= > >= in, not in, has, not has",
			    w);
	if ((t->cmp == C_HAS || t->cmp == C_NOTHAS) && !fields[f].bits)
		return perr(ps, "'has' tests flag words (flags, resolve, sqe_flags), not %s; use == or in",
			    fw);
	if (fields[f].bits && t->cmp != C_HAS && t->cmp != C_NOTHAS &&
	    t->cmp != C_EQ && t->cmp != C_NE)
		return perr(ps, "%s is a flag word: use has, not has, == or !=",
			    fw);
	if ((f == F_ADDR || f == F_USER_DATA) && t->cmp >= C_LT &&
	    t->cmp <= C_GE)
		return perr(ps, "%s cannot be ordered: use ==, !=, in or not in",
			    fw);
	list = t->cmp == C_IN || t->cmp == C_NOTIN || t->cmp == C_HAS ||
	       t->cmp == C_NOTHAS;
	for (;;) {
		w = next(ps);
		if (!w)
			at(ps, ps->ntok);
		if (!w || !strcmp(w, "and") || !strcmp(w, ","))
			return perr(ps, "a value is missing in the test of '%s'",
				    fw);
		if (!strcmp(w, "or"))
			return perr(ps, "'or' is not supported: write one rule per alternative");
		if (t->nvals >= IOUF_MAX_VALUES)
			return perr(ps, "more than %d values in one test; split the rule",
				    IOUF_MAX_VALUES);
		if (parse_value(ps, f, w, t->cmp == C_IN || t->cmp == C_NOTIN,
				&t->vals[t->nvals++]))
			return -1;
		w = peek(ps);
		if (!w || strcmp(w, ","))
			break;
		at(ps, ps->pos);
		if (!list)
			return perr(ps, "'%s %s' takes one value; use 'in' for a list",
				    fw, cmps[t->cmp] ? cmps[t->cmp] : "");
		ps->ecol = 0;
		ps->pos++;
	}
	w = peek(ps);
	at(ps, ps->pos);
	if (w && !strcmp(w, "or"))
		return perr(ps, "'or' is not supported: write one rule per alternative");
	if (w && strcmp(w, "and"))
		return perr(ps, "unexpected '%s' after a test; join tests with 'and'",
			    w);
	ps->ecol = 0;
	return 0;
}

static int parse_line(struct parser *ps)
{
	struct iouf_policy *pol = ps->pol;
	struct iouf_rule *r;
	const char *w = next(ps);

	if (!w)
		return 0;
	if (!strcmp(w, "default")) {
		w = next(ps);
		if (!w)
			at(ps, ps->ntok);
		if (!w || (strcmp(w, "allow") && strcmp(w, "deny")))
			return perr(ps, "write 'default allow' or 'default deny'");
		at(ps, 0);
		if (pol->default_allow >= 0)
			return perr(ps, "a second 'default' line; a policy has one");
		ps->ecol = 0;
		pol->default_allow = !strcmp(w, "allow");
		pol->default_line = ps->line;
		at(ps, ps->pos);
		if (peek(ps))
			return perr(ps, "unexpected '%s' after 'default %s'",
				    peek(ps), w);
		ps->ecol = 0;
		return 0;
	}
	if (strcmp(w, "allow") && strcmp(w, "deny"))
		return perr(ps, "a line starts with 'default', 'allow' or 'deny', not '%s'",
			    w);
	if (pol->nrules >= IOUF_MAX_RULES)
		return perr(ps, "more than %d rules", IOUF_MAX_RULES);
	r = &pol->rules[pol->nrules++];
	memset(r, 0, sizeof(*r));
	r->line = ps->line;
	r->col = col_of(ps, 0);
	r->allow = !strcmp(w, "allow");
	if (parse_ops(ps, r))
		return -1;
	if (!peek(ps))
		return 0;
	ps->pos++;	/* "if" */
	if (!peek(ps)) {
		at(ps, ps->pos);
		return perr(ps, "'if' needs a test: FIELD OP VALUE");
	}
	for (;;) {
		if (parse_test(ps, r))
			return -1;
		if (!peek(ps))
			return 0;
		ps->pos++;	/* "and" */
	}
}

void iouf_policy_free(struct iouf_policy *pol)
{
	free(pol->rules);
	pol->rules = NULL;
	pol->nrules = 0;
}

int iouf_parse(struct iouf_policy *pol, const struct iouf_layout *lay,
	       const char *text, struct iouring_bpf_error *err)
{
	struct parser ps = { .lay = lay, .pol = pol, .err = err };
	char *copy, *line, *save = NULL;
	size_t len = strlen(text);

	pol->default_allow = -1;
	pol->nrules = 0;
	if (len > IOUF_MAX_TEXT)
		return iou_fail(err, IOURING_BPF_FAIL, E2BIG,
				"%s: policy larger than %d bytes", pol->name,
				IOUF_MAX_TEXT);
	pol->rules = calloc(IOUF_MAX_RULES, sizeof(*pol->rules));
	copy = malloc(len + 2);
	if (!pol->rules || !copy) {
		free(copy);
		iouf_policy_free(pol);
		return iou_fail(err, IOURING_BPF_FAIL, ENOMEM, "out of memory");
	}
	memcpy(copy, text, len + 1);
	/* strtok_r would merge empty lines: count them by hand */
	line = copy;
	while (line) {
		save = strchr(line, '\n');
		if (save)
			*save = 0;
		ps.line++;
		if (tokenize(&ps, line) || parse_line(&ps)) {
			free(copy);
			iouf_policy_free(pol);
			return -1;
		}
		line = save ? save + 1 : NULL;
	}
	free(copy);
	if (pol->default_allow < 0) {
		ps.line = 1;
		ps.ntok = 0;
		ps.pos = 0;
		perr(&ps, "no 'default allow' or 'default deny' line; every policy says what happens to the rest");
		iouf_policy_free(pol);
		return -1;
	}
	return 0;
}

/* --- the reference evaluator ----------------------------------------- */

static __u64 rd(const void *ctx, const struct iouf_loc *l)
{
	__u64 v = 0;

	if (l->off < 0)
		return 0;
	memcpy(&v, (const char *)ctx + l->off, l->size > 8 ? 8 : l->size);
	return v;	/* little-endian hosts only (filter_compile.c) */
}

static int addr_match(const void *ctx, const struct iouf_layout *lay,
		      const struct iouf_value *v)
{
	const __u8 *a;
	int fam = (int)rd(ctx, &lay->connect_family), i;

	if (fam != (v->v6 ? AF_INET6 : AF_INET))
		return 0;
	a = (const __u8 *)ctx + (v->v6 ? lay->connect_v6.off : lay->connect_v4.off);
	for (i = 0; i < v->prefix; i++) {
		int bit = 0x80 >> (i % 8);

		if ((a[i / 8] & bit) != (v->addr[i / 8] & bit))
			return 0;
	}
	return 1;
}

static int test_holds(const struct iouf_test *t, const struct iouf_layout *lay,
		      unsigned int op, const void *ctx)
{
	const char *on = lay->opname[op];
	int connect = !strcmp(on, "connect");
	__u64 x = 0;
	int i, m = 0;

	switch (t->field) {
	case F_USER_DATA:
		x = rd(ctx, &lay->user_data);
		break;
	case F_SQE_FLAGS:
		x = rd(ctx, &lay->sqe_flags);
		break;
	case F_FAMILY:
		x = rd(ctx, connect ? &lay->connect_family : &lay->socket_family);
		break;
	case F_TYPE:
		x = rd(ctx, &lay->socket_type) & 0xf;
		break;
	case F_PROTOCOL:
		x = rd(ctx, &lay->socket_protocol);
		break;
	case F_PORT:
		x = ntohs((__u16)rd(ctx, &lay->connect_port));
		break;
	case F_FLAGS:
		x = rd(ctx, &lay->open_flags);
		break;
	case F_ACCMODE:
		x = rd(ctx, &lay->open_flags) & 3;
		break;
	case F_MODE:
		x = rd(ctx, &lay->open_mode);
		break;
	case F_RESOLVE:
		x = rd(ctx, &lay->open_resolve);
		break;
	case F_ADDR: case F_NR:
		break;
	}
	for (i = 0; i < t->nvals && !m; i++) {
		const struct iouf_value *v = &t->vals[i];

		if (t->field == F_ADDR) {
			m = addr_match(ctx, lay, v);
			continue;
		}
		switch (t->cmp) {
		case C_EQ: case C_NE:
			m = x == v->lo;
			break;
		case C_LT:
			m = x < v->lo;
			break;
		case C_LE:
			m = x <= v->lo;
			break;
		case C_GT:
			m = x > v->lo;
			break;
		case C_GE:
			m = x >= v->lo;
			break;
		case C_IN: case C_NOTIN:
			m = x >= v->lo && x <= v->hi;
			break;
		case C_HAS: case C_NOTHAS:
			m = (x & v->lo) == v->lo;
			break;
		}
	}
	return t->cmp == C_NE || t->cmp == C_NOTIN || t->cmp == C_NOTHAS ? !m : m;
}

int iouf_eval(const struct iouf_policy *pol, const struct iouf_layout *lay,
	      unsigned int op, const void *ctx)
{
	int i, j;

	for (i = 0; i < pol->nrules; i++) {
		const struct iouf_rule *r = &pol->rules[i];

		if (op >= IOUF_MAX_OPS || !r->ops[op])
			continue;
		for (j = 0; j < r->ntests; j++)
			if (!test_holds(&r->tests[j], lay, op, ctx))
				break;
		if (j == r->ntests)
			return r->allow;
	}
	return pol->default_allow;
}
