/* SPDX-License-Identifier: GPL-2.0 */
/* pins.h - struct_ops links: the ones `load` pinned, and all in the system */
#ifndef __IOURING_BPF_PINS_H
#define __IOURING_BPF_PINS_H

#include <linux/types.h>

struct link_desc {
	char	pin[256];	/* name under PIN_DIR, "" if not ours */
	__u32	link_id;
	__u32	map_id;
	char	map_name[32];
	char	type[32];	/* uring_bpf_ops, io_uring_ops, or other */
	int	op_id;		/* uring_bpf_ops: the registered id, else -1 */
};

/* the links pinned in PIN_DIR; *n entries, free() the array */
int pins_list(struct link_desc **out, int *n);
/* every struct_ops link of the system (needs CAP_SYS_ADMIN) */
int links_all(struct link_desc **out, int *n);

/*
 * progstate.c: the program's counters and exit info, as text or (j not
 * NULL) as the member "state" of j's current object
 */
struct json;
void print_prog_state(const struct link_desc *d, struct json *j);

#endif /* __IOURING_BPF_PINS_H */
