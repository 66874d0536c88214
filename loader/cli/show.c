// SPDX-License-Identifier: GPL-2.0
/*
 * show.c - `iouring-bpf show`: the io_uring struct_ops attached now, with
 * the pin name for the ones `iouring-bpf load` made.
 */
#include <argp.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* the loop binding a link of this type runs with on this kernel */
static const char *binding_of(const char *type)
{
	if (!strcmp(type, "io_uring_ops"))
		return iouring_bpf_loop_api_key(IOURING_BPF_LOOP_V3);
	if (!strcmp(type, "io_uring_bpf_ops"))
		return iouring_bpf_loop_api_key(iouring_bpf_kernel_loop_api());
	return NULL;
}

int cmd_show(int argc, char **argv)
{
	struct link_desc *all = NULL, *pins = NULL;
	int nall = 0, npins = 0, i, j, shown = 0, json, alive;
	long long pid, fd;
	struct json w;

	json = cli_parse_json_only(argc, argv, "show",
	"Show the io_uring BPF programs attached now: every struct_ops link of "
	"type uring_bpf_ops or io_uring_ops (or mainline io_uring_bpf_ops), "
	"the loop binding it runs with (v3, mainline-7.1, mainline-7.2), "
	"the name it is pinned under in " PIN_DIR " if `load` made it, and "
	"the program's counters and exit info (its .data/.bss globals); for a "
	"loop program `load` attached to a ring, that ring (PID:FD) and whether "
	"it is gone (its owner exited: the pin stays, the program runs no more).");
	if (links_all(&all, &nall) == -EPERM)
		return cli_fail(EXIT_PERM, "show", "not permitted to list BPF links: needs CAP_SYS_ADMIN; run as root");
	pins_list(&pins, &npins);
	/* pin names onto the system's links; pins whose link is gone too */
	for (i = 0; i < npins; i++) {
		for (j = 0; j < nall; j++)
			if (all[j].link_id && all[j].link_id == pins[i].link_id)
				break;
		if (j < nall) {
			memcpy(all[j].pin, pins[i].pin, sizeof(all[j].pin));
			pins[i].pin[0] = '\0';
		}
	}

	json_start(&w, stdout);
	if (json) {
		json_obj(&w, NULL);
		json_arr(&w, "links");
	} else {
		printf("%-24s %6s %6s %-16s %-16s %-12s %s\n", "NAME", "LINK",
		       "MAP", "MAP-NAME", "TYPE", "BINDING", "OP-ID");
	}
	for (i = 0; i < nall + npins; i++) {
		struct link_desc *d = i < nall ? &all[i] : &pins[i - nall];

		if (i >= nall && !d->pin[0])
			continue;
		/* ours: uring_bpf_ops, or a loop type (it has a binding) */
		if (i < nall && strcmp(d->type, "uring_bpf_ops") &&
		    !binding_of(d->type))
			continue;
		if (json) {
			json_break(&w, "\n  ");
			json_obj(&w, NULL);
			json_str(&w, "name", d->pin[0] ? d->pin : NULL);
			json_bool(&w, "pinned", d->pin[0]);
			json_int(&w, "link_id", d->link_id);
			json_int(&w, "map_id", d->map_id);
			json_str(&w, "map_name", d->map_name);
			json_str(&w, "type", d->type);
			if (d->op_id >= 0)
				json_int(&w, "op_id", d->op_id);
			if (binding_of(d->type))
				json_str(&w, "binding", binding_of(d->type));
			alive = d->pin[0] ? pin_owner(d->pin, &pid, &fd) : -1;
			if (alive >= 0) {
				json_obj(&w, "ring");
				json_int(&w, "pid", pid);
				json_int(&w, "fd", fd);
				json_bool(&w, "gone", !alive);
				json_end(&w, NULL);
			}
			if (i < nall)
				print_prog_state(d, &w);
			json_end(&w, NULL);
		} else {
			char opid[16] = "-";

			if (d->op_id >= 0)
				snprintf(opid, sizeof(opid), "%d", d->op_id);
			printf("%-24s %6u %6u %-16s %-16s %-12s %s\n",
			       d->pin[0] ? d->pin : "-", d->link_id, d->map_id,
			       d->map_name, d->type,
			       binding_of(d->type) ? binding_of(d->type) : "-",
			       opid);
			alive = d->pin[0] ? pin_owner(d->pin, &pid, &fd) : -1;
			if (alive >= 0)
				printf("  ring: fd %lld of process %lld%s%s%s\n",
				       fd, pid, alive ? "" :
				       ": GONE (its owner exited or closed it; the program runs no more: iouring-bpf unload ",
				       alive ? "" : d->pin, alive ? "" : ")");
			if (i < nall)
				print_prog_state(d, NULL);
		}
		shown++;
	}
	if (json) {
		json_end(&w, "\n");
		json_end(&w, NULL);
		putchar('\n');
	} else if (!shown) {
		printf("(nothing attached)\n");
	}
	free(all);
	free(pins);
	return EXIT_OK;
}
