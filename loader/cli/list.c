// SPDX-License-Identifier: GPL-2.0
/*
 * list.c - `iouring-bpf list`: the built-in programs, with each parameter's default
 * read from the embedded object itself (so it cannot drift from the .bpf.c).
 */
#include <argp.h>
#include <string.h>
#include "cli.h"
#include "../workloads/workload.h"

/* the `run` option that sets parameter name of w, or NULL */
static const char *run_option(const struct workload *w, const char *name)
{
	if (w->count_param && !strcmp(w->count_param, name))
		return "--count";
	if (w->depth_param && !strcmp(w->depth_param, name))
		return "--depth";
	return NULL;
}

/* the kind is read from the object: "?" if it could not be opened */
static const char *kind_name(struct iouring_bpf *h)
{
	return h ? iouring_bpf_kind_name(iouring_bpf_kind(h)) : "?";
}

static int is_op(struct iouring_bpf *h)
{
	return h && iouring_bpf_kind(h) == IOURING_BPF_KIND_OP;
}

static void print_text(const struct iouring_bpf_prog *p,
		       const struct workload *w, struct iouring_bpf *h)
{
	long long v, lo, hi;
	int i;

	printf("%-12s %-4s %s\n", p->name, kind_name(h), w->desc);
	printf("%-12s      struct %s, progs/%s", "",
	       is_op(h) ? "uring_bpf_ops" :
	       "io_uring_ops (v3) + io_uring_bpf_ops (mainline 7.1+)", p->file);
	if (is_op(h))
		printf(", op id %d", iouring_bpf_op_id(h));
	printf("\n");
	for (i = 0; i < IOURING_BPF_MAX_PARAMS && p->params[i].name; i++) {
		const char *opt = run_option(w, p->params[i].name);
		char range[64] = "";

		if (!iouring_bpf_prog_param_range(p, p->params[i].name, &lo,
						  &hi))
			snprintf(range, sizeof(range), " %lld..%lld", lo, hi);
		if (!h || iouring_bpf_var_int(h, p->params[i].name, &v))
			printf("%-12s      %s=?  (not in the object!)  %s%s %s",
			       "", p->params[i].name, p->params[i].type,
			       range, p->params[i].help);
		else
			printf("%-12s      %s=%lld  %s%s %s", "",
			       p->params[i].name, v, p->params[i].type,
			       range, p->params[i].help);
		printf(opt ? " (run: %s)\n" : "\n", opt);
	}
	printf("%-12s      e.g. %s\n", "", w->example);
	if (w->mainline_note)
		printf("%-12s      on mainline: %s\n", "", w->mainline_note);
}

static void print_json(struct json *j, const struct iouring_bpf_prog *p,
		       const struct workload *w, struct iouring_bpf *h)
{
	long long v, lo, hi;
	int i;

	json_break(j, "\n    ");
	json_obj(j, NULL);
	json_str(j, "name", p->name);
	json_str(j, "kind", kind_name(h));
	json_arr(j, "struct_ops");
	json_str(j, NULL, is_op(h) ? "uring_bpf_ops" : "io_uring_ops");
	if (!is_op(h))
		json_str(j, NULL, "io_uring_bpf_ops");
	json_end(j, NULL);
	json_str(j, "file", p->file);
	json_str(j, "description", w->desc);
	if (is_op(h))
		json_int(j, "op_id", iouring_bpf_op_id(h));
	json_str(j, "example", w->example);
	json_str(j, "mainline_note", w->mainline_note);
	json_arr(j, "params");
	for (i = 0; i < IOURING_BPF_MAX_PARAMS && p->params[i].name; i++) {
		json_obj(j, NULL);
		json_str(j, "name", p->params[i].name);
		if (!h || iouring_bpf_var_int(h, p->params[i].name, &v))
			json_str(j, "default", NULL);
		else
			json_int(j, "default", v);
		json_str(j, "type", p->params[i].type);
		if (!iouring_bpf_prog_param_range(p, p->params[i].name, &lo,
						  &hi)) {
			json_int(j, "min", lo);
			json_int(j, "max", hi);
		}
		json_str(j, "help", p->params[i].help);
		/* the option of `run` that sets it, if any */
		json_str(j, "run_option", run_option(w, p->params[i].name));
		json_end(j, NULL);
	}
	json_end(j, NULL);
	json_end(j, NULL);
}

int cmd_list(int argc, char **argv)
{
	const struct unit_workload *u;
	struct iouring_bpf_error err;
	struct json j;
	int json;

	json = cli_parse_json_only(argc, argv, "list",
	"List the built-in programs, their parameters (--set KEY=VALUE) and "
	"defaults.");
	json_start(&j, stdout);
	if (json) {
		json_obj(&j, NULL);
		json_arr(&j, "programs");
	}
	/* the CLI's table: each program with its `run` workload */
	for (u = iou_workloads; u->dir; u++) {
		struct iouring_bpf *h = iouring_bpf_open_prog(u->prog, &err);

		if (!h)
			fprintf(stderr, "iouring-bpf list: %s\n", err.msg);
		if (json)
			print_json(&j, u->prog, u->w, h);
		else
			print_text(u->prog, u->w, h);
		iouring_bpf_close(h);
	}
	if (json) {
		json_end(&j, "\n");
		json_end(&j, NULL);
		putchar('\n');
	}
	return EXIT_OK;
}
