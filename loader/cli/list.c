// SPDX-License-Identifier: GPL-2.0
/*
 * list.c - `iouring-bpf list`: the built-in programs, with each parameter's default
 * read from the embedded object itself (so it cannot drift from the .bpf.c).
 */
#include <argp.h>
#include <string.h>
#include "cli.h"


/* the kind is read from the object: "?" if it could not be opened */
static const char *kind_name(struct iouring_bpf *h)
{
	return h ? iouring_bpf_kind_name(iouring_bpf_kind(h)) : "?";
}

static int is_op(struct iouring_bpf *h)
{
	return h && iouring_bpf_kind(h) == IOURING_BPF_KIND_OP;
}

static void print_text(const struct iouring_bpf_prog *p, struct iouring_bpf *h)
{
	long long v;
	int i;

	printf("%-12s %-4s %s\n", p->name, kind_name(h), p->desc);
	printf("%-12s      struct %s, progs/%s", "",
	       is_op(h) ? "uring_bpf_ops" :
	       "io_uring_ops (v3) + io_uring_bpf_ops (mainline 7.1+)", p->file);
	if (is_op(h))
		printf(", op id %d", iouring_bpf_op_id(h));
	printf("\n");
	for (i = 0; i < IOURING_BPF_MAX_PARAMS && p->params[i].name; i++) {
		if (!h || iouring_bpf_var_int(h, p->params[i].name, &v))
			printf("%-12s      %s=?  (not in the object!)  %s\n", "",
			       p->params[i].name, p->params[i].help);
		else
			printf("%-12s      %s=%lld  %s\n", "", p->params[i].name,
			       v, p->params[i].help);
	}
	printf("%-12s      e.g. %s\n", "", p->example);
	if (p->mainline_note)
		printf("%-12s      on mainline: %s\n", "", p->mainline_note);
}

static void print_json(const struct iouring_bpf_prog *p, struct iouring_bpf *h,
		       int first)
{
	long long v;
	int i;

	printf("%s\n    {\"name\": ", first ? "" : ",");
	json_str(stdout, p->name);
	printf(", \"kind\": \"%s\", \"struct_ops\": %s, \"file\": ",
	       kind_name(h), is_op(h) ?
	       "[\"uring_bpf_ops\"]" :
	       "[\"io_uring_ops\", \"io_uring_bpf_ops\"]");
	json_str(stdout, p->file);
	printf(", \"description\": ");
	json_str(stdout, p->desc);
	if (is_op(h))
		printf(", \"op_id\": %d", iouring_bpf_op_id(h));
	printf(", \"example\": ");
	json_str(stdout, p->example);
	printf(", \"mainline_note\": ");
	if (p->mainline_note)
		json_str(stdout, p->mainline_note);
	else
		printf("null");
	printf(", \"params\": [");
	for (i = 0; i < IOURING_BPF_MAX_PARAMS && p->params[i].name; i++) {
		printf("%s{\"name\": ", i ? ", " : "");
		json_str(stdout, p->params[i].name);
		if (!h || iouring_bpf_var_int(h, p->params[i].name, &v))
			printf(", \"default\": null, \"help\": ");
		else
			printf(", \"default\": %lld, \"help\": ", v);
		json_str(stdout, p->params[i].help);
		printf("}");
	}
	printf("]}");
}

int cmd_list(int argc, char **argv)
{
	int json;
	struct iouring_bpf_error err;
	int i;

	json = cli_parse_json_only(argc, argv, "list",
	"List the built-in programs, their parameters (--set KEY=VALUE) and "
	"defaults.");
	if (json)
		printf("{\"programs\": [");
	for (i = 0; i < IOURING_BPF_NR_PROGS; i++) {
		const struct iouring_bpf_prog *p = iouring_bpf_prog(i);
		struct iouring_bpf *h = iouring_bpf_open_prog(p, &err);

		if (!h)
			fprintf(stderr, "iouring-bpf list: %s\n", err.msg);
		if (json)
			print_json(p, h, i == 0);
		else
			print_text(p, h);
		iouring_bpf_close(h);
	}
	if (json)
		printf("\n]}\n");
	return EXIT_OK;
}
