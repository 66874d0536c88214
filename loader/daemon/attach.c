// SPDX-License-Identifier: GPL-2.0
/*
 * attach.c - every call iouring-bpfd makes into libiouring-bpf (its
 * public 2.x calls, on a libbpf struct bpf_object) and libbpf, in one
 * file: the built-in programs, parameter ranges and defaults, the opcode
 * limits, and the attach itself. The rest of the daemon decides; this
 * file does.
 *
 * An attach, in its one order: open the program (a built-in, or the
 * policy's installed object, read once, its SHA-256 checked, and opened
 * from that copy in a memfd so the file cannot change in between); set
 * the parameters (bounded by the policy; one the rule does not list must
 * keep its default); bind to the ring (its layout read from the kernel);
 * register the rule's opcode limit on the client's ring (a ring filter,
 * default deny and the listed opcodes allowed, where the kernel has
 * filters; else io_uring's restrictions, IORING_REGISTER_RESTRICTIONS:
 * the listed SQE opcodes, every register opcode and SQE flag); load,
 * attach. What the client gets back:
 * fds of the program's .bss and .data maps, to watch its counters.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/io_uring.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <iouring-bpf/iouring-bpf.h>
#include "broker_proto.h"
#include "daemon.h"

#define MAX_OPS		256

struct attached {
	struct bpf_object	*obj;
	struct bpf_link		*link;
	int			memfd;	/* an object's verified copy, or -1 */
};

/* the library's last message (its print callback), for the client */
static char lib_msg[1024];
static int lib_verbose;

static int lib_print(enum iouring_bpf_print_level level, const char *fmt,
		     va_list ap)
{
	char line[1024];
	const char *p = line;
	size_t n;

	vsnprintf(line, sizeof(line), fmt, ap);
	if (level == IOURING_BPF_WARN) {
		if (!strncmp(p, "libiouring-bpf: ", 16))
			p += 16;
		snprintf(lib_msg, sizeof(lib_msg), "%s", p);
		n = strlen(lib_msg);
		if (n && lib_msg[n - 1] == '\n')
			lib_msg[n - 1] = 0;
	}
	if (lib_verbose && level != IOURING_BPF_DEBUG)
		fprintf(stderr, "%s", line);
	return 0;
}

void attach_init(int verbose)
{
	lib_verbose = verbose;
	iouring_bpf_set_print(lib_print);
}

static const char *last_msg(const char *what)
{
	if (!lib_msg[0])
		snprintf(lib_msg, sizeof(lib_msg), "%s failed", what);
	return lib_msg;
}

int attach_is_builtin(const char *name)
{
	struct iouring_bpf_obj_info info = { .sz = sizeof(info) };
	struct bpf_object *obj = iouring_bpf_builtin_open(name, NULL);
	int ret;

	if (!obj)
		return 0;
	ret = iouring_bpf_obj_info(obj, &info);
	bpf_object__close(obj);
	if (ret)
		return 0;
	return info.kind == IOURING_BPF_KIND_LOOP ? 1 : 2;
}

int attach_param_check(const char *prog, const char *param, long long lo,
		       long long hi, char *msg, size_t len)
{
	struct bpf_object *obj = iouring_bpf_builtin_open(prog, NULL);
	int ret;

	msg[0] = 0;
	if (!obj)
		return -ENOENT;
	lib_msg[0] = 0;
	ret = iouring_bpf_obj_set_global(obj, param, lo);
	if (!ret)
		ret = iouring_bpf_obj_set_global(obj, param, hi);
	if (ret)
		snprintf(msg, len, "%s", last_msg("setting it"));
	bpf_object__close(obj);
	return ret;
}

/*
 * The kernel's opcodes (BTF: enum io_uring_op, the names of the filter
 * language: IORING_OP_READ is "read"), read once; the register opcodes'
 * end (enum io_uring_register_op's IORING_REGISTER_LAST).
 */
static char opnames[MAX_OPS][24];
static int nr_ops = -1, nr_register_ops;

static int read_enum(const struct btf *btf, const char *type,
		     const char *prefix, const char *last, int names)
{
	int id = btf__find_by_name_kind(btf, type, BTF_KIND_ENUM), i, j, end = -1;
	const struct btf_type *t;
	const struct btf_enum *e;
	size_t pl = strlen(prefix);

	if (id <= 0)
		return -1;
	t = btf__type_by_id(btf, id);
	e = btf_enum(t);
	for (i = 0; i < btf_vlen(t); i++, e++) {
		const char *n = btf__name_by_offset(btf, e->name_off);

		if (!strcmp(n, last))
			end = e->val;
		if (!names || strncmp(n, prefix, pl) || e->val < 0 ||
		    e->val >= MAX_OPS)
			continue;
		for (j = 0; n[pl + j] && j < 23; j++)
			opnames[e->val][j] = tolower(n[pl + j]);
	}
	return end;
}

static int load_opcodes(char *msg, size_t len)
{
	struct btf *btf;

	if (nr_ops >= 0)
		return 0;
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		snprintf(msg, len, "opcodes: the running kernel has no readable BTF (/sys/kernel/btf/vmlinux): its opcodes are unknown");
		return -1;
	}
	nr_ops = read_enum(btf, "io_uring_op", "IORING_OP_", "IORING_OP_LAST", 1);
	nr_register_ops = read_enum(btf, "io_uring_register_op",
				    "IORING_REGISTER_", "IORING_REGISTER_LAST", 0);
	btf__free(btf);
	if (nr_ops <= 0 || nr_ops > MAX_OPS) {
		nr_ops = -1;
		snprintf(msg, len, "opcodes: the kernel's BTF has no enum io_uring_op");
		return -1;
	}
	return 0;
}

/*
 * The groups of the filter language (docs/filters.md; the table of
 * loader/lib/filter_policy.c): a rule's opcode list means the same on a
 * kernel with ring filters and on one with restrictions only.
 */
static const struct {
	const char *name;
	const char *ops;
} groups[] = {
	{ "network", " socket connect accept bind listen send recv sendmsg recvmsg send_zc sendmsg_zc recv_zc shutdown " },
	{ "open", " openat openat2 " },
	{ "fs-change", " renameat unlinkat mkdirat symlinkat linkat fsetxattr setxattr ftruncate fallocate " },
	{ "read", " read readv read_fixed readv_fixed read_multishot " },
	{ "write", " write writev write_fixed writev_fixed " },
};

/* op (0..nr_ops) is in group g */
static int in_group(unsigned int g, int op)
{
	char w[32];

	snprintf(w, sizeof(w), " %.23s ", opnames[op]);
	return opnames[op][0] && strstr(groups[g].ops, w);
}

/*
 * "read, write, @network" into ops[] (1: allowed), as the filter
 * language reads an allow list: opcode names (the kernel's, lower case),
 * @GROUP, * or @all. The number allowed, or -1 with msg and *col the
 * offset in list of the word that is wrong.
 */
static int parse_opcodes(const char *list, __u8 *ops, char *msg, size_t len,
			 int *col)
{
	const char *p = list;
	int n = 0, i;
	unsigned int g;

	*col = 0;
	memset(ops, 0, MAX_OPS);
	if (load_opcodes(msg, len))
		return -1;
	while (*p) {
		char w[32];
		size_t k;

		while (*p == ' ' || *p == ',')
			p++;
		k = strcspn(p, " ,");
		if (!k)
			break;
		snprintf(w, sizeof(w), "%.*s", (int)k, p);
		for (i = 0; w[i]; i++)
			w[i] = tolower(w[i]);
		if (!strcmp(w, "*") || !strcmp(w, "@all")) {
			for (i = 0; i < nr_ops; i++)
				ops[i] |= !!opnames[i][0];
		} else if (w[0] == '@') {
			for (g = 0; g < sizeof(groups) / sizeof(groups[0]); g++)
				if (!strcmp(groups[g].name, w + 1))
					break;
			if (g == sizeof(groups) / sizeof(groups[0])) {
				*col = p - list;
				snprintf(msg, len, "opcodes: unknown group '%s'; groups: @all @network @open @fs-change @read @write",
					 w);
				return -1;
			}
			for (i = 0; i < nr_ops; i++)
				if (in_group(g, i))
					ops[i] = 1;
		} else {
			for (i = 0; i < nr_ops; i++)
				if (!strcmp(opnames[i], w))
					break;
			if (i == nr_ops) {
				*col = p - list;
				snprintf(msg, len, "opcodes: '%s' is not an opcode of this kernel (`iouring-bpf filter ops` lists them: read, write, nop, ...)",
					 w);
				return -1;
			}
			ops[i] = 1;
		}
		p += k;
	}
	for (i = 0; i < nr_ops; i++)
		n += ops[i];
	return n;
}

int attach_check_opcodes(const char *list, char *msg, size_t len, int *col)
{
	__u8 ops[MAX_OPS];

	return parse_opcodes(list, ops, msg, len, col) < 0 ? -1 : 0;
}

static int fail(struct attach_out *out, int status, int err, const char *fmt,
		...) __attribute__((format(printf, 4, 5)));

static int fail(struct attach_out *out, int status, int err, const char *fmt,
		...)
{
	va_list ap;

	out->status = status;
	out->err = err;
	va_start(ap, fmt);
	vsnprintf(out->msg, sizeof(out->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* a library call's -errno, with its message, as the CLI's status */
static int from_lib(struct attach_out *out, int ret, const char *what)
{
	int e = -ret, status;

	switch (e) {
	case EPERM:
	case EACCES:
		status = IOB_PERM;
		break;
	case EOPNOTSUPP:
		status = IOB_NOFEATURE;
		break;
	case EINVAL:
		/* the load of a bound object: the verifier's refusal */
		status = !strcmp(what, "load") ? IOB_REJECTED : IOB_USAGE;
		break;
	case ENOENT:
	case ERANGE:
	case EBUSY:
		status = IOB_USAGE;
		break;
	default:
		status = IOB_FAIL;
	}
	return fail(out, status, e, "%s", last_msg(what));
}

/* the policy's object, read once and checked, opened from a memfd */
static int open_object(const struct pol_rule *r, struct attached *a,
		       struct attach_out *out)
{
	LIBBPF_OPTS(bpf_object_open_opts, o, .object_name = r->name);
	unsigned char got[32];
	char path[64];
	void *buf;
	ssize_t n;
	int fd;

	fd = open(r->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(out, IOB_FAIL, errno,
			    "the policy's object %s cannot be read: %s",
			    r->path, strerror(errno));
	buf = malloc(64 << 20);
	n = buf ? read(fd, buf, 64 << 20) : -1;
	close(fd);
	if (n <= 0) {
		free(buf);
		return fail(out, IOB_FAIL, EIO, "cannot read %s", r->path);
	}
	sha256(buf, n, got);
	if (memcmp(got, r->sha256, 32)) {
		free(buf);
		return fail(out, IOB_PERM, EPERM,
			    "%s has changed since the policy named it (its SHA-256 differs): refused; the administrator must check it and update the policy",
			    r->path);
	}
	a->memfd = memfd_create("iouring-bpfd-object", MFD_CLOEXEC);
	if (a->memfd < 0 || write(a->memfd, buf, n) != n) {
		free(buf);
		return fail(out, IOB_FAIL, errno, "memfd: %s", strerror(errno));
	}
	free(buf);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", a->memfd);
	a->obj = bpf_object__open_file(path, &o);
	if (!a->obj)
		return fail(out, IOB_USAGE, errno,
			    "%s: libbpf cannot open it: %s", r->path,
			    strerror(errno));
	return 0;
}

/* one KEY=VALUE: bounded by the rule, or the program's default */
static int set_param(const struct pol_rule *r, struct attached *a,
		     const char *kv, struct attach_out *out)
{
	const struct pol_param *pp;
	char key[POL_NAME_MAX];
	const char *eq = strchr(kv, '=');
	long long v, def;
	char *end;
	int ret;

	if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof(key))
		return fail(out, IOB_USAGE, EINVAL,
			    "parameter '%s' is not KEY=VALUE", kv);
	memcpy(key, kv, eq - kv);
	key[eq - kv] = 0;
	if (!policy_name_ok(key))
		return fail(out, IOB_USAGE, EINVAL,
			    "'%s' is not a parameter name", key);
	errno = 0;
	v = strtoll(eq + 1, &end, 0);
	if (errno || end == eq + 1 || *end)
		return fail(out, IOB_USAGE, EINVAL,
			    "parameter %s: '%s' is not an integer (the broker takes numbers only)",
			    key, eq + 1);
	pp = policy_param(r, key);
	if (pp && (v < pp->min || v > pp->max))
		return fail(out, IOB_PERM, ERANGE,
			    "parameter %s=%lld is outside the policy's bounds for %s (%lld..%lld)",
			    key, v, r->name, pp->min, pp->max);
	if (!pp) {
		if (iouring_bpf_obj_get_global(a->obj, key, &def))
			return fail(out, IOB_USAGE, ENOENT,
				    "%s has no parameter '%s'", r->name, key);
		if (def != v)
			return fail(out, IOB_PERM, EPERM,
				    "parameter %s: the policy's rule for %s does not list it, so only its default (%lld) is allowed; got %lld",
				    key, r->name, def, v);
		return 0;
	}
	ret = iouring_bpf_obj_set_global(a->obj, key, v);
	return ret ? from_lib(out, ret, "set") : 0;
}

/*
 * The rule's opcodes as io_uring's restrictions (a kernel without ring
 * filters): the listed SQE opcodes; every register opcode and SQE flag
 * (a ring filter limits neither). Registered on the disabled ring, in
 * force once the client enables it (the daemon must not: the enabling
 * task becomes a SINGLE_ISSUER ring's submitter).
 */
static int restrict_ring(const struct pol_rule *r, int ring_fd,
			 struct attach_out *out)
{
	struct io_uring_restriction res[2 * MAX_OPS + 1];
	__u8 ops[MAX_OPS];
	char msg[256];
	int n, i, k = 0, col;

	n = parse_opcodes(r->opcodes, ops, msg, sizeof(msg), &col);
	if (n < 0)
		return fail(out, IOB_FAIL, EINVAL, "%s", msg);
	memset(res, 0, sizeof(res));
	for (i = 0; i < nr_ops; i++) {
		if (!ops[i])
			continue;
		res[k].opcode = IORING_RESTRICTION_SQE_OP;
		res[k++].sqe_op = i;
	}
	for (i = 0; i < nr_register_ops && i < MAX_OPS; i++) {
		res[k].opcode = IORING_RESTRICTION_REGISTER_OP;
		res[k++].register_op = i;
	}
	res[k].opcode = IORING_RESTRICTION_SQE_FLAGS_ALLOWED;
	res[k++].sqe_flags = 0xff;
	if (syscall(__NR_io_uring_register, ring_fd,
		    IORING_REGISTER_RESTRICTIONS, res, k) < 0)
		return fail(out, errno == EBUSY ? IOB_USAGE : IOB_FAIL, errno,
			    "the policy limits %s's ring to the opcodes %s, and the kernel has no ring filters; its restrictions (IORING_REGISTER_RESTRICTIONS) could not be registered: %s%s",
			    r->name, r->opcodes, strerror(errno),
			    errno == EBUSY ? " (the ring has restrictions already)" : "");
	return 0;
}

/* the rule's opcode limit on the client's ring: a filter, or restrictions */
static int limit_ring(const struct pol_rule *r, int ring_fd,
		      struct attach_out *out, const char **how)
{
	IOURING_BPF_OPTS(iouring_bpf_filter_opts, fo);
	struct iouring_bpf_kernel k = { .sz = sizeof(k) };
	char text[600];
	int ret;

	if (!iouring_bpf_kernel_probe(&k) && !k.filters) {
		*how = "io_uring restrictions";
		return restrict_ring(r, ring_fd, out);
	}
	*how = "ring filter";
	snprintf(text, sizeof(text), "default deny\nallow %s\n", r->opcodes);
	fo.text = text;
	ret = iouring_bpf_filter_install(ring_fd, r->name, &fo);
	if (ret) {
		from_lib(out, ret, "filter");
		snprintf(out->msg, sizeof(out->msg),
			 "the policy limits %s's ring to the opcodes %s, and the ring filter could not be registered: %.300s",
			 r->name, r->opcodes, last_msg("filter"));
		return -1;
	}
	return 0;
}

/*
 * An fd of each of the program's mutable data maps (.bss, .data) for the
 * client, to watch its counters and exit info as after a direct attach.
 * Not read-only: the kernel maps a BPF map only through a writable fd (a
 * MAP_SHARED mapping of a read-only file loses VM_SHARED, which
 * bpf_map_mmap() requires). So the client can write its own program's
 * mutable state, which the verifier treats as untrusted anyway; the
 * parameters are in .rodata, frozen, and not passed (the client's copy
 * has the values the daemon set).
 */
static void data_fds(struct attached *a, struct attach_out *out)
{
	static const char *const secs[] = { ".bss", ".data" };
	struct bpf_map *map;

	bpf_object__for_each_map(map, a->obj) {
		LIBBPF_OPTS(bpf_get_fd_by_id_opts, o);
		struct bpf_map_info info;
		__u32 len = sizeof(info);
		const char *name = bpf_map__name(map), *dot;
		unsigned int i;
		int fd;

		dot = strrchr(name, '.');
		if (!bpf_map__is_internal(map) || out->nfds == 4 || !dot)
			continue;
		for (i = 0; i < 2; i++)
			if (!strcmp(dot, secs[i]))
				break;
		if (i == 2 || bpf_map__fd(map) < 0)
			continue;
		memset(&info, 0, sizeof(info));
		if (bpf_map_get_info_by_fd(bpf_map__fd(map), &info, &len))
			continue;
		fd = bpf_map_get_fd_by_id_opts(info.id, &o);
		if (fd < 0)
			continue;
		out->fds[out->nfds] = fd;
		snprintf(out->sections[out->nfds], sizeof(out->sections[0]),
			 "%s", secs[i]);
		out->nfds++;
	}
}

/* the binding's key, as `iouring-bpf run --json` says it */
static const char *binding_key(int api)
{
	static const char *const keys[] = {
		"v3", "mainline-7.1", "mainline-7.2",
	};

	return api >= 0 && api < 3 ? keys[api] : "none";
}

struct attached *attach_program(const struct attach_req *req,
				struct attach_out *out)
{
	struct iouring_bpf_obj_info info = { .sz = sizeof(info) };
	const struct pol_rule *r = req->rule;
	const char *how = "";
	struct attached *a;
	int i, ret;

	memset(out, 0, sizeof(*out));
	lib_msg[0] = 0;
	a = calloc(1, sizeof(*a));
	if (!a) {
		fail(out, IOB_FAIL, ENOMEM, "out of memory");
		return NULL;
	}
	a->memfd = -1;
	if (r->is_object) {
		if (open_object(r, a, out))
			goto fail;
	} else {
		a->obj = iouring_bpf_builtin_open(r->name, NULL);
		if (!a->obj) {
			from_lib(out, -errno, "open");
			goto fail;
		}
	}
	ret = iouring_bpf_obj_info(a->obj, &info);
	if (ret) {
		from_lib(out, ret, "info");
		goto fail;
	}
	if (info.kind != IOURING_BPF_KIND_LOOP) {
		fail(out, IOB_USAGE, EINVAL,
		     "%s is an IORING_OP_BPF op, which serves every ring of the system: the broker attaches loop programs only",
		     r->name);
		goto fail;
	}
	for (i = 0; i < req->nparams; i++)
		if (set_param(r, a, req->params[i], out))
			goto fail;
	ret = iouring_bpf_obj_bind_ring(a->obj, req->ring_fd, NULL);
	if (ret) {
		from_lib(out, ret, "bind");
		goto fail;
	}
	if (r->opcodes[0] && limit_ring(r, req->ring_fd, out, &how))
		goto fail;
	ret = iouring_bpf_obj_load(a->obj);
	if (ret) {
		from_lib(out, ret, "load");
		goto fail;
	}
	a->link = iouring_bpf_obj_attach(a->obj, NULL);
	if (!a->link) {
		from_lib(out, -errno, "attach");
		goto fail;
	}
	iouring_bpf_obj_info(a->obj, &info);
	snprintf(out->binding, sizeof(out->binding), "%s",
		 binding_key(info.loop_api));
	snprintf(out->limit, sizeof(out->limit), "%s", how);
	data_fds(a, out);
	return a;
fail:
	attach_release(a);
	if (!out->status)
		out->status = IOB_FAIL;
	return NULL;
}

void attach_release(struct attached *a)
{
	if (!a)
		return;
	bpf_link__destroy(a->link);	/* detach */
	bpf_object__close(a->obj);	/* unload */
	if (a->memfd >= 0)
		close(a->memfd);
	free(a);
}
