/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * iou_exit_info.h - how a program says why it stopped: one header for
 * both sides, as sched_ext's user_exit_info.h is.
 *
 * The BPF side (compiled with clang -target bpf, through iouring_bpf.h)
 * defines one `struct iou_exit_info iou_exit` in .data with
 * IOU_EXIT_INFO_DEFINE() and fills it with IOU_EXIT_DONE() or
 * IOU_EXIT_ERROR() when it stops on purpose; the first reason wins.
 *
 * The user side reads it with iou_exit_info_read(), the one reader: from
 * a handle of the library (iouring_bpf_exit_info() looks the variable up
 * and calls it), or from the bytes of a .data map of a program loaded
 * earlier (`iouring-bpf show`). The layout is fixed (explicit sizes only)
 * so that user space can read it without the skeleton's types.
 */
#ifndef __IOU_EXIT_INFO_H
#define __IOU_EXIT_INFO_H

#define IOU_EXIT_VAR		"iou_exit"
#define IOU_EXIT_MSG_LEN	128

enum iou_exit_kind {
	IOU_EXIT_KIND_NONE	= 0,	/* still running, or never stopped */
	IOU_EXIT_KIND_DONE	= 1,	/* finished the work it was given */
	IOU_EXIT_KIND_ERROR	= 2,	/* gave up: see code and msg */
};

struct iou_exit_info {
	int		kind;		/* enum iou_exit_kind */
	int		code;		/* 0 or a negative errno / CQE res */
	long long	value;		/* one number to explain it (index...) */
	char		msg[IOU_EXIT_MSG_LEN];
};

#ifdef __bpf__

/* Define once per program: the loader reads it by the name "iou_exit". */
#define IOU_EXIT_INFO_DEFINE()						\
	struct iou_exit_info iou_exit SEC(".data")

extern struct iou_exit_info iou_exit;

/*
 * First reason wins; msg must be a string literal (shorter than
 * IOU_EXIT_MSG_LEN): the copy is folded into immediate stores, so no
 * string constant (and no static variable) ends up in the object.
 */
#define __IOU_EXIT(__kind, __code, __value, __msg) ({			\
	_Static_assert(sizeof(__msg) <= IOU_EXIT_MSG_LEN,		\
		       "exit message too long");			\
	if (iou_exit.kind == IOU_EXIT_KIND_NONE) {			\
		__builtin_memcpy(iou_exit.msg, __msg, sizeof(__msg));	\
		iou_exit.code = (__code);				\
		iou_exit.value = (__value);				\
		iou_exit.kind = (__kind);				\
	}								\
})
#define IOU_EXIT_DONE(__value, __msg)					\
	__IOU_EXIT(IOU_EXIT_KIND_DONE, 0, __value, __msg)
#define IOU_EXIT_ERROR(__code, __value, __msg)				\
	__IOU_EXIT(IOU_EXIT_KIND_ERROR, __code, __value, __msg)

#else /* user space */

#include <string.h>

/*
 * The exit info in the size bytes at p (the variable iou_exit of a
 * program's .data) copied into *out, its msg ended: the kind, or -1 if
 * p is not one (NULL, or another size).
 */
static inline int iou_exit_info_read(const void *p, size_t size,
				     struct iou_exit_info *out)
{
	if (!p || size != sizeof(*out))
		return -1;
	memcpy(out, p, sizeof(*out));
	out->msg[IOU_EXIT_MSG_LEN - 1] = '\0';
	return out->kind;
}

/* "none", "done", "error" or "?" */
static inline const char *iou_exit_kind_name(int kind)
{
	static const char *const names[] = { "none", "done", "error" };

	return kind >= 0 && kind <= IOU_EXIT_KIND_ERROR ? names[kind] : "?";
}

#endif /* __bpf__ */

#endif /* __IOU_EXIT_INFO_H */
