// SPDX-License-Identifier: GPL-2.0
/*
 * progargs.c - what `load` and `run` both do to a program before loading
 * it: take --set KEY=VALUE and --id N from the command line and apply them
 * to the opened object; and the --ring PID:FD parser. Each command keeps its own
 * argp grammar and help texts and decides where in its sequence these
 * steps come.
 */
#include <argp.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

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
			argp_error(state, "at most %d --set", PROG_MAX_SETS);
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
		fprintf(stderr, "iouring-bpf %s: --ring wants PID:FD, got '%s'\n",
			cmd, arg);
		return -1;
	}
	memcpy(buf, arg, colon - arg);
	buf[colon - arg] = '\0';
	if (parse_ll(cmd, "--ring PID", buf, 1, 1 << 30, pid) ||
	    parse_ll(cmd, "--ring FD", colon + 1, 0, 1 << 30, fd))
		return -1;
	return 0;
}

int prog_args_apply(const struct prog_args *pa, struct iouring_bpf *h,
		    struct iouring_bpf_error *err)
{
	int i;

	for (i = 0; i < pa->nsets; i++)
		if (iouring_bpf_set(h, pa->sets[i], err))
			return -1;
	if (pa->have_id && iouring_bpf_set_op_id(h, pa->id, err))
		return -1;
	return 0;
}
