// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - the bench result store: metrics with one value per run,
 * their median/min/max, targets, and the table and JSON printers.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"

void bench_param(struct bench_scn *s, const char *key, const char *fmt, ...)
{
	va_list ap;
	int i;

	for (i = 0; i < s->nparams; i++)
		if (!strcmp(s->params[i].key, key))
			break;
	if (i == BENCH_MAX_PARAMS)
		return;
	if (i == s->nparams)
		s->nparams++;
	snprintf(s->params[i].key, sizeof(s->params[i].key), "%s", key);
	va_start(ap, fmt);
	vsnprintf(s->params[i].val, sizeof(s->params[i].val), fmt, ap);
	va_end(ap);
}

struct bench_metric *bench_find(struct bench_scn *s, const char *mode,
				const char *what, double x)
{
	int i;

	for (i = 0; i < s->nmetrics; i++) {
		struct bench_metric *m = &s->m[i];

		if (!strcmp(m->mode, mode) && !strcmp(m->what, what) &&
		    m->x == x)
			return m;
	}
	return NULL;
}

void bench_add(struct bench_scn *s, const char *mode, const char *label,
	       const char *what, const char *unit, double x, double v)
{
	struct bench_metric *m = bench_find(s, mode, what, x);

	if (!m) {
		if (s->nmetrics == s->cap) {
			int cap = s->cap ? 2 * s->cap : 32;
			void *p = realloc(s->m, cap * sizeof(*s->m));

			if (!p)
				return;
			s->m = p;
			s->cap = cap;
		}
		m = &s->m[s->nmetrics++];
		*m = (struct bench_metric){ .x = x };
		snprintf(m->mode, sizeof(m->mode), "%s", mode);
		snprintf(m->label, sizeof(m->label), "%s", label ? label : mode);
		snprintf(m->what, sizeof(m->what), "%s", what);
		snprintf(m->unit, sizeof(m->unit), "%s", unit);
	}
	if (m->n < BENCH_MAX_RUNS)
		m->v[m->n++] = v;
}

void bench_target(struct bench_scn *s, const char *text, const char *mode,
		  const char *what, double x, char op, double bound)
{
	struct bench_target *t;

	if (s->ntargets == BENCH_MAX_TARGETS)
		return;
	t = &s->targets[s->ntargets++];
	*t = (struct bench_target){ .x = x, .op = op, .bound = bound };
	snprintf(t->text, sizeof(t->text), "%s", text);
	snprintf(t->mode, sizeof(t->mode), "%s", mode);
	snprintf(t->what, sizeof(t->what), "%s", what);
}

void bench_eval_targets(struct bench_scn *s)
{
	int i;

	for (i = 0; i < s->ntargets; i++) {
		struct bench_target *t = &s->targets[i];
		struct bench_metric *m = bench_find(s, t->mode, t->what, t->x);

		t->have = m && m->n > 0;
		if (!t->have)
			continue;
		t->median = stat_median(m->v, m->n);
		t->met = t->op == '<' ? t->median <= t->bound :
					 t->median >= t->bound;
	}
}

void bench_fail(struct bench_scn *s, const char *fmt, ...)
{
	va_list ap;

	s->failed++;
	fprintf(stderr, "iouring-bpf bench %s: CHECK FAILED: ", s->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double stat_median(const double *v, int n)
{
	double t[BENCH_MAX_RUNS];

	if (n <= 0)
		return NAN;
	if (n > BENCH_MAX_RUNS)
		n = BENCH_MAX_RUNS;
	memcpy(t, v, n * sizeof(*v));
	qsort(t, n, sizeof(*t), cmp_double);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* the smallest of v, or with max the largest */
static double stat_ext(const double *v, int n, int max)
{
	double r = n > 0 ? v[0] : NAN;

	for (int i = 1; i < n; i++)
		if (max ? v[i] > r : v[i] < r)
			r = v[i];
	return r;
}

double stat_pct(double *v, int n, double p)
{
	long idx;

	if (n <= 0)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	idx = (long)ceil(p / 100.0 * n) - 1;
	if (idx < 0)
		idx = 0;
	if (idx >= n)
		idx = n - 1;
	return v[idx];
}

/* 3 significant digits, no exponent for the sizes we see */
static void fmt_num(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (isnan(v))
		snprintf(buf, len, "-");
	else if (a >= 1e7)
		snprintf(buf, len, "%.3g", v);
	else if (a >= 100 || a == 0)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 1)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.3f", v);
}

static void fmt_size(char *buf, size_t len, double x)
{
	if (x < 0)
		buf[0] = '\0';
	else if (x >= 1048576 && (long long)x % 1048576 == 0)
		snprintf(buf, len, "%lldM", (long long)x / 1048576);
	else if (x >= 1024 && (long long)x % 1024 == 0)
		snprintf(buf, len, "%lldK", (long long)x / 1024);
	else
		snprintf(buf, len, "%lld", (long long)x);
}

void bench_print_table(const struct bench_scn *s, FILE *f)
{
	int i, has_x = 0;

	fprintf(f, "== %s: %s\n", s->name, s->title);
	for (i = 0; i < s->nparams; i++)
		fprintf(f, "   %-14s %s\n", s->params[i].key, s->params[i].val);
	for (i = 0; i < s->nmetrics; i++)
		has_x |= s->m[i].x >= 0;
	fprintf(f, "   %-34s %s%-16s %-8s %12s %12s %12s\n", "mode",
		has_x ? "size   " : "", "metric", "unit", "median", "min",
		"max");
	for (i = 0; i < s->nmetrics; i++) {
		const struct bench_metric *m = &s->m[i];
		char med[32], mn[32], mx[32], sz[24];

		fmt_num(med, sizeof(med), stat_median(m->v, m->n));
		fmt_num(mn, sizeof(mn), stat_ext(m->v, m->n, 0));
		fmt_num(mx, sizeof(mx), stat_ext(m->v, m->n, 1));
		fmt_size(sz, sizeof(sz), m->x);
		fprintf(f, "   %-34.34s %-*s%s%-16s %-8s %12s %12s %12s\n",
			m->label, has_x ? 6 : 0, has_x ? sz : "",
			has_x ? " " : "", m->what, m->unit, med, mn, mx);
	}
	for (i = 0; i < s->ntargets; i++) {
		const struct bench_target *t = &s->targets[i];

		if (!t->have)
			fprintf(f, "   target: %s: not measured\n", t->text);
		else
			fprintf(f, "   target: %s: %s (median %.2f)\n", t->text,
				t->met ? "MET" : "MISSED", t->median);
	}
	if (s->notes[0])
		fprintf(f, "   note: %s\n", s->notes);
	if (s->failed)
		fprintf(f, "   %d check(s) FAILED: the figures above are suspect\n",
			s->failed);
	fputc('\n', f);
}

void bench_print_json(const struct bench_scn *s, struct json *j)
{
	int i, k;

	json_obj(j, NULL);
	json_str(j, "scenario", s->name);
	json_str(j, "title", s->title);
	json_int(j, "runs", s->runs);
	json_int(j, "count", s->count);
	json_int(j, "failed_checks", s->failed);
	json_break(j, "\n   ");
	json_obj(j, "params");
	for (i = 0; i < s->nparams; i++)
		json_str(j, s->params[i].key, s->params[i].val);
	json_end(j, NULL);
	json_break(j, "\n   ");
	json_str(j, "notes", s->notes);
	json_break(j, "\n   ");
	json_arr(j, "metrics");
	for (i = 0; i < s->nmetrics; i++) {
		const struct bench_metric *m = &s->m[i];

		json_break(j, "\n    ");
		json_obj(j, NULL);
		json_str(j, "mode", m->mode);
		json_str(j, "label", m->label);
		json_str(j, "metric", m->what);
		json_str(j, "unit", m->unit);
		json_double(j, "x", m->x >= 0 ? m->x : NAN);
		json_double(j, "median", stat_median(m->v, m->n));
		json_double(j, "min", stat_ext(m->v, m->n, 0));
		json_double(j, "max", stat_ext(m->v, m->n, 1));
		json_arr(j, "runs");
		for (k = 0; k < m->n; k++)
			json_double(j, NULL, m->v[k]);
		json_end(j, NULL);
		json_end(j, NULL);
	}
	json_end(j, "\n   ");
	json_break(j, "\n   ");
	json_arr(j, "targets");
	for (i = 0; i < s->ntargets; i++) {
		const struct bench_target *t = &s->targets[i];

		json_break(j, "\n    ");
		json_obj(j, NULL);
		json_str(j, "target", t->text);
		json_str(j, "mode", t->mode);
		json_str(j, "metric", t->what);
		json_double(j, "x", t->x >= 0 ? t->x : NAN);
		json_double(j, t->op == '<' ? "at_most" : "at_least", t->bound);
		json_double(j, "median", t->have ? t->median : NAN);
		if (t->have)
			json_bool(j, "met", t->met);
		else
			json_str(j, "met", NULL);
		json_end(j, NULL);
	}
	json_end(j, "\n   ");
	json_end(j, NULL);
}

void bench_free(struct bench_scn *s)
{
	free(s->m);
	s->m = NULL;
	s->nmetrics = s->cap = 0;
}
