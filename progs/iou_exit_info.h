/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * iou_exit_info.h - how a program says why it stopped (both sides).
 *
 * Modelled on sched_ext's user_exit_info.h. A BPF program defines one
 * `struct iou_exit_info iou_exit` in .data (IOU_EXIT_INFO_DEFINE() in
 * iouring_bpf.h) and fills it with IOU_EXIT_DONE()/IOU_EXIT_ERROR() when it
 * stops on purpose. The loader reads the variable by name after the run
 * and prints "exit: <kind> code=<code>: <msg>".
 *
 * The layout is fixed (explicit sizes only) so that user space can read it
 * without the skeleton's types.
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

#endif /* __IOU_EXIT_INFO_H */
