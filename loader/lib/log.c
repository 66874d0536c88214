// SPDX-License-Identifier: GPL-2.0
/*
 * log.c - keep libbpf's messages, print them too with -v. The verifier's
 * log comes through here when a program is rejected.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static char *log_buf;
static size_t log_len, log_cap;
static int verbose;
static int installed;

static int grow(size_t need)
{
	size_t cap;
	char *b;

	if (log_len + need <= log_cap)
		return 1;
	cap = (log_cap ? log_cap * 2 : 16384) + need;
	b = realloc(log_buf, cap);
	if (!b)
		return 0;
	log_buf = b;
	log_cap = cap;
	return 1;
}

static int print_fn(enum libbpf_print_level level, const char *fmt,
		    va_list args)
{
	va_list copy;
	int n;

	if (verbose) {
		va_copy(copy, args);
		vfprintf(stderr, fmt, copy);
		va_end(copy);
	}
	if (level == LIBBPF_DEBUG)
		return 0;
	va_copy(copy, args);
	n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n <= 0 || !grow(n + 1))
		return 0;
	vsnprintf(log_buf + log_len, log_cap - log_len, fmt, args);
	log_len += n;
	return 0;
}

static void install(void)
{
	if (!installed) {
		libbpf_set_print(print_fn);
		installed = 1;
	}
}

void iouring_bpf_set_verbose(int v)
{
	verbose = v;
	install();
}

void iou_log_reset(void)
{
	install();
	log_len = 0;
	if (log_buf)
		log_buf[0] = '\0';
}

const char *iou_log(void)
{
	return log_buf ? log_buf : "";
}

/* "libbpf: prog 'NAME': BPF program load failed: ...": NAME, 0 if found */
int iou_log_failed_prog(char *out, size_t len)
{
	const char *log = iou_log(), *p, *q, *end;

	out[0] = '\0';
	end = strstr(log, "-- BEGIN PROG LOAD LOG --");
	if (!end)
		return -1;
	/* the last "prog '" before the verifier's log names its program */
	for (p = NULL, q = log; (q = strstr(q, "prog '")) && q < end; q++)
		p = q + strlen("prog '");
	if (!p)
		return -1;
	q = strchr(p, '\'');
	if (!q || q > end || (size_t)(q - p) >= len)
		return -1;
	memcpy(out, p, q - p);
	out[q - p] = '\0';
	return 0;
}

/* a statistics or instruction line of the verifier's log, not a reason */
static int verifier_noise(const char *l, size_t n)
{
	size_t i = 0;

	if (!n || l[0] == ';' || l[0] == ' ' || l[0] == '\t')
		return 1;
	if (!strncmp(l, "processed ", 10) || !strncmp(l, "verification time", 17) ||
	    !strncmp(l, "stack depth", 11) || !strncmp(l, "mark_precise", 12))
		return 1;
	while (i < n && l[i] >= '0' && l[i] <= '9')
		i++;
	return i > 0 && i < n && l[i] == ':';	/* "12: (79) ..." or "12: R1=..." */
}

/* the last line of the verifier's log that says why: 0 if found */
int iou_log_verifier_reason(char *out, size_t len)
{
	const char *log = iou_log(), *begin, *end, *l, *best = NULL;
	size_t n, best_n = 0;

	out[0] = '\0';
	begin = strstr(log, "-- BEGIN PROG LOAD LOG --");
	if (!begin || !(begin = strchr(begin, '\n')))
		return -1;
	end = strstr(begin, "-- END PROG LOAD LOG --");
	if (!end)
		end = begin + strlen(begin);
	for (l = begin + 1; l < end; l += n + 1) {
		const char *nl = memchr(l, '\n', end - l);

		n = nl ? (size_t)(nl - l) : (size_t)(end - l);
		if (!verifier_noise(l, n)) {
			best = l;
			best_n = n;
		}
		if (!nl)
			break;
	}
	if (!best)
		return -1;
	if (best_n >= len)
		best_n = len - 1;
	memcpy(out, best, best_n);
	out[best_n] = '\0';
	return 0;
}

void iou_log_verifier_tail(char *out, size_t len)
{
	const char *log = iou_log(), *begin, *end, *p;
	size_t n;

	out[0] = '\0';
	begin = strstr(log, "-- BEGIN PROG LOAD LOG --");
	if (!begin)
		return;
	begin = strchr(begin, '\n');
	if (!begin)
		return;
	begin++;
	end = strstr(begin, "-- END PROG LOAD LOG --");
	if (!end)
		end = begin + strlen(begin);
	/* keep the end: the failing instruction and the reason are there */
	p = begin;
	if ((size_t)(end - begin) >= len) {
		p = end - (len - 1);
		while (p < end && *p != '\n')
			p++;
		if (p < end)
			p++;
	}
	n = end - p;
	if (n >= len)
		n = len - 1;
	memcpy(out, p, n);
	out[n] = '\0';
}
