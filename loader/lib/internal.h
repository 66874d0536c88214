/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* internal.h - shared by the library's files; not installed */
#ifndef __IOURING_BPF_INTERNAL_H
#define __IOURING_BPF_INTERNAL_H

#include <stdarg.h>
#include <linux/types.h>
#include <bpf/libbpf.h>
#include "engine.h"
#include "iouring-bpf/iou_opflags.h"

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
	struct io_uring_params	ring;		/* loop: the ring's, once set */
	int			have_ring;
	unsigned long long	geo_filled;	/* iou_geo_names[] filled */
	/* the verifier's log (attach.c), from open to the end of load */
	char			*obj_log;
	char			*prog_log;
};

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#define iou_fail iouring_bpf_errorf
/* iou_fail() with where a tool shows more (enum iouring_bpf_see) */
#define iou_fail_see(err, where, ...)					\
	({								\
		struct iouring_bpf_error *__e = (err);			\
		int __r = iou_fail(__e, __VA_ARGS__);			\
									\
		if (__e)						\
			__e->see = (where);				\
		__r;							\
	})

/* attach.c: the pieces of the engine the 2.0 API (api.c) shares */
int iou_find_ops(struct iouring_bpf *h, struct iouring_bpf_error *err);
int iou_load_failed(struct iouring_bpf *h, int ret,
		    struct iouring_bpf_error *err);
int iou_attach_failed(struct iouring_bpf *h, int ret,
		      struct iouring_bpf_error *err);

/*
 * objvar.c: globals by name, struct_ops members by name; the ring an
 * object is bound to (iouring_bpf_set_ring()) and its binding (iou_api)
 */
int iou_set_api_var(struct iouring_bpf *h, struct iouring_bpf_error *err);
int objvar_find(struct bpf_object *obj, const char *name,
		struct iouring_bpf_global *out);
const struct btf_type *objvar_resolve(const struct btf *btf, __u32 id,
				      __u32 *idp);
void *objvar_ptr(struct bpf_object *obj, const char *name, size_t *size,
		 const char **sec, int *is_signed);
void *ops_member_ptr(struct bpf_object *obj, struct bpf_map *map,
		     const char *member, size_t *size);

/* log.c: libbpf's messages, the verifier's log read */
#define IOU_VLOG_SIZE	(64 * 1024)	/* per program, and the object's */
int iou_verbose(void);
/* libbpf's print callback routed to the application's (once) */
void iou_libbpf_route(void);
/* a message to the application's print callback */
void iou_log(enum iouring_bpf_print_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* the end of a verifier's log trimmed to fit, and the line saying why */
void iou_log_verifier_tail(const char *log, char *out, size_t len);
int iou_log_verifier_reason(const char *log, char *out, size_t len);

/* objvar.c: the ring globals a loop program declares */
struct iou_geo_name {
	const char	*name;
	int		src;
};
extern const struct iou_geo_name iou_geo_names[];
int iou_geo_fill(struct iouring_bpf *h, const struct io_uring_params *p,
		 struct iouring_bpf_error *err);
int iou_geo_is_filled(const struct iouring_bpf *h, const char *name);
int iou_geo_known(const char *name);
int iou_geo_zero_rodata(struct iouring_bpf *h, char *out, size_t len);
/*
 * IORING_SETUP_SQ_REWIND (mainline 7.0+); the same bit is IORING_SETUP_BPF
 * on the project's kernel: iou_ring_is_rewind() tells them apart
 */
#define IOU_SETUP_SQ_REWIND_ML	(1U << 20)
int iou_ring_is_rewind(const struct iouring_bpf *h,
		       const struct io_uring_params *p);

/* ringinfo.c: a ring given by fd */
int iou_ring_fd_check(int fd, struct iouring_bpf_error *err);
int iou_ring_params_check(int fd, const struct io_uring_params *p,
			  struct iouring_bpf_error *err);
int iou_ring_params(int fd, struct io_uring_params *p,
		    struct iouring_bpf_error *err);

/*
 * a built-in parameter's valid range (progs/NAME/unit.c's PARAMS table,
 * unit.h); the units' tables are listed in iou_unit_ranges[], in the
 * order of iou_units[] (build/loader/lib/units.c)
 */
struct iou_param_range {
	const char	*name;
	long long	min, max;
};
extern const struct iou_param_range *const iou_unit_ranges[];
const struct iou_param_range *iou_param_range(const struct iouring_bpf_prog *p,
					      const char *name);
/*
 * the one check of a built-in parameter's value (v as the type holds it:
 * is_unsigned for unsigned types); 0 (also for a name without a range),
 * or -ERANGE with err naming the range
 */
int iou_param_check(const struct iouring_bpf_prog *p, const char *name,
		    long long v, int is_unsigned,
		    struct iouring_bpf_error *err);

/* features.c: the kernel's BTF, read once and freed (struct kfacts) */
enum iou_ktype {
	IOU_KTYPE_OP,		/* struct uring_bpf_ops: IORING_OP_BPF */
	IOU_KTYPE_V3,		/* struct io_uring_ops: v3's loop hook */
	IOU_KTYPE_FILTER,	/* struct io_uring_bpf_filter: filters */
	IOU_KTYPE_NR
};

int iou_kernel_has(enum iou_ktype t);
/* the kernel's BTF (the one place it is read), and freed with a trim */
struct btf *iou_kernel_btf_load(int *err);
void iou_kernel_btf_free(struct btf *btf);
/* uname's release, for messages */
const char *iou_kernel_release(void);

#endif /* __IOURING_BPF_INTERNAL_H */
