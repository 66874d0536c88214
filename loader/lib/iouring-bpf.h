/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iouring-bpf.h - attach the project's io_uring BPF programs (or your own
 * .bpf.o) from an application. Link with libiouring-bpf.a, libbpf.a,
 * -lelf -lz.
 *
 *	struct iouring_bpf_error err;
 *	const char *params[] = { "batch=8", "max_wait_us=500", NULL };
 *	struct iouring_bpf *h;
 *
 *	h = iouring_bpf_attach(ring_fd, "batch-wait", params, &err);
 *	if (!h)
 *		errx(err.status == IOURING_BPF_NOFEATURE ? 77 : 1, "%s", err.msg);
 *	... io_uring_enter() as usual ...
 *	iouring_bpf_detach(h);
 *
 * Loop programs attach to ring_fd, which must be an io_uring created with
 * IORING_SETUP_SINGLE_ISSUER | DEFER_TASKRUN; one program per ring. The
 * library picks the binding from the running kernel's BTF: v3's struct
 * io_uring_ops (the project's kernel) or mainline's struct
 * io_uring_bpf_ops (Linux 7.1, 7.2+); an object built with progs/
 * iouring_bpf.h carries both maps, and only the kernel's is created. Op programs (struct uring_bpf_ops) register an
 * IORING_OP_BPF op id for every ring created with IORING_SETUP_BPF;
 * ring_fd is ignored (pass -1).
 */
#ifndef __IOURING_BPF_LIB_H
#define __IOURING_BPF_LIB_H

#include <stddef.h>
#include <linux/io_uring.h>

#ifdef __cplusplus
extern "C" {
#endif

/* also the exit codes of the iouring-bpf CLI */
enum iouring_bpf_status {
	IOURING_BPF_OK		= 0,
	IOURING_BPF_FAIL	= 1,	/* something failed: see msg */
	IOURING_BPF_USAGE	= 2,	/* bad argument or parameter */
	IOURING_BPF_NOFEATURE	= 3,	/* this kernel lacks the feature */
	IOURING_BPF_PERM	= 4,	/* not privileged enough */
	IOURING_BPF_REJECTED	= 5,	/* the verifier/kernel refused the program */
};

enum iouring_bpf_kind {
	IOURING_BPF_KIND_OP	= 0,	/* struct uring_bpf_ops */
	IOURING_BPF_KIND_LOOP	= 1,	/* io_uring_ops or io_uring_bpf_ops */
};

/* which loop hook a kernel has, and which binding a program uses */
enum iouring_bpf_loop_api {
	IOURING_BPF_LOOP_NONE	= -1,	/* no loop hook (or none usable) */
	IOURING_BPF_LOOP_V3	= 0,	/* struct io_uring_ops (v3, ours) */
	IOURING_BPF_LOOP_71	= 1,	/* io_uring_bpf_ops, io_ring_ctx * */
	IOURING_BPF_LOOP_72	= 2,	/* io_uring_bpf_ops, iou_ctx * (7.2+) */
};

struct iouring_bpf_error {
	int	status;		/* enum iouring_bpf_status */
	int	err;		/* the errno behind it, if any (positive) */
	char	msg[1024];	/* what went wrong and what to do */
	char	detail[4096];	/* verifier log tail, when REJECTED */
};

struct iouring_bpf;

/* one call: open, set params, set the ring, load, attach. NULL on error. */
struct iouring_bpf *iouring_bpf_attach(int ring_fd, const char *prog,
				       const char *const *params,
				       struct iouring_bpf_error *err);
/* detach (destroys the link) and free */
void iouring_bpf_detach(struct iouring_bpf *h);

/* --- the same in steps ------------------------------------------------ */

/* prog: a catalogue name ("nop-chain") or a path to a .bpf.o */
struct iouring_bpf *iouring_bpf_open(const char *prog,
				     struct iouring_bpf_error *err);
/* "KEY=VALUE": a .rodata variable of the program; before load */
int iouring_bpf_set(struct iouring_bpf *h, const char *kv,
		    struct iouring_bpf_error *err);
int iouring_bpf_set_var(struct iouring_bpf *h, const char *name,
			long long value, struct iouring_bpf_error *err);
/* op programs: the op id to register (0..255) */
int iouring_bpf_set_op_id(struct iouring_bpf *h, int id,
			  struct iouring_bpf_error *err);
/*
 * loop programs: the ring to attach to and its geometry. p may be NULL:
 * the geometry is then derived from /proc/self/fdinfo/<ring_fd> (entries)
 * and assumes no SQ array (IORING_SETUP_NO_SQARRAY); a program that fills
 * SQEs checks that against the ring and stops with an exit error if the
 * ring has an SQ array. Programs that only read the CQ do not care.
 */
int iouring_bpf_set_ring(struct iouring_bpf *h, int ring_fd,
			 const struct io_uring_params *p,
			 struct iouring_bpf_error *err);
int iouring_bpf_load(struct iouring_bpf *h, struct iouring_bpf_error *err);
int iouring_bpf_attach_link(struct iouring_bpf *h,
			    struct iouring_bpf_error *err);
/* pin the link (so it outlives the process); creates the directory */
int iouring_bpf_pin(struct iouring_bpf *h, const char *path,
		    struct iouring_bpf_error *err);
/* detach only (the object stays loaded: counters can still be read) */
void iouring_bpf_unlink(struct iouring_bpf *h);
void iouring_bpf_close(struct iouring_bpf *h);

/* --- what is inside ---------------------------------------------------- */

enum iouring_bpf_kind iouring_bpf_kind(const struct iouring_bpf *h);
const char *iouring_bpf_name(const struct iouring_bpf *h);
int iouring_bpf_op_id(const struct iouring_bpf *h);
/* a global of the program (.rodata/.data/.bss); NULL if none */
void *iouring_bpf_var(const struct iouring_bpf *h, const char *name,
		      size_t *size);
/* an integer global (1, 2, 4 or 8 bytes); -ENOENT if none */
int iouring_bpf_var_int(const struct iouring_bpf *h, const char *name,
			long long *value);
struct bpf_object *iouring_bpf_object(const struct iouring_bpf *h);
struct bpf_link *iouring_bpf_link(const struct iouring_bpf *h);
int iouring_bpf_struct_ops_map_fd(const struct iouring_bpf *h);

/* libbpf messages: 1 = also print them to stderr as they come */
void iouring_bpf_set_verbose(int verbose);

/* fill err (may be NULL); returns -errnum (or -1 when errnum is 0) */
int iouring_bpf_errorf(struct iouring_bpf_error *err, int status, int errnum,
		       const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* 1 if the running kernel's BTF has type `name`, 0 if not, -errno */
int iouring_bpf_kernel_has_type(const char *name);

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

#endif /* __IOURING_BPF_LIB_H */
