// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * log.c - libbpf's messages routed to the application's print callback,
 * and the verifier's log read: the line that says why, the end that
 * fits. The log's buffers are the load's (attach.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static int verbose;

/* the application's callback (iouring_bpf_set_print()) */
static int default_print(enum iouring_bpf_print_level level, const char *fmt,
			 va_list ap)
{
	return level == IOURING_BPF_DEBUG ? 0 : vfprintf(stderr, fmt, ap);
}

static iouring_bpf_print_fn_t user_print = default_print;

/*
 * libbpf's messages: to stderr with the CLI's -v
 * (iouring_bpf_set_verbose(1)), else to the application's callback at
 * DEBUG level (dropped by the default one)
 */
static int libbpf_route(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (verbose)
		return vfprintf(stderr, fmt, ap);
	return user_print ? user_print(IOURING_BPF_DEBUG, fmt, ap) : 0;
}

void iou_libbpf_route(void)
{
	static int routed;

	if (!__atomic_exchange_n(&routed, 1, __ATOMIC_SEQ_CST))
		libbpf_set_print(libbpf_route);
}

iouring_bpf_print_fn_t iouring_bpf_set_print(iouring_bpf_print_fn_t fn)
{
	iouring_bpf_print_fn_t old = user_print;

	user_print = fn;
	iou_libbpf_route();
	return old;
}

void iou_log(enum iouring_bpf_print_level level, const char *fmt, ...)
{
	va_list ap;

	if (!user_print)
		return;
	va_start(ap, fmt);
	user_print(level, fmt, ap);
	va_end(ap);
}

void iouring_bpf_set_verbose(int v)
{
	verbose = v;
	libbpf_set_print(libbpf_route);
}

int iou_verbose(void)
{
	return verbose;
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
int iou_log_verifier_reason(const char *log, char *out, size_t len)
{
	const char *end = log + strlen(log), *l, *best = NULL;
	size_t n, best_n = 0;

	out[0] = '\0';
	for (l = log; l < end; l += n + 1) {
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

/* the end of the log (the failing instruction and the reason are there) */
void iou_log_verifier_tail(const char *log, char *out, size_t len)
{
	const char *end = log + strlen(log), *p = log;
	size_t n;

	if ((size_t)(end - log) >= len) {
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
