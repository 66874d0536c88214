// SPDX-License-Identifier: GPL-2.0
/*
 * runfile.c - `iouring-bpf run FILE.bpf.o`: the generic workload of any
 * loop object, ours or written elsewhere. It makes the ring the program
 * was written for (below; --ring-flags, --sq-entries, --cq-entries change
 * it), applies --set, binds the object to the ring (the library fills the
 * ring globals the object declares), loads, attaches and calls
 * io_uring_enter() until the program stops (enter returns >= 0) or the
 * timeout's SIGALRM ends the wait.
 *
 * The default ring is liburing's for the hook: SINGLE_ISSUER |
 * DEFER_TASKRUN | NO_SQARRAY | CQSIZE, and SQ_REWIND where the kernel
 * has it, unless the object declares a global through which it finds the
 * SQ head or tail (then it writes its SQEs at the tail, and an SQ_REWIND
 * ring would never take them).
 *
 * What it reports is what the kernel saw: SQEs consumed (the SQ head; an
 * SQ_REWIND ring keeps none), CQEs posted (the CQ tail), reaped by the
 * program (the CQ head) and left, the program's calls (BPF run stats,
 * where the CLI may enable them), how it stopped (enter's result and the
 * program's exit info), every global, and each --expect. The exit code
 * is the outcome (run --help, "Exit codes"): a run that did nothing, or
 * whose program says it failed, is never a success.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "cli.h"
#include "../workloads/ring.h"
#include "../workloads/workload.h"

static volatile sig_atomic_t timed_out;

static void on_alarm(int sig)
{
	timed_out = 1;
}

/* the globals through which a program finds the SQ head or tail */
static const char *const sq_position_names[] = {
	"sq_head_offset", "sq_tail_offset", "sq_array_offset",
	"iou_sq_head", "iou_sq_tail", "iou_sq_array",
};

#define NR_SQ_POSITION	(sizeof(sq_position_names) / sizeof(sq_position_names[0]))

/* the first SQ position global the object declares, or NULL */
static const char *sq_position_global(struct iouring_bpf *h)
{
	size_t i, sz;

	for (i = 0; i < NR_SQ_POSITION; i++)
		if (iouring_bpf_var(h, sq_position_names[i], &sz))
			return sq_position_names[i];
	return NULL;
}

/* every global of the object's data sections, after the run */
static void globals_after(struct iouring_bpf *h, struct json *j)
{
	static const char *const secs[] = { ".rodata", ".data", ".bss" };
	const struct btf *btf = bpf_object__btf(iouring_bpf_object(h));
	size_t i, size;

	if (j)
		json_obj(j, "globals");
	else
		printf("globals after the run:\n");
	for (i = 0; btf && i < 3; i++) {
		int id = btf__find_by_name_kind(btf, secs[i], BTF_KIND_DATASEC);
		void *data = iouring_bpf_section(h, secs[i], &size);

		if (id < 0 || !data)
			continue;
		print_globals(btf, btf__type_by_id(btf, id), secs[i], data,
			      size, j, 0);
	}
	if (j)
		json_end(j, NULL);
}

/* "sq_entries=64 cq_entries=256 ..." of the ring globals the object has */
static void geometry_line(struct iouring_bpf *h, char *out, size_t len)
{
	static const char *const names[] = {
		"sq_entries", "cq_entries", "cq_head_offset", "cq_tail_offset",
		"cqes_offset", "sq_head_offset", "sq_tail_offset",
		"sq_array_offset", "ring_flags", "iou_sq_entries",
		"iou_cq_entries",
	};
	size_t used = 0, i, sz;
	long long v;

	out[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]) && used < len; i++)
		if (iouring_bpf_var(h, names[i], &sz) &&
		    !iouring_bpf_var_int(h, names[i], &v))
			used += snprintf(out + used, len - used, "%s%s=%lld",
					 used ? " " : "", names[i], v);
	if (!out[0])
		snprintf(out, len, "(none of the names the loader fills)");
}

struct file_ring {
	struct ring		ring;
	struct ring_choice	choice;
	struct setarg_res	set;	/* what --set made: fds, buffers */
};

/*
 * The start, in a straight line: --set, the kernel check, the ring made
 * and bound, load, attach (the @>PATH files made then). 0, or a negative
 * errno with err filled.
 */
static int file_start(struct iouring_bpf *h, struct file_ring *fr,
		      const struct prog_args *pa,
		      struct iouring_bpf_error *err)
{
	struct io_uring_params p;
	int i, ret = 0, fd = -1;

	for (i = 0; i < pa->nsets && !ret; i++)
		ret = setarg_apply(h, &fr->set, pa->sets[i], err);
	if (!ret)
		ret = iouring_bpf_check_kernel(h, err);
	memset(&p, 0, sizeof(p));
	if (!ret)
		ret = run_ring_make(&fr->choice, &fr->ring, &fd, &p, err);
	if (!ret)
		ret = iouring_bpf_set_ring(h, fd, p.sq_entries ? &p : NULL, err);
	if (!ret)
		ret = iouring_bpf_load(h, err);
	if (!ret)
		ret = setarg_attach(h, &fr->set, err);
	return ret;
}

/* --- --expect ----------------------------------------------------------- */

struct expect {
	char		name[64];
	const char	*value;		/* as given */
	int		is_exit;	/* NAME "exit": the exit info's kind */
	long long	want;
	int		held;
	char		got[64];
};

static int expect_parse(struct iouring_bpf *h, const char *path,
			const char *arg, struct expect *e)
{
	const char *eq = strchr(arg, '=');
	unsigned long long u;
	long long v;
	size_t sz;
	char *end;
	int kind;

	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%.*s", (int)(eq - arg), arg);
	e->value = eq + 1;
	if (!strcmp(e->name, "exit")) {
		e->is_exit = 1;
		for (kind = IOU_EXIT_KIND_NONE; kind <= IOU_EXIT_KIND_ERROR; kind++)
			if (!strcmp(e->value, iou_exit_kind_name(kind)))
				break;
		if (kind > IOU_EXIT_KIND_ERROR)
			return cli_fail(EXIT_USAGE, "run", "--expect exit=%s: the exit info's kind is none, done or error",
					cli_arg(e->value));
		if (!iouring_bpf_var(h, IOU_EXIT_VAR, &sz))
			return cli_fail(EXIT_USAGE, "run", "--expect exit=...: %s has no exit info (no global %s, iou_exit_info.h); expect one of its globals instead",
					path, IOU_EXIT_VAR);
		e->want = kind;
		return 0;
	}
	if (!iouring_bpf_var(h, e->name, &sz))
		return cli_fail(EXIT_USAGE, "run", "--expect %s: no global '%s' in %s (`iouring-bpf run %s --json` lists its globals)",
				cli_arg(arg), e->name, path, path);
	if (iouring_bpf_var_int(h, e->name, &v))
		return cli_fail(EXIT_USAGE, "run", "--expect %s: %s is not an integer global (%zu bytes): --expect compares integers",
				cli_arg(arg), e->name, sz);
	errno = 0;
	if (e->value[0] == '-') {
		v = strtoll(e->value, &end, 0);
	} else {
		u = strtoull(e->value, &end, 0);
		v = (long long)u;
	}
	if (errno || end == e->value || *end)
		return cli_fail(EXIT_USAGE, "run", "--expect %s: '%s' is not an integer",
				cli_arg(arg), cli_arg(e->value));
	e->want = v;
	return 0;
}

static void expect_check(struct iouring_bpf *h, struct expect *e)
{
	struct iou_exit_info ei;
	long long v;
	int kind;

	if (e->is_exit) {
		kind = iouring_bpf_exit_info(h, &ei);
		snprintf(e->got, sizeof(e->got), "%s",
			 iou_exit_kind_name(kind < 0 ? 0 : kind));
		e->held = kind == e->want;
		return;
	}
	if (iouring_bpf_var_int(h, e->name, &v)) {
		snprintf(e->got, sizeof(e->got), "(unreadable)");
		return;
	}
	snprintf(e->got, sizeof(e->got), "%lld", v);
	e->held = v == e->want;
}

/* --- what the run did ------------------------------------------------------ */

/* loop_step runs of the object's programs (BPF run stats); -1 unknown */
static long long prog_runs(struct iouring_bpf *h)
{
	struct bpf_program *prog;
	long long n = 0;

	bpf_object__for_each_program(prog, iouring_bpf_object(h)) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		if (bpf_prog_get_info_by_fd(fd, &info, &len))
			return -1;
		n += info.run_cnt;
	}
	return n;
}

/* the bytes of .data and .bss as they were before the run */
struct snapshot {
	void	*data[2];
	size_t	size[2];
};

static const char *const rw_secs[] = { ".data", ".bss" };

static void snapshot_take(struct iouring_bpf *h, struct snapshot *s)
{
	int i;

	for (i = 0; i < 2; i++) {
		void *p = iouring_bpf_section(h, rw_secs[i], &s->size[i]);

		s->data[i] = p ? malloc(s->size[i]) : NULL;
		if (s->data[i])
			memcpy(s->data[i], p, s->size[i]);
	}
}

static void snapshot_free(struct snapshot *s)
{
	free(s->data[0]);
	free(s->data[1]);
}

/* was global name given with --set (NAME=, NAME[I]=, ADDR,NAME=)? */
static int was_set(const struct prog_args *pa, const char *name)
{
	size_t n = strlen(name);
	int i;

	for (i = 0; i < pa->nsets; i++) {
		const char *p = pa->sets[i], *eq = strchr(p, '=');

		while (p && eq && p < eq) {
			if (!strncmp(p, name, n) &&
			    (p[n] == '=' || p[n] == ',' || p[n] == '['))
				return 1;
			p = strchr(p, ',');
			if (p)
				p++;
		}
	}
	return 0;
}

/*
 * the writable globals the run left as they were and --set did not
 * give: the inputs a program may have waited for ("a b c" into out)
 */
static int untouched_globals(struct iouring_bpf *h, const struct snapshot *s,
			     const struct prog_args *pa, char *out, size_t len)
{
	const struct btf *btf = bpf_object__btf(iouring_bpf_object(h));
	size_t used = 0, size;
	int i, n = 0;

	out[0] = '\0';
	for (i = 0; btf && i < 2; i++) {
		int id = btf__find_by_name_kind(btf, rw_secs[i],
						BTF_KIND_DATASEC);
		const void *now = iouring_bpf_section(h, rw_secs[i], &size);
		const struct btf_var_secinfo *vs;
		const struct btf_type *sec;
		int k;

		if (id < 0 || !now || !s->data[i] || size != s->size[i])
			continue;
		sec = btf__type_by_id(btf, id);
		vs = btf_var_secinfos(sec);
		for (k = 0; k < btf_vlen(sec); k++, vs++) {
			const struct btf_type *v = btf__type_by_id(btf, vs->type);
			const char *name = btf__name_by_offset(btf, v->name_off);

			if (!name || !strcmp(name, IOU_EXIT_VAR) ||
			    vs->offset + vs->size > size || was_set(pa, name))
				continue;
			if (memcmp((const char *)now + vs->offset,
				   (const char *)s->data[i] + vs->offset,
				   vs->size))
				continue;
			if (used < len)
				used += snprintf(out + used, len - used, "%s%s",
						 used ? " " : "", name);
			n++;
		}
	}
	return n;
}

struct outcome {
	int		ret, calls, timed_out;
	long long	elapsed_us, runs;
	long long	sqes;			/* -1: not counted */
	unsigned int	posted, reaped, left, overflow;
	int		exit_kind;		/* -ENOENT: no exit info */
	struct iou_exit_info ei;
	int		no_progress;
	char		cause[768], fix[512], untouched[512];
	int		status;
	char		verdict[1024];
};

static void no_progress_why(struct iouring_bpf *h, const struct ring_choice *rc,
			    const struct snapshot *snap,
			    const struct prog_args *pa, struct outcome *o)
{
	const char *pos = sq_position_global(h);
	int rewind = !!(rc->flags & IORING_SETUP_SQ_REWIND);
	size_t cu = 0, fu = 0;

	if (!pos && !rewind) {
		cu += snprintf(o->cause + cu, sizeof(o->cause) - cu,
			       "ring mode: the program declares no SQ position global (sq_tail_offset, iou_sq_tail, ...), so it likely writes its SQEs at index 0 as liburing's do, and this ring has no SQ_REWIND: its submits took none");
		fu += snprintf(o->fix + fu, sizeof(o->fix) - fu, "%s",
			       run_kernel_has_sq_rewind() ?
			       "run it with --ring-flags +sq-rewind" :
			       "run it on Linux 7.1+ (SQ_REWIND; this kernel has none), or write the SQEs at the SQ tail");
	} else if (pos && rewind) {
		cu += snprintf(o->cause + cu, sizeof(o->cause) - cu,
			       "ring mode: the program finds the SQ through %s (it writes SQEs at the tail) and this ring has SQ_REWIND (the kernel takes SQEs from index 0 and ignores the tail)",
			       pos);
		fu += snprintf(o->fix + fu, sizeof(o->fix) - fu,
			       "run it with --ring-flags -sq-rewind");
	}
	/* with the ring mode at fault, globals left at 0 are noise */
	if (!cu && untouched_globals(h, snap, pa, o->untouched,
				     sizeof(o->untouched))) {
		cu += snprintf(o->cause + cu, sizeof(o->cause) - cu,
			       "%sunset globals: not given with --set and unchanged by the run: %s",
			       cu ? "; " : "", o->untouched);
		if (fu < sizeof(o->fix))
			fu += snprintf(o->fix + fu, sizeof(o->fix) - fu,
				       "%sgive the program its inputs with --set NAME=VALUE (fds NAME=@PATH or NAME=@>PATH, buffers ADDR,SIZE=@buf:N)",
				       fu ? "; " : "");
	}
	if (!cu)
		snprintf(o->cause, sizeof(o->cause),
			 "the program submitted nothing before it stopped");
	if (fu < sizeof(o->fix))
		snprintf(o->fix + fu, sizeof(o->fix) - fu,
			 "%sif doing nothing is intended, say so with --expect-cqes 0",
			 fu ? "; or " : "");
}

static void report_json(const char *path, struct iouring_bpf *h,
			const struct io_uring_params *p,
			const struct ring_choice *rc, const char *why,
			const struct outcome *o, const struct expect *ex,
			int nex, long long expect_cqes)
{
	char names[256];
	struct json j;
	int i;

	json_start(&j, stdout);
	json_obj(&j, NULL);
	json_str(&j, "program", path);
	json_str(&j, "kind", "loop");
	json_str(&j, "struct_ops", iouring_bpf_ops_type(h));
	json_str(&j, "binding",
		 iouring_bpf_loop_api_key(iouring_bpf_loop_binding(h)));
	json_bool(&j, "ok", o->status == EXIT_OK);
	json_int(&j, "status", o->status);
	json_str(&j, "verdict", o->verdict);
	json_obj(&j, "ring");
	json_int(&j, "sq_entries", p->sq_entries);
	json_int(&j, "cq_entries", p->cq_entries);
	json_int(&j, "flags", p->flags);
	json_str(&j, "flag_names", ring_flags_str(p->flags, names,
						  sizeof(names)));
	json_str(&j, "chosen_by", rc->explicit_flags ? "--ring-flags" :
		 "default");
	json_str(&j, "why", why);
	json_end(&j, NULL);
	json_int(&j, "enter_ret", o->ret);
	json_str(&j, "enter_error", o->ret < 0 ? strerror(-o->ret) : NULL);
	json_int(&j, "enter_calls", o->calls);
	json_bool(&j, "timed_out", o->timed_out);
	json_str(&j, "stopped", o->timed_out ? "timeout" :
		 o->ret < 0 ? "enter-error" : "program-stop");
	if (o->runs >= 0)
		json_int(&j, "program_calls", o->runs);
	else
		json_num_text(&j, "program_calls", "null");
	json_obj(&j, "kernel");
	if (o->sqes >= 0)
		json_int(&j, "sqes_consumed", o->sqes);
	else
		json_num_text(&j, "sqes_consumed", "null");
	json_int(&j, "cqes_posted", o->posted);
	json_int(&j, "cqes_reaped", o->reaped);
	json_int(&j, "cqes_left", o->left);
	json_int(&j, "cq_overflow", o->overflow);
	json_end(&j, NULL);
	json_int(&j, "cqes_left", o->left);
	if (o->exit_kind >= 0) {
		json_obj(&j, "exit");
		json_str(&j, "kind", iou_exit_kind_name(o->exit_kind));
		json_int(&j, "code", o->ei.code);
		json_int(&j, "value", o->ei.value);
		json_str(&j, "msg", o->ei.msg);
		json_end(&j, NULL);
	} else {
		json_num_text(&j, "exit", "null");
	}
	if (o->no_progress) {
		json_obj(&j, "no_progress");
		json_str(&j, "cause", o->cause);
		json_str(&j, "fix", o->fix);
		json_str(&j, "untouched_globals", o->untouched);
		json_bool(&j, "intended", expect_cqes == 0);
		json_end(&j, NULL);
	} else {
		json_num_text(&j, "no_progress", "null");
	}
	json_arr(&j, "expects");
	for (i = 0; i < nex; i++) {
		json_obj(&j, NULL);
		json_str(&j, "name", ex[i].name);
		json_str(&j, "want", ex[i].value);
		json_str(&j, "got", ex[i].got);
		json_bool(&j, "held", ex[i].held);
		json_end(&j, NULL);
	}
	if (expect_cqes >= 0) {
		char want[32], got[32];

		snprintf(want, sizeof(want), "%lld", expect_cqes);
		snprintf(got, sizeof(got), "%u", o->posted);
		json_obj(&j, NULL);
		json_str(&j, "name", "cqes");
		json_str(&j, "want", want);
		json_str(&j, "got", got);
		json_bool(&j, "held", o->posted == expect_cqes);
		json_end(&j, NULL);
	}
	json_end(&j, NULL);
	json_int(&j, "elapsed_us", o->elapsed_us);
	globals_after(h, &j);
	json_end(&j, NULL);
	putchar('\n');
}

static void report_text(const char *path, struct iouring_bpf *h,
			const struct io_uring_params *p,
			const struct ring_choice *rc, const char *why,
			const char *geo, const struct outcome *o,
			const struct expect *ex, int nex, long long expect_cqes)
{
	char names[256];
	int i;

	printf("run %s (loop, struct %s, binding %s)\n", path,
	       iouring_bpf_ops_type(h),
	       iouring_bpf_loop_api_desc(iouring_bpf_loop_binding(h)));
	printf("  %-24s %u SQ / %u CQ entries, flags 0x%x (%s)\n", "ring",
	       p->sq_entries, p->cq_entries, p->flags,
	       ring_flags_str(p->flags, names, sizeof(names)));
	printf("  %-24s %s: %s\n", "ring chosen by",
	       rc->explicit_flags ? "--ring-flags" : "default", why);
	printf("  %-24s %s\n", "ring globals", geo);
	printf("  %-24s %d%s%s\n", "enter", o->ret,
	       o->ret < 0 ? ": " : " (the program returned STOP)",
	       o->ret < 0 ? strerror(-o->ret) : "");
	printf("  %-24s %d\n", "enter_calls", o->calls);
	if (o->runs >= 0)
		printf("  %-24s %lld\n", "program_calls", o->runs);
	else
		printf("  %-24s %s\n", "program_calls",
		       "not counted (BPF run stats need CAP_SYS_ADMIN)");
	if (o->sqes >= 0)
		printf("  %-24s %lld\n", "sqes_consumed", o->sqes);
	else
		printf("  %-24s %s\n", "sqes_consumed",
		       "not counted (SQ_REWIND: the kernel keeps no SQ head)");
	printf("  %-24s %u\n", "cqes_posted", o->posted);
	printf("  %-24s %u\n", "cqes_reaped", o->reaped);
	printf("  %-24s %u\n", "cqes_left", o->left);
	if (o->overflow)
		printf("  %-24s %u\n", "cq_overflow", o->overflow);
	if (o->exit_kind >= 0)
		printf("  %-24s %s code=%d value=%lld: %s\n", "exit info",
		       iou_exit_kind_name(o->exit_kind), o->ei.code,
		       o->ei.value, o->ei.msg);
	else
		printf("  %-24s %s\n", "exit info",
		       "none (the object has no iou_exit)");
	printf("  %-24s %lld\n", "elapsed_us", o->elapsed_us);
	globals_after(h, NULL);
	for (i = 0; i < nex; i++)
		printf("expect %s=%s: %s (got %s)\n", ex[i].name, ex[i].value,
		       ex[i].held ? "held" : "DID NOT HOLD", ex[i].got);
	if (expect_cqes >= 0)
		printf("expect cqes=%lld: %s (got %u)\n", expect_cqes,
		       o->posted == expect_cqes ? "held" : "DID NOT HOLD",
		       o->posted);
	fflush(stdout);
	if (o->no_progress)
		fprintf(o->status ? stderr : stdout,
			"%s: nothing done: %s.\n  likely cause: %s\n  fix: %s\n",
			path, expect_cqes == 0 ? "as --expect-cqes 0 says" :
			"the program stopped, the kernel consumed no SQE and posted no CQE",
			o->cause, o->fix);
	fprintf(o->status ? stderr : stdout, "%s: %s\n", path, o->verdict);
}

int cmd_run_file(const char *path, const struct prog_args *pa,
		 const struct run_file_opts *fo, int json)
{
	struct file_ring fr = {
		.ring.fd = -1,
		.choice = {
			.flags = IORING_SETUP_SINGLE_ISSUER |
				 IORING_SETUP_DEFER_TASKRUN |
				 IORING_SETUP_NO_SQARRAY | IORING_SETUP_CQSIZE,
			.sq = RC_RING_SQ, .cq = RC_RING_CQ,
		},
	};
	struct expect ex[RUN_MAX_EXPECTS];
	struct snapshot snap = { { NULL } };
	struct io_uring_params p;
	struct iouring_bpf_error err;
	struct outcome *o = NULL;
	struct iouring_bpf *h;
	struct sigaction sa;
	const char *pos;
	char geo[512], why[384];
	size_t sz;
	long long t0, runs0 = -1;
	int i, status, stats_fd = -1, failed_expects = 0;

	h = iouring_bpf_open(path, &err);
	if (!h)
		return report_error("run", &err);
	if (iouring_bpf_kind(h) != IOURING_BPF_KIND_LOOP) {
		status = cli_fail(EXIT_USAGE, "run", "%s is an IORING_OP_BPF op: `run FILE` drives loop programs; register an op with `iouring-bpf load %s --id N`",
				  path, path);
		goto out;
	}
	if (pa->have_id) {
		status = cli_fail(EXIT_USAGE, "run", "%s is a loop program: --id is for IORING_OP_BPF ops",
				  path);
		goto out;
	}

	/* the ring the program was written for, then the options over it */
	pos = sq_position_global(h);
	if (pos)
		snprintf(why, sizeof(why), "no SQ_REWIND: the object declares %s, so it writes its SQEs at the SQ tail",
			 pos);
	else if (!run_kernel_has_sq_rewind())
		snprintf(why, sizeof(why), "no SQ_REWIND: this kernel has none (Linux 7.0+; bit 20 is IORING_SETUP_BPF on the project's kernel)");
	else
		snprintf(why, sizeof(why), "SQ_REWIND: the object declares no SQ position global (SQEs at index 0, as liburing's), and the kernel has it");
	if (!pos && run_kernel_has_sq_rewind())
		fr.choice.flags |= IORING_SETUP_SQ_REWIND;
	status = run_ring_resolve("run", &fo->ring, &fr.choice);
	if (status)
		goto out;
	if (fr.choice.explicit_flags &&
	    (fo->ring.flags[0] == '+' || fo->ring.flags[0] == '-')) {
		char dflt[sizeof(why)];

		snprintf(dflt, sizeof(dflt), "%s", why);
		snprintf(why, sizeof(why), "the default changed by %.40s (the default: %.180s)",
			 fo->ring.flags, dflt);
	} else if (fr.choice.explicit_flags) {
		snprintf(why, sizeof(why), "as given");
	}

	/*
	 * A program that finds the SQ tail through liburing-style globals
	 * and cannot learn the ring's mode (no ring_flags, no iou_sq_rewind)
	 * writes SQEs past index 0 that an SQ_REWIND ring never takes: a
	 * wrong result, not a run. The library judges programs on
	 * progs/iouring_bpf.h (iou_*) itself.
	 */
	if ((fr.choice.flags & IORING_SETUP_SQ_REWIND) && pos &&
	    strncmp(pos, "iou_", 4) && !iouring_bpf_var(h, "ring_flags", &sz) &&
	    !iouring_bpf_var(h, "iou_sq_rewind", &sz)) {
		status = cli_fail(EXIT_USAGE, "run", "%s cannot use an SQ_REWIND ring: it finds the SQ through %s (it writes its SQEs at the tail, which SQ_REWIND ignores) and declares neither ring_flags nor iou_sq_rewind to learn the mode; drop sq-rewind (--ring-flags -sq-rewind)",
				  path, pos);
		goto out;
	}

	for (i = 0; i < fo->nexpects; i++) {
		status = expect_parse(h, path, fo->expects[i], &ex[i]);
		if (status)
			goto out;
	}
	o = calloc(1, sizeof(*o));
	if (!o) {
		status = cli_fail(EXIT_FAIL, "run", "out of memory");
		goto out;
	}

	if (file_start(h, &fr, pa, &err))
		goto fail;
	p = *iouring_bpf_ring_params(h);
	geometry_line(h, geo, sizeof(geo));
	snapshot_take(h, &snap);
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats_fd >= 0)
		runs0 = prog_runs(h);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART: the wait ends */
	sigaction(SIGALRM, &sa, NULL);
	timed_out = 0;
	alarm(fo->timeout_s);
	t0 = now_ns();
	do {
		o->ret = io_uring_enter_raw(fr.ring.fd, 0, 0,
					    IORING_ENTER_GETEVENTS, NULL, 0);
		o->calls++;
	} while (o->ret == -EINTR && !timed_out);
	alarm(0);
	o->elapsed_us = (now_ns() - t0) / 1000;
	o->timed_out = timed_out;
	iouring_bpf_detach_link(h);
	o->runs = -1;
	if (stats_fd >= 0) {
		o->runs = prog_runs(h);
		if (o->runs >= 0 && runs0 >= 0)
			o->runs -= runs0;
		else
			o->runs = -1;
		close(stats_fd);
	}

	/* what the kernel saw */
	o->sqes = -1;
	if (!(p.flags & IORING_SETUP_SQ_REWIND))
		o->sqes = __atomic_load_n(fr.ring.sq_head, __ATOMIC_ACQUIRE);
	o->posted = __atomic_load_n(fr.ring.cq_tail, __ATOMIC_ACQUIRE);
	o->reaped = *fr.ring.cq_head;
	o->left = ring_cq_ready(&fr.ring);
	o->overflow = *(unsigned int *)((char *)fr.ring.ring_mem +
					p.cq_off.overflow);
	o->exit_kind = iouring_bpf_exit_info(h, &o->ei);
	o->no_progress = !o->timed_out && o->ret >= 0 && !o->posted &&
			 o->sqes <= 0;
	if (o->no_progress)
		no_progress_why(h, &fr.choice, &snap, pa, o);
	for (i = 0; i < fo->nexpects; i++) {
		expect_check(h, &ex[i]);
		failed_expects += !ex[i].held;
	}
	if (fo->expect_cqes >= 0 && o->posted != fo->expect_cqes)
		failed_expects++;

	/* the outcome: the first that applies decides */
	if (o->timed_out) {
		o->status = EXIT_FAIL;
		snprintf(o->verdict, sizeof(o->verdict), "FAILED: no STOP within %lld s: the timeout's SIGALRM ended the wait (--timeout S)",
			 fo->timeout_s);
	} else if (o->ret < 0) {
		o->status = EXIT_FAIL;
		snprintf(o->verdict, sizeof(o->verdict), "FAILED: io_uring_enter() failed: %s",
			 strerror(-o->ret));
	} else if (o->exit_kind == IOU_EXIT_KIND_ERROR) {
		o->status = EXIT_FAIL;
		snprintf(o->verdict, sizeof(o->verdict), "FAILED: the program stopped with an error: code=%d value=%lld: %s",
			 o->ei.code, o->ei.value, o->ei.msg);
	} else if (o->no_progress && fo->expect_cqes != 0) {
		o->status = EXIT_NOPROGRESS;
		snprintf(o->verdict, sizeof(o->verdict), "FAILED: nothing done: the program stopped, the kernel consumed no SQE and posted no CQE (exit %d)",
			 EXIT_NOPROGRESS);
	} else if (failed_expects) {
		o->status = EXIT_EXPECT;
		snprintf(o->verdict, sizeof(o->verdict), "FAILED: %d expectation%s did not hold (exit %d)",
			 failed_expects, failed_expects > 1 ? "s" : "",
			 EXIT_EXPECT);
	} else {
		o->status = EXIT_OK;
		snprintf(o->verdict, sizeof(o->verdict), "ok: io_uring_enter() returned after the program stopped%s%s",
			 o->exit_kind == IOU_EXIT_KIND_DONE ? " (exit info: done)" : "",
			 fo->nexpects || fo->expect_cqes >= 0 ?
			 ", every expectation held" : "");
	}
	status = o->status;
	if (json)
		report_json(path, h, &p, &fr.choice, why, o, ex, fo->nexpects,
			    fo->expect_cqes);
	else
		report_text(path, h, &p, &fr.choice, why, geo, o, ex,
			    fo->nexpects, fo->expect_cqes);
	if (status && json)
		fprintf(stderr, "iouring-bpf run: %s: %s\n", path, o->verdict);
	if (status == EXIT_NOPROGRESS && json)
		fprintf(stderr, "  likely cause: %s\n  fix: %s\n", o->cause,
			o->fix);
	goto out;
fail:
	status = report_error("run", &err);
out:
	if (fr.ring.fd >= 0)
		ring_exit(&fr.ring);
	snapshot_free(&snap);
	free(o);
	iouring_bpf_close(h);
	setarg_free(&fr.set);
	return status;
}
