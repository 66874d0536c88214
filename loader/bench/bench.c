// SPDX-License-Identifier: GPL-2.0
/*
 * bench.c - `iouring-bpf bench SCENARIO [--runs R] [--count N] [--output FILE]`
 *
 * Runs the scenarios (nops.c, ...) on the running kernel, prints a table per
 * scenario on stdout (median, min and max over the runs) and, with --json
 * (the document on stdout, the tables on stderr) or --output FILE, every value of every run with what produced it: kernel, CPUs, clock
 * source, the timing mode and the QEMU settings (given by `make bench` in
 * IOURING_BPF_BENCH_TIMING and IOURING_BPF_BENCH_QEMU).
 *
 * Absolute figures depend on the machine and, under QEMU TCG, on the host's
 * load; only the ratios measured within one run are meant to be compared.
 */
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "bench.h"

#define TRACE_MARKER	"/sys/kernel/tracing/trace_marker"
#define TRACING_ON	"/sys/kernel/tracing/tracing_on"

enum { NEED_OP = 1, NEED_LOOP = 2 };

static const struct {
	const char	*name;
	const char	*title;
	int		(*fn)(struct bench_scn *s);
	int		needs;
} scenarios[] = {
	{ "nops", "NOPs one per enter, 2-NOP links, the nop-chain loop program, batches of 32",
	  bench_nops, NEED_LOOP },
	{ "op-overhead", "IORING_OP_BPF `nop` op vs IORING_OP_NOP, 32 per io_uring_enter",
	  bench_op_overhead, NEED_OP },
	{ "memcpy", "the `memcpy` op (plain, fixed buffer) vs user-space memcpy and a write/read pair",
	  bench_memcpy, NEED_OP },
	{ "wait", "waiting for a stream of timed completions: min_events, min_wait_usec, batch-wait, hybrid-poll",
	  bench_wait, NEED_LOOP },
	{ "load", "open, load, attach, detach and close each program of the catalogue",
	  bench_load, NEED_OP | NEED_LOOP },
};
#define NSCN	(sizeof(scenarios) / sizeof(scenarios[0]))

struct bench_args {
	const char	*scenario;
	long long	runs, count;
	int		have_count;
	const char	*output;
	int		trace_marks;
	const char	*alt_prog;
	const char	*alt_sets[9];
	int		nalt_sets;
};

static int trace_marks_fd = -1, tracing_on_fd = -1;

/* --prog has no short option: -p is --pretty */
#define OPT_PROG	0x100

static const struct argp_option options[] = {
	{ "runs", 'R', "R", 0, "Runs of every mode, interleaved (default 5)", 0 },
	{ "count", 'c', "N", 0, "Work per mode and run (see the scenarios below)", 0 },
	{ "output", 'o', "FILE", 0, "Write every run's figures as JSON to FILE (- = stdout, as --json); `--json FILE` still means this", 0 },
	{ "trace-marks", 'T', NULL, 0, "Trace only the timed regions: turn ftrace on (tracing_on) and mark the start and end of each (trace_marker)", 0 },
	{ "prog", OPT_PROG, "PROG|FILE.bpf.o", 0, "Measure another program: nops mode c instead of nop-chain (same globals: nr, depth, completed, steps), op-overhead's op instead of nop (experiments, see bench/experiments)", 0 },
	{ "set", 's', "KEY=VALUE", 0, "A parameter of --prog (repeatable)", 0 },
	{ 0 },
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct bench_args *a = state->input;

	switch (key) {
	case 'R':
		if (parse_ll("bench", "--runs", arg, 1, BENCH_MAX_RUNS, &a->runs))
			exit(EXIT_USAGE);
		break;
	case 'c':
		if (parse_ll("bench", "--count", arg, 1, 1LL << 32, &a->count))
			exit(EXIT_USAGE);
		a->have_count = 1;
		break;
	case 'o':
		a->output = arg;
		break;
	case 'T':
		a->trace_marks = 1;
		break;
	case OPT_PROG:
		a->alt_prog = arg;
		break;
	case 's':
		if (a->nalt_sets == 8)
			cli_usage(state, "at most 8 --set");
		a->alt_sets[a->nalt_sets++] = arg;
		break;
	case ARGP_KEY_ARG:
	case ARGP_KEY_END:
		return cli_one_arg(state, key, arg, &a->scenario, "bench takes one scenario",
				   "which scenario? nops, op-overhead, memcpy, wait, load or all");
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const char bench_doc[] =
"Measure the io_uring BPF features on the running kernel. SCENARIO is one "
"of:\n"
"\n"
"  nops          (a) one NOP per io_uring_enter, (b) a 2-NOP link per enter,\n"
"                (c) the nop-chain loop program at depth 1 in one enter,\n"
"                (d) NOPs in batches of 32; requests/s and the ratios c/a,\n"
"                c/b, c/d. --count: NOPs per mode and run (200000)\n"
"  op-overhead   IORING_OP_BPF `nop` op vs IORING_OP_NOP, 32 per enter:\n"
"                ns per request and their ratio. --count: requests (500000)\n"
"  memcpy        the `memcpy` op with a plain and a fixed buffer vs\n"
"                user-space memcpy() and a pwrite/pread pair on a memfd,\n"
"                4 KiB .. 1 MiB. --count: MiB per mode and size (64)\n"
"  wait          a stream of CQEs 100 us apart (IORING_OP_MSG_RING from a\n"
"                second thread), waited for with min_complete 1,\n"
"                min_complete 8, min_complete 8 + min_wait_usec, batch-wait\n"
"                and hybrid-poll: wake-ups per 1000 completions, added\n"
"                latency. --count: completions (2000)\n"
"  load          open, load, attach, detach, close of every program\n"
"  all           all of them, in this order (--count does not apply)\n"
"\n"
"--prog FILE.bpf.o [--set K=V]... measures another program in place of\n"
"nop-chain (nops) or nop (op-overhead): see bench/experiments/.\n"
"\n"
"--json (-j): the JSON document on stdout, the tables on stderr; --output\n"
"FILE (-o): the document to FILE. `--json FILE`, the older spelling,\n"
"still writes to FILE.\n"
"\n"
"Every mode runs R times, interleaved with the other modes of the scenario;\n"
"the table shows median, min and max over the runs, ratios are computed\n"
"within a run. Absolute figures are never comparable across machines or\n"
"runs (under QEMU TCG not even across boots); ratios are.\n"
"\n"
"Exit codes: 0 done (whether targets are met or not), 1 a check failed\n"
"(a request failed, a count is off), 2 usage error, 3 this kernel lacks the\n"
"feature (boot the project's kernel: `make bench` does), 4 not privileged.";

static const struct argp argp = {
	options, parse_opt, "SCENARIO", bench_doc, cli_common, NULL, NULL,
};

static int is_scenario(const char *w)
{
	size_t i;

	for (i = 0; i < NSCN; i++)
		if (!strcmp(w, scenarios[i].name))
			return 1;
	return !strcmp(w, "all");
}

/*
 * `--json FILE`, the old spelling of --output FILE, into args (a copy of
 * argv): --json followed by a word that is not an option and not the
 * scenario (or the scenario is also given elsewhere) names the file.
 */
static void old_json_file(int argc, char **argv, char **args)
{
	int i, scn = 0;

	for (i = 0; i < argc; i++) {
		args[i] = argv[i];
		scn += i && argv[i][0] != '-' && is_scenario(argv[i]);
	}
	args[argc] = NULL;
	for (i = 1; i + 1 < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (strcmp(argv[i], "--json") || argv[i + 1][0] == '-' ||
		    (is_scenario(argv[i + 1]) && scn < 2))
			continue;
		args[i++] = "--output";
	}
}

void bench_mark(const struct bench_scn *s, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	if (!s->trace_marks || trace_marks_fd < 0)
		return;
	n = snprintf(buf, sizeof(buf), "bench %s: ", s->name);
	va_start(ap, fmt);
	n += vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	if (write(trace_marks_fd, buf, n) < 0)
		trace_marks_fd = -1;
}

static void tracing(const struct bench_scn *s, int on)
{
	if (!s->trace_marks || tracing_on_fd < 0)
		return;
	if (pwrite(tracing_on_fd, on ? "1" : "0", 1, 0) != 1)
		tracing_on_fd = -1;
	/*
	 * Give a trace_pipe reader time to drain the buffer: loading a BPF
	 * program (nops mode c) resets it.
	 */
	if (!on)
		usleep(300000);
}

long long bench_t0(struct bench_scn *s)
{
	tracing(s, 1);
	bench_mark(s, "begin %s", s->cur);
	return now_ns();
}

long long bench_t1(struct bench_scn *s, long long t0)
{
	long long t = now_ns() - t0;

	bench_mark(s, "end %s", s->cur);
	tracing(s, 0);
	return t;
}

const char *bench_ring_flags(unsigned int flags)
{
	static char buf[200];
	static const struct { unsigned int f; const char *n; } names[] = {
		{ IOU_SETUP_BPF_OP, "BPF" },
		{ IORING_SETUP_SINGLE_ISSUER, "SINGLE_ISSUER" },
		{ IORING_SETUP_DEFER_TASKRUN, "DEFER_TASKRUN" },
		{ IORING_SETUP_NO_SQARRAY, "NO_SQARRAY" },
		{ IORING_SETUP_CQSIZE, "CQSIZE" },
	};
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((flags | IORING_SETUP_CQSIZE) & names[i].f)
			off += snprintf(buf + off, sizeof(buf) - off, "%s%s",
					off ? "|" : "", names[i].n);
	return buf;
}

int bench_enter(struct bench_scn *s, struct ring *r, unsigned int k, int want)
{
	unsigned int i, ready;
	int ret;

	ring_flush(r);
	ret = io_uring_enter_raw(r->fd, k, k, IORING_ENTER_GETEVENTS, NULL, 0);
	if (ret != (int)k) {
		bench_fail(s, "io_uring_enter(%u, %u): %d (%s)", k, k, ret,
			   ret < 0 ? strerror(-ret) : "short submit");
		return -1;
	}
	/* exactly k CQEs, ready now, each with res want */
	ready = ring_cq_ready(r);
	if (ready < k) {
		bench_fail(s, "%u CQEs ready, want %u", ready, k);
		return -1;
	}
	for (i = 0; i < k; i++) {
		struct io_uring_cqe *c = ring_peek_cqe(r);

		if (c->res != want) {
			bench_fail(s, "CQE user_data %llu: res %d, want %d",
				   (unsigned long long)c->user_data, c->res,
				   want);
			ring_cq_advance(r, k - i);
			return -1;
		}
		ring_cq_advance(r, 1);
	}
	return 0;
}

long long bench_batches(struct bench_scn *s, struct ring *r, long long n,
			unsigned int batch, __u32 opf)
{
	long long t0 = bench_t0(s);
	unsigned int k;

	for (long long done = 0; done < n; done += k) {
		k = n - done < batch ? n - done : batch;
		for (unsigned int i = 0; i < k; i++) {
			struct io_uring_sqe *sqe = ring_get_sqe(r);

			if (opf)
				ring_prep_bpf(sqe, opf, 0, 0, 0, 0, 0,
					      done + i);
			else
				ring_prep_nop(sqe, done + i);
		}
		if (bench_enter(s, r, k, 0))
			return -1;
	}
	return bench_t1(s, t0);
}

static int next_op_id = 200;

int bench_free_op_id(void)
{
	return next_op_id;
}

struct iouring_bpf *bench_attach(const char *prog, struct ring *r,
				 const char *const *params, int *status)
{
	struct iouring_bpf_error err;
	struct iouring_bpf *h;
	int tries;

	for (tries = 0; tries < 56; tries++) {
		h = iouring_bpf_open(prog, &err);
		if (!h)
			goto fail;
		if (iouring_bpf_kind(h) == IOURING_BPF_KIND_OP &&
		    iouring_bpf_set_op_id(h, next_op_id, &err))
			goto fail;
		if (!iouring_bpf_start(h, r->fd, &r->p, params, &err))
			return h;
		/* an op id someone else registered: take the next one */
		if (iouring_bpf_kind(h) != IOURING_BPF_KIND_OP ||
		    err.err != EBUSY)
			goto fail;
		iouring_bpf_close(h);
		next_op_id = next_op_id == 255 ? 200 : next_op_id + 1;
	}
	return NULL;
fail:
	*status = report_error("bench", &err);
	iouring_bpf_close(h);
	return NULL;
}

/* --- environment ----------------------------------------------------- */

static void read_line(const char *path, const char *prefix, char *out,
		      size_t len)
{
	char line[4096];
	FILE *f = fopen(path, "r");

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p;

		if (prefix && strncmp(line, prefix, strlen(prefix)))
			continue;
		p = prefix ? strchr(line, ':') : NULL;
		p = p ? p + 1 : line;
		while (*p == ' ' || *p == '\t')
			p++;
		p[strcspn(p, "\n")] = '\0';
		snprintf(out, len, "%s", p);
		break;
	}
	fclose(f);
}

struct bench_env {
	struct utsname	u;
	long		cpus;
	char		cpu_model[128];
	char		cpu_copy_flags[128];	/* erms/fsrm: how the kernel copies */
	char		clocksource[64];
	char		timing[256];
	char		qemu[512];
	char		invoked[256];
	char		started[32];
	int		in_vm;
};

static void get_env(struct bench_env *e)
{
	char flags[4096];
	const char *v;
	time_t now = time(NULL);

	memset(e, 0, sizeof(*e));
	uname(&e->u);
	e->cpus = sysconf(_SC_NPROCESSORS_ONLN);
	read_line("/proc/cpuinfo", "model name", e->cpu_model,
		  sizeof(e->cpu_model));
	read_line("/proc/cpuinfo", "flags", flags, sizeof(flags));
	snprintf(e->cpu_copy_flags, sizeof(e->cpu_copy_flags), "erms %s, fsrm %s, avx2 %s",
		 strstr(flags, " erms") ? "yes" : "no",
		 strstr(flags, " fsrm") ? "yes" : "no",
		 strstr(flags, " avx2") ? "yes" : "no");
	read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		  NULL, e->clocksource, sizeof(e->clocksource));
	e->in_vm = getenv("IOURING_BPF_IN_VM") != NULL;
	v = getenv("IOURING_BPF_BENCH_TIMING");
	snprintf(e->timing, sizeof(e->timing), "%s", v && *v ? v :
		 e->in_vm ? "VM, timing mode not recorded (run it through `make bench`)" :
		 "wall clock, not in a VM");
	v = getenv("IOURING_BPF_BENCH_QEMU");
	snprintf(e->qemu, sizeof(e->qemu), "%s", v && *v ? v : "");
	/* what kernel/vm-run says it used, should it ever pass that on */
	v = getenv("IOURING_BPF_VM_QEMU");
	if (v && *v)
		snprintf(e->qemu + strlen(e->qemu), sizeof(e->qemu) - strlen(e->qemu),
			 "%svm-run: %s", e->qemu[0] ? "; " : "", v);
	v = getenv("IOURING_BPF_BENCH_INVOKED");
	snprintf(e->invoked, sizeof(e->invoked), "%s", v && *v ? v : "");
	strftime(e->started, sizeof(e->started), "%Y-%m-%dT%H:%M:%SZ",
		 gmtime(&now));
}

static void print_env(const struct bench_env *e, FILE *f, int runs)
{
	fprintf(f, "iouring-bpf bench on kernel %s (%s), %ld CPUs (%s; %s), clock source %s\n",
		e->u.release, e->u.version, e->cpus,
		e->cpu_model[0] ? e->cpu_model : "?", e->cpu_copy_flags,
		e->clocksource[0] ? e->clocksource : "?");
	fprintf(f, "timing: %s\n", e->timing);
	if (e->qemu[0])
		fprintf(f, "qemu: %s\n", e->qemu);
	if (e->invoked[0])
		fprintf(f, "invoked by: %s\n", e->invoked);
	fprintf(f, "runs: %d per mode, interleaved; started %s\n\n", runs,
		e->started);
}

/* the document's head, up to the opening of "scenarios" */
static void json_env(const struct bench_env *e, struct json *j, int argc,
		     char **argv, int runs)
{
	char cmd[1024];
	size_t off = 0;

	cmd[0] = '\0';
	for (int i = 0; i < argc; i++)
		off += snprintf(cmd + off, off < sizeof(cmd) ? sizeof(cmd) - off : 0,
				"%s%s", i ? " " : "", argv[i]);
	json_obj(j, NULL);
	json_str(j, "tool", "iouring-bpf bench");
	json_str(j, "command", cmd);
	json_break(j, "\n ");
	json_str(j, "kernel", e->u.release);
	json_str(j, "kernel_version", e->u.version);
	json_str(j, "machine", e->u.machine);
	json_break(j, "\n ");
	json_int(j, "cpus", e->cpus);
	json_str(j, "cpu_model", e->cpu_model);
	json_str(j, "cpu_copy_flags", e->cpu_copy_flags);
	json_str(j, "clocksource", e->clocksource);
	json_break(j, "\n ");
	json_bool(j, "in_vm", e->in_vm);
	json_str(j, "timing", e->timing);
	json_str(j, "qemu", e->qemu);
	json_str(j, "invoked_by", e->invoked);
	json_break(j, "\n ");
	json_int(j, "runs", runs);
	json_str(j, "started", e->started);
	json_break(j, "\n ");
	json_arr(j, "scenarios");
}

/* --- the command -------------------------------------------------------- */

/* the library's feature check, for each kind the scenario needs */
static int check_features(int needs)
{
	struct iouring_bpf_error err;

	if (((needs & NEED_OP) &&
	     iouring_bpf_kernel_check(IOURING_BPF_KIND_OP, &err)) ||
	    ((needs & NEED_LOOP) &&
	     iouring_bpf_kernel_check(IOURING_BPF_KIND_LOOP, &err)))
		return cli_fail(EXIT_NOFEATURE, "bench", "%s; benchmarks run on the project's kernel%s",
				err.msg, cli_source_tree() ?
				": `make bench` boots it (or kernel/vm-run -- build/iouring-bpf bench ...)" :
				"");
	return 0;
}

int cmd_bench(int argc, char **argv)
{
	struct bench_args a = { .runs = 5 };
	struct bench_env env;
	FILE *jf = NULL, *tf;
	struct json j;
	int first, last, idx, ret = 0, failed = 0, needs = 0;
	char **args = calloc(argc + 1, sizeof(*args));

	if (!args)
		return cli_fail(EXIT_FAIL, "bench", "out of memory");
	old_json_file(argc, argv, args);
	cli_parse(&argp, argc, args, 0, &a);
	free(args);
	if (cli_json && !a.output)
		a.output = "-";
	if (!strcmp(a.scenario, "all")) {
		if (a.have_count)
			return cli_fail(EXIT_USAGE, "bench", "--count is per scenario; name one (nops, op-overhead, memcpy, wait, load)");
		first = 0;
		last = NSCN - 1;
	} else {
		for (idx = 0; idx < (int)NSCN; idx++)
			if (!strcmp(scenarios[idx].name, a.scenario))
				break;
		if (idx == (int)NSCN)
			return cli_fail(EXIT_USAGE, "bench", "no scenario '%s': nops, op-overhead, memcpy, wait, load or all (see --help)",
					cli_arg(a.scenario));
		first = last = idx;
	}
	if ((a.alt_prog || a.nalt_sets) && strcmp(a.scenario, "nops") &&
	    strcmp(a.scenario, "op-overhead"))
		return cli_fail(EXIT_USAGE, "bench", "--prog and --set are for the nops and op-overhead scenarios");
	if (a.nalt_sets && !a.alt_prog)
		return cli_fail(EXIT_USAGE, "bench", "--set is for the program given with --prog");
	if (a.alt_prog && cli_check_prog("bench", a.alt_prog))
		return EXIT_USAGE;

	for (idx = first; idx <= last; idx++)
		needs |= scenarios[idx].needs;
	ret = check_features(needs);
	if (ret)
		return ret;

	if (a.output) {
		jf = strcmp(a.output, "-") ? fopen(a.output, "w") : stdout;
		if (!jf)
			return cli_fail(EXIT_FAIL, "bench",
					"cannot write %s: %s",
					cli_arg(a.output), strerror(errno));
	}
	if (a.trace_marks) {
		trace_marks_fd = open(TRACE_MARKER, O_WRONLY | O_CLOEXEC);
		tracing_on_fd = open(TRACING_ON, O_WRONLY | O_CLOEXEC);
		if (trace_marks_fd < 0 || tracing_on_fd < 0)
			fprintf(stderr, "iouring-bpf bench: %s: %s (no trace marks)\n",
				TRACE_MARKER, strerror(errno));
		else if (pwrite(tracing_on_fd, "0", 1, 0) != 1)
			tracing_on_fd = -1;
	}

	get_env(&env);
	/* --json, -o -: the JSON alone on stdout, the tables on stderr */
	tf = jf == stdout ? stderr : stdout;
	print_env(&env, tf, a.runs);
	fflush(tf);
	if (jf) {
		json_start(&j, jf);
		json_env(&env, &j, argc, argv, a.runs);
	}

	for (idx = first; idx <= last; idx++) {
		struct bench_scn s = {
			.name = scenarios[idx].name,
			.title = scenarios[idx].title,
			.runs = a.runs,
			.count = a.have_count ? a.count : -1,
			.trace_marks = a.trace_marks,
			.alt_prog = a.alt_prog,
		};
		long long t0 = now_ns();

		memcpy(s.alt_sets, a.alt_sets, sizeof(s.alt_sets));
		fprintf(stderr, "bench: %s: %lld run(s) of each mode ...\n",
			s.name, a.runs);
		ret = scenarios[idx].fn(&s);
		bench_eval_targets(&s);
		bench_param(&s, "elapsed", "%.1f s", (now_ns() - t0) / 1e9);
		if (!ret || s.nmetrics) {
			bench_print_table(&s, tf);
			fflush(tf);
			if (jf) {
				json_break(&j, "\n  ");
				bench_print_json(&s, &j);
			}
		}
		failed += s.failed;
		bench_free(&s);
		if (ret)
			break;
	}
	if (jf) {
		json_end(&j, "\n ");
		json_end(&j, NULL);
		fputc('\n', jf);
		if (jf != stdout && fclose(jf))
			ret = cli_fail(ret ? ret : EXIT_FAIL, "bench",
				       "writing %s: %s", cli_arg(a.output),
				       strerror(errno));
	}
	if (trace_marks_fd >= 0)
		close(trace_marks_fd);
	if (tracing_on_fd >= 0)
		close(tracing_on_fd);
	if (!ret && failed)
		ret = EXIT_FAIL;
	return ret;
}
