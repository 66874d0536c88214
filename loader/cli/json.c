// SPDX-License-Identifier: GPL-2.0
/* json.c - see json.h */
#include <math.h>
#include "json.h"

int json_pretty;

static void indent(struct json *j, int depth)
{
	fputc('\n', j->f);
	while (depth-- > 0)
		fputs("  ", j->f);
}

static void quote(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void json_start(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = 1;
	j->brk = NULL;
}

void json_break(struct json *j, const char *ws)
{
	j->brk = ws;
}

/* the separator and key of a new member of the current level */
static void member(struct json *j, const char *key)
{
	if (!j->first[j->depth])
		fputc(',', j->f);
	if (json_pretty) {
		if (j->depth)
			indent(j, j->depth);
	} else if (j->brk) {
		fputs(j->brk, j->f);
	} else if (!j->first[j->depth]) {
		fputc(' ', j->f);
	}
	j->first[j->depth] = 0;
	j->brk = NULL;
	if (key) {
		quote(j->f, key);
		fputs(": ", j->f);
	}
}

static void nest(struct json *j, const char *key, char o, char c)
{
	member(j, key);
	fputc(o, j->f);
	if (j->depth < JSON_MAX_DEPTH - 1)
		j->depth++;
	j->close[j->depth] = c;
	j->first[j->depth] = 1;
}

void json_obj(struct json *j, const char *key)
{
	nest(j, key, '{', '}');
}

void json_arr(struct json *j, const char *key)
{
	nest(j, key, '[', ']');
}

void json_end(struct json *j, const char *ws)
{
	if (json_pretty) {
		if (!j->first[j->depth])
			indent(j, j->depth - 1);
	} else if (ws) {
		fputs(ws, j->f);
	}
	fputc(j->close[j->depth], j->f);
	if (j->depth)
		j->depth--;
	j->brk = NULL;
}

void json_str(struct json *j, const char *key, const char *v)
{
	member(j, key);
	if (v)
		quote(j->f, v);
	else
		fputs("null", j->f);
}

void json_int(struct json *j, const char *key, long long v)
{
	member(j, key);
	fprintf(j->f, "%lld", v);
}

void json_bool(struct json *j, const char *key, int v)
{
	json_num_text(j, key, v ? "true" : "false");
}

void json_double(struct json *j, const char *key, double v)
{
	member(j, key);
	if (isnan(v) || isinf(v))
		fputs("null", j->f);
	else
		fprintf(j->f, "%.10g", v);
}

void json_num_text(struct json *j, const char *key, const char *v)
{
	member(j, key);
	fputs(v, j->f);
}
