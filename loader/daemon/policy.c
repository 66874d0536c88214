// SPDX-License-Identifier: GPL-2.0
/*
 * policy.c - the policy of iouring-bpfd: which programs, for whom, with
 * which parameters and opcodes. Default deny: a program no block names is
 * refused. The format (docs/broker.md, and the teaching policy
 * loader/daemon/iouring-bpfd.policy):
 *
 *	limit connections N		per user, open at once (default 16)
 *	limit attached N		per user, programs attached (default 8)
 *	limit total N			connections of all users (default 1024)
 *	program NAME			a built-in program (iouring-bpf list)
 *	object NAME PATH sha256 HEX	an installed .bpf.o, by its digest
 *	    users NAME|UID[, ...] | *	who may attach it (and/or groups)
 *	    groups NAME|GID[, ...]
 *	    param KEY MIN..MAX		a parameter the client may set
 *	    max-attached N		per user, this program
 *	    opcodes OP[, OP]...		a ring filter: only these opcodes
 *
 * Indented lines belong to the block above them. Every error is one line
 * FILE:LINE:COL (the column of the word at fault, counted in bytes from
 * 1), the problem and what to write.
 */
#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "daemon.h"

#define MAX_WORDS	64
#define POLICY_MAX_SIZE	(1 << 20)

struct word {
	const char	*s;	/* NUL-terminated copy */
	int		col;
};

struct pctx {
	const char	*file;
	int		line;
	char		*msg;
	size_t		len;
};

static int perr(struct pctx *c, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int perr(struct pctx *c, int col, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(c->msg, c->len, "%s:%d:%d: ", c->file, c->line, col);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < c->len)
		vsnprintf(c->msg + n, c->len - n, fmt, ap);
	va_end(ap);
	return -1;
}

int policy_name_ok(const char *s)
{
	size_t n = strlen(s), i;

	if (!n || n >= POL_NAME_MAX || s[0] == '.' || s[0] == '-')
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_.-", s[i]))
			return 0;
	return 1;
}

/* split line (modified) into words; commas end a word and are dropped */
static int split(char *line, struct word *w, int max, struct pctx *c)
{
	int n = 0;
	char *p = line;

	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (!*p || *p == '#')
			break;
		if (n == max)
			return perr(c, (int)(p - line) + 1,
				    "more than %d words on a line; split the list over several lines",
				    max);
		w[n].s = p;
		w[n].col = (int)(p - line) + 1;
		n++;
		while (*p && *p != ' ' && *p != '\t' && *p != ',')
			p++;
		if (*p)
			*p++ = 0;
	}
	return n;
}

static int parse_num(const char *s, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 0);
	return errno || end == s || *end ? -1 : 0;
}

static int parse_limit(struct pctx *c, struct word *w, int n, int *out,
		       int max)
{
	long long v;

	if (n != 3)
		return perr(c, n > 3 ? w[3].col : w[n - 1].col +
			    (int)strlen(w[n - 1].s),
			    "'limit %s' takes one number: limit %s N",
			    n > 1 ? w[1].s : "KIND", n > 1 ? w[1].s : "KIND");
	if (parse_num(w[2].s, &v) || v < 1 || v > max)
		return perr(c, w[2].col, "'%s' is not a number in 1..%d", w[2].s,
			    max);
	*out = v;
	return 0;
}

static int hexbyte(const char *s)
{
	int v = 0, i;

	for (i = 0; i < 2; i++) {
		char ch = s[i];

		v <<= 4;
		if (ch >= '0' && ch <= '9')
			v |= ch - '0';
		else if (ch >= 'a' && ch <= 'f')
			v |= ch - 'a' + 10;
		else if (ch >= 'A' && ch <= 'F')
			v |= ch - 'A' + 10;
		else
			return -1;
	}
	return v;
}

static int parse_block_start(struct pctx *c, struct policy *pol,
			     struct word *w, int n)
{
	struct pol_rule *r;
	int object = !strcmp(w[0].s, "object"), i;
	unsigned char got[32];

	if (n < 2)
		return perr(c, w[0].col + (int)strlen(w[0].s),
			    "'%s' needs a name: %s", w[0].s, object ?
			    "object NAME PATH sha256 HEX" : "program NAME");
	if (!policy_name_ok(w[1].s))
		return perr(c, w[1].col,
			    "'%s' is not a program name (letters, digits, '_', '-', '.'; at most %d)",
			    w[1].s, POL_NAME_MAX - 1);
	if (policy_find(pol, w[1].s))
		return perr(c, w[1].col,
			    "'%s' already has a block above; merge the two",
			    w[1].s);
	if (pol->nrules == POL_MAX_RULES)
		return perr(c, w[0].col, "more than %d programs in one policy",
			    POL_MAX_RULES);
	r = &pol->rules[pol->nrules];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", w[1].s);
	r->line = c->line;
	r->is_object = object;
	if (!object) {
		if (n > 2)
			return perr(c, w[2].col,
				    "'program %s' takes nothing more; an installed .bpf.o is 'object NAME PATH sha256 HEX'",
				    w[1].s);
		i = attach_is_builtin(w[1].s);
		if (!i)
			return perr(c, w[1].col,
				    "no built-in program '%s' (see `iouring-bpf list`); an installed .bpf.o is 'object NAME PATH sha256 HEX'",
				    w[1].s);
		if (i == 2)
			return perr(c, w[1].col,
				    "%s is an IORING_OP_BPF op: it would serve every ring of the system, not the client's; the broker attaches loop programs only",
				    w[1].s);
		pol->nrules++;
		return 0;
	}
	if (n != 5 || strcmp(w[3].s, "sha256"))
		return perr(c, n > 3 ? w[3].col : w[n - 1].col +
			    (int)strlen(w[n - 1].s),
			    "an object is 'object NAME PATH sha256 HEX' (HEX: sha256sum PATH)");
	if (w[2].s[0] != '/' || strlen(w[2].s) >= sizeof(r->path))
		return perr(c, w[2].col,
			    "'%s': the object's path must be absolute (an installed file root owns)",
			    w[2].s);
	snprintf(r->path, sizeof(r->path), "%s", w[2].s);
	if (strlen(w[4].s) != 64)
		return perr(c, w[4].col,
			    "the SHA-256 is 64 hex digits (sha256sum %s), got %zu characters",
			    w[2].s, strlen(w[4].s));
	for (i = 0; i < 32; i++) {
		int b = hexbyte(w[4].s + 2 * i);

		if (b < 0)
			return perr(c, w[4].col + 2 * i,
				    "not a hex digit in the SHA-256");
		r->sha256[i] = b;
	}
	if (sha256_file(r->path, got))
		return perr(c, w[2].col, "cannot read %s: %s", r->path,
			    strerror(errno));
	if (memcmp(got, r->sha256, 32))
		return perr(c, w[4].col,
			    "%s does not have this SHA-256 (the file changed?): check it and write its sha256sum",
			    r->path);
	pol->nrules++;
	return 0;
}

static int parse_ids(struct pctx *c, struct pol_rule *r, struct word *w,
		     int n, int groups)
{
	int i;

	if (n < 2)
		return perr(c, w[0].col + (int)strlen(w[0].s),
			    "'%s' needs a list: %s NAME[, NAME]...%s", w[0].s,
			    w[0].s, groups ? "" : " (or *: every user)");
	for (i = 1; i < n; i++) {
		long long v;
		const char *s = w[i].s;

		if (!groups && !strcmp(s, "*")) {
			r->all_users = 1;
			continue;
		}
		if (groups ? r->ngids == POL_MAX_IDS : r->nuids == POL_MAX_IDS)
			return perr(c, w[i].col, "more than %d %s in one block",
				    POL_MAX_IDS, groups ? "groups" : "users");
		if (!parse_num(s, &v)) {
			if (v < 0 || v >= UINT_MAX)
				return perr(c, w[i].col, "%s is not a %s id", s,
					    groups ? "group" : "user");
		} else if (groups) {
			struct group *g = getgrnam(s);

			if (!g)
				return perr(c, w[i].col,
					    "no group '%s' on this system (getent group %s); give a GID or create it",
					    s, s);
			v = g->gr_gid;
		} else {
			struct passwd *pw = getpwnam(s);

			if (!pw)
				return perr(c, w[i].col,
					    "no user '%s' on this system (getent passwd %s); give a UID or create it",
					    s, s);
			v = pw->pw_uid;
		}
		if (groups)
			r->gids[r->ngids++] = v;
		else
			r->uids[r->nuids++] = v;
	}
	return 0;
}

static int parse_param(struct pctx *c, struct pol_rule *r, struct word *w,
		       int n)
{
	struct pol_param *p;
	long long lo, hi;
	char buf[128], *dots;

	if (n != 3)
		return perr(c, n > 3 ? w[3].col : w[n - 1].col +
			    (int)strlen(w[n - 1].s),
			    "a parameter is 'param KEY MIN..MAX'");
	if (!policy_name_ok(w[1].s))
		return perr(c, w[1].col, "'%s' is not a parameter name", w[1].s);
	if (policy_param(r, w[1].s))
		return perr(c, w[1].col, "parameter %s is bounded twice", w[1].s);
	if (r->nparams == POL_MAX_PARAMS)
		return perr(c, w[0].col, "more than %d parameters", POL_MAX_PARAMS);
	snprintf(buf, sizeof(buf), "%s", w[2].s);
	dots = strstr(buf, "..");
	if (!dots)
		return perr(c, w[2].col, "'%s': the bounds are MIN..MAX (one value: N..N)",
			    w[2].s);
	*dots = 0;
	if (parse_num(buf, &lo))
		return perr(c, w[2].col, "'%s' is not a number", buf);
	if (parse_num(dots + 2, &hi))
		return perr(c, w[2].col + (int)(dots + 2 - buf),
			    "'%s' is not a number", dots + 2);
	if (lo > hi)
		return perr(c, w[2].col, "MIN %lld is above MAX %lld", lo, hi);
	if (!r->is_object) {
		char why[512];
		int ret = attach_param_check(r->name, w[1].s, lo, hi, why,
					     sizeof(why));

		if (ret == -ENOENT)
			return perr(c, w[1].col,
				    "%s has no parameter '%s' (see `iouring-bpf list -v %s`)",
				    r->name, w[1].s, r->name);
		if (ret)
			return perr(c, w[2].col,
				    "%lld..%lld is wider than %s's own range for %s: %s",
				    lo, hi, r->name, w[1].s, why);
	}
	p = &r->params[r->nparams++];
	snprintf(p->name, sizeof(p->name), "%s", w[1].s);
	p->min = lo;
	p->max = hi;
	return 0;
}

static int parse_opcodes(struct pctx *c, struct pol_rule *r, struct word *w,
			 int n)
{
	char msg[512];
	size_t off = 0;
	int i, col = 0;

	if (n < 2)
		return perr(c, w[0].col + (int)strlen(w[0].s),
			    "'opcodes' needs a list: opcodes OP[, OP]... (iouring-bpf filter ops)");
	if (r->opcodes[0])
		return perr(c, w[0].col, "a second 'opcodes' line; list them all on one");
	for (i = 1; i < n; i++) {
		int k = snprintf(r->opcodes + off, sizeof(r->opcodes) - off,
				 "%s%s", i > 1 ? ", " : "", w[i].s);

		if (k < 0 || (size_t)k >= sizeof(r->opcodes) - off)
			return perr(c, w[i].col, "the opcode list is too long");
		off += k;
	}
	if (attach_check_opcodes(r->opcodes, msg, sizeof(msg), &col)) {
		/* col counts in the list: find the word there */
		int at = w[1].col, pos = 0;

		for (i = 1; i < n; i++) {
			if (col >= pos && col < pos + (int)strlen(w[i].s) + 2) {
				at = w[i].col;
				break;
			}
			pos += strlen(w[i].s) + 2;
		}
		return perr(c, at, "%s", msg);
	}
	return 0;
}

static int parse_line(struct pctx *c, struct policy *pol, char *line,
		      struct pol_rule **cur)
{
	struct word w[MAX_WORDS];
	int n, indented = line[0] == ' ' || line[0] == '\t';
	long long v;
	size_t i;

	for (i = 0; line[i]; i++)
		if ((unsigned char)line[i] < 0x20 && line[i] != '\t')
			return perr(c, (int)i + 1,
				    "a control character (0x%02x); a policy is text",
				    (unsigned char)line[i]);
	n = split(line, w, MAX_WORDS, c);
	if (n <= 0)
		return n;
	if (!indented) {
		*cur = NULL;
		if (!strcmp(w[0].s, "limit")) {
			if (n < 2)
				return perr(c, w[0].col + 5,
					    "'limit' needs a kind: connections, attached or total");
			if (!strcmp(w[1].s, "connections"))
				return parse_limit(c, w, n, &pol->user_connections, 4096);
			if (!strcmp(w[1].s, "attached"))
				return parse_limit(c, w, n, &pol->user_attached, 4096);
			if (!strcmp(w[1].s, "total"))
				return parse_limit(c, w, n, &pol->max_connections, 65536);
			return perr(c, w[1].col,
				    "no limit '%s': connections, attached or total",
				    w[1].s);
		}
		if (!strcmp(w[0].s, "program") || !strcmp(w[0].s, "object")) {
			if (parse_block_start(c, pol, w, n))
				return -1;
			*cur = &pol->rules[pol->nrules - 1];
			return 0;
		}
		return perr(c, w[0].col,
			    "'%s' at the start of a line: a block starts with 'program NAME' or 'object NAME PATH sha256 HEX' (or 'limit'); its lines are indented",
			    w[0].s);
	}
	if (!*cur)
		return perr(c, w[0].col,
			    "an indented line outside a block: start one with 'program NAME' above it");
	if (!strcmp(w[0].s, "users"))
		return parse_ids(c, *cur, w, n, 0);
	if (!strcmp(w[0].s, "groups"))
		return parse_ids(c, *cur, w, n, 1);
	if (!strcmp(w[0].s, "param"))
		return parse_param(c, *cur, w, n);
	if (!strcmp(w[0].s, "opcodes"))
		return parse_opcodes(c, *cur, w, n);
	if (!strcmp(w[0].s, "max-attached")) {
		if (n != 2 || parse_num(w[1].s, &v) || v < 1 || v > 4096)
			return perr(c, n > 1 ? w[1].col : w[0].col + 12,
				    "'max-attached' takes one number in 1..4096");
		(*cur)->max_attached = v;
		return 0;
	}
	return perr(c, w[0].col,
		    "no setting '%s' in a block: users, groups, param, max-attached, opcodes",
		    w[0].s);
}

int policy_load(const char *path, struct policy *pol, char *msg, size_t len)
{
	struct pctx c = { .file = path, .msg = msg, .len = len };
	struct pol_rule *cur = NULL;
	char *text, *line, *next;
	size_t n = 0;
	FILE *f;
	int i, ret = 0;

	memset(pol, 0, sizeof(*pol));
	snprintf(pol->file, sizeof(pol->file), "%s", path);
	pol->user_connections = 16;
	pol->user_attached = 8;
	pol->max_connections = 1024;
	f = fopen(path, "r");
	if (!f) {
		snprintf(msg, len, "%s: cannot read the policy: %s", path,
			 strerror(errno));
		return -1;
	}
	text = malloc(POLICY_MAX_SIZE + 1);
	if (text)
		n = fread(text, 1, POLICY_MAX_SIZE + 1, f);
	fclose(f);
	if (!text) {
		snprintf(msg, len, "%s: out of memory", path);
		return -1;
	}
	if (n > POLICY_MAX_SIZE) {
		free(text);
		snprintf(msg, len, "%s: larger than %d bytes: not a policy",
			 path, POLICY_MAX_SIZE);
		return -1;
	}
	text[n] = 0;
	for (line = text, c.line = 1; line && line < text + n; line = next, c.line++) {
		next = memchr(line, '\n', text + n - line);
		if (next)
			*next++ = 0;
		if (strlen(line) != (size_t)((next ? next - 1 : text + n) - line)) {
			ret = perr(&c, (int)strlen(line) + 1,
				   "a NUL byte; a policy is text");
			break;
		}
		if (strlen(line) > 1000) {
			ret = perr(&c, 1001, "a line longer than 1000 bytes");
			break;
		}
		ret = parse_line(&c, pol, line, &cur);
		if (ret)
			break;
	}
	free(text);
	if (ret)
		return -1;
	for (i = 0; i < pol->nrules; i++) {
		struct pol_rule *r = &pol->rules[i];

		if (!r->all_users && !r->nuids && !r->ngids) {
			c.line = r->line;
			return perr(&c, 1,
				    "'%s' says nobody may attach it: add 'users NAME' or 'groups NAME' (or 'users *')",
				    r->name);
		}
	}
	return 0;
}

const struct pol_rule *policy_find(const struct policy *pol, const char *name)
{
	int i;

	for (i = 0; i < pol->nrules; i++)
		if (!strcmp(pol->rules[i].name, name))
			return &pol->rules[i];
	return NULL;
}

int policy_user_ok(const struct pol_rule *r, uid_t uid, gid_t gid,
		   const gid_t *groups, int ngroups)
{
	int i, j;

	if (r->all_users)
		return 1;
	for (i = 0; i < r->nuids; i++)
		if (r->uids[i] == uid)
			return 1;
	for (i = 0; i < r->ngids; i++) {
		if (r->gids[i] == gid)
			return 1;
		for (j = 0; j < ngroups; j++)
			if (r->gids[i] == groups[j])
				return 1;
	}
	return 0;
}

const struct pol_param *policy_param(const struct pol_rule *r,
				     const char *name)
{
	int i;

	for (i = 0; i < r->nparams; i++)
		if (!strcmp(r->params[i].name, name))
			return &r->params[i];
	return NULL;
}
