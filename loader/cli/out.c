// SPDX-License-Identifier: GPL-2.0
/*
 * out.c - what the subcommands share: the common options (-j, -p, -v, -h)
 * every command takes, errors (one line on stderr, and in JSON mode one
 * {"error": ...} document on stdout), usage errors argp finds, numbers;
 * and what `load` and `run` both do to a program before loading it: take
 * --set KEY=VALUE and --id N and apply them to the opened object, and the
 * --ring PID:FD parser. Each command keeps its own argp grammar and help
 * texts and decides where in its sequence these steps come.
 */
#include <argp.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cli.h"

int cli_json, cli_pretty;
static int error_written;	/* one {"error": ...} document per process */

/* longer arguments are cut in messages: a 100 KB argument is one line */
#define ARG_SHOWN	48
/* and so is a message: the library's, or one quoting text it read */
#define MSG_SHOWN	1000

const char *cli_arg(const char *s)
{
	static char buf[4][ARG_SHOWN + 32];
	static unsigned int next;
	size_t len = strlen(s), keep = ARG_SHOWN;
	char *b;

	if (len <= ARG_SHOWN + 16)
		return s;
	while (keep && ((unsigned char)s[keep] & 0xc0) == 0x80)
		keep--;		/* not in the middle of a UTF-8 character */
	b = buf[next++ % 4];
	snprintf(b, sizeof(buf[0]), "%.*s...(%zu bytes)", (int)keep, s, len);
	return b;
}

static const char *status_name(int status)
{
	switch (status) {
	case EXIT_USAGE:	return "usage";
	case EXIT_NOFEATURE:	return "no-feature";
	case EXIT_PERM:		return "permission";
	case IOURING_BPF_REJECTED: return "rejected";
	default:		return "failure";
	}
}

/* the message on stderr; in JSON mode the document on stdout too */
static void emit_error(const char *cmd, int status, const char *msg,
		       const char *detail, const char *hint)
{
	size_t len = strlen(msg);
	char cut[MSG_SHOWN + 4];
	struct json j;

	fprintf(stderr, "iouring-bpf%s%s: %.*s%s\n", cmd ? " " : "",
		cmd ? cmd : "", MSG_SHOWN, msg, len > MSG_SHOWN ? "..." : "");
	if (detail && *detail) {
		fputs(detail, stderr);
		if (detail[strlen(detail) - 1] != '\n')
			fputc('\n', stderr);
	}
	if (hint)
		fprintf(stderr, "iouring-bpf%s%s: %s\n", cmd ? " " : "",
			cmd ? cmd : "", hint);
	if (!cli_json || error_written)
		return;
	error_written = 1;
	if (len > MSG_SHOWN) {
		snprintf(cut, sizeof(cut), "%.*s...", MSG_SHOWN, msg);
		msg = cut;
	}
	json_start(&j, stdout);
	json_obj(&j, NULL);
	json_obj(&j, "error");
	json_str(&j, "command", cmd);
	json_str(&j, "message", msg);
	json_int(&j, "exit_code", status);
	json_str(&j, "status", status_name(status));
	json_str(&j, "detail", detail && *detail ? detail : NULL);
	json_str(&j, "hint", hint);
	json_end(&j, NULL);
	json_end(&j, NULL);
	putchar('\n');
	fflush(stdout);
}

int report_error(const char *cmd, const struct iouring_bpf_error *err)
{
	int status = err->status ? err->status : EXIT_FAIL;
	const char *hint = NULL;
	int filters = cmd && (!strcmp(cmd, "filter") || !strcmp(cmd, "sandbox"));

	if (err->detail[0] && status == IOURING_BPF_REJECTED && !cli_verbose)
		hint = "run with -v for libbpf's full log";
	/* the library's message names no source-tree command; we may */
	else if (status == EXIT_NOFEATURE && cli_source_tree())
		hint = filters ?
		"from the source tree: kernel/vm-run --stock -- build/iouring-bpf ... (Debian's 7.2 kernel)" :
		"from the source tree: make kernel; kernel/vm-run -- build/iouring-bpf ...";
	emit_error(cmd, status, err->msg, err->detail, hint);
	return status;
}

int cli_fail(int status, const char *cmd, const char *fmt, ...)
{
	char msg[MSG_SHOWN + 200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	emit_error(cmd, status, msg, NULL, NULL);
	return status;
}

/* "iouring-bpf run" -> "run"; the top level -> NULL */
static const char *state_cmd(const struct argp_state *state)
{
	const char *name = state && state->name ? state->name : "";

	return !strncmp(name, "iouring-bpf ", 12) ? name + 12 : NULL;
}

void cli_usage(const struct argp_state *state, const char *fmt, ...)
{
	const char *cmd = state_cmd(state);
	char msg[MSG_SHOWN + 200], hint[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(hint, sizeof(hint), "try `iouring-bpf %s%s--help'",
		 cmd ? cmd : "", cmd ? " " : "");
	emit_error(cmd, EXIT_USAGE, msg, NULL, hint);
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

void cli_parse(const struct argp *argp, int argc, char **argv,
	       unsigned int flags, void *input)
{
	argp_err_exit_status = EXIT_USAGE;
	/*
	 * ARGP_NO_ERRS: its messages are ours (bad_word), JSON or not;
	 * ARGP_NO_HELP: so are --help, -? and --usage (common_options)
	 */
	argp_parse(argp, argc, argv, flags | ARGP_NO_ERRS | ARGP_NO_HELP, NULL,
		   input);
}

void cli_json_prescan(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *a = argv[i];
		/* -j, -p or a cluster of flags taking no value: -vj, -jp */
		int flags = a[0] == '-' && a[1] && a[1] != '-' &&
			    !a[strspn(a + 1, "jpvh") + 1];

		if (!strcmp(a, "--json") || !strcmp(a, "--pretty") ||
		    (flags && strpbrk(a, "jp")))
			cli_json = 1;
		if (!strcmp(a, "--pretty") || (flags && strchr(a, 'p')))
			cli_pretty = 1;
	}
	json_pretty = cli_pretty;
}

int cli_check_file(const char *cmd, const char *path, const char *what)
{
	struct stat st;
	const char *kind;

	if (stat(path, &st))
		return 0;	/* not there: the caller's own message */
	if (S_ISREG(st.st_mode))
		return 0;
	kind = S_ISDIR(st.st_mode) ? "a directory" :
	       S_ISFIFO(st.st_mode) ? "a FIFO" :
	       S_ISCHR(st.st_mode) ? "a character device" :
	       S_ISBLK(st.st_mode) ? "a block device" :
	       S_ISSOCK(st.st_mode) ? "a socket" : "not a regular file";
	return cli_fail(EXIT_USAGE, cmd, "%s is %s, not %s: give a regular file",
			cli_arg(path), kind, what);
}

const char *cli_source_tree(void)
{
	static char root[PATH_MAX];
	static int done;
	char probe[PATH_MAX + 32], *slash;
	ssize_t n;
	int i;

	if (done)
		return root[0] ? root : NULL;
	done = 1;
	n = readlink("/proc/self/exe", root, sizeof(root) - 1);
	if (n <= 0)
		goto installed;
	root[n] = '\0';
	for (i = 0; i < 2; i++) {	/* ROOT/build/iouring-bpf -> ROOT */
		slash = strrchr(root, '/');
		if (!slash)
			goto installed;
		*slash = '\0';
	}
	snprintf(probe, sizeof(probe), "%s/kernel/vm-run", root);
	if (access(probe, X_OK))
		goto installed;
	snprintf(probe, sizeof(probe), "%s/loader/cli/main.c", root);
	if (!access(probe, F_OK))
		return root;
installed:
	root[0] = '\0';
	return NULL;
}

int cli_check_prog(const char *cmd, const char *prog)
{
	struct stat st;

	if (iouring_bpf_prog_find(prog))
		return 0;
	if (stat(prog, &st))
		return cli_fail(EXIT_USAGE, cmd, "unknown program '%s': not in the catalogue (see `iouring-bpf list`) and not a readable .bpf.o file (%s)",
				cli_arg(prog), strerror(errno));
	return cli_check_file(cmd, prog, "a BPF object (FILE.bpf.o)");
}

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

/* the parser of subcommands that take no arguments, only the common options */
static error_t no_args_parse(int key, char *arg, struct argp_state *state)
{
	if (key != ARGP_KEY_ARG)
		return ARGP_ERR_UNKNOWN;
	cli_usage(state, "%s takes no arguments", (const char *)state->input);
	return 0;
}

int cli_parse_json_only(int argc, char **argv, const char *cmd, const char *doc)
{
	const struct argp argp = {
		NULL, no_args_parse, NULL, doc, cli_common, NULL, NULL,
	};

	cli_parse(&argp, argc, argv, 0, (void *)cmd);
	return cli_json;
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
