// SPDX-License-Identifier: GPL-2.0
/*
 * args.c - argument values of the commands: integers in a range, the
 * --set KEY=VALUE and --id N that load and run take (handed to the
 * library's lifecycle, which applies them), and --ring PID:FD. A bad
 * value is one usage error line naming the option.
 */
#include <argp.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

int parse_ll(const char *cmd, const char *what, const char *s,
	     long long min, long long max, long long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno || end == s || *end || v < min || v > max) {
		cli_fail(EXIT_USAGE, cmd, "%s must be an integer in %lld..%lld, got '%s'",
			 what, min, max, cli_arg(s));
		return -1;
	}
	*out = v;
	return 0;
}

error_t prog_args_opt(struct prog_args *pa, const char *cmd, int key,
		      char *arg, struct argp_state *state)
{
	switch (key) {
	case 'i':
		if (parse_ll(cmd, "--id", arg, 0, 255, &pa->id))
			exit(EXIT_USAGE);
		pa->have_id = 1;
		return 0;
	case 's':
		if (pa->nsets == PROG_MAX_SETS)
			cli_usage(state, "at most %d --set", PROG_MAX_SETS);
		pa->sets[pa->nsets++] = arg;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

int parse_ring_arg(const char *cmd, const char *arg, long long *pid,
		   long long *fd)
{
	const char *colon = strchr(arg, ':');
	char buf[64];

	if (!colon || (size_t)(colon - arg) >= sizeof(buf)) {
		cli_fail(EXIT_USAGE, cmd, "--ring wants PID:FD, got '%s'",
			 cli_arg(arg));
		return -1;
	}
	snprintf(buf, sizeof(buf), "%.*s", (int)(colon - arg), arg);
	if (parse_ll(cmd, "--ring PID", buf, 1, 1 << 30, pid) ||
	    parse_ll(cmd, "--ring FD", colon + 1, 0, 1 << 30, fd))
		return -1;
	return 0;
}
