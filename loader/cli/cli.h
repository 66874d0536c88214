/* SPDX-License-Identifier: GPL-2.0 */
/* cli.h - what the subcommands of iouring-bpf share */
#ifndef __IOURING_BPF_CLI_H
#define __IOURING_BPF_CLI_H

#include <argp.h>
#include <stdio.h>
#include "engine.h"
#include "engine-broker.h"
#include "setarg.h"
#include "json.h"

/*
 * The CLI's exit codes (the README's table, iouring-bpf(1)): an engine
 * failure's status (enum iouring_bpf_status) becomes one through
 * cli_exit_code()
 */
#define EXIT_OK		0
#define EXIT_FAIL	1	/* something failed: the message says what */
#define EXIT_USAGE	2	/* a bad argument, option or value */
#define EXIT_NOFEATURE	3	/* this kernel lacks the feature */
#define EXIT_PERM	4	/* not privileged enough */
#define EXIT_REJECTED	5	/* the verifier or the kernel refused it */
/* `run` only: the outcome of a run that went through */
#define EXIT_NOPROGRESS	6	/* the program stopped, nothing was done */
#define EXIT_EXPECT	7	/* an --expect or --expect-cqes did not hold */

#define PIN_DIR		"/sys/fs/bpf/iouring-bpf"

extern int cli_verbose;

int cmd_list(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_load(int argc, char **argv);
int cmd_unload(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_run(int argc, char **argv);
/* filter.c, sandbox.c: io_uring filters */
int cmd_filter(int argc, char **argv);
int cmd_sandbox(int argc, char **argv);

/* usage.c: the common options, usage errors */
/* -j/--json, -p/--pretty (set by the common options or the prescan) */
extern int cli_json, cli_pretty;
/*
 * the common options (-j, -p, -v, -h) as an argp child: every command's
 * argp lists cli_common as its children
 */
extern const struct argp_child cli_common[];
/* argp_parse with our messages for what argp cannot take (exit 2; main.c) */
void cli_parse(const struct argp *argp, int argc, char **argv,
	       unsigned int flags, void *input);
/* argp for a subcommand with only the common options: returns cli_json */
int cli_parse_json_only(int argc, char **argv, const char *cmd,
			const char *doc);
/* a usage error found while parsing: the message, a hint, exit 2 */
void cli_usage(const struct argp_state *state, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/*
 * ARGP_KEY_ARG/_END of a command taking one argument: a usage error
 * (extra) for a second one, (missing) if none; ARGP_ERR_UNKNOWN else
 */
error_t cli_one_arg(struct argp_state *state, int key, char *arg,
		    const char **slot, const char *extra, const char *missing);

/* out.c: errors, file and program arguments */
/* a message is cut there: one quoting a long text stays one line */
#define CLI_MSG_SHOWN	1000
/*
 * msg (and detail, hint) to stderr as "iouring-bpf CMD: ...", and in JSON
 * mode the run's first error as {"error": ...} on stdout
 */
void cli_error(const char *cmd, int status, const char *msg,
	       const char *detail, const char *hint);
/* the exit code of an engine failure's status (EXIT_FAIL for 0) */
int cli_exit_code(int status);
/*
 * print err (msg + detail) to stderr as "iouring-bpf CMD: ..." (and in
 * JSON mode {"error": ...} on stdout); return its exit code
 */
int report_error(const char *cmd, const struct iouring_bpf_error *err);
/* the same for "iouring-bpf CMD: <message>"; returns status */
int cli_fail(int status, const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* s, or its first characters and its length if it is long (messages) */
const char *cli_arg(const char *s);
/*
 * path, if it exists, must be a regular file (a FIFO or a device would
 * block or mean nothing): 0, or EXIT_USAGE and a message
 */
int cli_check_file(const char *cmd, const char *path, const char *what);
/*
 * the source tree this binary was built in, when it runs from there
 * (ROOT/build/iouring-bpf beside ROOT/kernel/vm-run), else NULL: hints
 * name `make kernel` and kernel/vm-run only there
 */
const char *cli_source_tree(void);
/* a built-in program's name, or a regular file: 0; else EXIT_USAGE */
int cli_check_prog(const char *cmd, const char *prog);
/*
 * ARGP_KEY_ARG/_END of a command taking one argument: a usage error
 * (extra) for a second one, (missing) if none; ARGP_ERR_UNKNOWN else
 */
error_t cli_one_arg(struct argp_state *state, int key, char *arg,
		    const char **slot, const char *extra, const char *missing);
/* args.c: argument values */
/*
 * an integer from a command-line argument; -1 and a message (exit code
 * 2 in JSON) if bad
 */
int parse_ll(const char *cmd, const char *what, const char *s,
	     long long min, long long max, long long *out);

/* --set KEY=VALUE... and --id N, as load and run take them */
#define PROG_MAX_SETS	32
struct prog_args {
	const char	*sets[PROG_MAX_SETS + 1];
	int		nsets;
	long long	id;
	int		have_id;
};

/* a command's parse_opt hands its 'i' and 's' here: 0 if taken,
 * ARGP_ERR_UNKNOWN if not; exits on a bad value, as argp does */
error_t prog_args_opt(struct prog_args *pa, const char *cmd, int key,
		      char *arg, struct argp_state *state);
/* --ring PID:FD: 0, or -1 and a message naming the bad part */
int parse_ring_arg(const char *cmd, const char *arg, long long *pid,
		   long long *fd);

/*
 * broker.c: run --broker. cli_broker_arg: the positional arg after a bare
 * --broker is its SOCKET if it is one (1: taken). cli_broker_ring: p, made
 * R_DISABLED if socket (the ring's params for run's ring). cli_broker_attach:
 * where run would load and attach, iouring-bpfd at socket ("" for the
 * default) attaches; cli_broker_detach() closes the connection.
 */
int cli_broker_arg(const char **broker, const char **prog, const char *arg);
struct io_uring_params *cli_broker_ring(const char *socket,
					struct io_uring_params *p);
int cli_broker_attach(struct iouring_bpf *h, const char *socket, int ring_fd,
		      struct iouring_bpf_error *err);
void cli_broker_detach(void);
int cli_broker_check(struct iouring_bpf *h, struct iouring_bpf_error *err);
/*
 * load --broker: a holder process attaches ring (a copy of another
 * process's, whose pidfd is pidfd) through the daemon and keeps the
 * connection until that process exits; its pid, or -errno with err the
 * holder's (the daemon's) refusal, the holder gone. unload --broker PID:
 * SIGTERM to a holder of this user, and wait for it to exit.
 */
#define CLI_BROKER_HOLDER	"iouring-bpf-hld"
int cli_broker_hold(struct iouring_bpf *h, const char *socket, int ring,
		    int pidfd, struct iouring_bpf_error *err);
int cli_broker_unhold(const char *pid, struct iouring_bpf_error *err);

/* runring.c: the ring `run` makes (--ring-flags, --sq-entries, ...) */
struct ring_opts {
	const char	*flags;		/* --ring-flags, or NULL */
	long long	sq, cq;		/* --sq-entries, --cq-entries; 0 */
};
/* the ring chosen: a default, then the options over it */
struct ring_choice {
	unsigned int	flags;
	unsigned int	sq, cq;		/* cq 0: the kernel's (2 * sq) */
	int		explicit_flags;	/* --ring-flags given */
};
struct ring;
/* 1 if the running kernel has IORING_SETUP_SQ_REWIND (mainline's bit 20) */
int run_kernel_has_sq_rewind(void);
/*
 * the options over the default in *rc, checked (names, sq-rewind on this
 * kernel, sizes): EXIT_OK, or the exit status after a message
 */
int run_ring_resolve(const char *cmd, const struct ring_opts *ro,
		     struct ring_choice *rc);
/* io_uring_setup() with exactly rc's flags, mapped into r */
int run_ring_make(const struct ring_choice *rc, struct ring *r, int *fd,
		  struct io_uring_params *p, struct iouring_bpf_error *err);

/* runfile.c: `run FILE.bpf.o`, the generic loop workload */
#define RUN_MAX_EXPECTS	32
struct run_file_opts {
	struct ring_opts ring;
	long long	timeout_s;
	const char	*expects[RUN_MAX_EXPECTS];	/* --expect NAME=VALUE */
	int		nexpects;
	long long	expect_cqes;			/* --expect-cqes, or -1 */
};
int cmd_run_file(const char *path, const struct prog_args *pa,
		 const struct run_file_opts *o, int json);

/* pins.c: struct_ops links, the ones `load` pinned and all in the system */
struct link_desc {
	char	pin[256];	/* name under PIN_DIR, "" if not ours */
	__u32	link_id;
	__u32	map_id;
	__u32	prog_id;	/* the first program of the ops, 0 if unknown */
	char	map_name[32];
	char	type[32];	/* uring_bpf_ops, io_uring_ops, or other */
	int	op_id;		/* uring_bpf_ops: the registered id, else -1 */
};

/* the links pinned in PIN_DIR; *n entries, free() the array */
int pins_list(struct link_desc **out, int *n);
/*
 * the owner of the ring a loop pin is attached to, recorded by load:
 * 1 the ring's process is alive and fd still an io_uring, 0 gone (the
 * owner exited or closed it), -1 no record (*pid, *fd filled for 0, 1)
 */
void pin_owner_save(const char *pin, long long pid, long long fd);
int pin_owner(const char *pin, long long *pid, long long *fd);
void pin_owner_forget(const char *pin);
/* every struct_ops link of the system (needs CAP_SYS_ADMIN) */
int links_all(struct link_desc **out, int *n);
/*
 * progstate.c: the program's counters and exit info, as text or (j not
 * NULL) as the member "state" of j's current object
 */
void print_prog_state(const struct link_desc *d, struct json *j);

/*
 * globals.c: the variables of data section sec (a BTF DATASEC) whose
 * bytes are data: as members of j's current object, or as text (one line
 * each: "  NAME VALUE SECTION", or " NAME=VALUE" with inline_text)
 */
struct btf;
struct btf_type;
void print_globals(const struct btf *btf, const struct btf_type *sec,
		   const char *sec_name, const void *data, size_t size,
		   struct json *j, int inline_text);

#endif /* __IOURING_BPF_CLI_H */
