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
	struct io_uring_params	ring;		/* loop: the ring's, once set */
	int			have_ring;
	unsigned long long	geo_filled;	/* iou_geo_names[] filled */
	/* resources made by --set (setvar.c), freed by close */
#define IOU_MAX_RES	8
	int			res_fds[IOU_MAX_RES];
	int			nres_fds;
	struct {
		void	*addr;
		size_t	len;
	}			bufs[IOU_MAX_RES];
	int			nbufs;
};

#define iou_fail iouring_bpf_errorf

/* objvar.c: globals by name, struct_ops members by name */
struct objvar {
	const char		*name;
	const char		*sec;		/* ".rodata", ".data", ".bss" */
	struct bpf_map		*map;
	void			*ptr;		/* image before load, map after */
	size_t			size;
	const struct btf	*btf;
	const struct btf_type	*type;		/* without typedefs, modifiers */
	__u32			type_id;
};
int objvar_find(struct bpf_object *obj, const char *name, struct objvar *out);
const struct btf_type *objvar_resolve(const struct btf *btf, __u32 id,
				      __u32 *idp);
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

/* geometry.c: the ring globals a loop program declares */
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

/* ringinfo.c: a ring given by fd */
int iou_ring_fd_check(int fd, struct iouring_bpf_error *err);
int iou_ring_params_check(int fd, const struct io_uring_params *p,
			  struct iouring_bpf_error *err);
int iou_ring_params(int fd, struct io_uring_params *p,
		    struct iouring_bpf_error *err);

/* setvar.c */
void iou_res_free(struct iouring_bpf *h);

/* features.c */
int iou_kernel_has(const char *name, int kind);

#endif /* __IOURING_BPF_INTERNAL_H */
