// SPDX-License-Identifier: GPL-2.0
/*
 * out.c - what the subcommands say when something is wrong: errors (one
 * line on stderr, and in JSON mode one {"error": ...} document on
 * stdout) and the checks of a file or program argument. Argument values
 * are parsed in args.c; the options every command shares and argp's
 * usage errors are usage.c's.
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

static int error_written;	/* one {"error": ...} document per process */

/* longer arguments are cut in messages: a 100 KB argument is one line */
#define ARG_SHOWN	48

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
	case EXIT_REJECTED:	return "rejected";
	default:		return "failure";
	}
}

void cli_error(const char *cmd, int status, const char *msg,
	       const char *detail, const char *hint)
{
	size_t len = strlen(msg);
	char cut[CLI_MSG_SHOWN + 4];
	struct json j;

	fprintf(stderr, "iouring-bpf%s%s: %.*s%s\n", cmd ? " " : "",
		cmd ? cmd : "", CLI_MSG_SHOWN, msg, len > CLI_MSG_SHOWN ? "..." : "");
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
	if (len > CLI_MSG_SHOWN) {
		snprintf(cut, sizeof(cut), "%.*s...", CLI_MSG_SHOWN, msg);
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

/*
 * The library's messages name the problem; where one of our commands
 * shows more (err->see), the message says which, at its end
 */
static const char *see_command(int see)
{
	switch (see) {
	case IOURING_BPF_SEE_KERNEL:
		return " (`iouring-bpf probe` lists what the kernel has and lacks)";
	case IOURING_BPF_SEE_PROGRAMS:
		return " (see `iouring-bpf list`)";
	case IOURING_BPF_SEE_LOADED:
		return " (see `iouring-bpf show`)";
	case IOURING_BPF_SEE_POLICIES:
		return " (`iouring-bpf filter list` lists the shipped policies)";
	case IOURING_BPF_SEE_OPS:
		return " (`iouring-bpf filter ops` lists them)";
	case IOURING_BPF_SEE_SANDBOX:
		return " (`iouring-bpf sandbox` sets no_new_privs)";
	}
	return "";
}

int cli_exit_code(int status)
{
	switch (status) {
	case IOURING_BPF_USAGE:		return EXIT_USAGE;
	case IOURING_BPF_NOFEATURE:	return EXIT_NOFEATURE;
	case IOURING_BPF_PERM:		return EXIT_PERM;
	case IOURING_BPF_REJECTED:	return EXIT_REJECTED;
	default:			return EXIT_FAIL;
	}
}

int report_error(const char *cmd, const struct iouring_bpf_error *err)
{
	int status = cli_exit_code(err->status);
	int filters = cmd && (!strcmp(cmd, "filter") || !strcmp(cmd, "sandbox"));
	char seen[sizeof(err->msg) + 100], line[sizeof(seen) + 100];
	const char *msg = seen, *hint = NULL;
	const char *unset;

	snprintf(seen, sizeof(seen), "%s%s", err->msg, see_command(err->see));
	unset = strstr(msg, "; set the others before load.");

	/* the library's messages name no flag: the CLI's say which */
	if (unset) {
		snprintf(line, sizeof(line), "%.*s (load --ring PID:FD, run FILE); give the others with --set NAME=VALUE.%s",
			 (int)(unset - msg), msg,
			 unset + strlen("; set the others before load."));
		msg = line;
	}
	if ((status == EXIT_REJECTED ||
	     err->see == IOURING_BPF_SEE_LOG) && !cli_verbose)
		hint = err->detail[0] ? "run with -v for libbpf's full log" :
		       "run with -v for libbpf's messages";
	/*
	 * The library's message names no source-tree command; we may, on
	 * the same line (a refusal is one line), when another kernel is the
	 * fix (not when the object was built for the other loop hook)
	 */
	else if (status == EXIT_NOFEATURE && cli_source_tree() &&
		 err->fix == IOURING_BPF_FIX_KERNEL) {
		snprintf(line, sizeof(line), "%s; from the source tree: %s", seen,
			 filters ?
			 "kernel/vm-run --stock -- build/iouring-bpf ... (Debian's 7.2 kernel)" :
			 "make kernel; kernel/vm-run -- build/iouring-bpf ...");
		msg = line;
	}
	cli_error(cmd, status, msg, err->detail, hint);
	return status;
}

int cli_fail(int status, const char *cmd, const char *fmt, ...)
{
	char msg[CLI_MSG_SHOWN + 200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cli_error(cmd, status, msg, NULL, NULL);
	return status;
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
