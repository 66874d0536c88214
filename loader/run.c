// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - `iouring-bpf run PROG`: make a suitable ring, load and attach the
 * program, drive its built-in workload (run_op.c / run_loop.c), check the
 * results, print them, detach. Self-contained: nothing stays behind.
 */
#include <argp.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "run.h"
#include "../progs/iou_exit_info.h"

struct run_args {
	const char	*prog;
	long long	count, depth;
	int		json;
	struct prog_args pa;		/* --set, --id */
};

static const struct argp_option options[] = {
	{ "count", 'c', "N", 0, "Requests to run (per program: see list)", 0 },
	{ "depth", 'd', "D", 0, "Requests in flight (programs that have a depth)", 0 },
	{ "set", 's', "KEY=VALUE", 0, "Set a parameter (repeatable)", 0 },
	{ "id", 'i', "N", 0, "Op programs: the op id to use (default: the program's)", 0 },
	{ "json", 'j', NULL, 0, "Print the results as JSON", 0 },
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
		if (parse_ll("run", "--depth", arg, 1, 4096, &a->depth))
			exit(EXIT_USAGE);
		break;
	case 'j':
		a->json = 1;
		break;
	case ARGP_KEY_ARG:
		if (a->prog)
			argp_error(state, "run takes one program");
		a->prog = arg;
		break;
	case ARGP_KEY_END:
		if (!a->prog)
			argp_error(state, "which program? see `iouring-bpf list`");
		break;
	default:
		return prog_args_opt(&a->pa, "run", key, arg, state);
	}
	return 0;
}

static const struct argp argp = {
	options, parse_opt, "PROG",
	"Run a built-in program on a ring of its own: load, attach, drive its "
	"workload, check the results (data compared, counts exact), print "
	"them, detach. Exit 0 if every check passed, 1 if one failed.",
	NULL, NULL, NULL,
};

long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void rc_out(struct run_ctx *rc, const char *key, const char *fmt, ...)
{
	va_list ap;
	char val[256];

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	if (!rc->json) {
		printf("  %-22s %s\n", key, val);
		return;
	}
	if (rc->nout == RUN_MAX_OUT)
		return;
	snprintf(rc->out[rc->nout].key, sizeof(rc->out[0].key), "%s", key);
	snprintf(rc->out[rc->nout].val, sizeof(rc->out[0].val), "%s", val);
	rc->out[rc->nout].is_num = 0;
	rc->nout++;
}

void rc_num(struct run_ctx *rc, const char *key, long long v)
{
	rc_out(rc, key, "%lld", v);
	if (rc->json && rc->nout)
		rc->out[rc->nout - 1].is_num = 1;
}

int rc_check(struct run_ctx *rc, int cond, const char *fmt, ...)
{
	va_list ap;

	if (cond)
		return 1;
	rc->failed++;
	fprintf(stderr, "FAIL: %s: ", rc->prog->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 0;
}

long long rc_var(struct run_ctx *rc, const char *name)
{
	long long v;

	if (iouring_bpf_var_int(rc->h, name, &v)) {
		fprintf(stderr, "iouring-bpf run: %s has no global '%s' (catalogue and program out of step)\n",
			rc->prog->name, name);
		exit(EXIT_FAIL);
	}
	return v;
}

void rc_vars(struct run_ctx *rc, ...)
{
	const char *name;
	va_list ap;

	va_start(ap, rc);
	while ((name = va_arg(ap, const char *)))
		rc_num(rc, name, rc_var(rc, name));
	va_end(ap);
}

int rc_check_var(struct run_ctx *rc, const char *name, long long want)
{
	long long v = rc_var(rc, name);

	return rc_check(rc, v == want, "%s %lld, want %lld", name, v, want);
}

long long rc_count(struct run_ctx *rc, long long def)
{
	return rc->count >= 0 ? rc->count : def;
}

int rc_set(struct run_ctx *rc, const char *name, long long v)
{
	struct iouring_bpf_error err;

	if (iouring_bpf_set_var(rc->h, name, v, &err)) {
		fprintf(stderr, "iouring-bpf run: %s\n", err.msg);
		return -1;
	}
	return 0;
}

__u32 rc_opf(struct run_ctx *rc, __u32 buf1, __u32 buf2, __u32 flags)
{
	return iou_bpf_op_flags(iouring_bpf_op_id(rc->h), buf1, buf2, flags);
}

int rc_reap(struct run_ctx *rc, struct io_uring_cqe *cqes, unsigned int n)
{
	struct io_uring_cqe c;
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = ring_wait_cqe(&rc->ring, &c);
		if (ret) {
			fprintf(stderr, "iouring-bpf run: io_uring_enter: %s\n",
				strerror(-ret));
			return ret;
		}
		if (cqes)
			cqes[i] = c;
	}
	return 0;
}

static void print_exit_info(struct run_ctx *rc)
{
	static const char *const kinds[] = { "none", "done", "error" };
	struct iou_exit_info *ei;
	size_t sz;

	ei = iouring_bpf_var(rc->h, IOU_EXIT_VAR, &sz);
	if (!ei || sz != sizeof(*ei) || ei->kind == IOU_EXIT_KIND_NONE)
		return;
	ei->msg[sizeof(ei->msg) - 1] = '\0';
	rc_out(rc, "exit", "%s code=%d value=%lld: %s",
	       ei->kind <= 2 ? kinds[ei->kind] : "?", ei->code, ei->value,
	       ei->msg);
}

/*
 * Mainline's hook has no timeout: a program that never says STOP would
 * hang the run. A SIGALRM without SA_RESTART ends the wait with -EINTR.
 */
#define RUN_WATCHDOG_S	120
static volatile sig_atomic_t watchdog_fired;

static void watchdog(int sig)
{
	(void)sig;
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

static void print_binding(struct run_ctx *rc)
{
	enum iouring_bpf_loop_api api = iouring_bpf_loop_binding(rc->h);

	if (rc->prog->kind != IOU_KIND_LOOP)
		return;
	rc_out(rc, "binding", "%s", iouring_bpf_loop_api_key(api));
	if (rc->mainline && rc->prog->mainline_note)
		rc_out(rc, "on_mainline", "%s", rc->prog->mainline_note);
}

static int make_ring(struct run_ctx *rc)
{
	unsigned int flags;
	int ret;

	if (rc->prog->kind == IOU_KIND_OP)
		flags = IORING_SETUP_BPF;
	else
		flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
			IORING_SETUP_NO_SQARRAY;
	ret = ring_init(&rc->ring, 64, 256, flags);
	if (!ret)
		return 0;
	if (ret == -EINVAL && rc->prog->kind == IOU_KIND_OP) {
		fprintf(stderr, "iouring-bpf run: this kernel does not accept IORING_SETUP_BPF: it lacks IORING_OP_BPF; boot the project's kernel (iouring-bpf probe)\n");
		return EXIT_NOFEATURE;
	}
	fprintf(stderr, "iouring-bpf run: cannot create the ring: %s\n",
		strerror(-ret));
	return ret == -EPERM ? EXIT_PERM : EXIT_FAIL;
}

int cmd_run(int argc, char **argv)
{
	struct run_args a = { .count = -1, .depth = -1 };
	struct iouring_bpf_error err;
	struct run_ctx *rc;
	long long t0;
	int i, ret;

	argp_parse(&argp, argc, argv, 0, NULL, &a);
	rc = calloc(1, sizeof(*rc));
	if (!rc)
		return EXIT_FAIL;
	rc->ring.fd = -1;
	rc->count = a.count;
	rc->depth = a.depth;
	rc->json = a.json;
	rc->prog = catalog_find(a.prog);
	if (!rc->prog) {
		fprintf(stderr, "iouring-bpf run: no built-in program '%s' (see `iouring-bpf list`; for your own .bpf.o use `iouring-bpf load`)\n",
			a.prog);
		ret = EXIT_USAGE;
		goto out;
	}
	if (!rc->prog->workload) {
		fprintf(stderr, "iouring-bpf run: %s has no workload\n", a.prog);
		ret = EXIT_FAIL;
		goto out;
	}
	if (a.depth >= 0 && !rc->prog->depth_param) {
		fprintf(stderr, "iouring-bpf run: %s has no queue depth: --depth does not apply\n",
			a.prog);
		ret = EXIT_USAGE;
		goto out;
	}
	if (a.pa.have_id && rc->prog->kind != IOU_KIND_OP) {
		fprintf(stderr, "iouring-bpf run: %s is a loop program: --id is for IORING_OP_BPF ops\n",
			a.prog);
		ret = EXIT_USAGE;
		goto out;
	}

	rc->h = iouring_bpf_open(a.prog, &err);
	if (!rc->h) {
		ret = report_error("run", &err);
		goto out;
	}
	if (prog_args_apply(&a.pa, rc->h, &err)) {
		ret = report_error("run", &err);
		goto out;
	}
	/* after --set: --count and --depth win over a --set of the same
	 * parameter */
	if ((rc->prog->count_param && a.count >= 0 &&
	     rc_set(rc, rc->prog->count_param, a.count)) ||
	    (rc->prog->depth_param && a.depth >= 0 &&
	     rc_set(rc, rc->prog->depth_param, a.depth))) {
		ret = EXIT_USAGE;
		goto out;
	}
	/* the plain "kernel lacks it" message before anything else */
	if (prog_kernel_lacks(rc->h, &err)) {
		ret = report_error("run", &err);
		goto out;
	}
	ret = make_ring(rc);
	if (ret)
		goto out;
	if (rc->prog->kind == IOU_KIND_LOOP &&
	    iouring_bpf_set_ring(rc->h, rc->ring.fd, &rc->ring.p, &err)) {
		ret = report_error("run", &err);
		goto out;
	}
	if (rc->prog->setup && rc->prog->setup(rc)) {
		ret = EXIT_FAIL;
		goto out;
	}
	if (iouring_bpf_load(rc->h, &err) ||
	    iouring_bpf_attach_link(rc->h, &err)) {
		ret = report_error("run", &err);
		goto out;
	}

	rc->mainline = rc->prog->kind == IOU_KIND_LOOP &&
		       iouring_bpf_loop_binding(rc->h) != IOURING_BPF_LOOP_V3;
	if (!rc->json) {
		printf("run %s (%s, struct %s", rc->prog->name,
		       iou_kind_name(rc->prog->kind), iouring_bpf_ops_type(rc->h));
		if (rc->prog->kind == IOU_KIND_OP)
			printf(", op id %d", iouring_bpf_op_id(rc->h));
		else
			printf(", binding %s",
			       iouring_bpf_loop_api_desc(iouring_bpf_loop_binding(rc->h)));
		printf(")\n");
	}
	print_binding(rc);
	if (rc->mainline)
		watchdog_arm();
	t0 = now_ns();
	ret = rc->prog->workload(rc);
	rc_num(rc, "elapsed_us", (now_ns() - t0) / 1000);
	if (rc->mainline) {
		alarm(0);
		rc_check(rc, !watchdog_fired,
			 "no STOP within %d s: the watchdog's SIGALRM ended the wait (mainline's hook has no timeout)",
			 RUN_WATCHDOG_S);
	}
	print_exit_info(rc);
	iouring_bpf_unlink(rc->h);
	if (ret || rc->failed)
		ret = EXIT_FAIL;

	if (rc->json) {
		printf("{\"program\": ");
		json_str(stdout, rc->prog->name);
		printf(", \"struct_ops\": ");
		json_str(stdout, iouring_bpf_ops_type(rc->h));
		printf(", \"ok\": %s, \"failed_checks\": %d, \"results\": {",
		       ret ? "false" : "true", rc->failed);
		for (i = 0; i < rc->nout; i++) {
			printf("%s", i ? ", " : "");
			json_str(stdout, rc->out[i].key);
			printf(": ");
			if (rc->out[i].is_num)
				printf("%s", rc->out[i].val);
			else
				json_str(stdout, rc->out[i].val);
		}
		printf("}}\n");
	} else {
		printf("%s: %s\n", rc->prog->name, ret ? "FAILED" :
		       "ok, all checks passed");
	}
out:
	if (rc->ring.fd >= 0)
		ring_exit(&rc->ring);
	iouring_bpf_close(rc->h);
	free(rc->priv);
	free(rc);
	return ret;
}
