// SPDX-License-Identifier: GPL-2.0
/*
 * usage.c - the options every command shares and the usage errors: -j,
 * -p, -v, -h, --usage and -V as an argp child of each command's parser;
 * argp run with ARGP_NO_ERRS so that every message is ours (the word that
 * is wrong, named; in JSON mode an error document, exit 2); the JSON
 * prescan; the parsers of commands taking one argument or none.
 */
#include <argp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

int cli_json, cli_pretty;

/* "iouring-bpf run" -> "run"; the top level -> NULL */
static const char *state_cmd(const struct argp_state *state)
{
	const char *name = state && state->name ? state->name : "";

	return !strncmp(name, "iouring-bpf ", 12) ? name + 12 : NULL;
}

void cli_usage(const struct argp_state *state, const char *fmt, ...)
{
	const char *cmd = state_cmd(state);
	char msg[CLI_MSG_SHOWN + 200], hint[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(hint, sizeof(hint), "try `iouring-bpf %s%s--help'",
		 cmd ? cmd : "", cmd ? " " : "");
	cli_error(cmd, EXIT_USAGE, msg, NULL, hint);
	exit(EXIT_USAGE);
}

/*
 * an option of argp or its children: by long name (a prefix of it, as
 * getopt takes them: *n counts the matches) or by key
 */
static const struct argp_option *find_opt(const struct argp *argp,
					  const char *name, size_t len,
					  int key, int *n)
{
	const struct argp_option *o, *found = NULL, *f;
	int i;

	for (o = argp->options; o && (o->name || o->key || o->doc); o++) {
		if (name && o->name && !strncmp(o->name, name, len)) {
			if (strlen(o->name) == len) {
				*n = 1;
				return o;	/* exact */
			}
			found = o;
			(*n)++;
		} else if (!name && key && o->key == key) {
			return o;
		}
	}
	for (i = 0; argp->children && argp->children[i].argp; i++) {
		f = find_opt(argp->children[i].argp, name, len, key, n);
		if (f && (!name || *n == 1))
			return f;
		if (f)
			found = f;
	}
	return found;
}

/*
 * argp (ARGP_NO_ERRS) found a word it could not take, argv[next - 1]:
 * say which, and what is wrong with it
 */
static void bad_word(struct argp_state *state)
{
	const struct argp *root = state->root_argp;
	const struct argp_option *o;
	const char *w = state->next > 0 && state->next <= state->argc ?
			state->argv[state->next - 1] : "";
	int n = 0;
	size_t len;

	if (!strncmp(w, "--", 2) && w[2]) {
		len = strcspn(w + 2, "=");
		o = find_opt(root, w + 2, len, 0, &n);
		if (!o)
			cli_usage(state, "unrecognized option '%s'", cli_arg(w));
		if (n > 1)
			cli_usage(state, "option '%s' is ambiguous", cli_arg(w));
		if (w[2 + len] == '=' && !o->arg)
			cli_usage(state, "option '--%s' takes no value", o->name);
		cli_usage(state, "option '--%s' needs a value (%s)", o->name,
			  o->arg ? o->arg : "");
	}
	if (w[0] == '-' && w[1]) {
		for (len = 1; w[len]; len++) {
			o = find_opt(root, NULL, 0, (unsigned char)w[len], &n);
			if (!o)
				cli_usage(state, "invalid option -- '%c' (in '%s')",
					  w[len], cli_arg(w));
			if (o->arg && !w[len + 1])
				cli_usage(state, "option '-%c' needs a value (%s)",
					  w[len], o->arg);
			if (o->arg)
				break;
		}
	}
	cli_usage(state, "unexpected argument '%s'", cli_arg(w));
}

#define OPT_USAGE	0x1000

static const struct argp_option common_options[] = {
	{ "json", 'j', NULL, 0, "Print JSON: the results, and errors as {\"error\": ...} (docs/json.md)", 1 },
	{ "pretty", 'p', NULL, 0, "Print JSON indented (implies --json)", 1 },
	{ "verbose", 'v', NULL, 0, "Print libbpf's log (and the verifier's)", 1 },
	/* ours, not argp's (ARGP_NO_HELP): under ARGP_NO_ERRS its print nothing */
	{ "help", 'h', NULL, 0, "Give this help list (also -?)", 2 },
	{ "usage", OPT_USAGE, NULL, 0, "Give a short usage message", 2 },
	{ "version", 'V', NULL, 0, "Print the version (as the version command)", 2 },
	{ NULL, '?', NULL, OPTION_HIDDEN, NULL, 2 },
	{ 0 },
};

static error_t common_parse(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'p':
	case 'j':
		cli_pretty |= key == 'p';
		cli_json = 1;
		json_pretty = cli_pretty;
		break;
	case 'v':
		cli_verbose = 1;
		iouring_bpf_set_verbose(1);
		break;
	case 'h':
	case '?':
	case OPT_USAGE:
		state->flags &= ~ARGP_NO_ERRS;	/* or it prints nothing */
		argp_state_help(state, stdout, key == OPT_USAGE ?
				ARGP_HELP_USAGE | ARGP_HELP_EXIT_OK :
				ARGP_HELP_STD_HELP);
		break;
	case 'V':
		if (argp_program_version_hook)
			argp_program_version_hook(stdout, state);
		exit(EXIT_OK);
	case ARGP_KEY_ERROR:
		bad_word(state);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp common_argp = {
	common_options, common_parse, NULL, NULL, NULL, NULL, NULL,
};

const struct argp_child cli_common[] = {
	{ &common_argp, 0, "Common options (also before the command):", 0 },
	{ 0 },
};

error_t cli_one_arg(struct argp_state *state, int key, char *arg,
		    const char **slot, const char *extra, const char *missing)
{
	if (key == ARGP_KEY_ARG && *slot)
		cli_usage(state, "%s", extra);
	else if (key == ARGP_KEY_ARG)
		*slot = arg;
	else if (key == ARGP_KEY_END && !*slot)
		cli_usage(state, "%s", missing);
	else if (key != ARGP_KEY_END)
		return ARGP_ERR_UNKNOWN;
	return 0;
}
