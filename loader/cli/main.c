// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - iouring-bpf: load, run and inspect io_uring BPF programs.
 * Global options and dispatch to the subcommands; nothing else.
 */
#include <argp.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "cli.h"
#include "../bench/bench.h"

int cli_verbose;

/* --version: ours, the libbpf we run with and where it came from */
static void print_version(FILE *f, struct argp_state *state)
{
	fprintf(f, "iouring-bpf %s\nlibbpf %u.%u (%s)\n", IOURING_BPF_VERSION,
		libbpf_major_version(), libbpf_minor_version(),
		IOURING_BPF_LIBBPF);
}

void (*argp_program_version_hook)(FILE *, struct argp_state *) = print_version;

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "list", cmd_list },
	{ "probe", cmd_probe },
	{ "load", cmd_load },
	{ "unload", cmd_unload },
	{ "show", cmd_show },
	{ "run", cmd_run },
	{ "bench", cmd_bench },
	{ "filter", cmd_filter },
	{ "sandbox", cmd_sandbox },
};

static const char doc[] =
"Load, run and inspect io_uring BPF programs: IORING_OP_BPF operations\n"
"(struct uring_bpf_ops, the project's kernel only) and loop programs\n"
"(mainline's struct io_uring_bpf_ops on Linux 7.1+, or v3's struct\n"
"io_uring_ops on the project's kernel: the binding follows the kernel).\n"
"\n"
"Commands:\n"
"  list [--json]                 the built-in programs and their parameters\n"
"  probe [--json]                does this kernel have the features, and\n"
"                                which loop API (v3, mainline-7.1, -7.2)?\n"
"  load PROG|FILE.bpf.o [--id N] [--ring PID:FD] [--set K=V]... [--name PIN]\n"
"                                load, attach and pin (outlives the CLI)\n"
"  unload NAME|OPID|all          remove what `load` pinned\n"
"  show [--json]                 what is attached now\n"
"  run PROG|FILE.bpf.o [--count N] [--depth D] [--set K=V]... [--json]\n"
"                                load, drive a workload, check it, detach\n"
"                                (FILE: any loop object, --timeout S;\n"
"                                --set NAME=V, NAME[I]=V, NAME=@PATH,\n"
"                                ADDR,SIZE=@buf:N)\n"
"  bench SCENARIO [--runs R] [--count N] [--json FILE]\n"
"                                measure: nops, op-overhead, memcpy, wait,\n"
"                                load or all (make bench runs it in the VM)\n"
"  filter check|show|compile|list|ops|probe|apply [POLICY]\n"
"                                io_uring filters (Linux 7.2+): policies\n"
"                                compiled to classic BPF\n"
"  sandbox --policy POLICY -- COMMAND [ARG...]\n"
"                                run COMMAND with its rings filtered\n"
"\n"
"`iouring-bpf COMMAND --help` describes each command.\n"
"\n"
"Exit codes: 0 success, 1 failure, 2 usage error, 3 this kernel lacks the\n"
"feature (loop programs: Linux 7.1+ or the project's kernel; op programs:\n"
"the project's kernel), 4 not privileged enough (CAP_BPF + CAP_PERFMON or\n"
"CAP_SYS_ADMIN), 5 the verifier or kernel rejected the program.\n"
"--version: the version and the libbpf in use.\v";

static const struct argp_option options[] = {
	{ "verbose", 'v', NULL, 0, "Print libbpf's log (and the verifier's)", 0 },
	{ 0 },
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	int *cmd_index = state->input;

	switch (key) {
	case 'v':
		cli_verbose = 1;
		break;
	case ARGP_KEY_ARG:
		*cmd_index = state->next - 1;
		state->next = state->argc;	/* the rest is the command's */
		break;
	case ARGP_KEY_END:
		if (!*cmd_index)
			argp_error(state, "a command is needed: list, probe, load, unload, show, run, bench, filter or sandbox");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp argp = {
	options, parse_opt, "COMMAND [ARG...]", doc, NULL, NULL, NULL,
};

int main(int argc, char **argv)
{
	int cmd = 0;	/* argv index of the command */
	char name[64];
	size_t i;

	argp_err_exit_status = EXIT_USAGE;
	argp_parse(&argp, argc, argv, ARGP_IN_ORDER, NULL, &cmd);
	iouring_bpf_set_verbose(cli_verbose);

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[cmd], commands[i].name))
			continue;
		/* argp names the command in its messages: "iouring-bpf run" */
		snprintf(name, sizeof(name), "iouring-bpf %s", commands[i].name);
		argv[cmd] = name;
		return commands[i].fn(argc - cmd, argv + cmd);
	}
	fprintf(stderr, "iouring-bpf: unknown command '%s' (try --help)\n",
		argv[cmd]);
	return EXIT_USAGE;
}
