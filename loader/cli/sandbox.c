// SPDX-License-Identifier: GPL-2.0
/*
 * sandbox.c - `iouring-bpf sandbox --policy POLICY... -- COMMAND [ARG...]`:
 * run COMMAND with io_uring filters on its task. Sets no_new_privs (so
 * that no privilege is needed, as for seccomp), registers every policy's
 * programs with fd -1 (the task: every ring COMMAND or its children
 * create from then on is filtered, and nothing can remove or loosen the
 * filters), then execs COMMAND. Several --policy stack: a request must be
 * allowed by each.
 *
 * Task filters reach only rings created after them: an io_uring fd that
 * COMMAND would inherit (made before the sandbox, not close-on-exec) runs
 * whatever its maker's filters allow. The sandbox does not filter such a
 * ring as a ring (the filters would also bind the process that shares it,
 * outside the sandbox, and a SINGLE_ISSUER ring refuses them): it refuses
 * to run COMMAND and names the fd (docs/filters.md, "Inherited rings").
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include "cli.h"

#define MAX_POLICIES	16

static const char usage[] =
"Usage: iouring-bpf sandbox [-P|--policy POLICY]... [-j] [-v] -- COMMAND [ARG...]\n"
"Run COMMAND with io_uring filters on its task: every ring it (or a child)\n"
"creates runs only the requests each POLICY allows; the others complete with\n"
"-EACCES. Sets no_new_privs (no privilege needed; setuid programs then gain\n"
"none). POLICY: a file, or a shipped policy (iouring-bpf filter list).\n"
"Needs Linux 7.2+ with CONFIG_IO_URING_BPF (exit 3 without).\n"
"An io_uring fd COMMAND would inherit (not close-on-exec) is refused (exit 2):\n"
"task filters reach only rings made after them.\n"
"Exit: COMMAND's status; before it runs: 1 failure, 2 usage, 3 no filters\n"
"in this kernel, 4 not permitted, 5 the kernel refused a program.\n"
"-j/--json, -p/--pretty: errors before COMMAND runs as {\"error\": ...} on\n"
"stdout (COMMAND's output is its own); -v: each policy's programs.\n";

/*
 * The io_uring fds COMMAND would inherit: each fd of /proc/self/fd that is
 * not close-on-exec and whose link is the io_uring anon inode. 0: none; 1:
 * some, listed in list ("3, 7"); -1: the fds could not be listed (errno).
 */
static int inherited_rings(char *list, size_t len)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	size_t n = 0;
	int found = 0;

	list[0] = 0;
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char path[64], target[64];
		ssize_t tl;
		long fd;
		char *end;
		int fl;

		fd = strtol(de->d_name, &end, 10);
		if (de->d_name[0] < '0' || de->d_name[0] > '9' || *end ||
		    fd == dirfd(d) || fd > INT_MAX)
			continue;
		fl = fcntl((int)fd, F_GETFD);
		if (fl < 0 || (fl & FD_CLOEXEC))
			continue;	/* COMMAND will not have it */
		snprintf(path, sizeof(path), "/proc/self/fd/%ld", fd);
		tl = readlink(path, target, sizeof(target) - 1);
		if (tl < 0)
			continue;
		target[tl] = 0;
		if (strcmp(target, "anon_inode:[io_uring]"))
			continue;
		if (n < len)
			n += snprintf(list + n, len - n, "%s%ld", found ? ", " : "",
				      fd);
		found = 1;
	}
	closedir(d);
	return found;
}

int cmd_sandbox(int argc, char **argv)
{
	struct iouring_bpf_filter *f[MAX_POLICIES];
	const char *names[MAX_POLICIES];
	struct iouring_bpf_error err;
	char rings[200];
	int i, n = 0, cmd = 0, ret;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			cmd = i + 1;
			break;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h") ||
		    !strcmp(a, "-?")) {
			fputs(usage, stdout);
			return EXIT_OK;
		}
		if (!strcmp(a, "-j") || !strcmp(a, "--json") ||
		    !strcmp(a, "-p") || !strcmp(a, "--pretty")) {
			cli_json = 1;
			continue;
		}
		if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			cli_verbose = 1;
			iouring_bpf_set_verbose(1);
			continue;
		}
		if (n == MAX_POLICIES)
			return cli_fail(EXIT_USAGE, "sandbox", "at most %d --policy",
					MAX_POLICIES);
		if (!strncmp(a, "--policy=", 9)) {
			names[n++] = a + 9;
		} else if ((!strcmp(a, "--policy") || !strcmp(a, "-P")) &&
			   i + 1 < argc) {
			names[n++] = argv[++i];
		} else if (!strcmp(a, "--policy") || !strcmp(a, "-P")) {
			return cli_fail(EXIT_USAGE, "sandbox", "option '%s' needs a value (POLICY)",
					a);
		} else if (a[0] == '-') {
			return cli_fail(EXIT_USAGE, "sandbox", "unrecognized option '%s' (try --help)",
					cli_arg(a));
		} else {
			cmd = i;	/* no "--": the command starts here */
			break;
		}
	}
	if (!n)
		return cli_fail(EXIT_USAGE, "sandbox",
				"--policy POLICY is needed (iouring-bpf filter list shows the shipped ones)");
	if (!cmd || cmd >= argc)
		return cli_fail(EXIT_USAGE, "sandbox",
				"a COMMAND is needed after --: iouring-bpf sandbox --policy %s -- COMMAND [ARG...]",
				names[0]);
	for (i = 0; i < n; i++) {
		if (cli_check_file("sandbox", names[i], "a policy file"))
			return EXIT_USAGE;
		f[i] = iouring_bpf_filter_load(names[i], NULL, &err);
		if (!f[i])
			return report_error("sandbox", &err);
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return cli_fail(EXIT_FAIL, "sandbox", "prctl(PR_SET_NO_NEW_PRIVS): %s",
				strerror(errno));
	for (i = 0; i < n; i++) {
		if (iouring_bpf_filter_apply(f[i], -1, &err))
			return report_error("sandbox", &err);
		if (cli_verbose)
			fprintf(stderr, "iouring-bpf sandbox: %s: %d program%s on the task (layout: %s)\n",
				names[i], iouring_bpf_filter_count(f[i]),
				iouring_bpf_filter_count(f[i]) == 1 ? "" : "s",
				iouring_bpf_filter_layout(f[i]));
		iouring_bpf_filter_free(f[i]);
	}
	ret = inherited_rings(rings, sizeof(rings));
	if (ret < 0)
		return cli_fail(EXIT_FAIL, "sandbox",
				"cannot list the descriptors %s would inherit (/proc/self/fd: %s): an inherited io_uring would escape the policy, so nothing runs; mount /proc",
				cli_arg(argv[cmd]), strerror(errno));
	if (ret)
		return cli_fail(EXIT_USAGE, "sandbox",
				"fd %s: an io_uring made before the sandbox, which %s would inherit; the policy filters only rings made after it, so nothing runs: close it first (in sh: %.*s<&-) or make it close-on-exec",
				rings, cli_arg(argv[cmd]), (int)strcspn(rings, ","),
				rings);
	execvp(argv[cmd], argv + cmd);
	ret = errno;
	return cli_fail(EXIT_FAIL, "sandbox", "cannot run %s: %s",
			cli_arg(argv[cmd]), strerror(ret));
}
