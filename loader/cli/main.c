// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - iouring-bpf: load, run and inspect io_uring BPF programs.
 * Global options, the argp conventions every command parses with
 * (cli_parse(), cli_parse_json_only()), and dispatch to the subcommands.
 */
#include <argp.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "cli.h"
#include "../bench/bench.h"

int cli_verbose;

static void print_version(FILE *f)
{
	struct json j;
	char lib[32];

	if (!cli_json) {
		fprintf(f, "iouring-bpf %s\nlibbpf %u.%u (%s)\n",
			IOURING_BPF_VERSION, libbpf_major_version(),
			libbpf_minor_version(), IOURING_BPF_LIBBPF);
		return;
	}
	json_start(&j, f);
	json_obj(&j, NULL);
	json_str(&j, "version", IOURING_BPF_VERSION);
	snprintf(lib, sizeof(lib), "%u.%u", libbpf_major_version(),
		 libbpf_minor_version());
	json_str(&j, "libbpf", lib);
	json_str(&j, "libbpf_source", IOURING_BPF_LIBBPF);
	json_end(&j, NULL);
	fputc('\n', f);
}

/* --version: ours, the libbpf we run with and where it came from */
static void version_hook(FILE *f, struct argp_state *state)
{
	print_version(stdout);
}

void (*argp_program_version_hook)(FILE *, struct argp_state *) = version_hook;

static int cmd_help(int argc, char **argv);

static int cmd_version(int argc, char **argv)
{
	cli_parse_json_only(argc, argv, "version",
			    "Print the version of iouring-bpf and of the libbpf it runs with.");
	print_version(stdout);
	return EXIT_OK;
}

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
	{ "help", cmd_help },
	{ "version", cmd_version },
};

#define NR_COMMANDS	(sizeof(commands) / sizeof(commands[0]))

static const char doc[] =
"Load, run and inspect io_uring BPF programs: IORING_OP_BPF operations\n"
"(struct uring_bpf_ops, the project's kernel only) and loop programs\n"
"(mainline's struct io_uring_bpf_ops on Linux 7.1+, or v3's struct\n"
"io_uring_ops on the project's kernel: the binding follows the kernel).\n"
"\n"
"Commands:\n"
"  list                          the built-in programs and their parameters\n"
"  probe [-H loop|op|filters]    does this kernel have the features, and\n"
"                                which loop API (v3, mainline-7.1, -7.2)?\n"
"  load PROG|FILE.bpf.o [-i N] [-r PID:FD] [-s K=V]... [-n PIN]\n"
"                                load, attach and pin (outlives the CLI)\n"
"  unload NAME|OPID|all          remove what `load` pinned\n"
"  show                          what is attached now\n"
"  run PROG|FILE.bpf.o [-c N] [-d D] [-s K=V]... [-t S]\n"
"                                load, drive a workload, check it, detach\n"
"                                (FILE: any loop object, --timeout S;\n"
"                                --set NAME=V, NAME[I]=V, NAME=@PATH,\n"
"                                ADDR,SIZE=@buf:N; --ring-flags LIST,\n"
"                                --sq-entries N, --cq-entries N;\n"
"                                --expect NAME=V, --expect-cqes N)\n"
"  bench SCENARIO [-R R] [-c N] [-o FILE]\n"
"                                measure: nops, op-overhead, memcpy, wait,\n"
"                                load or all (make bench runs it in the VM)\n"
"  filter check|show|compile|list|ops|probe|apply [POLICY]\n"
"                                io_uring filters (Linux 7.2+): policies\n"
"                                compiled to classic BPF\n"
"  sandbox -P POLICY -- COMMAND [ARG...]\n"
"                                run COMMAND with its rings filtered\n"
"  help [COMMAND]                this text, or a command's\n"
"  version                       the version and the libbpf in use\n"
"\n"
"Every command takes -j/--json (JSON on stdout, errors as {\"error\": ...}),\n"
"-p/--pretty (indented JSON), -v/--verbose and -h/--help, before or after\n"
"the command. `iouring-bpf help COMMAND` describes each command.\n"
"\n"
"Exit codes: 0 success, 1 failure, 2 usage error, 3 this kernel lacks the\n"
"feature (loop programs: Linux 7.1+ or the project's kernel; op programs:\n"
"the project's kernel), 4 not privileged enough (CAP_BPF + CAP_PERFMON or\n"
"CAP_SYS_ADMIN), 5 the verifier or kernel rejected the program; run only:\n"
"6 nothing done (the program stopped, no SQE consumed, no CQE posted),\n"
"7 an --expect or --expect-cqes did not hold.\v";

/*
 * argp_parse with the CLI's conventions, for main and every command: what
 * argp cannot take is a usage error (exit 2) in our words
 */
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

/* JSON mode from the start, before any message: a -j/-p anywhere */
static void json_prescan(int argc, char **argv)
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

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	int *cmd_index = state->input;

	switch (key) {
	case ARGP_KEY_ARG:
		*cmd_index = state->next - 1;
		state->next = state->argc;	/* the rest is the command's */
		break;
	case ARGP_KEY_END:
		if (!*cmd_index)
			cli_usage(state, "a command is needed: list, probe, load, unload, show, run, bench, filter, sandbox, help or version");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp argp = {
	NULL, parse_opt, "COMMAND [ARG...]", doc, cli_common, NULL, NULL,
};

static int find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return i;
	return -1;
}

/* run command i on argv (argv[0] its name): argp names it in messages */
static int run_command(int i, int argc, char **argv)
{
	char name[64];

	snprintf(name, sizeof(name), "iouring-bpf %s", commands[i].name);
	argv[0] = name;
	return commands[i].fn(argc, argv);
}

/* help: the overview; help COMMAND: that command's --help */
static int cmd_help(int argc, char **argv)
{
	char help[] = "--help";
	char *args[] = { NULL, help, NULL };
	int i;

	if (argc > 2)
		return cli_fail(EXIT_USAGE, "help", "help takes one COMMAND at most");
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		argp_help(&argp, stdout, ARGP_HELP_STD_HELP, "iouring-bpf");
		return EXIT_OK;
	}
	i = find_command(argv[1]);
	if (i < 0)
		return cli_fail(EXIT_USAGE, "help", "unknown command '%s' (iouring-bpf help lists them)",
				cli_arg(argv[1]));
	return run_command(i, 2, args);
}

static const char *current;	/* the command, for messages */

/*
 * At exit, however it comes (a return, --help, a usage error): output
 * that could not be written (a full disk, a closed pipe reader) is a
 * failure, not a success
 */
static void check_stdout(void)
{
	int e;

	errno = 0;
	if (!fflush(stdout) && !ferror(stdout))
		return;
	e = errno ? errno : EIO;
	fprintf(stderr, "iouring-bpf%s%s: cannot write the output: %s\n",
		current ? " " : "", current ? current : "", strerror(e));
	_exit(EXIT_FAIL);
}

int main(int argc, char **argv)
{
	/* glibc sizes a NULL buffer itself (st_blksize) */
	static char outbuf[1 << 16];
	int cmd = 0;	/* argv index of the command */
	int i;

	atexit(check_stdout);
	/*
	 * not a terminal: fully buffered already, but with room for the
	 * longest help text, so that a write error is seen at exit with
	 * its errno rather than half-way through argp's output
	 */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	json_prescan(argc, argv);
	cli_parse(&argp, argc, argv, ARGP_IN_ORDER, &cmd);
	/* libbpf's own messages: with -v on stderr, else none */
	if (cli_verbose)
		iouring_bpf_set_verbose(cli_verbose);
	else
		libbpf_set_print(NULL);

	i = find_command(argv[cmd]);
	if (i < 0)
		return cli_fail(EXIT_USAGE, NULL, "unknown command '%s' (try iouring-bpf help)",
				cli_arg(argv[cmd]));
	current = commands[i].name;
	return run_command(i, argc - cmd, argv + cmd);
}
