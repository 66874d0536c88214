/* SPDX-License-Identifier: GPL-2.0 */
/* internal.h - shared by the library's files; not installed */
#ifndef __IOURING_BPF_INTERNAL_H
#define __IOURING_BPF_INTERNAL_H

#include <stdarg.h>
#include <linux/types.h>
#include <bpf/libbpf.h>
#include "iouring-bpf.h"
#include "../../progs/iou_opflags.h"

struct iouring_bpf {
	struct bpf_object	*obj;
	const struct iouring_bpf_prog *prog;	/* NULL for a user's .bpf.o */
	char			name[64];
	enum iouring_bpf_kind	kind;
	struct bpf_map		*ops;		/* the struct_ops map we create */
	struct bpf_map		*ops_v3;	/* loop: struct io_uring_ops */
	struct bpf_map		*ops_ml;	/* loop: struct io_uring_bpf_ops */
	enum iouring_bpf_loop_api api;		/* loop: binding of ops, or NONE */
	struct bpf_link		*link;
	int			op_id;
	int			loaded;
	int			kernel_ok;	/* iouring_bpf_check_kernel() passed */
};

#define iou_fail iouring_bpf_errorf

/* objvar.c: globals by name, struct_ops members by name */
void *objvar_ptr(struct bpf_object *obj, const char *name, size_t *size,
		 const char **sec, int *is_signed);
void *ops_member_ptr(struct bpf_object *obj, struct bpf_map *map,
		     const char *member, size_t *size);
int int_put(void *p, size_t size, int is_signed, long long v);

/* log.c: libbpf's messages */
void iou_log_reset(void);
const char *iou_log(void);
/* the verifier's part of the log, last lines first trimmed to fit */
void iou_log_verifier_tail(char *out, size_t len);
/* the program libbpf says failed to load, and the verifier's reason */
int iou_log_failed_prog(char *out, size_t len);
int iou_log_verifier_reason(char *out, size_t len);

/* features.c */
int iou_kernel_has(const char *name, int kind);

#endif /* __IOURING_BPF_INTERNAL_H */
