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

#include "iouring-bpf.h"
#include IOU_UNIT_SKEL

/* the entry: its source, its embedded object, and the fields given */
#define IOU_UNIT(...)							\
	const struct iouring_bpf_prog IOU_UNIT_SYM = {			\
		.file = IOU_UNIT_DIR "/prog.bpf.c",			\
		.elf = iou_unit__elf_bytes,				\
		__VA_ARGS__						\
	}

#endif /* __IOURING_BPF_UNIT_H */
