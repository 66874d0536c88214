/* SPDX-License-Identifier: GPL-2.0 */
/*
 * catalog.h - the programs the loader knows, with their embedded objects.
 * catalog.c is the one place a program is added.
 */
#ifndef __IOURING_BPF_CATALOG_H
#define __IOURING_BPF_CATALOG_H

#include <stddef.h>

enum iou_kind {
	IOU_KIND_OP,		/* struct uring_bpf_ops: an IORING_OP_BPF op */
	IOU_KIND_LOOP,		/* the loop hook: io_uring_ops or io_uring_bpf_ops */
};

#define IOU_MAX_PARAMS	8

struct iou_param {
	const char	*name;	/* a `const volatile` variable in .rodata; its
				 * default is read from the object itself */
	const char	*help;
};

struct run_ctx;

struct iou_prog {
	const char	*name;		/* CLI name, e.g. "nop-chain" */
	const char	*file;		/* source in progs/, e.g. "nop_chain.bpf.c" */
	enum iou_kind	kind;
	const char	*desc;		/* one line */
	const void	*(*elf)(size_t *sz);	/* the embedded object */
	const char	*count_param;	/* what --count sets (NULL: workload) */
	const char	*depth_param;	/* what --depth sets (NULL: unused) */
	const char	*example;	/* an `iouring-bpf run` line */
	/* what differs on mainline's hook (Linux 7.1+); NULL: nothing */
	const char	*mainline_note;
	struct iou_param params[IOU_MAX_PARAMS];
	/* built-in workload for `run`; NULL outside the CLI (weak) */
	int		(*setup)(struct run_ctx *rc);	/* before load */
	int		(*workload)(struct run_ctx *rc);	/* after attach */
};

extern const struct iou_prog iou_catalog[];
extern const size_t iou_catalog_len;

const struct iou_prog *catalog_find(const char *name);
const struct iou_param *catalog_param(const struct iou_prog *p,
				      const char *name);
const char *iou_kind_name(enum iou_kind kind);

#endif /* __IOURING_BPF_CATALOG_H */
