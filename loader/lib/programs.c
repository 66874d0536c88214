// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * programs.c - the built-in programs: the catalogue entries of the units
 * in progs/ (progs/NAME/unit.c, each with its embedded object), which
 * the build lists in build/loader/lib/units.c (loader/Makefile). To add
 * a program, add a folder: progs/NAME/prog.bpf.c, unit.c and run.c.
 */
#include <errno.h>
#include <stdio.h>
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

const struct iou_param_range *iou_param_range(const struct iouring_bpf_prog *p,
					      const char *name)
{
	const struct iou_param_range *r;
	int i;

	for (i = 0; p && iou_units[i]; i++) {
		if (iou_units[i] != p)
			continue;
		for (r = iou_unit_ranges[i]; r->name; r++)
			if (!strcmp(r->name, name))
				return r;
		break;
	}
	return NULL;
}

int iouring_bpf_prog_param_range(const struct iouring_bpf_prog *p,
				 const char *name, long long *min,
				 long long *max)
{
	const struct iou_param_range *r = iou_param_range(p, name);

	if (!r)
		return -ENOENT;
	if (min)
		*min = r->min;
	if (max)
		*max = r->max;
	return 0;
}

int iou_param_check(const struct iouring_bpf_prog *p, const char *name,
		    long long v, int is_unsigned,
		    struct iouring_bpf_error *err)
{
	const struct iou_param_range *r = iou_param_range(p, name);
	const struct iouring_bpf_param *par = iouring_bpf_prog_param(p, name);
	int above = is_unsigned && v < 0;	/* a __u64 past LLONG_MAX */
	char shown[32];

	if (!r || (!above && v >= r->min && v <= r->max))
		return 0;
	snprintf(shown, sizeof(shown), is_unsigned ? "%llu" : "%lld", v);
	return iou_fail_see(err, IOURING_BPF_SEE_PROGRAMS, IOURING_BPF_USAGE,
			ERANGE, "%s: %s=%s is out of range: %s takes %lld..%lld (%s)",
			p->name, name, shown, name, r->min, r->max,
			par && par->help ? par->help : "its parameter");
}

int iouring_bpf_prog_param_check(const struct iouring_bpf_prog *p,
				 const char *name, long long value,
				 struct iouring_bpf_error *err)
{
	if (!p || !iouring_bpf_prog_param(p, name))
		return iou_fail_see(err, IOURING_BPF_SEE_PROGRAMS,
				IOURING_BPF_USAGE, ENOENT,
				"%s has no parameter '%s'",
				p ? p->name : "(no program)", name);
	return iou_param_check(p, name, value, 0, err);
}

const char *iouring_bpf_kind_name(enum iouring_bpf_kind kind)
{
	return kind == IOURING_BPF_KIND_OP ? "op" : "loop";
}
