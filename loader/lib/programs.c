// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * programs.c - the built-in programs: the catalogue entries of the units
 * in progs/ (progs/NAME/unit.c, each with its embedded object), which
 * the build lists in build/loader/lib/units.c (loader/Makefile). To add
 * a program, add a folder: progs/NAME/prog.bpf.c, unit.c and run.c.
 */
#include <string.h>
#include "internal.h"

/* build/loader/lib/units.c: every progs/NAME/unit.c's entry, NULL-ended */
extern const struct iouring_bpf_prog *const iou_units[];

const struct iouring_bpf_prog *
iouring_bpf_prog_next(const struct iouring_bpf_prog *prev)
{
	int i = 0;

	if (prev)
		while (iou_units[i] && iou_units[i++] != prev)
			;
	return iou_units[i];
}

const struct iouring_bpf_prog *iouring_bpf_prog_find(const char *name)
{
	int i;

	for (i = 0; iou_units[i]; i++)
		if (!strcmp(iou_units[i]->name, name))
			return iou_units[i];
	return NULL;
}

const struct iouring_bpf_param *
iouring_bpf_prog_param(const struct iouring_bpf_prog *p, const char *name)
{
	int i;

	for (i = 0; i < IOURING_BPF_MAX_PARAMS && p->params[i].name; i++)
		if (!strcmp(p->params[i].name, name))
			return &p->params[i];
	return NULL;
}

const char *iouring_bpf_kind_name(enum iouring_bpf_kind kind)
{
	return kind == IOURING_BPF_KIND_OP ? "op" : "loop";
}
