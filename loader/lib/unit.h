/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * unit.h - what a built-in program's catalogue entry (progs/NAME/unit.c)
 * is compiled with; not installed. loader/Makefile compiles every
 * progs/NAME/unit.c with IOU_UNIT_DIR ("NAME"), IOU_UNIT_SYM (the entry's
 * symbol) and IOU_UNIT_SKEL (its skeleton, "NAME.skel.h", struct
 * iou_unit), and lists the entries in build/loader/lib/units.c: a new
 * folder is a new program, nothing else to edit.
 */
#ifndef __IOURING_BPF_UNIT_H
#define __IOURING_BPF_UNIT_H

#include <stdint.h>
#include "internal.h"
#include IOU_UNIT_SKEL

/*
 * The entry: its parameters, its source, its embedded object, and the
 * fields given. PARAMS is the unit's one table of parameters, a macro of
 * rows P(NAME, TYPE, MIN, MAX, HELP): each row is a parameter of the
 * catalogue (name, type, help) and its valid range, which every setter
 * checks through iou_param_check() (programs.c): the engine's
 * iouring_bpf_set_var() (objvar.c), and through it the CLI's --set
 * (cli/setarg.c), its options (--count, --depth) and the bench's start;
 * the library's iouring_bpf_obj_set_global():
 *
 *	#define PARAMS(P) \
 *		P("depth", "__u32", 1, 4096, "NOPs in flight at most")
 *	IOU_UNIT(PARAMS, .name = "nop-chain", ...);
 */
#define IOU_CAT_(a, b)		a##b
#define IOU_CAT(a, b)		IOU_CAT_(a, b)
#define IOU_PARAM_ROW(n, t, lo, hi, h)	{ n, t, h },
#define IOU_RANGE_ROW(n, t, lo, hi, h)	{ n, lo, hi },
#define IOU_UNIT(PARAMS, ...)						\
	const struct iou_param_range IOU_CAT(IOU_UNIT_SYM, _ranges)[] = {	\
		PARAMS(IOU_RANGE_ROW)					\
		{ NULL, 0, 0 }						\
	};								\
	const struct iouring_bpf_prog IOU_UNIT_SYM = {			\
		.file = IOU_UNIT_DIR "/prog.bpf.c",			\
		.elf = iou_unit__elf_bytes,				\
		.params = { PARAMS(IOU_PARAM_ROW) },			\
		__VA_ARGS__						\
	}
/* a unit without parameters */
#define IOU_NO_PARAMS(P)

#endif /* __IOURING_BPF_UNIT_H */
