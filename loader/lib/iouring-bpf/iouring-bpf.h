/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * iouring-bpf/iouring-bpf.h - libiouring-bpf 2: a companion to libbpf for
 * io_uring BPF programs. The application writes the lifecycle on its own
 * skeleton (or on a built-in program's object); the library adds only
 * what libbpf cannot do: choose the loop binding for the running kernel,
 * bind the object to a ring, check the kernel, read the exit info, install
 * filters.
 *
 *	struct io_uring ring;
 *	struct myprog *skel = myprog__open();
 *	struct bpf_link *link;
 *
 *	io_uring_queue_init(64, &ring, IORING_SETUP_SINGLE_ISSUER |
 *					IORING_SETUP_DEFER_TASKRUN);
 *	skel->rodata->nr = 1000;
 *	err = iouring_bpf_obj_bind_ring(skel->obj, ring.ring_fd, NULL);
 *	if (!err)
 *		err = iouring_bpf_obj_load(skel->obj);
 *	link = err ? NULL : iouring_bpf_obj_attach(skel->obj, NULL);
 *	... io_uring_enter(ring.ring_fd, 0, 0, IORING_ENTER_GETEVENTS, NULL);
 *	iouring_bpf_obj_exit_info(skel->obj, &ei);
 *	bpf_link__destroy(link);
 *	myprog__destroy(skel);
 *
 * Conventions (libbpf's): calls return 0 or a negative errno; calls that
 * return a pointer return NULL and set errno. Options structs have a
 * leading `sz` (IOURING_BPF_OPTS() fills it; 0 means the 2.0 layout);
 * every field zero is the default; a larger sz whose unknown tail is not
 * zero is refused with -EINVAL. What went wrong, and what to do about it,
 * goes to the print callback (iouring_bpf_set_print()), never only to
 * errno. No call takes a callback into the caller's lifecycle.
 *
 * The order on an object: open (libbpf, or iouring_bpf_builtin_open()) ->
 * globals (skeleton fields, iouring_bpf_obj_set_global()) -> a loop
 * program: iouring_bpf_obj_bind_ring(); an op program: optionally
 * iouring_bpf_obj_set_op_id() -> iouring_bpf_obj_load() (or the
 * skeleton's __load()) -> iouring_bpf_obj_attach(). A call out of order
 * fails with -EINVAL (-EBUSY when it is too late) and its message names
 * the call that is missing.
 *
 * Ownership: the bpf_object and the bpf_link are the caller's (libbpf's
 * bpf_object__close(), bpf_link__destroy()); ring fds stay the caller's.
 * The library keeps no state of its own per object: everything it needs
 * is in the object.
 *
 * License: LGPL-2.1 OR BSD-2-Clause (this header and loader/lib/); the
 * BPF programs the library carries are GPL-2.0 (README, "License").
 */
#ifndef __IOURING_BPF_IOURING_BPF_H
#define __IOURING_BPF_IOURING_BPF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <linux/types.h>
#include <linux/io_uring.h>
/* the ABI the library shares with the BPF side (installed beside this) */
#include "iou_opflags.h"
#include "iou_exit_info.h"

/* the ring flags the programs need, for headers older than Linux 6.6 */
#ifndef IORING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER	(1U << 12)
#endif
#ifndef IORING_SETUP_DEFER_TASKRUN
#define IORING_SETUP_DEFER_TASKRUN	(1U << 13)
#endif
#ifndef IORING_SETUP_NO_SQARRAY
#define IORING_SETUP_NO_SQARRAY		(1U << 16)
#endif
/*
 * IORING_OP_BPF (the project's kernel): opcode 65, and its ring flag under
 * a name of ours: bit 20 is IORING_SETUP_SQ_REWIND on Linux 7.0+, so ask
 * iouring_bpf_kernel_probe() for op_setup_flag rather than use this.
 */
#define IOU_SETUP_BPF_OP		IOU_SETUP_BPF
#ifndef IORING_OP_BPF
#define IORING_OP_BPF			IOU_OP_BPF
#endif

/* the version of this header; iouring_bpf_version() says the library's */
#define IOURING_BPF_VERSION_MAJOR	2
#define IOURING_BPF_VERSION_MINOR	1
#define IOURING_BPF_VERSION_PATCH	0

/*
 * An options struct, libbpf's LIBBPF_OPTS(): sz set, the rest as given
 * and zero otherwise.
 *	IOURING_BPF_OPTS(iouring_bpf_ring_opts, o, .params = &p);
 */
#define IOURING_BPF_OPTS(TYPE, NAME, ...)				\
	struct TYPE NAME = ({						\
		memset(&NAME, 0, sizeof(struct TYPE));			\
		(struct TYPE){						\
			.sz = sizeof(struct TYPE),			\
			__VA_ARGS__					\
		};							\
	})

struct bpf_object;
struct bpf_object_open_opts;
struct bpf_link;
struct bpf_map;

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The library is built with -fvisibility=hidden; what this header declares
 * is its ABI, versioned in libiouring-bpf.map (node IOURING_BPF_2.0;
 * iouring-bpf/broker.h's call: IOURING_BPF_2.1).
 */
#pragma GCC visibility push(default)

/* "MAJOR.MINOR.PATCH" of the library in use (static storage) */
const char *iouring_bpf_version(void);

/* --- messages ---------------------------------------------------------- */

enum iouring_bpf_print_level {
	IOURING_BPF_WARN,	/* a call failed: what went wrong, what to do */
	IOURING_BPF_INFO,	/* more on a failure: the verifier's log */
	IOURING_BPF_DEBUG,	/* libbpf's own messages ("libbpf: ...") */
};

typedef int (*iouring_bpf_print_fn_t)(enum iouring_bpf_print_level level,
				      const char *fmt, va_list ap);

/*
 * Where messages go; returns the previous callback. The default prints
 * WARN and INFO to stderr as "libiouring-bpf: ..." and drops DEBUG; NULL
 * drops everything. The library routes libbpf's print callback
 * (process-wide) to this one at DEBUG level, from this call or the first
 * library call that uses libbpf on; so libbpf writes nothing to stderr by
 * itself (call this first to cover a skeleton's __open() too).
 */
iouring_bpf_print_fn_t iouring_bpf_set_print(iouring_bpf_print_fn_t fn);

/* --- the kernel -------------------------------------------------------- */

enum iouring_bpf_kind {
	IOURING_BPF_KIND_OP	= 0,	/* struct uring_bpf_ops: IORING_OP_BPF */
	IOURING_BPF_KIND_LOOP	= 1,	/* io_uring_ops or io_uring_bpf_ops */
};

/* which loop hook a kernel has, and which binding an object uses */
enum iouring_bpf_loop_api {
	IOURING_BPF_LOOP_NONE	= -1,	/* no loop hook (or none usable) */
	IOURING_BPF_LOOP_V3	= 0,	/* struct io_uring_ops (v3, ours) */
	IOURING_BPF_LOOP_71	= 1,	/* io_uring_bpf_ops, io_ring_ctx * */
	IOURING_BPF_LOOP_72	= 2,	/* io_uring_bpf_ops, iou_ctx * (7.2+) */
};

struct iouring_bpf_kernel {
	size_t	sz;		/* sizeof(struct iouring_bpf_kernel) */
	int	loop_api;	/* enum iouring_bpf_loop_api */
	int	op;		/* 1: IORING_OP_BPF (struct uring_bpf_ops) */
	__u32	op_setup_flag;	/* the ring flag of IORING_OP_BPF, or 0 */
	int	sq_rewind;	/* 1: IORING_SETUP_SQ_REWIND (mainline 7.0+) */
	int	filters;	/* 1: io_uring filters (Linux 7.2+) */
};

/*
 * What the running kernel has, from its BTF (read once, then freed): out
 * filled up to out->sz. 0, -EINVAL for a NULL out or a bad sz, -ENOENT
 * (and a message) if the kernel has no readable BTF.
 */
int iouring_bpf_kernel_probe(struct iouring_bpf_kernel *out);

/*
 * An io_uring a program of this kind works with: an op program's ring has
 * op_setup_flag (-EOPNOTSUPP where the kernel has no IORING_OP_BPF: no
 * ring is made); a loop program's SINGLE_ISSUER | DEFER_TASKRUN |
 * NO_SQARRAY. p may be NULL (defaults); else zeroed or with cq_entries
 * (adds CQSIZE) and further flags, filled by the kernel. The ring fd (the
 * caller's: to mmap and close), or a negative errno. The ring has no SQ
 * array: map it yourself or with liburing 2.6+ (docs/library.md).
 */
int iouring_bpf_ring_setup(enum iouring_bpf_kind kind, unsigned int entries,
			   struct io_uring_params *p);

/* --- the built-in programs ------------------------------------------- */

/*
 * The programs of progs/ travel inside the library: an application uses
 * them without a BPF toolchain. Their names in turn (NULL: the first;
 * NULL after the last), as `iouring-bpf list` shows them with their
 * parameters.
 */
const char *iouring_bpf_builtin_next(const char *prev);
/*
 * Open the built-in program name ("nop-chain") as libbpf's
 * bpf_object__open_mem() would (opts: libbpf's, may be NULL; its
 * object_name is ignored). NULL and errno ENOENT for an unknown name. Its
 * parameters are .rodata globals: iouring_bpf_obj_set_global() sets them
 * by name, within their ranges.
 */
struct bpf_object *
iouring_bpf_builtin_open(const char *name,
			 const struct bpf_object_open_opts *opts);

/* --- an object ---------------------------------------------------------- */

struct iouring_bpf_obj_info {
	size_t		sz;		/* sizeof(struct iouring_bpf_obj_info) */
	int		kind;		/* enum iouring_bpf_kind */
	int		loop_api;	/* loop: the binding chosen, or NONE */
	int		op_id;		/* op: the id it registers, else -1 */
	int		loaded;		/* 1 after load */
	int		bound;		/* loop: 1 after bind_ring */
	const char	*ops_type;	/* "uring_bpf_ops", "io_uring_ops", ... */
	struct bpf_map	*ops;		/* the struct_ops map that is attached */
};

/*
 * What the object is (its struct_ops maps, read from its BTF): 0, or
 * -EINVAL with a message if it is not an io_uring BPF object (no, or an
 * unknown, struct_ops map). The loop binding is chosen here for the
 * running kernel: of an object with both maps, the other map will not be
 * created.
 */
int iouring_bpf_obj_info(struct bpf_object *obj,
			 struct iouring_bpf_obj_info *info);

/*
 * A global integer (or enum) of .rodata, .data or .bss by name, as the
 * skeleton would write it (for objects without one: a built-in, a .bpf.o
 * file). Before load: any section; after: .data/.bss in the live map
 * (-EBUSY for .rodata). -ENOENT if there is none, -ERANGE if value does
 * not fit it or is outside a built-in parameter's range.
 */
int iouring_bpf_obj_set_global(struct bpf_object *obj, const char *name,
			       long long value);

/*
 * The value of an integer global (1, 2, 4 or 8 bytes) by name: before
 * load the object's image, after load the live map (.data/.bss: the
 * program's counters). 0, -ENOENT if there is none.
 */
int iouring_bpf_obj_get_global(struct bpf_object *obj, const char *name,
			       long long *value);

/* an op program: the op id to register (0..255) instead of its own */
int iouring_bpf_obj_set_op_id(struct bpf_object *obj, int op_id);

struct iouring_bpf_ring_opts {
	size_t	sz;		/* sizeof(struct iouring_bpf_ring_opts) */
	/*
	 * the io_uring_params the ring's setup filled; NULL: the library
	 * reads the layout from the kernel (fdinfo, a BPF iterator for the
	 * setup flags, a probe ring for the offsets)
	 */
	const struct io_uring_params *params;
};

/*
 * Bind a loop program to the ring ring_fd, before load: choose the
 * binding (v3's struct io_uring_ops or mainline's io_uring_bpf_ops, from
 * the kernel's BTF; the program's iou_api global says which), put ring_fd
 * into its struct_ops map, fill the ring globals the object declares
 * (liburing's sq_entries, cq_head_offset, ...; iouring_bpf.h's iou_*),
 * and check that the object can serve the ring's SQ mode (SQ array,
 * NO_SQARRAY, SQ_REWIND) and entry sizes (SQE128, CQE32). opts may be
 * NULL. The fd stays the caller's and must stay open until attach.
 * Errors: -EINVAL (an op program, fd not an io_uring, fd 0, params whose
 * entries are not the ring's), -EOPNOTSUPP (the kernel has no loop hook
 * the object has a map for; a ring mode the object cannot serve), -EBUSY
 * (already loaded).
 */
int iouring_bpf_obj_bind_ring(struct bpf_object *obj, int ring_fd,
			      const struct iouring_bpf_ring_opts *opts);

/*
 * bpf_object__load() after the checks libbpf cannot make: the kernel has
 * the hook, a loop program was bound. A skeleton's __load() works too
 * after bind_ring; this one says more when it fails: -EPERM (not
 * privileged: CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN), -EOPNOTSUPP
 * (the kernel lacks the hook), -EINVAL (out of order: the message names
 * the call; or the verifier refused a program: the message names it and
 * its reason, the end of its log follows at INFO level).
 */
int iouring_bpf_obj_load(struct bpf_object *obj);

struct iouring_bpf_attach_opts {
	size_t		sz;	/* sizeof(struct iouring_bpf_attach_opts) */
	/* pin the link there (bpffs; /sys/fs/bpf mounted if need be) */
	const char	*pin_path;
};

/*
 * Attach: a loop program to the ring it was bound to, an op program as
 * its op id. The link is the caller's: bpf_link__destroy() detaches
 * (unless pinned). NULL and errno: EINVAL (not loaded: the message names
 * the call), EBUSY (the ring has a loop program, the op id is taken),
 * EOPNOTSUPP (the ring lacks SINGLE_ISSUER|DEFER_TASKRUN, or has SQPOLL
 * or IOPOLL), EBADF (the ring fd was closed), EEXIST (pin_path exists).
 */
struct bpf_link *iouring_bpf_obj_attach(struct bpf_object *obj,
					const struct iouring_bpf_attach_opts *opts);

/*
 * Why the program stopped: its iou_exit global (iou_exit_info.h; the BPF
 * side fills it with IOU_EXIT_DONE()/IOU_EXIT_ERROR()) copied into out.
 * The kind (IOU_EXIT_KIND_NONE while it has not said), -ENOENT if the
 * program has none, -EINVAL for NULL arguments.
 */
int iouring_bpf_obj_exit_info(struct bpf_object *obj,
			      struct iou_exit_info *out);

/* --- io_uring filters (Linux 7.2+; docs/filters.md) ------------------- */

struct iouring_bpf_filter_opts {
	size_t		sz;	/* sizeof(struct iouring_bpf_filter_opts) */
	/* the policy's text; NULL: policy is a shipped name or a file */
	const char	*text;
	/* a BTF file to take the request layout from (NULL: the kernel's) */
	const char	*btf;
};

/*
 * Compile a policy (docs/filters.md) and install it on the ring ring_fd
 * (-1: on the calling task, inherited by the rings it creates). policy:
 * a shipped policy's name ("no-network"), a file, or with opts->text the
 * name the text goes by in messages. 0, -EINVAL (the policy: the message
 * names the line), -EOPNOTSUPP (the kernel has no filters), -EPERM.
 */
int iouring_bpf_filter_install(int ring_fd, const char *policy,
			       const struct iouring_bpf_filter_opts *opts);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* __IOURING_BPF_IOURING_BPF_H */
