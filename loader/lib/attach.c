// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * attach.c - open a program (built-in name or .bpf.o), find its struct_ops
 * maps and choose its binding, load it (with the verifier's log), attach,
 * pin. The ring it is bound to and its globals are objvar.c's, what the
 * kernel has features.c's. Every failure fills iouring_bpf_error with a
 * status (the CLI's exit code), what went wrong and what to do.
 */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <linux/magic.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "internal.h"

#ifndef BPF_F_LINK
#define BPF_F_LINK	(1U << 13)	/* 6.4+; Debian 12's header predates it */
#endif

int iouring_bpf_errorf(struct iouring_bpf_error *err, int status, int errnum,
		       const char *fmt, ...)
{
	va_list ap;

	if (errnum < 0)
		errnum = -errnum;
	if (err) {
		err->status = status;
		err->err = errnum;
		err->fix = status == IOURING_BPF_NOFEATURE ?
			   IOURING_BPF_FIX_KERNEL : IOURING_BPF_FIX_NONE;
		err->see = IOURING_BPF_SEE_NONE;
		err->detail[0] = '\0';
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return errnum ? -errnum : -1;
}

/* a type name without its ___flavour, as libbpf matches it */
static int type_is(const char *name, const char *want)
{
	size_t n = strlen(want);

	return !strncmp(name, want, n) &&
	       (!name[n] || !strncmp(name + n, "___", 3));
}

/*
 * The loop binding: the map for the kernel's loop API if the object has
 * one. The other map is not created (libbpf then does not load programs
 * only it refers to).
 */
static void choose_loop_map(struct iouring_bpf *h)
{
	enum iouring_bpf_loop_api api = iouring_bpf_kernel_loop_api();

	h->api = IOURING_BPF_LOOP_NONE;
	if (api == IOURING_BPF_LOOP_V3 && h->ops_v3) {
		h->ops = h->ops_v3;
		h->api = api;
	} else if (api != IOURING_BPF_LOOP_NONE &&
		   api != IOURING_BPF_LOOP_V3 && h->ops_ml) {
		h->ops = h->ops_ml;
		h->api = api;
	} else {
		/* no match: check_kernel() says why at load */
		h->ops = h->ops_v3 ? h->ops_v3 : h->ops_ml;
	}
	if (h->ops_v3 && h->ops != h->ops_v3)
		bpf_map__set_autocreate(h->ops_v3, false);
	if (h->ops_ml && h->ops != h->ops_ml)
		bpf_map__set_autocreate(h->ops_ml, false);
}

/*
 * The object's struct_ops maps: one struct uring_bpf_ops (an op), or a
 * loop program's struct io_uring_ops (v3) and/or struct io_uring_bpf_ops
 * (mainline), at most one of each.
 */
int iou_find_ops(struct iouring_bpf *h, struct iouring_bpf_error *err)
{
	struct btf *btf = bpf_object__btf(h->obj);
	struct bpf_map *map, *op = NULL;
	int nop = 0, nv3 = 0, nml = 0;

	bpf_object__for_each_map(map, h->obj) {
		const struct btf_type *t;
		const char *tn;

		if (bpf_map__type(map) != BPF_MAP_TYPE_STRUCT_OPS)
			continue;
		t = btf ? btf__type_by_id(btf, bpf_map__btf_value_type_id(map))
			: NULL;
		tn = t ? btf__name_by_offset(btf, t->name_off) : "?";
		if (type_is(tn, "uring_bpf_ops")) {
			op = map;
			nop++;
		} else if (type_is(tn, "io_uring_ops")) {
			h->ops_v3 = map;
			nv3++;
		} else if (type_is(tn, "io_uring_bpf_ops")) {
			h->ops_ml = map;
			nml++;
		} else {
			return iou_fail(err, IOURING_BPF_USAGE, EINVAL,
				"%s: struct_ops map '%s' is a 'struct %s'; this tool loads 'struct uring_bpf_ops', 'struct io_uring_ops' or 'struct io_uring_bpf_ops' only",
				h->name, bpf_map__name(map), tn);
		}
	}
	if (nop == 1 && !nv3 && !nml) {
		h->kind = IOURING_BPF_KIND_OP;
		h->ops = op;
		h->api = IOURING_BPF_LOOP_NONE;
	} else if (!nop && nv3 <= 1 && nml <= 1 && nv3 + nml) {
		h->kind = IOURING_BPF_KIND_LOOP;
		choose_loop_map(h);
	} else {
		return iou_fail(err, IOURING_BPF_USAGE, EINVAL,
			"%s: has %d uring_bpf_ops, %d io_uring_ops and %d io_uring_bpf_ops struct_ops maps; put in one SEC(\".struct_ops.link\") struct uring_bpf_ops, or a loop program's struct io_uring_ops and/or struct io_uring_bpf_ops (IOU_LOOP_OPS() in progs/iouring_bpf.h makes both)",
			h->name, nop, nv3, nml);
	}
	/* pinnable links need BPF_F_LINK (SEC(".struct_ops.link")) */
	if (!(bpf_map__map_flags(h->ops) & BPF_F_LINK))
		bpf_map__set_map_flags(h->ops,
				       bpf_map__map_flags(h->ops) | BPF_F_LINK);
	return 0;
}

static void base_name(const char *path, char *out, size_t len)
{
	const char *b = strrchr(path, '/');

	snprintf(out, len, "%s", b ? b + 1 : path);
	out[strcspn(out, ".")] = '\0';	/* bpffs names may not hold dots */
}

/*
 * The verifier's log goes to buffers of the object, never through
 * libbpf's print callback (process-wide, the application's): the
 * object's own (bpf_object_open_opts.kernel_log_buf: its BTF, and any
 * program without one) and one per program (bpf_program__set_log_buf()),
 * so that the program the verifier refused is the one whose buffer is not
 * empty. With log level 0, libbpf asks the kernel for a log only when a
 * load fails, and retries that load with level 1 into the buffer given;
 * the kernel (6.4+) keeps the end of a log that does not fit, which is
 * where the reason is. The buffers live from open to the end of load.
 *
 * The object's buffer: before bpf_object__open_*()
 */
static int vlog_open(struct iouring_bpf *h, struct bpf_object_open_opts *opts)
{
	h->obj_log = calloc(1, IOU_VLOG_SIZE);
	if (!h->obj_log)
		return -1;
	opts->kernel_log_buf = h->obj_log;
	opts->kernel_log_size = IOU_VLOG_SIZE;
	opts->kernel_log_level = 0;
	return 0;
}

/* one buffer per program: before bpf_object__load() */
static int vlog_prepare(struct iouring_bpf *h)
{
	struct bpf_program *p;
	size_t n = 0, i = 0;

	bpf_object__for_each_program(p, h->obj)
		n++;
	free(h->prog_log);
	/* calloc: zero pages the kernel writes only for a refused program */
	h->prog_log = calloc(n ? n : 1, IOU_VLOG_SIZE);
	if (!h->prog_log)
		return -1;
	bpf_object__for_each_program(p, h->obj) {
		if (bpf_program__set_log_buf(p, h->prog_log + i * IOU_VLOG_SIZE,
					     IOU_VLOG_SIZE))
			return -1;
		i++;
	}
	return 0;
}

/*
 * After a failed load: the log of the refused program (*prog: it), else
 * the object's (*prog NULL: its BTF); NULL if the kernel wrote none.
 */
static const char *vlog_failed(const struct iouring_bpf *h,
			       struct bpf_program **prog)
{
	struct bpf_program *p;
	size_t i = 0;

	*prog = NULL;
	if (h->prog_log) {
		bpf_object__for_each_program(p, h->obj) {
			const char *l = h->prog_log + i++ * IOU_VLOG_SIZE;

			if (l[0]) {
				*prog = p;
				return l;
			}
		}
	}
	return h->obj_log && h->obj_log[0] ? h->obj_log : NULL;
}

/* the kernel's log no longer needed: after load (libbpf loads once) */
static void vlog_free(struct iouring_bpf *h)
{
	free(h->prog_log);
	free(h->obj_log);
	h->prog_log = NULL;
	h->obj_log = NULL;
}

/* p: a built-in program, or NULL and path: a .bpf.o file */
static struct iouring_bpf *open_object(const struct iouring_bpf_prog *p,
				       const char *path,
				       struct iouring_bpf_error *err)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts);
	struct iouring_bpf *h;
	size_t sz;
	void *m;
	int ret;

	h = calloc(1, sizeof(*h));
	if (!h || vlog_open(h, &opts)) {
		free(h);
		iou_fail(err, IOURING_BPF_FAIL, ENOMEM, "out of memory");
		return NULL;
	}
	h->op_id = -1;
	h->prog = p;
	if (p) {
		const void *elf = p->elf(&sz);

		snprintf(h->name, sizeof(h->name), "%s", p->name);
		opts.object_name = p->name;
		h->obj = bpf_object__open_mem(elf, sz, &opts);
	} else {
		base_name(path, h->name, sizeof(h->name));
		h->obj = bpf_object__open_file(path, &opts);
	}
	if (!h->obj) {
		char msg[128];

		ret = -errno;
		libbpf_strerror(ret, msg, sizeof(msg));
		iou_fail_see(err, IOURING_BPF_SEE_LOG,
			     p ? IOURING_BPF_FAIL : IOURING_BPF_USAGE, ret, p ?
			     "%s: cannot open the embedded BPF object: %s (libbpf's messages say more)" :
			     "%s: cannot open the BPF object: %s (is it a BPF ELF object built with clang -target bpf -g? libbpf's messages say more)",
			     p ? p->name : path, msg);
		vlog_free(h);
		free(h);
		return NULL;
	}
	if (iou_find_ops(h, err)) {
		iouring_bpf_close(h);
		return NULL;
	}
	if (h->kind == IOURING_BPF_KIND_OP) {
		m = ops_member_ptr(h->obj, h->ops, "id", &sz);
		if (m && sz == 2)
			h->op_id = *(__u16 *)m;
	}
	return h;
}

struct iouring_bpf *iouring_bpf_open_prog(const struct iouring_bpf_prog *p,
					  struct iouring_bpf_error *err)
{
	return open_object(p, NULL, err);
}

struct iouring_bpf *iouring_bpf_open(const char *prog,
				     struct iouring_bpf_error *err)
{
	const struct iouring_bpf_prog *p = iouring_bpf_prog_find(prog);

	if (p || access(prog, R_OK) == 0)
		return open_object(p, prog, err);
	iou_fail_see(err, IOURING_BPF_SEE_PROGRAMS, IOURING_BPF_USAGE, ENOENT,
		     "unknown program '%s': not a built-in program and not a readable .bpf.o file",
		     prog);
	return NULL;
}

const struct iouring_bpf_prog *iouring_bpf_builtin(const struct iouring_bpf *h)
{
	return h->prog;
}

int iouring_bpf_set_op_id(struct iouring_bpf *h, int id,
			  struct iouring_bpf_error *err)
{
	size_t sz;
	void *p;

	if (h->kind != IOURING_BPF_KIND_OP)
		return iou_fail(err, IOURING_BPF_USAGE, EINVAL,
				"%s is a loop program: it has no op id (it is bound to one ring)",
				h->name);
	if (id < 0 || id > IOU_BPF_MAX_OP_ID)
		return iou_fail(err, IOURING_BPF_USAGE, ERANGE,
				"op id %d out of range: 0..255", id);
	p = ops_member_ptr(h->obj, h->ops, "id", &sz);
	if (!p || sz != 2)
		return iou_fail(err, IOURING_BPF_FAIL, EINVAL,
				"%s: struct uring_bpf_ops has no 16-bit 'id'",
				h->name);
	*(__u16 *)p = id;
	h->op_id = id;
	return 0;
}

int iouring_bpf_load(struct iouring_bpf *h, struct iouring_bpf_error *err)
{
	int ret;

	/* the caller may have checked already (before making its ring) */
	ret = h->kernel_ok ? 0 : iouring_bpf_check_kernel(h, err);
	/* a bound loop program has its iou_api from iouring_bpf_set_ring() */
	if (!ret && !h->have_ring)
		ret = iou_set_api_var(h, err);
	if (ret)
		return ret;
	if (vlog_prepare(h))
		return iou_fail(err, IOURING_BPF_FAIL, ENOMEM, "out of memory");
	ret = bpf_object__load(h->obj);
	if (ret)
		ret = iou_load_failed(h, ret, err);
	else
		h->loaded = 1;
	vlog_free(h);
#ifdef __GLIBC__
	malloc_trim(0);	/* libbpf read and freed the kernel's BTF: features.c */
#endif
	return ret;
}

/* the verifier refused bp (log: its log); err says which and why */
static int verifier_refused(struct iouring_bpf *h, int ret,
			    struct bpf_program *bp, const char *log,
			    struct iouring_bpf_error *err)
{
	const char *prog = bpf_program__name(bp);
	const char *sec = bpf_program__section_name(bp);
	char why[256], what[160], zeros[400];

	if (iou_verbose()) {
		fprintf(stderr, "libiouring-bpf: prog '%s': -- BEGIN PROG LOAD LOG --\n",
			prog);
		fputs(log, stderr);
		if (log[strlen(log) - 1] != '\n')
			fputc('\n', stderr);
		fputs("-- END PROG LOAD LOG --\n", stderr);
	}
	if (iou_log_verifier_reason(log, why, sizeof(why)))
		snprintf(why, sizeof(why), "see the log below");
	if (h->kind == IOURING_BPF_KIND_OP)
		snprintf(what, sizeof(what), "op '%s' (id %d) was not registered",
			 bpf_map__name(h->ops), h->op_id);
	else
		snprintf(what, sizeof(what), "loop ops '%s' were not attached",
			 bpf_map__name(h->ops));
	/*
	 * libbpf loads an object's programs all or nothing: one refused
	 * program keeps every op of the object out.
	 */
	if (iou_geo_zero_rodata(h, zeros, sizeof(zeros)))
		iou_fail(err, IOURING_BPF_REJECTED, ret,
			 "%s: the verifier rejected program '%s' (SEC(\"%s\")): %s. Nothing of the object was loaded: %s. These const volatile globals were 0 at load, which a program that sizes its ring regions or loops from them cannot work with: %s. The library fills only the ring globals it knows (sq_entries, cq_entries, cq_head_offset, cq_tail_offset, cqes_offset, ... and iou_*) from the ring it is bound to; set the others before load. The verifier's log ends with:",
			 h->name, prog, sec, why, what, zeros);
	else
		iou_fail(err, IOURING_BPF_REJECTED, ret,
			 "%s: the verifier rejected program '%s' (SEC(\"%s\")): %s. Nothing of the object was loaded: %s. Fix that program (or move it to an object of its own); the verifier's log ends with:",
			 h->name, prog, sec, why, what);
	if (err)
		iou_log_verifier_tail(log, err->detail, sizeof(err->detail));
	return ret;
}

int iou_load_failed(struct iouring_bpf *h, int ret,
		    struct iouring_bpf_error *err)
{
	struct bpf_program *bp;
	const char *log = vlog_failed(h, &bp);

	if (log && bp)
		return verifier_refused(h, ret, bp, log, err);
	if (ret == -EPERM || (ret == -EACCES && geteuid() != 0))
		return iou_fail(err, IOURING_BPF_PERM, ret,
			"%s: not permitted to load BPF (%s): struct_ops programs need CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN; run as root",
			h->name, strerror(-ret));
	if (ret == -524 /* ENOTSUPP */ || ret == -EOPNOTSUPP)
		return iou_fail_see(err, IOURING_BPF_SEE_KERNEL,
			IOURING_BPF_NOFEATURE, ret,
			"%s: the kernel refused the struct_ops map (%d): was it built with CONFIG_MODULES and the io_uring BPF options?",
			h->name, ret);
	if (log) {
		/* the object's own buffer: the kernel refused its BTF */
		iou_fail(err, IOURING_BPF_REJECTED, ret,
			 "%s: the kernel refused the object's BTF (%s); its log ends with:",
			 h->name, strerror(-ret));
		if (err)
			iou_log_verifier_tail(log, err->detail,
					      sizeof(err->detail));
		return ret;
	}
	return iou_fail(err, IOURING_BPF_REJECTED, ret,
			"%s: loading failed: %s (libbpf's messages say more)",
			h->name, strerror(-ret));
}

int iouring_bpf_attach_link(struct iouring_bpf *h,
			    struct iouring_bpf_error *err)
{
	h->link = bpf_map__attach_struct_ops(h->ops);
	if (h->link)
		return 0;
	return iou_attach_failed(h, -errno, err);
}

/* bpf_map__attach_struct_ops() of h failed with ret: why, for err */
int iou_attach_failed(struct iouring_bpf *h, int ret,
		      struct iouring_bpf_error *err)
{
	if (h->kind == IOURING_BPF_KIND_OP) {
		if (ret == -EBUSY)
			return iou_fail_see(err, IOURING_BPF_SEE_LOADED,
				IOURING_BPF_FAIL, ret,
				"%s: op id %d is taken by another uring_bpf_ops: pick another op id or unload that one",
				h->name, h->op_id);
		return iou_fail(err, IOURING_BPF_FAIL, ret,
				"%s: registering op id %d failed: %s",
				h->name, h->op_id, strerror(-ret));
	}
	switch (ret) {
	case -EBUSY:
		return iou_fail(err, IOURING_BPF_FAIL, ret,
			"%s: that ring already has a loop program attached (one per ring); detach it first",
			h->name);
	case -EOPNOTSUPP:
		return iou_fail(err, IOURING_BPF_FAIL, ret,
			"%s: the ring cannot take a loop program: it must be an io_uring created with IORING_SETUP_SINGLE_ISSUER|IORING_SETUP_DEFER_TASKRUN, without SQPOLL or IOPOLL",
			h->name);
	case -EBADF:
		return iou_fail(err, IOURING_BPF_FAIL, ret,
				"%s: the ring fd is not open", h->name);
	}
	return iou_fail(err, IOURING_BPF_FAIL, ret,
			"%s: attaching to the ring failed: %s", h->name,
			strerror(-ret));
}

static int ensure_bpffs(const char *dir, struct iouring_bpf_error *err)
{
	struct statfs st;

	if (strncmp(dir, "/sys/fs/bpf", 11))
		return 0;
	if (!statfs("/sys/fs/bpf", &st) && st.f_type == BPF_FS_MAGIC)
		return 0;
	if (mount("bpf", "/sys/fs/bpf", "bpf", 0, "mode=0700"))
		return iou_fail(err, errno == EPERM ? IOURING_BPF_PERM :
				IOURING_BPF_FAIL, errno,
				"/sys/fs/bpf is not a BPF filesystem and mounting one failed (%s): mount -t bpf bpf /sys/fs/bpf",
				strerror(errno));
	return 0;
}

int iouring_bpf_pin(struct iouring_bpf *h, const char *path,
		    struct iouring_bpf_error *err)
{
	char dir[256];
	char *slash;
	int ret;

	if (!h->link)
		return iou_fail(err, IOURING_BPF_FAIL, EINVAL,
				"%s: not attached", h->name);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		ret = ensure_bpffs(dir, err);
		if (ret)
			return ret;
		if (mkdir(dir, 0700) && errno != EEXIST)
			return iou_fail(err, IOURING_BPF_FAIL, errno,
					"cannot create %s: %s", dir,
					strerror(errno));
	}
	if (!access(path, F_OK))
		return iou_fail_see(err, IOURING_BPF_SEE_LOADED,
				IOURING_BPF_FAIL, EEXIST,
				"%s already exists: something is loaded under that name; unload it or pin under another name",
				path);
	ret = bpf_link__pin(h->link, path);
	if (ret)
		return iou_fail(err, IOURING_BPF_FAIL, ret,
				"cannot pin the link at %s: %s", path,
				strerror(-ret));
	return 0;
}

void iouring_bpf_detach_link(struct iouring_bpf *h)
{
	if (h && h->link) {
		bpf_link__destroy(h->link);
		h->link = NULL;
	}
}

/* the 0.x name of iouring_bpf_detach_link(), kept for applications */
void iouring_bpf_unlink(struct iouring_bpf *h)
{
	iouring_bpf_detach_link(h);
}

void iouring_bpf_close(struct iouring_bpf *h)
{
	if (!h)
		return;
	iouring_bpf_detach_link(h);
	bpf_object__close(h->obj);
	vlog_free(h);
	free(h);
}

enum iouring_bpf_kind iouring_bpf_kind(const struct iouring_bpf *h)
{
	return h->kind;
}

const char *iouring_bpf_name(const struct iouring_bpf *h)
{
	return h->name;
}

enum iouring_bpf_loop_api iouring_bpf_loop_binding(const struct iouring_bpf *h)
{
	return h->api;
}

const char *iouring_bpf_ops_type(const struct iouring_bpf *h)
{
	if (h->kind == IOURING_BPF_KIND_OP)
		return "uring_bpf_ops";
	return h->ops == h->ops_v3 ? "io_uring_ops" : "io_uring_bpf_ops";
}

const struct io_uring_params *
iouring_bpf_ring_params(const struct iouring_bpf *h)
{
	return h->have_ring ? &h->ring : NULL;
}

int iouring_bpf_op_id(const struct iouring_bpf *h)
{
	return h->op_id;
}

struct bpf_object *iouring_bpf_object(const struct iouring_bpf *h)
{
	return h->obj;
}

struct bpf_link *iouring_bpf_link(const struct iouring_bpf *h)
{
	return h->link;
}

int iouring_bpf_struct_ops_map_fd(const struct iouring_bpf *h)
{
	return bpf_map__fd(h->ops);
}
