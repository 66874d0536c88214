// SPDX-License-Identifier: GPL-2.0
/*
 * filter.c - `iouring-bpf filter ACTION`: write, read and check io_uring
 * filter policies (docs/filters.md). check, show and compile need no
 * kernel support (the layout then comes from the built-in table); probe
 * and apply ask the kernel.
 */
#include <argp.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "cli.h"

struct filter_args {
	const char	*action;
	const char	*policy;
	const char	*btf;
	const char	*ring;
	int		nargs;
};

static const struct argp_option options[] = {
	{ "btf", 'b', "FILE", 0,
	  "Compile for the kernel whose BTF (vmlinux or raw .btf) this is, not the running one", 0 },
	{ "ring", 'r', "PID:FD", 0,
	  "apply: the ring fd FD of process PID (pidfd_getfd: ptrace rights)", 0 },
	{ 0 },
};

static const char doc[] =
"Policies for io_uring filters (mainline Linux 7.2+, CONFIG_IO_URING_BPF):\n"
"which requests a ring may run, compiled to classic BPF.\n"
"\n"
"  check POLICY     parse and compile; one line: ok, or what is wrong\n"
"  show POLICY      the programs, disassembled, each line explained\n"
"  compile POLICY   the programs as C (struct sock_filter arrays)\n"
"  list             the policies shipped with iouring-bpf\n"
"  ops              the opcode names this kernel's BTF has\n"
"  probe            does this kernel have filters; which payloads\n"
"  apply POLICY --ring PID:FD   add the policy to a running process's ring\n"
"\n"
"POLICY is a file or the name of a shipped policy (no-network, ...).\n"
"`iouring-bpf sandbox --policy POLICY -- COMMAND` runs a command with it.\n"
"With --json each action prints one object (docs/json/filter.schema.json);\n"
"show and compile put their text in its \"text\".\n"
"Exit: 0 ok, 1 a malformed policy (POLICY:LINE:COL: ...) or a failure, 2 usage,\n"
"3 the kernel has no filters, 4 not permitted, 5 the kernel refused it.\v";

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct filter_args *a = state->input;

	switch (key) {
	case 'b':
		a->btf = arg;
		break;
	case 'r':
		a->ring = arg;
		break;
	case ARGP_KEY_ARG:
		if (!a->action)
			a->action = arg;
		else if (!a->policy)
			a->policy = arg;
		else
			cli_usage(state, "one POLICY at a time: '%s' is extra",
				  cli_arg(arg));
		break;
	case ARGP_KEY_END:
		if (!a->action)
			cli_usage(state, "an action is needed: check, show, compile, list, ops, probe or apply");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* a shipped policy's first comment paragraph, after "# name:", joined */
static void summary(const char *t, char *out, size_t len)
{
	size_t n = 0;
	const char *colon = strchr(t, ':'), *nl = strchr(t, '\n');

	if (colon && nl && colon < nl)
		t = colon + 1;
	while (*t && n < len - 1) {
		while (*t == '#' || *t == ' ')
			t++;
		if (*t == '\n' || !*t)
			break;		/* an empty comment line ends it */
		if (n)
			out[n++] = ' ';
		while (*t && *t != '\n' && n < len - 1)
			out[n++] = *t++;
		if (*t == '\n')
			t++;
	}
	out[n] = 0;
}

/* --json: {"action": ACT, "policy": POLICY, ...: the caller ends it */
static void json_begin(struct json *j, const char *act, const char *policy)
{
	json_start(j, stdout);
	json_obj(j, NULL);
	json_str(j, "action", act);
	if (policy)
		json_str(j, "policy", policy);
}

static void json_finish(struct json *j)
{
	json_end(j, NULL);
	putchar('\n');
}

static int list_policies(void)
{
	const char *const *names = iouring_bpf_filter_policies();
	char buf[400];
	struct json j;
	int i;

	if (cli_json) {
		json_begin(&j, "list", NULL);
		json_arr(&j, "policies");
	}
	for (i = 0; names[i]; i++) {
		summary(iouring_bpf_filter_policy_text(names[i]), buf, sizeof(buf));
		if (cli_json) {
			json_obj(&j, NULL);
			json_str(&j, "name", names[i]);
			json_str(&j, "summary", buf);
			json_end(&j, NULL);
		} else {
			printf("%-14s %s\n", names[i], buf);
		}
	}
	if (cli_json) {
		json_end(&j, NULL);
		json_finish(&j);
	} else {
		printf("(iouring-bpf filter show NAME: the whole policy, compiled)\n");
	}
	return EXIT_OK;
}

static int list_ops(const char *btf)
{
	struct iouring_bpf_error err;
	struct iouring_bpf_filter *f;
	struct iouring_bpf_filter_prog p;
	int i;
	struct json j;

	/* "allow *" compiles a program per opcode: their names */
	f = iouring_bpf_filter_compile("default deny\nallow * if user_data != 0\n",
				       "ops", btf, &err);
	if (!f)
		return report_error("filter", &err);
	if (cli_json) {
		json_begin(&j, "ops", NULL);
		json_str(&j, "layout", iouring_bpf_filter_layout(f));
		json_arr(&j, "ops");
	} else {
		printf("layout: %s\n", iouring_bpf_filter_layout(f));
	}
	for (i = 0; !iouring_bpf_filter_prog(f, i, &p); i++) {
		if (!p.opname[0])	/* a number this layout has no name for */
			continue;
		if (!cli_json) {
			printf("%3u %s\n", p.opcode, p.opname);
			continue;
		}
		json_obj(&j, NULL);
		json_int(&j, "opcode", p.opcode);
		json_str(&j, "name", p.opname);
		json_end(&j, NULL);
	}
	if (cli_json) {
		json_end(&j, NULL);
		json_finish(&j);
	}
	iouring_bpf_filter_free(f);
	return EXIT_OK;
}

static int probe_filters(void)
{
	struct iouring_bpf_filter_kinfo ki;
	int ret;

	struct json j;

	ret = iouring_bpf_filter_probe(&ki);
	if (ret)
		return cli_fail(EXIT_FAIL, "filter", "io_uring is not usable: %s",
				ki.why);
	if (cli_json) {
		json_begin(&j, "probe", NULL);
		json_bool(&j, "available", ki.available);
		json_str(&j, "why", ki.available ? NULL : ki.why);
		json_int(&j, "nr_ops", ki.nr_ops);
		json_str(&j, "payloads", ki.payloads);
		json_finish(&j);
		return ki.available ? EXIT_OK : EXIT_NOFEATURE;
	}
	if (!ki.available) {
		printf("io_uring filters: NOT available: %s\n", ki.why);
		if (cli_source_tree())
			printf("from the source tree: kernel/vm-run --stock -- build/iouring-bpf filter probe\n");
		return EXIT_NOFEATURE;
	}
	printf("io_uring filters: available (IORING_REGISTER_BPF_FILTER, %d opcodes)\n",
	       ki.nr_ops);
	printf("payloads (bytes): %s\n", ki.payloads[0] ? ki.payloads : "none");
	return EXIT_OK;
}

static int apply_ring(const struct iouring_bpf_filter *f, const char *name,
		      const char *ring)
{
	struct iouring_bpf_error err;
	long long pid, fd;
	int pidfd, rfd;

	if (parse_ring_arg("filter", ring, &pid, &fd))
		return EXIT_USAGE;
	pidfd = syscall(SYS_pidfd_open, (int)pid, 0);
	if (pidfd < 0)
		return cli_fail(EXIT_FAIL, "filter", "pidfd_open(%lld): %s", pid,
				strerror(errno));
	rfd = syscall(SYS_pidfd_getfd, pidfd, (int)fd, 0);
	close(pidfd);
	if (rfd < 0)
		return cli_fail(errno == EPERM ? EXIT_PERM : EXIT_FAIL, "filter",
				"pidfd_getfd(%lld, %lld): %s (ptrace rights over the process are needed)",
				pid, fd, strerror(errno));
	if (iouring_bpf_filter_apply(f, rfd, &err)) {
		close(rfd);
		return report_error("filter", &err);
	}
	close(rfd);
	if (cli_json) {
		struct json j;

		json_begin(&j, "apply", name);
		json_bool(&j, "applied", 1);
		json_int(&j, "pid", pid);
		json_int(&j, "fd", fd);
		json_int(&j, "programs", iouring_bpf_filter_count(f));
		json_finish(&j);
		return EXIT_OK;
	}
	printf("applied %s to ring %lld:%lld (%d program%s); it stays until the ring is closed\n",
	       name, pid, fd, iouring_bpf_filter_count(f),
	       iouring_bpf_filter_count(f) == 1 ? "" : "s");
	return EXIT_OK;
}

/* --json of check, show and compile */
static int json_action(struct iouring_bpf_filter *f, const char *act,
		       const char *policy)
{
	struct iouring_bpf_filter_prog p;
	char *text = NULL;
	size_t len = 0;
	struct json j;
	FILE *mem;
	int i;

	json_begin(&j, act, policy);
	json_bool(&j, "ok", 1);
	json_str(&j, "default", iouring_bpf_filter_default_allow(f) ?
		 "allow" : "deny");
	json_str(&j, "layout", iouring_bpf_filter_layout(f));
	json_arr(&j, "programs");
	for (i = 0; !iouring_bpf_filter_prog(f, i, &p); i++) {
		json_obj(&j, NULL);
		json_str(&j, "op", p.opname);
		json_int(&j, "opcode", p.opcode);
		json_int(&j, "instructions", p.len);
		json_end(&j, NULL);
	}
	json_end(&j, NULL);
	if (strcmp(act, "check")) {
		mem = open_memstream(&text, &len);
		if (!mem)
			return cli_fail(EXIT_FAIL, "filter", "out of memory");
		if (!strcmp(act, "show"))
			iouring_bpf_filter_show(f, mem);
		else
			iouring_bpf_filter_export_c(f, mem);
		fclose(mem);
		json_str(&j, "text", text ? text : "");
		free(text);
	}
	json_finish(&j);
	return EXIT_OK;
}

int cmd_filter(int argc, char **argv)
{
	struct filter_args a = { 0 };
	const struct argp argp = {
		options, parse_opt, "ACTION [POLICY]", doc, cli_common, NULL,
		NULL,
	};
	struct iouring_bpf_error err;
	struct iouring_bpf_filter *f;
	struct iouring_bpf_filter_prog p;
	const char *act;
	int i, ret = EXIT_OK;

	cli_parse(&argp, argc, argv, 0, &a);
	act = a.action;
	if (!strcmp(act, "list") || !strcmp(act, "ops") || !strcmp(act, "probe")) {
		if (a.policy)
			return cli_fail(EXIT_USAGE, "filter", "'%s' takes no POLICY",
					act);
		return !strcmp(act, "list") ? list_policies() :
		       !strcmp(act, "ops") ? list_ops(a.btf) : probe_filters();
	}
	if (strcmp(act, "check") && strcmp(act, "show") &&
	    strcmp(act, "compile") && strcmp(act, "apply"))
		return cli_fail(EXIT_USAGE, "filter",
				"unknown action '%s': check, show, compile, list, ops, probe or apply",
				cli_arg(act));
	if (!a.policy)
		return cli_fail(EXIT_USAGE, "filter", "'%s' needs a POLICY (a file or a shipped name: iouring-bpf filter list)",
				act);
	if (!strcmp(act, "apply") && !a.ring)
		return cli_fail(EXIT_USAGE, "filter",
				"apply needs --ring PID:FD (for a new process: iouring-bpf sandbox)");
	if (cli_check_file("filter", a.policy, "a policy file") ||
	    (a.btf && cli_check_file("filter", a.btf, "a BTF file")))
		return EXIT_USAGE;
	f = iouring_bpf_filter_load(a.policy, a.btf, &err);
	if (!f)
		return report_error("filter", &err);
	if (cli_json && strcmp(act, "apply")) {
		ret = json_action(f, act, a.policy);
	} else if (!strcmp(act, "check")) {
		printf("%s: ok: default %s, %d program%s (", a.policy,
		       iouring_bpf_filter_default_allow(f) ? "allow" : "deny",
		       iouring_bpf_filter_count(f),
		       iouring_bpf_filter_count(f) == 1 ? "" : "s");
		for (i = 0; !iouring_bpf_filter_prog(f, i, &p); i++)
			printf("%s%s %u", i ? ", " : "", p.opname, p.len);
		printf("%sinstructions), layout: %s\n", i ? " " : "",
		       iouring_bpf_filter_layout(f));
	} else if (!strcmp(act, "show")) {
		iouring_bpf_filter_show(f, stdout);
	} else if (!strcmp(act, "compile")) {
		iouring_bpf_filter_export_c(f, stdout);
	} else {
		ret = apply_ring(f, a.policy, a.ring);
	}
	iouring_bpf_filter_free(f);
	return ret;
}
