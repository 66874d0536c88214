// SPDX-License-Identifier: GPL-2.0
/*
 * list.c - `iouring-bpf list`: the catalogue, with each parameter's default
 * read from the embedded object itself (so it cannot drift from the .bpf.c).
 */
#include <argp.h>
#include <string.h>
#include "cli.h"


static void print_text(const struct iou_prog *p, struct iouring_bpf *h)
{
	long long v;
	int i;

	printf("%-12s %-4s %s\n", p->name, iou_kind_name(p->kind), p->desc);
	printf("%-12s      struct %s, progs/%s", "",
	       p->kind == IOU_KIND_OP ? "uring_bpf_ops" :
	       "io_uring_ops (v3) + io_uring_bpf_ops (mainline 7.1+)", p->file);
	if (p->kind == IOU_KIND_OP && h)
		printf(", op id %d", iouring_bpf_op_id(h));
	printf("\n");
	for (i = 0; i < IOU_MAX_PARAMS && p->params[i].name; i++) {
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

static void print_json(const struct iou_prog *p, struct iouring_bpf *h,
		       int first)
{
	long long v;
	int i;

	printf("%s\n    {\"name\": ", first ? "" : ",");
	json_str(stdout, p->name);
	printf(", \"kind\": \"%s\", \"struct_ops\": %s, \"file\": ",
	       iou_kind_name(p->kind), p->kind == IOU_KIND_OP ?
	       "[\"uring_bpf_ops\"]" :
	       "[\"io_uring_ops\", \"io_uring_bpf_ops\"]");
	json_str(stdout, p->file);
	printf(", \"description\": ");
	json_str(stdout, p->desc);
	if (p->kind == IOU_KIND_OP && h)
		printf(", \"op_id\": %d", iouring_bpf_op_id(h));
	printf(", \"example\": ");
	json_str(stdout, p->example);
	printf(", \"mainline_note\": ");
	if (p->mainline_note)
		json_str(stdout, p->mainline_note);
	else
		printf("null");
	printf(", \"params\": [");
	for (i = 0; i < IOU_MAX_PARAMS && p->params[i].name; i++) {
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
	size_t i;

	json = cli_parse_json_only(argc, argv, "list",
	"List the built-in programs, their parameters (--set KEY=VALUE) and "
	"defaults.");
	if (json)
		printf("{\"programs\": [");
	for (i = 0; i < iou_catalog_len; i++) {
		const struct iou_prog *p = &iou_catalog[i];
		struct iouring_bpf *h = iouring_bpf_open(p->name, &err);

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
