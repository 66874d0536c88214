// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * api.c - libiouring-bpf 2.0 (iouring-bpf/iouring-bpf.h): the calls on a
 * libbpf struct bpf_object.
 *
 * The library keeps nothing per object: each call looks at the object
 * (its struct_ops maps, whether they have an fd, the ring_fd member) and
 * builds a view of it, a struct iouring_bpf on the stack, with which it
 * calls the same code the CLI's engine uses (attach.c: open, load,
 * attach; objvar.c: globals and the ring binding; features.c: the
 * kernel; ringinfo.c). Failures fill a struct
 * iouring_bpf_error as the engine does; fail() hands its message to the
 * application's print callback and returns the errno.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "internal.h"

static int failf(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The argument checks every call shares. null_arg(): call's argument
 * what is NULL. struct_sz(): the size of a struct with sz first (an opts
 * or an out struct), known (2.0's layout) for sz 0; -EINVAL for a sz
 * smaller than sz itself. Both say so, naming the call.
 */
static int null_arg(const char *call, const char *what)
{
	return failf(EINVAL, "%s: %s is NULL", call, what);
}

static long struct_sz(const void *s, size_t known, const char *type,
		      const char *call)
{
	size_t sz = *(const size_t *)s;

	if (!sz)
		return known;
	if (sz < sizeof(size_t))
		return failf(EINVAL, "%s: struct %s has sz %zu, smaller than sz itself: set it to sizeof(struct %s) (%s does)",
			     call, type, sz, type,
			     strncmp(type, "bpf_", 4) ? "IOURING_BPF_OPTS()" :
			     "LIBBPF_OPTS()");
	return sz;
}

/* an opts struct: NULL, sz 0, or a sz whose tail unknown here is zero */
static int opts_check(const void *opts, size_t known, const char *type,
		      const char *call)
{
	const unsigned char *b = opts;
	long sz;
	size_t i;

	if (!opts)
		return 0;
	sz = struct_sz(opts, known, type, call);
	if (sz < 0)
		return sz;
	for (i = known; i < (size_t)sz; i++) {
		if (b[i])
			return failf(EINVAL, "%s: struct %s: sz %ld, and byte %zu is not zero: this library (%s) knows %zu bytes of it; an option it does not know is refused rather than ignored (use a library as new as the header)",
				     call, type, sz, i, IOURING_BPF_VERSION,
				     known);
	}
	return 0;
}

/* copy the caller's opts (sz bytes of them) over a zeroed local one */
static void opts_copy(void *dst, const void *opts, size_t known)
{
	size_t sz = opts ? *(const size_t *)opts : 0;

	memset(dst, 0, known);
	if (opts)
		memcpy(dst, opts, !sz || sz > known ? known : sz);
}

#define OPTS_GET(dst, opts, type, call)					\
	({								\
		int __r = opts_check(opts, sizeof(struct type), #type, call); \
		if (!__r)						\
			opts_copy(dst, opts, sizeof(struct type));	\
		__r;							\
	})

/* err's message (and the verifier's log) to the callback; -errno */
static int fail(const struct iouring_bpf_error *e)
{
	int ret = e->err > 0 && e->err < 4000 ? e->err : EINVAL;

	if (e->status == IOURING_BPF_PERM)
		ret = EPERM;
	else if (e->status == IOURING_BPF_NOFEATURE)
		ret = EOPNOTSUPP;
	else if (e->status == IOURING_BPF_USAGE && ret != EOPNOTSUPP &&
		 ret != ERANGE && ret != ENOENT && ret != EBUSY)
		ret = EINVAL;	/* a bad argument, whatever the engine's errno */
	iou_log(IOURING_BPF_WARN, "libiouring-bpf: %s\n", e->msg);
	if (e->detail[0])
		iou_log(IOURING_BPF_INFO, "%s%s", e->detail,
			e->detail[strlen(e->detail) - 1] == '\n' ? "" : "\n");
	return -ret;
}

/* a message of our own: -err */
static int failf(int err, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	iou_log(IOURING_BPF_WARN, "libiouring-bpf: %s\n", msg);
	return -err;
}

/* the struct_ops map's 32-bit ring_fd member, or NULL */
static __u32 *ring_fd_member(struct iouring_bpf *h)
{
	size_t sz;
	void *m = ops_member_ptr(h->obj, h->ops, "ring_fd", &sz);

	return m && sz == 4 ? m : NULL;
}

/*
 * The view of obj (what=the call, for messages): its struct_ops maps and
 * the loop binding for this kernel; loaded, bound and the op id read
 * from the object. 0, or a negative errno with the message given.
 */
static int view(struct bpf_object *obj, struct iouring_bpf *h,
		struct iouring_bpf_error *e, const char *what)
{
	__u32 *fd;
	size_t sz;
	void *m;

	iou_libbpf_route();
	memset(h, 0, sizeof(*h));
	if (!obj)
		return null_arg(what, "the object");
	h->obj = obj;
	h->op_id = -1;
	snprintf(h->name, sizeof(h->name), "%s", bpf_object__name(obj));
	h->prog = iouring_bpf_prog_find(h->name);
	if (iou_find_ops(h, e))
		return fail(e);
	h->loaded = bpf_map__fd(h->ops) >= 0;
	if (h->kind == IOURING_BPF_KIND_OP) {
		m = ops_member_ptr(h->obj, h->ops, "id", &sz);
		if (m && sz == 2)
			h->op_id = *(__u16 *)m;
	} else {
		fd = ring_fd_member(h);
		h->have_ring = fd && *fd;
	}
	return 0;
}

const char *iouring_bpf_builtin_next(const char *prev)
{
	const struct iouring_bpf_prog *p = NULL;

	if (prev) {
		p = iouring_bpf_prog_find(prev);
		if (!p)
			return NULL;
	}
	p = iouring_bpf_prog_next(p);
	return p ? p->name : NULL;
}

struct bpf_object *
iouring_bpf_builtin_open(const char *name,
			 const struct bpf_object_open_opts *opts)
{
	LIBBPF_OPTS(bpf_object_open_opts, o);
	const struct iouring_bpf_prog *p;
	struct bpf_object *obj;
	const void *elf;
	size_t sz;
	int ret;

	iou_libbpf_route();
	p = name ? iouring_bpf_prog_find(name) : NULL;
	if (!p) {
		errno = name ? ENOENT : EINVAL;
		failf(errno, "no built-in program '%s' (iouring_bpf_builtin_next() names them)",
		      name ? name : "(null)");
		return NULL;
	}
	if (opts) {
		ret = struct_sz(opts, sizeof(o), "bpf_object_open_opts",
				"iouring_bpf_builtin_open");
		if (ret < 0) {
			errno = -ret;
			return NULL;
		}
		memcpy(&o, opts, (size_t)ret < sizeof(o) ? (size_t)ret : sizeof(o));
		o.sz = sizeof(o);
	}
	o.object_name = p->name;
	elf = p->elf(&sz);
	obj = bpf_object__open_mem(elf, sz, &o);
	if (!obj) {
		ret = errno;
		failf(ret, "%s: libbpf cannot open the embedded object: %s",
		      name, strerror(ret));
		errno = ret;
	}
	return obj;
}

int iouring_bpf_obj_info(struct bpf_object *obj,
			 struct iouring_bpf_obj_info *info)
{
	struct iouring_bpf_obj_info out = { 0 };
	struct iouring_bpf_error e;
	struct iouring_bpf h;
	long sz;
	int ret;

	if (!info)
		return null_arg("iouring_bpf_obj_info", "info");
	sz = struct_sz(info, sizeof(out), "iouring_bpf_obj_info",
		       "iouring_bpf_obj_info");
	if (sz < 0)
		return sz;
	ret = view(obj, &h, &e, "iouring_bpf_obj_info");
	if (ret)
		return ret;
	out.sz = sz;
	out.kind = h.kind;
	out.loop_api = h.api;
	out.op_id = h.op_id;
	out.loaded = h.loaded;
	out.bound = h.have_ring;
	out.ops_type = iouring_bpf_ops_type(&h);
	out.ops = h.ops;
	memcpy(info, &out, (size_t)sz < sizeof(out) ? (size_t)sz : sizeof(out));
	return 0;
}

int iouring_bpf_obj_set_global(struct bpf_object *obj, const char *name,
			       long long value)
{
	struct iouring_bpf_error e;
	struct iouring_bpf h;
	int ret;

	if (!name)
		return null_arg("iouring_bpf_obj_set_global", "name");
	ret = view(obj, &h, &e, "iouring_bpf_obj_set_global");
	if (ret)
		return ret;
	ret = iouring_bpf_set_var(&h, name, value, &e);
	return ret ? fail(&e) : 0;
}

int iouring_bpf_obj_get_global(struct bpf_object *obj, const char *name,
			       long long *value)
{
	struct iouring_bpf h;
	int ret;

	if (!obj || !name || !value)
		return null_arg("iouring_bpf_obj_get_global",
				!obj ? "the object" : !name ? "name" : "value");
	memset(&h, 0, sizeof(h));
	h.obj = obj;
	ret = iouring_bpf_var_int(&h, name, value);
	if (ret == -ENOENT)
		return failf(ENOENT, "%s: no integer global '%s' in .rodata, .data or .bss",
			     bpf_object__name(obj), name);
	return ret;
}

int iouring_bpf_obj_set_op_id(struct bpf_object *obj, int op_id)
{
	struct iouring_bpf_error e;
	struct iouring_bpf h;
	int ret;

	ret = view(obj, &h, &e, "iouring_bpf_obj_set_op_id");
	if (ret)
		return ret;
	if (h.kind != IOURING_BPF_KIND_OP)
		return failf(EINVAL, "%s is a loop program: it has no op id; bind it to its ring with iouring_bpf_obj_bind_ring()",
			     h.name);
	if (h.loaded)
		return failf(EBUSY, "%s: already loaded: set the op id before iouring_bpf_obj_load()",
			     h.name);
	if (op_id < 0 || op_id > IOU_BPF_MAX_OP_ID)
		return failf(EINVAL, "%s: op id %d out of range: 0..%d",
			     h.name, op_id, IOU_BPF_MAX_OP_ID);
	ret = iouring_bpf_set_op_id(&h, op_id, &e);
	return ret ? fail(&e) : 0;
}

int iouring_bpf_obj_bind_ring(struct bpf_object *obj, int ring_fd,
			      const struct iouring_bpf_ring_opts *opts)
{
	struct iouring_bpf_ring_opts o;
	struct iouring_bpf_error e;
	struct iouring_bpf h;
	int ret;

	ret = view(obj, &h, &e, "iouring_bpf_obj_bind_ring");
	if (ret)
		return ret;
	ret = OPTS_GET(&o, opts, iouring_bpf_ring_opts,
		       "iouring_bpf_obj_bind_ring");
	if (ret)
		return ret;
	if (h.kind != IOURING_BPF_KIND_LOOP)
		return failf(EINVAL, "%s is an op program: it serves every ring made with the IORING_OP_BPF flag, not one ring; load and attach it without binding (iouring_bpf_obj_set_op_id() chooses its op id)",
			     h.name);
	if (h.loaded)
		return failf(EBUSY, "%s: already loaded: iouring_bpf_obj_bind_ring() comes before iouring_bpf_obj_load() (or the skeleton's __load())",
			     h.name);
	if (ring_fd < 0)
		return failf(EINVAL, "%s: ring fd %d: not an fd; give the io_uring's fd",
			     h.name, ring_fd);
	if (ring_fd == 0)
		return failf(EINVAL, "%s: ring fd 0: the library tells a bound object by its non-zero ring fd; move the ring to another fd (fcntl(F_DUPFD_CLOEXEC, 3))",
			     h.name);
	/* the kernel's hook, and one the object has a map for */
	ret = iouring_bpf_check_kernel(&h, &e);
	if (!ret)
		ret = iouring_bpf_set_ring(&h, ring_fd, o.params, &e);
	return ret ? fail(&e) : 0;
}

int iouring_bpf_obj_load(struct bpf_object *obj)
{
	struct iouring_bpf_error e;
	struct iouring_bpf h;
	int ret;

	ret = view(obj, &h, &e, "iouring_bpf_obj_load");
	if (ret)
		return ret;
	if (h.loaded)
		return failf(EBUSY, "%s: already loaded", h.name);
	if (h.kind == IOURING_BPF_KIND_LOOP && !h.have_ring)
		return failf(EINVAL, "%s: iouring_bpf_obj_bind_ring() was not called: a loop program is bound to its ring before iouring_bpf_obj_load()",
			     h.name);
	/* the ring was bound: the geometry is in the object */
	h.kernel_ok = 0;
	ret = iouring_bpf_load(&h, &e);
	return ret ? fail(&e) : 0;
}

struct bpf_link *iouring_bpf_obj_attach(struct bpf_object *obj,
					const struct iouring_bpf_attach_opts *opts)
{
	struct iouring_bpf_attach_opts o;
	struct iouring_bpf_error e;
	struct iouring_bpf h;
	int ret;

	ret = view(obj, &h, &e, "iouring_bpf_obj_attach");
	if (!ret)
		ret = OPTS_GET(&o, opts, iouring_bpf_attach_opts,
			       "iouring_bpf_obj_attach");
	if (!ret && !h.loaded)
		ret = failf(EINVAL, "%s: not loaded: iouring_bpf_obj_load() (or the skeleton's __load()) comes before iouring_bpf_obj_attach()",
			    h.name);
	if (!ret && h.kind == IOURING_BPF_KIND_LOOP && !h.have_ring)
		ret = failf(EINVAL, "%s: loaded without a ring: iouring_bpf_obj_bind_ring() comes before the load",
			    h.name);
	if (ret) {
		errno = -ret;
		return NULL;
	}
	h.link = bpf_map__attach_struct_ops(h.ops);
	if (!h.link) {
		iou_attach_failed(&h, -errno, &e);
		errno = -fail(&e);
		return NULL;
	}
	if (o.pin_path && iouring_bpf_pin(&h, o.pin_path, &e)) {
		ret = fail(&e);
		bpf_link__destroy(h.link);
		errno = -ret;
		return NULL;
	}
	return h.link;
}

int iouring_bpf_obj_exit_info(struct bpf_object *obj,
			      struct iou_exit_info *out)
{
	struct iouring_bpf h;

	if (!obj || !out)
		return null_arg("iouring_bpf_obj_exit_info",
				obj ? "out" : "the object");
	memset(&h, 0, sizeof(h));
	h.obj = obj;
	return iouring_bpf_exit_info(&h, out);
}

int iouring_bpf_kernel_probe(struct iouring_bpf_kernel *out)
{
	struct iouring_bpf_kernel k = { 0 };
	enum iouring_bpf_loop_api api;
	long sz;
	int op;

	if (!out)
		return null_arg("iouring_bpf_kernel_probe", "out");
	sz = struct_sz(out, sizeof(k), "iouring_bpf_kernel",
		       "iouring_bpf_kernel_probe");
	if (sz < 0)
		return sz;
	k.sz = sz;
	op = iou_kernel_has(IOU_KTYPE_OP);
	if (op < 0)
		return failf(-op, "the running kernel (%s) has no readable BTF (/sys/kernel/btf/vmlinux): the library cannot tell which io_uring BPF hooks it has",
			     iou_kernel_release());
	api = iouring_bpf_kernel_loop_api();
	k.loop_api = api;
	k.op = op;
	k.op_setup_flag = iouring_bpf_op_setup_flag();
	k.sq_rewind = (api == IOURING_BPF_LOOP_71 || api == IOURING_BPF_LOOP_72) &&
		      !op;
	k.filters = iou_kernel_has(IOU_KTYPE_FILTER) == 1;
	memcpy(out, &k, k.sz < sizeof(k) ? k.sz : sizeof(k));
	return 0;
}

int iouring_bpf_ring_setup(enum iouring_bpf_kind kind, unsigned int entries,
			   struct io_uring_params *p)
{
	struct io_uring_params dflt = { 0 };
	struct iouring_bpf_error e;
	int fd;

	if (kind != IOURING_BPF_KIND_OP && kind != IOURING_BPF_KIND_LOOP)
		return failf(EINVAL, "iouring_bpf_ring_setup: kind %d is neither IOURING_BPF_KIND_OP nor IOURING_BPF_KIND_LOOP",
			     (int)kind);
	if (!entries || entries > 32768)
		return failf(EINVAL, "iouring_bpf_ring_setup: %u entries: 1..32768",
			     entries);
	fd = iou_ring_setup(kind, entries, p ? p : &dflt, &e);
	return fd < 0 ? fail(&e) : fd;
}

int iouring_bpf_filter_install(int ring_fd, const char *policy,
			       const struct iouring_bpf_filter_opts *opts)
{
	struct iouring_bpf_filter_opts o;
	struct iouring_bpf_filter *f;
	struct iouring_bpf_error e;
	int ret;

	iou_libbpf_route();
	ret = OPTS_GET(&o, opts, iouring_bpf_filter_opts,
		       "iouring_bpf_filter_install");
	if (ret)
		return ret;
	if (!policy)
		return null_arg("iouring_bpf_filter_install",
				"policy (a shipped policy's name, a file, or the name of opts->text)");
	if (ring_fd < -1)
		return failf(EINVAL, "iouring_bpf_filter_install: ring fd %d: a ring's fd, or -1 for the calling task",
			     ring_fd);
	f = o.text ? iouring_bpf_filter_compile(o.text, policy, o.btf, &e) :
		     iouring_bpf_filter_load(policy, o.btf, &e);
	if (!f)
		return fail(&e);
	ret = iouring_bpf_filter_apply(f, ring_fd, &e);
	iouring_bpf_filter_free(f);
	return ret ? fail(&e) : 0;
}
