// SPDX-License-Identifier: GPL-2.0
/*
 * out.c - what the subcommands share: errors, numbers, the --json-only
 * parser; and what `load` and `run` both do to a program before loading
 * it: take --set KEY=VALUE and --id N and apply them to the opened object,
 * and the --ring PID:FD parser. Each command keeps its own argp grammar
 * and help texts and decides where in its sequence these steps come.
 */
#include <argp.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

int report_error(const char *cmd, const struct iouring_bpf_error *err)
{
	fprintf(stderr, "iouring-bpf %s: %s\n", cmd, err->msg);
	if (err->detail[0]) {
		fputs(err->detail, stderr);
		if (err->detail[strlen(err->detail) - 1] != '\n')
			fputc('\n', stderr);
		if (err->status == IOURING_BPF_REJECTED && !cli_verbose)
			fprintf(stderr, "iouring-bpf %s: run with -v for libbpf's full log\n",
				cmd);
	}
	return err->status ? err->status : EXIT_FAIL;
}

int cli_fail(int status, const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "iouring-bpf %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

int parse_ll(const char *cmd, const char *what, const char *s,
	     long long min, long long max, long long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno || end == s || *end || v < min || v > max)
		return cli_fail(-1, cmd, "%s must be an integer in %lld..%lld, got '%s'",
				what, min, max, s);
	*out = v;
	return 0;
}

error_t cli_one_arg(struct argp_state *state, int key, char *arg,
		    const char **slot, const char *extra, const char *missing)
{
	if (key == ARGP_KEY_ARG && *slot)
		argp_error(state, "%s", extra);
	else if (key == ARGP_KEY_ARG)
		*slot = arg;
	else if (key == ARGP_KEY_END && !*slot)
		argp_error(state, "%s", missing);
	else if (key != ARGP_KEY_END)
		return ARGP_ERR_UNKNOWN;
	return 0;
}

/* the parser of subcommands whose only option is --json */
struct json_only_args {
	const char *cmd;
	int json;
};

static const struct argp_option json_only_options[] = {
	{ "json", 'j', NULL, 0, "Print JSON", 0 },
	{ 0 },
};

static error_t json_only_parse(int key, char *arg, struct argp_state *state)
{
	struct json_only_args *a = state->input;

	switch (key) {
	case 'j':
		a->json = 1;
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "%s takes no arguments", a->cmd);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

int cli_parse_json_only(int argc, char **argv, const char *cmd, const char *doc)
{
	struct json_only_args a = { .cmd = cmd };
	const struct argp argp = {
		json_only_options, json_only_parse, NULL, doc,
		NULL, NULL, NULL,
	};

	argp_parse(&argp, argc, argv, 0, NULL, &a);
	return a.json;
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

	if (!colon || (size_t)(colon - arg) >= sizeof(buf))
		return cli_fail(-1, cmd, "--ring wants PID:FD, got '%s'", arg);
	snprintf(buf, sizeof(buf), "%.*s", (int)(colon - arg), arg);
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
