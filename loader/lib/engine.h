/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * engine.h - the iouring-bpf CLI's engine: a handle (struct iouring_bpf)
 * that carries an object from open to close (its globals, the op id, the
 * ring, the pin), the catalogue of built-in programs (descriptions,
 * parameters and their ranges), and errors that say what kind of failure
 * they are. What the CLI's options mean is the CLI's (loader/cli): the
 * --set language with its files and buffers (setarg.c), exit codes and
 * hints (out.c); the bench's and tests' one-call start is loader/bench's
 * start.c. None of those is in libiouring-bpf.so.
 *
 * Not installed and not exported: libiouring-bpf 2's ABI is
 * iouring-bpf/iouring-bpf.h; this was 1.x's public header (its calls and
 * their 2.0 replacements: docs/library.md, "From 1.x to 2.0"). The CLI,
 * the bench and the project's tests link it from
 * build/loader/libiouring-bpf-internal.a.
 */
#ifndef __IOURING_BPF_ENGINE_H
#define __IOURING_BPF_ENGINE_H

#include <stddef.h>
#include <linux/io_uring.h>
/*
 * the ABI headers the library shares with the BPF programs (in progs/;
 * links to them here, installed beside this header)
 */
#include "iouring-bpf/iouring-bpf.h"

/*
 * IORING_SETUP_BPF, the flag's name before 1.1 (Ming Lei's v1 name):
 * deprecated. It is defined only where it means one thing: when the
 * io_uring header in use does not define IORING_SETUP_SQ_REWIND (Linux
 * < 7.0 headers, liburing < 2.14) and the application did not define
 * IOURING_BPF_NO_SETUP_BPF; a use warns. With Linux 7.0+ or liburing
 * 2.14+ headers (whichever of <liburing.h> and <linux/io_uring.h> comes
 * first defines LINUX_IO_URING_H), it is not defined: use
 * IOU_SETUP_BPF_OP, or better iouring_bpf_op_setup_flag().
 */
#if !defined(IORING_SETUP_BPF) && !defined(IORING_SETUP_SQ_REWIND) && \
	!defined(IOURING_BPF_NO_SETUP_BPF)
enum {
	iouring_bpf_setup_bpf_deprecated
		__attribute__((deprecated("IORING_SETUP_BPF is bit 20, IORING_SETUP_SQ_REWIND on Linux 7.0+: use iouring_bpf_op_setup_flag() or IOU_SETUP_BPF_OP")))
		= IOU_SETUP_BPF,
};
#define IORING_SETUP_BPF		iouring_bpf_setup_bpf_deprecated
#endif

#ifdef __cplusplus
extern "C" {
#endif


/*
 * what kind of failure: the CLI maps each to its exit code (loader/cli's
 * cli_exit_code(), cli.h), which today has the same numbers
 */
enum iouring_bpf_status {
	IOURING_BPF_OK		= 0,
	IOURING_BPF_FAIL	= 1,	/* something failed: see msg */
	IOURING_BPF_USAGE	= 2,	/* bad argument or parameter */
	IOURING_BPF_NOFEATURE	= 3,	/* this kernel lacks the feature */
	IOURING_BPF_PERM	= 4,	/* not privileged enough */
	IOURING_BPF_REJECTED	= 5,	/* the verifier/kernel refused the program */
};

/* what would fix a failure: for a tool's hint (iouring-bpf names commands) */
enum iouring_bpf_fix {
	IOURING_BPF_FIX_NONE	= 0,	/* the message says it */
	IOURING_BPF_FIX_KERNEL	= 1,	/* another kernel (NOFEATURE) */
	IOURING_BPF_FIX_OBJECT	= 2,	/* the object: another kernel of the
					 * same kind would not help */
};

/*
 * where a tool shows more about a failure: the library's messages name
 * the problem, the CLI names its command (out.c's report_error())
 */
enum iouring_bpf_see {
	IOURING_BPF_SEE_NONE	= 0,
	IOURING_BPF_SEE_KERNEL,		/* what the kernel has and lacks */
	IOURING_BPF_SEE_PROGRAMS,	/* the built-in programs, parameters */
	IOURING_BPF_SEE_LOADED,		/* the programs in the kernel */
	IOURING_BPF_SEE_LOG,		/* libbpf's messages */
	IOURING_BPF_SEE_POLICIES,	/* the shipped filter policies */
	IOURING_BPF_SEE_OPS,		/* a filter layout's opcodes */
	IOURING_BPF_SEE_SANDBOX,	/* a task with no_new_privs */
};

struct iouring_bpf_error {
	int	status;		/* enum iouring_bpf_status */
	int	err;		/* the errno behind it, if any (positive) */
	int	fix;		/* enum iouring_bpf_fix */
	int	see;		/* enum iouring_bpf_see */
	char	msg[1024];	/* what went wrong and what to do */
	char	detail[4096];	/* verifier log tail, when REJECTED */
};

/*
 * Every call that takes a struct iouring_bpf_error *err fills it on failure
 * (err may be NULL) and returns NULL or a negative errno; the status says
 * what kind of failure it is.
 */

/* --- the built-in programs (progs/, embedded in the library) ----------- */

#define IOURING_BPF_MAX_PARAMS	8

struct iouring_bpf_param {
	/* a `const volatile` global in .rodata, its default in the object */
	const char	*name;
	const char	*type;		/* as the program declares it: "__u32" */
	const char	*help;
};

/*
 * A built-in program: one folder progs/NAME/ of the source tree (the BPF
 * program, this entry, its `iouring-bpf run` workload). Its kind (op or
 * loop) is not written here: it is read from the object's BTF when it is
 * opened (iouring_bpf_kind()).
 */
struct iouring_bpf_prog {
	const char	*name;		/* "nop-chain" */
	const char	*file;		/* its source in progs/: "nop_chain/prog.bpf.c" */
	struct iouring_bpf_param params[IOURING_BPF_MAX_PARAMS];
	const void	*(*elf)(size_t *size);	/* the embedded object */
};

/*
 * the built-in programs in turn, as `iouring-bpf list` shows them: the
 * first for NULL, then the one after prev; NULL after the last. Static
 * storage. There is no fixed numbering: look programs up by name.
 */
const struct iouring_bpf_prog *
iouring_bpf_prog_next(const struct iouring_bpf_prog *prev);
/* the program called name; NULL if there is none */
const struct iouring_bpf_prog *iouring_bpf_prog_find(const char *name);
/* p's parameter called name; NULL if p has none */
const struct iouring_bpf_param *
iouring_bpf_prog_param(const struct iouring_bpf_prog *p, const char *name);
/*
 * The valid values of p's parameter name (since 1.1): *min..*max (either
 * pointer may be NULL); 0, or -ENOENT if p has no such parameter. Every
 * path that sets a built-in's parameter (iouring_bpf_set_var(), and
 * through it the CLI's --set and options and the bench's one-call start)
 * refuses a value outside it with USAGE, before anything is loaded.
 */
int iouring_bpf_prog_param_range(const struct iouring_bpf_prog *p,
				 const char *name, long long *min,
				 long long *max);
/* that check alone: 0, or USAGE naming the range (err filled) */
int iouring_bpf_prog_param_check(const struct iouring_bpf_prog *p,
				 const char *name, long long value,
				 struct iouring_bpf_error *err);

/* --- a program, in steps ---------------------------------------------- */

/*
 * prog: a built-in program's name ("nop-chain") or the path of a .bpf.o.
 * Reads the object and its struct_ops maps; loads nothing. USAGE if prog is
 * neither or the object has no usable struct_ops map. Free with
 * iouring_bpf_close().
 */
struct iouring_bpf *iouring_bpf_open(const char *prog,
				     struct iouring_bpf_error *err);
/* the same for a program of the table, without looking its name up */
struct iouring_bpf *iouring_bpf_open_prog(const struct iouring_bpf_prog *p,
					  struct iouring_bpf_error *err);
/* the built-in program h was opened from; NULL for a .bpf.o file */
const struct iouring_bpf_prog *iouring_bpf_builtin(const struct iouring_bpf *h);

/*
 * A program's integer global (1, 2, 4 or 8 bytes, signed or not, bool,
 * enum, pointer) of .rodata, .data or .bss set to value. Before load it
 * goes into libbpf's image (libbpf writes it into the map at load); after
 * load .data/.bss are written in the live map and .rodata refuses (the
 * kernel froze it). A built-in program's parameter is held to its range
 * (iouring_bpf_prog_param_range()). USAGE naming the global and its
 * section if there is none, it is not an integer or value does not fit
 * (nothing is written then). The CLI's --set language (NAME=VALUE,
 * arrays, strings, files and buffers: loader/cli/setarg.c) is built on
 * this and iouring_bpf_global_writable().
 */
int iouring_bpf_set_var(struct iouring_bpf *h, const char *name,
			long long value, struct iouring_bpf_error *err);
/* op programs: the op id to register (0..255); USAGE for a loop program */
int iouring_bpf_set_op_id(struct iouring_bpf *h, int id,
			  struct iouring_bpf_error *err);
/*
 * loop programs: the ring to attach to and its geometry, before load. p:
 * the io_uring_params its io_uring_setup() filled, or NULL: the library
 * then reads the ring's layout from the kernel (entries from
 * /proc/self/fdinfo, setup flags through a BPF iterator: SQ array or not,
 * offsets from a probe ring of the same flags and entries). The geometry
 * fills the ring globals the object declares in .rodata (liburing's
 * names sq_entries, cq_entries, cq_head_offset, cq_tail_offset,
 * cqes_offset; sq_head_offset, sq_tail_offset, sq_array_offset,
 * ring_flags; progs/iouring_bpf.h's iou_*, with iou_sqe_size and
 * iou_cqe_size for SQE128/CQE32 rings, iou_sq_rewind for SQ_REWIND rings:
 * bit 20 counts as SQ_REWIND on a mainline binding only, it is
 * IORING_SETUP_BPF on the project's kernel) and iou_api (the binding
 * chosen at open). The fd stays the caller's.
 * USAGE for an op program, a fd that is not open or not an io_uring (the
 * same status for -1 and for fd 0 on a terminal), p whose entries are not
 * the ring's, a SQE128/CQE32 ring for an object without the size
 * globals, or an SQ_REWIND ring for an object that cannot serve one (it
 * submits the application's SQEs, or lacks iou_sq_rewind). A liburing `struct io_uring`: iouring-bpf/liburing.h.
 */
int iouring_bpf_set_ring(struct iouring_bpf *h, int ring_fd,
			 const struct io_uring_params *p,
			 struct iouring_bpf_error *err);
/* the ring's io_uring_params as set_ring() knew them; NULL before */
const struct io_uring_params *
iouring_bpf_ring_params(const struct iouring_bpf *h);
/*
 * Does the running kernel have what h needs (IORING_OP_BPF, or a loop hook
 * the object has a map for)? 0, or NOFEATURE with a message that names what
 * is missing and what to boot. Reads the kernel's BTF only: loads nothing.
 * iouring_bpf_load() asks it itself if the caller did not.
 */
int iouring_bpf_check_kernel(struct iouring_bpf *h,
			     struct iouring_bpf_error *err);
/* load into the kernel: NOFEATURE, PERM, REJECTED (detail: the verifier) */
int iouring_bpf_load(struct iouring_bpf *h, struct iouring_bpf_error *err);
/* register the op id, or attach to the ring set before (FAIL: busy ...) */
int iouring_bpf_attach_link(struct iouring_bpf *h,
			    struct iouring_bpf_error *err);
/*
 * pin the link (so it outlives the process); creates the directory and
 * mounts bpffs on /sys/fs/bpf if needed
 */
int iouring_bpf_pin(struct iouring_bpf *h, const char *path,
		    struct iouring_bpf_error *err);
/*
 * detach only: the link attach_link() made is destroyed (the program
 * leaves the ring unless the link is pinned); the object stays loaded, so
 * counters can still be read
 */
void iouring_bpf_detach_link(struct iouring_bpf *h);
/* the same, under its 0.x name (it removes no file: not unlink(2)) */
void iouring_bpf_unlink(struct iouring_bpf *h)
	__attribute__((deprecated("use iouring_bpf_detach_link()")));
/* detach, unload and free h; NULL is a no-op */
void iouring_bpf_close(struct iouring_bpf *h);

/* --- rings for the programs ------------------------------------------- */

/*
 * The ring flag of IORING_OP_BPF on the running kernel (since 1.1):
 * IOU_SETUP_BPF_OP where the kernel has IORING_OP_BPF (the project's
 * kernel), 0 on any other, where that bit means something else (Linux
 * 7.0+: IORING_SETUP_SQ_REWIND). The kernel's BTF is read once.
 */
__u32 iouring_bpf_op_setup_flag(void);
/*
 * Create an io_uring that a program of this kind works with: op programs
 * iouring_bpf_op_setup_flag(); loop programs IORING_SETUP_SINGLE_ISSUER |
 * DEFER_TASKRUN | NO_SQARRAY. p: zeroed, or with cq_entries set (adds
 * IORING_SETUP_CQSIZE) and further flags; filled by the kernel. Returns the
 * ring fd (the caller's, to mmap and close), or NOFEATURE if the kernel has
 * no IORING_OP_BPF (no ring is made), PERM, FAIL. A loop ring has no SQ array: map it
 * yourself or with liburing 2.6+ (io_uring_queue_mmap()); older liburing
 * takes its header for the SQ array. Applications on liburing < 2.6 make
 * loop rings with io_uring_queue_init_params() and SINGLE_ISSUER |
 * DEFER_TASKRUN instead (docs/library.md, "liburing rings").
 */
int iou_ring_setup(enum iouring_bpf_kind kind, unsigned int entries,
		   struct io_uring_params *p, struct iouring_bpf_error *err);
/*
 * The op flags word (sqe->rw_flags) of an IORING_OP_BPF request for op
 * program h: its op id, the types of buffer 1 (addr/len) and buffer 2
 * (addr3/optlen), and 18 bits of flags for the program. 0xffffffff (an
 * invalid word: the kernel fails the request) if a field does not fit.
 */
__u32 iouring_bpf_op_flags(const struct iouring_bpf *h, unsigned int buf1,
			   unsigned int buf2, unsigned int flags);

/* --- what is inside ---------------------------------------------------- */

/* op or loop, from the object's struct_ops maps (BTF) */
enum iouring_bpf_kind iouring_bpf_kind(const struct iouring_bpf *h);
/* "op" or "loop" */
const char *iouring_bpf_kind_name(enum iouring_bpf_kind kind);
const char *iouring_bpf_name(const struct iouring_bpf *h);
int iouring_bpf_op_id(const struct iouring_bpf *h);
/*
 * a global of the program (.rodata/.data/.bss); NULL if none. Before load
 * it points into libbpf's image (writable), after load into the map
 * (.rodata read-only); valid until iouring_bpf_close().
 */
void *iouring_bpf_var(const struct iouring_bpf *h, const char *name,
		      size_t *size);
/*
 * a whole data section (".rodata", ".data", ".bss"), for a bpftool
 * skeleton's typed view: skel.bss = iouring_bpf_section(h, ".bss", &sz).
 * NULL if the object has none. Valid as iouring_bpf_var().
 */
void *iouring_bpf_section(const struct iouring_bpf *h, const char *sec,
			  size_t *size);
/*
 * why the program stopped: its iou_exit (iou_exit_info.h, which the BPF
 * side fills with IOU_EXIT_DONE()/IOU_EXIT_ERROR()) copied into *out;
 * the kind (IOU_EXIT_KIND_NONE while it has not said), or -ENOENT if
 * the program has none
 */
int iouring_bpf_exit_info(const struct iouring_bpf *h,
			  struct iou_exit_info *out);
/*
 * the integer of size bytes (1, 2, 4 or 8) at p, signed or not, as a
 * program's global holds it (a section's bytes, a map's value); -EINVAL
 * for another size. The one reader of them: iouring_bpf_var_int() and
 * the CLI's printing of globals use it.
 */
int iouring_bpf_int_get(const void *p, size_t size, int is_signed,
			long long *v);
struct btf;
struct btf_type;
struct bpf_map;
/* the same the other way: v stored if it fits, else -ERANGE (-EINVAL: size) */
int iouring_bpf_int_put(void *p, size_t size, int is_signed, long long v);
/*
 * A global of a program's object, with what a setter needs to write any
 * type: its section, where its bytes are (libbpf's image before load, the
 * map after) and its BTF type (typedefs and modifiers resolved).
 */
struct iouring_bpf_global {
	const char		*name;
	const char		*sec;		/* ".rodata", ".data", ".bss" */
	struct bpf_map		*map;
	void			*ptr;
	size_t			size;
	const struct btf	*btf;
	const struct btf_type	*type;		/* without typedefs, modifiers */
	__u32			type_id;
};

/*
 * h's global name, to be written now: 0 with *out filled, or USAGE with
 * err filled when the object has no such global (its globals named) or
 * it is in .rodata after load (the kernel froze it)
 */
int iouring_bpf_global_writable(const struct iouring_bpf *h, const char *name,
				struct iouring_bpf_global *out,
				struct iouring_bpf_error *err);
/*
 * an integer-like BTF type (int, bool, enum, pointer): its size and
 * signedness; 0, or -1 for any other type
 */
int iouring_bpf_int_type(const struct btf_type *t, size_t *size,
			 int *is_signed, int *is_bool);
/* an integer global (1, 2, 4 or 8 bytes); -ENOENT if none */
int iouring_bpf_var_int(const struct iouring_bpf *h, const char *name,
			long long *value);
struct bpf_object *iouring_bpf_object(const struct iouring_bpf *h);
struct bpf_link *iouring_bpf_link(const struct iouring_bpf *h);
int iouring_bpf_struct_ops_map_fd(const struct iouring_bpf *h);

/* --- programs in the kernel (`iouring-bpf show`, `unload`) ------------- */

struct iouring_bpf_link_info {
	__u32	link_id;
	__u32	map_id;
	__u32	prog_id;	/* the first program of the ops; 0 if unread */
	int	op_id;		/* uring_bpf_ops: the registered id, else -1 */
	char	map_name[16];
	char	type[32];	/* "uring_bpf_ops", "io_uring_ops", ... or "?" */
};

/*
 * What the struct_ops link behind link_fd (bpf_obj_get() of a pin, or
 * bpf_link_get_fd_by_id()) is; the kernel's BTF is read for the type and
 * freed. 0, -EINVAL if it is not a struct_ops link, or -errno.
 */
int iouring_bpf_link_info(int link_fd, struct iouring_bpf_link_info *out);

/*
 * libbpf's messages: installs the library's print callback in libbpf
 * (process-wide: it replaces the application's, if it had set one).
 * verbose 1: libbpf's messages go to stderr, and a program the verifier
 * rejects has its whole log printed there too; 0: libbpf's messages are
 * dropped (the errors in struct iouring_bpf_error remain). Without this
 * call libbpf's print callback stays what the application (or libbpf's
 * default, warnings to stderr) made it.
 */
void iouring_bpf_set_verbose(int verbose);

/* fill err (may be NULL); returns -errnum (or -1 when errnum is 0) */
int iouring_bpf_errorf(struct iouring_bpf_error *err, int status, int errnum,
		       const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* 1 if the running kernel's BTF has type `name`, 0 if not, -errno */
int iouring_bpf_kernel_has_type(const char *name);
/*
 * the same for n names, the kernel's BTF read once: have[i] 1 if it has a
 * struct or a function (a kfunc) called names[i], else 0; 0, or -errno if
 * the kernel has no readable BTF
 */
int iouring_bpf_kernel_has_types(const char *const *names, int n, int *have);
/*
 * Can the running kernel take a program of this kind (IORING_OP_BPF, or a
 * loop hook)? 0, or NOFEATURE with a message naming what is missing and
 * what to boot. The one feature check: iouring_bpf_check_kernel() starts
 * with it, and then asks whether the kernel's hook is one h has a map for.
 */
int iouring_bpf_kernel_check(enum iouring_bpf_kind kind,
			     struct iouring_bpf_error *err);

/* the loop hook of the running kernel, from its BTF */
enum iouring_bpf_loop_api iouring_bpf_kernel_loop_api(void);
/* "v3", "mainline-7.1", "mainline-7.2" or "none": for JSON */
const char *iouring_bpf_loop_api_key(enum iouring_bpf_loop_api api);
/* for people: "v3 struct io_uring_ops", "mainline struct io_uring_bpf_ops
 * (7.2+, struct iou_ctx *)", ... */
const char *iouring_bpf_loop_api_desc(enum iouring_bpf_loop_api api);
/*
 * the binding h is (or will be) loaded with: for a loop program, the
 * kernel's API if the object has a map for it, else IOURING_BPF_LOOP_NONE
 * (iouring_bpf_load then fails with IOURING_BPF_NOFEATURE and says why);
 * IOURING_BPF_LOOP_NONE for op programs
 */
enum iouring_bpf_loop_api iouring_bpf_loop_binding(const struct iouring_bpf *h);
/* the struct_ops type h uses: "uring_bpf_ops", "io_uring_ops" or
 * "io_uring_bpf_ops" */
const char *iouring_bpf_ops_type(const struct iouring_bpf *h);


#ifdef __cplusplus
}
#endif

/* io_uring filters: policies compiled to classic BPF (Linux 7.2+) */
#include "engine-filter.h"

#endif /* __IOURING_BPF_ENGINE_H */
