/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - the one JSON writer of every --json output (list, probe, show,
 * run, bench). It streams to a FILE: members are separated by ", ", or by
 * "," and the whitespace given to json_break() (a new line and indent), so
 * each command keeps its layout. docs/json.md describes the documents.
 */
#ifndef __IOURING_BPF_JSON_H
#define __IOURING_BPF_JSON_H

#include <stdio.h>

#define JSON_MAX_DEPTH	8

struct json {
	FILE		*f;
	int		depth;
	char		close[JSON_MAX_DEPTH];	/* '}' or ']' per level */
	char		first[JSON_MAX_DEPTH];	/* no member yet at that level */
	const char	*brk;			/* before the next member, once */
};

/*
 * -p/--pretty: every member on its own line, indented by two spaces per
 * level (json_break() is then ignored)
 */
extern int json_pretty;

void json_start(struct json *j, FILE *f);
/* the next member starts after ws ("\n  ") instead of a space */
void json_break(struct json *j, const char *ws);
/*
 * an object or array, a member of the current one (key NULL in arrays
 * and at the top)
 */
void json_obj(struct json *j, const char *key);
void json_arr(struct json *j, const char *key);
/* close the innermost object or array, after ws (NULL: none) */
void json_end(struct json *j, const char *ws);
/*
 * members: a string (NULL: null), integers, a bool, a double (%.10g; NaN
 * and infinities are null) and a number already formatted
 */
void json_str(struct json *j, const char *key, const char *v);
void json_int(struct json *j, const char *key, long long v);
void json_bool(struct json *j, const char *key, int v);
void json_double(struct json *j, const char *key, double v);
void json_num_text(struct json *j, const char *key, const char *v);

#endif /* __IOURING_BPF_JSON_H */
