// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - `iouring-bpf run PROG`: make a suitable ring, load and attach the
 * program, drive its workload (loader/workloads/), check the
 * results, print them, detach. Self-contained: nothing stays behind.
 */
#include <argp.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "../workloads/workload.h"
#include "../workloads/ring.h"

struct run_args {
	const char	*prog;
	const char	*broker;	/* --broker: its SOCKET, or "" */
	long long	count, depth, timeout;
	struct prog_args pa;		/* --set, --id */
	struct run_file_opts fo;	/* ring options, --expect... */
};

enum {
	OPT_RING_FLAGS = 0x100,
	OPT_SQ_ENTRIES,
	OPT_CQ_ENTRIES,
	OPT_EXPECT,
	OPT_EXPECT_CQES,
	OPT_BROKER,
};

static const struct argp_option options[] = {
	{ "count", 'c', "N", 0,
	  "Requests the workload completes and checks (its main pass; a program without such requests refuses it)",
	  0 },
	{ "depth", 'd', "D", 0, "Requests in flight (programs that have a depth)", 0 },
	{ "set", 's', "KEY=VALUE", 0, "Set a parameter (repeatable)", 0 },
	{ "id", 'i', "N", 0, "Op programs: the op id to use (default: the program's)", 0 },
	{ "timeout", 't', "S", 0, "FILE.bpf.o: end the wait after S seconds (default 10)", 0 },
	{ "broker", OPT_BROKER, "SOCKET", OPTION_ARG_OPTIONAL,
	  "Have iouring-bpfd attach the program (no privilege needed; default socket " IOURING_BPF_BROKER_SOCKET ")",
	  0 },
	{ NULL, 0, NULL, 0, "The ring (loop programs):", 1 },
	{ "ring-flags", OPT_RING_FLAGS, "LIST", 0,
	  "Setup flags by name: NAME,NAME,... (the whole set) or +NAME,-NAME,... (changes to the default). Names: cqsize, clamp, submit-all, coop-taskrun, taskrun-flag, sqe128, cqe32, single-issuer, defer-taskrun, no-sqarray, sq-rewind (Linux 7.0+, needs no-sqarray)",
	  1 },
	{ "sq-entries", OPT_SQ_ENTRIES, "N", 0, "SQ entries (default 64)", 1 },
	{ "cq-entries", OPT_CQ_ENTRIES, "N", 0, "CQ entries (adds cqsize; default 256)", 1 },
	{ NULL, 0, NULL, 0, "Assertions (FILE.bpf.o; exit 7 when one does not hold):", 2 },
	{ "expect", OPT_EXPECT, "NAME=VALUE", 0,
	  "The global NAME holds VALUE after the run (an integer, or for NAME exit: none, done, error); repeatable",
	  2 },
	{ "expect-cqes", OPT_EXPECT_CQES, "N", 0,
	  "The kernel posted N CQEs (0: the run is meant to do nothing, no exit 6)",
	  2 },
	{ 0 },
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct run_args *a = state->input;

	switch (key) {
	case 'c':
		if (parse_ll("run", "--count", arg, 0, 1LL << 40, &a->count))
			exit(EXIT_USAGE);
		break;
	case 'd':
		/* any count here: the range is the parameter's (unit.c) */
		if (parse_ll("run", "--depth", arg, 0, 1LL << 40, &a->depth))
			exit(EXIT_USAGE);
		break;
	case 't':
		if (parse_ll("run", "--timeout", arg, 1, 3600, &a->timeout))
			exit(EXIT_USAGE);
		break;
	case OPT_RING_FLAGS:
		a->fo.ring.flags = arg;
		break;
	case OPT_SQ_ENTRIES:
		if (parse_ll("run", "--sq-entries", arg, 1, 32768, &a->fo.ring.sq))
			exit(EXIT_USAGE);
		break;
	case OPT_CQ_ENTRIES:
		if (parse_ll("run", "--cq-entries", arg, 1, 65536, &a->fo.ring.cq))
			exit(EXIT_USAGE);
		break;
	case OPT_EXPECT:
		if (a->fo.nexpects == RUN_MAX_EXPECTS)
			cli_usage(state, "at most %d --expect", RUN_MAX_EXPECTS);
		if (!strchr(arg, '=') || arg[0] == '=')
			cli_usage(state, "--expect wants NAME=VALUE, got '%s'",
				  cli_arg(arg));
		a->fo.expects[a->fo.nexpects++] = arg;
		break;
	case OPT_BROKER:
		a->broker = arg ? arg : "";
		break;
	case OPT_EXPECT_CQES:
		if (parse_ll("run", "--expect-cqes", arg, 0, 0xffffffffLL,
			     &a->fo.expect_cqes))
			exit(EXIT_USAGE);
		break;
	case ARGP_KEY_ARG:
		/* --broker's SOCKET may come as an argument of its own */
		if (a->broker && cli_broker_arg(&a->broker, &a->prog, arg))
			break;
		if (a->prog)
			cli_usage(state, "run takes one program");
		a->prog = arg;
		break;
	case ARGP_KEY_END:
		if (!a->prog)
			cli_usage(state,
				  "which program? a name from `iouring-bpf list` or a loop program's .bpf.o file");
		break;
	case 's':
	case 'i':
		return prog_args_opt(&a->pa, "run", key, arg, state);
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp argp = {
	options, parse_opt, "PROG|FILE.bpf.o",
	"Run a built-in program on a ring of its own: load, attach, drive its "
	"workload, check the results (data compared, counts exact), print "
	"them, detach. Exit 0 if every check passed, 1 if one failed.\v"
	"FILE.bpf.o: any loop program (ours, or written elsewhere like "
	"liburing's tests). run makes a ring (below), fills the ring globals "
	"the object declares (sq_entries, cq_entries, cq_head_offset, "
	"cq_tail_offset, cqes_offset, ... and iou_*), applies --set (any "
	"global; NAME=@PATH and NAME=@>PATH open a file, ADDR,SIZE=@buf:N "
	"allocates N bytes), loads, attaches and calls io_uring_enter() until "
	"the program stops or --timeout. It reports what the kernel saw (SQEs "
	"consumed, CQEs posted, reaped and left), the program's calls, how it "
	"stopped (its exit info) and every global.\n\n"
	"The default ring: SINGLE_ISSUER|DEFER_TASKRUN|NO_SQARRAY|CQSIZE, 64 "
	"SQ and 256 CQ entries, and SQ_REWIND when the kernel has it (Linux "
	"7.1+, the mainline hook) and the object declares none of the SQ "
	"position globals (sq_head_offset, sq_tail_offset, sq_array_offset, "
	"iou_sq_head, iou_sq_tail, iou_sq_array): such a program writes its "
	"SQEs at index 0, as liburing's do. One that reads the SQ tail gets "
	"a ring that honours it. --ring-flags changes the flags (also for "
	"built-in loop programs; their default is the library's ring).\n\n"
	"Exit codes: 0 the program stopped with work done (its exit info not "
	"an error) and every --expect held; 1 failure: enter failed, "
	"--timeout, or the program's exit info says error; 2 usage error (a "
	"bad option, --set or --expect name; a ring flag the kernel refuses); "
	"3 the kernel lacks the feature (the loop hook, sq-rewind); 4 not "
	"privileged enough; 5 the verifier or kernel refused the program; 6 "
	"nothing done: the program stopped, the kernel consumed no SQE and "
	"posted no CQE (the message names the likely cause and the fix; "
	"--expect-cqes 0 says that is intended); 7 an --expect or "
	"--expect-cqes did not hold.",
	cli_common, NULL, NULL,
};

static void print_exit_info(struct run_ctx *rc)
{
	struct iou_exit_info ei;

	if (iouring_bpf_exit_info(rc->h, &ei) <= IOU_EXIT_KIND_NONE)
		return;
	rc_out(rc, "exit", "%s code=%d value=%lld: %s",
	       iou_exit_kind_name(ei.kind), ei.code, ei.value, ei.msg);
}

/*
 * Mainline's hook has no timeout: a program that never says STOP would
 * hang the run. A SIGALRM without SA_RESTART ends the wait with -EINTR.
 */
#define RUN_WATCHDOG_S	120
static volatile sig_atomic_t watchdog_fired;

static void watchdog(int sig)
{
	watchdog_fired = 1;
}

static void watchdog_arm(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = watchdog;
	sigaction(SIGALRM, &sa, NULL);
	watchdog_fired = 0;
	alarm(RUN_WATCHDOG_S);
}

/*
 * the ring of a built-in program: the library's ring for its kind
 * (RC_RING_SQ SQ, RC_RING_CQ CQ entries); cmd_run() maps it into r once
 * the program is attached
 */
static int ring_make(struct ring *r, enum iouring_bpf_kind kind, int *fd,
		     struct io_uring_params *p,
		     struct iouring_bpf_error *err)
{
	p->cq_entries = RC_RING_CQ;
	*fd = iou_ring_setup(kind, RC_RING_SQ, p, err);
	r->fd = *fd;
	r->p = *p;
	return *fd < 0 ? *fd : 0;
}

/* the built-in program called name, with its workload (progs/NAME/) */
static const struct unit_workload *builtin_find(const char *name)
{
	const struct unit_workload *u;

	for (u = iou_workloads; u->dir; u++)
		if (!strcmp(u->prog->name, name))
			return u;
	return NULL;
}

/* --ring-flags, --sq-entries, --cq-entries of a built-in loop program */
static struct ring_choice *run_ring;
/* --broker: its SOCKET ("": the default), or NULL (loader/cli/broker.c) */
static const char *run_broker;
/* what --set made: nothing, for a built-in takes numbers only */
static struct setarg_res run_set;

/*
 * The start, in a straight line: --set and --id; --count and --depth
 * over them (they win over a --set of the same); the workload's checks
 * of them; the kernel check; a ring of the program's kind, bound (loop
 * programs); what the workload prepares once the ring exists; load;
 * attach. 0, or a negative errno with err filled.
 */
static int run_start(struct run_ctx *rc, const struct prog_args *pa, int loop,
		     struct iouring_bpf_error *err)
{
	struct iouring_bpf *h = rc->h;
	struct io_uring_params p;
	int i, ret = 0, fd = -1;

	rc->err = err;
	for (i = 0; i < pa->nsets && !ret; i++)
		ret = setarg_apply(h, &run_set, pa->sets[i], err);
	if (!ret && pa->have_id)
		ret = iouring_bpf_set_op_id(h, pa->id, err);
	if (!ret && rc->count >= 0 && rc->w->count_param)
		ret = iouring_bpf_set_var(h, rc->w->count_param, rc->count, err);
	if (!ret && rc->depth >= 0 && rc->w->depth_param)
		ret = iouring_bpf_set_var(h, rc->w->depth_param, rc->depth, err);
	if (!ret && rc->w->args)
		ret = rc->w->args(rc);
	if (!ret)
		ret = iouring_bpf_check_kernel(h, err);
	memset(&p, 0, sizeof(p));
	if (!ret && run_ring)
		ret = run_ring_make(run_ring, &rc->ring, &fd, &p, err);
	else if (!ret)
		ret = ring_make(&rc->ring, loop ? IOURING_BPF_KIND_LOOP :
				IOURING_BPF_KIND_OP, &fd, run_broker ?
				cli_broker_ring(run_broker, &p) : &p, err);
	if (!ret && loop)
		ret = iouring_bpf_set_ring(h, fd, p.sq_entries ? &p : NULL, err);
	if (!ret && rc->w->setup)
		ret = rc->w->setup(rc);
	if (!ret && run_broker)
		return cli_broker_attach(h, run_broker, fd, err);
	if (!ret)
		ret = iouring_bpf_load(h, err);
	if (!ret)
		ret = iouring_bpf_attach_link(h, err);
	return ret > 0 ? -EINVAL : ret;
}

int cmd_run(int argc, char **argv)
{
	struct run_args a = {
		.count = -1, .depth = -1, .fo.expect_cqes = -1,
	};
	struct ring_choice ring = {
		.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
			 IORING_SETUP_NO_SQARRAY | IORING_SETUP_CQSIZE,
		.sq = RC_RING_SQ, .cq = RC_RING_CQ,
	};
	int ring_opt;
	struct iouring_bpf_error err;
	enum iouring_bpf_loop_api api;
	const struct unit_workload *u;
	const struct workload *w;
	struct run_ctx *rc;
	struct json j;
	long long t0;
	int i, ret, loop;

	cli_parse(&argp, argc, argv, 0, &a);
	rc = calloc(1, sizeof(*rc));
	if (!rc)
		return EXIT_FAIL;
	rc->ring.fd = -1;
	rc->count = a.count;
	rc->depth = a.depth;
	rc->json = cli_json;
	u = builtin_find(a.prog);
	rc->prog = u ? u->prog : NULL;
	if (!rc->prog && access(a.prog, F_OK) == 0 && !a.broker) {
		a.fo.timeout_s = a.timeout ? a.timeout : 10;
		if (cli_check_file("run", a.prog, "a loop program's .bpf.o"))
			ret = EXIT_USAGE;
		else if (a.count >= 0 || a.depth >= 0)
			ret = cli_fail(EXIT_USAGE, "run", "--count and --depth are for built-in programs; give %s its values with --set NAME=VALUE",
				       cli_arg(a.prog));
		else
			ret = cmd_run_file(a.prog, &a.pa, &a.fo, cli_json);
		goto out;
	}
	if (!rc->prog) {
		ret = cli_fail(EXIT_USAGE, "run", "no built-in program '%s' and no such file (see `iouring-bpf list`; or give a loop program's .bpf.o)",
			       cli_arg(a.prog));
		goto out;
	}
	if (a.timeout) {
		ret = cli_fail(EXIT_USAGE, "run", "--timeout is for FILE.bpf.o; %s stops by itself (its watchdog is %d s)",
			       cli_arg(a.prog), RUN_WATCHDOG_S);
		goto out;
	}
	if (a.fo.nexpects || a.fo.expect_cqes >= 0) {
		ret = cli_fail(EXIT_USAGE, "run", "--expect and --expect-cqes are for FILE.bpf.o; %s's workload checks its results itself (exit 1 when one fails)",
			       cli_arg(a.prog));
		goto out;
	}
	ring_opt = a.fo.ring.flags || a.fo.ring.sq || a.fo.ring.cq;
	w = u->w;
	if (!w->run) {
		ret = cli_fail(EXIT_FAIL, "run", "%s has no workload (progs/%s has no run.c)",
			       a.prog, rc->prog->file);
		goto out;
	}
	if (a.count >= 0 && !w->takes_count) {
		ret = cli_fail(EXIT_USAGE, "run", "%s takes no --count: its workload has no number of requests to choose (see `iouring-bpf list`; --set changes its parameters)",
			       a.prog);
		goto out;
	}
	if (a.depth >= 0 && !w->takes_depth) {
		ret = cli_fail(EXIT_USAGE, "run", "%s has no queue depth: --depth does not apply",
			       a.prog);
		goto out;
	}

	rc->w = w;
	rc->h = iouring_bpf_open_prog(rc->prog, &err);
	if (!rc->h)
		goto fail;
	loop = iouring_bpf_kind(rc->h) == IOURING_BPF_KIND_LOOP;
	if (a.pa.have_id && loop) {
		ret = cli_fail(EXIT_USAGE, "run", "%s is a loop program: --id is for IORING_OP_BPF ops",
			       a.prog);
		goto out;
	}
	if (ring_opt && !loop) {
		ret = cli_fail(EXIT_USAGE, "run", "%s is an IORING_OP_BPF op: its ring is an IORING_SETUP_BPF ring; --ring-flags, --sq-entries and --cq-entries are for loop programs",
			       a.prog);
		goto out;
	}
	if (ring_opt) {
		ret = run_ring_resolve("run", &a.fo.ring, &ring);
		if (ret)
			goto out;
		run_ring = &ring;
		if (a.broker)
			ring.flags |= IORING_SETUP_R_DISABLED;
	}
	err.msg[0] = '\0';
	run_broker = a.broker;
	if (run_start(rc, &a.pa, loop, &err))
		goto fail;
	/* the workload's view of the ring (run_ring_make() mapped its own) */
	if (!rc->ring.ring_mem) {
		struct io_uring_params p = rc->ring.p;

		ret = ring_init_fd(&rc->ring, rc->ring.fd, &p);
		if (ret) {
			iouring_bpf_errorf(&err, IOURING_BPF_FAIL, ret,
					   "cannot map the ring: %s",
					   strerror(-ret));
			iouring_bpf_detach_link(rc->h);
			cli_broker_detach();
			goto fail;
		}
	}

	api = iouring_bpf_loop_binding(rc->h);
	rc->mainline = loop && api != IOURING_BPF_LOOP_V3;
	if (!rc->json) {
		printf("run %s (%s, struct %s", rc->prog->name,
		       iouring_bpf_kind_name(iouring_bpf_kind(rc->h)),
		       iouring_bpf_ops_type(rc->h));
		if (!loop)
			printf(", op id %d", iouring_bpf_op_id(rc->h));
		else
			printf(", binding %s", iouring_bpf_loop_api_desc(api));
		printf(")\n");
	}
	if (loop)
		rc_out(rc, "binding", "%s", iouring_bpf_loop_api_key(api));
	if (run_ring) {
		char names[256];

		rc_out(rc, "ring", "%u SQ / %u CQ entries, flags 0x%x (%s)",
		       rc->ring.p.sq_entries, rc->ring.p.cq_entries,
		       rc->ring.p.flags,
		       ring_flags_str(rc->ring.p.flags, names, sizeof(names)));
	}
	if (rc->mainline && w->mainline_note)
		rc_out(rc, "on_mainline", "%s", w->mainline_note);
	if (rc->mainline)
		watchdog_arm();
	t0 = now_ns();
	ret = w->run(rc);
	rc_num(rc, "elapsed_us", (now_ns() - t0) / 1000);
	if (rc->mainline) {
		alarm(0);
		rc_check(rc, !watchdog_fired,
			 "no STOP within %d s: the watchdog's SIGALRM ended the wait (mainline's hook has no timeout)",
			 RUN_WATCHDOG_S);
	}
	print_exit_info(rc);
	iouring_bpf_detach_link(rc->h);
	cli_broker_detach();
	if (ret || rc->failed)
		ret = EXIT_FAIL;

	if (rc->json) {
		json_start(&j, stdout);
		json_obj(&j, NULL);
		json_str(&j, "program", rc->prog->name);
		json_str(&j, "struct_ops", iouring_bpf_ops_type(rc->h));
		json_bool(&j, "ok", !ret);
		json_int(&j, "failed_checks", rc->failed);
		json_obj(&j, "results");
		for (i = 0; i < rc->nout; i++)
			(rc->out[i].is_num ? json_num_text : json_str)(&j,
				rc->out[i].key, rc->out[i].val);
		json_end(&j, NULL);
		json_end(&j, NULL);
		putchar('\n');
	} else {
		printf("%s: %s\n", rc->prog->name, ret ? "FAILED" :
		       "ok, all checks passed");
	}
out:
	if (rc->ring.fd >= 0)
		ring_exit(&rc->ring);
	iouring_bpf_close(rc->h);
	setarg_free(&run_set);
	free(rc->priv);
	free(rc);
	return ret;
fail:
	ret = report_error("run", &err);
	goto out;
}
