// SPDX-License-Identifier: GPL-2.0
/*
 * attach.c - every call iouring-bpfd makes into libiouring-bpf (and
 * libbpf, on the library's handles), in one file: the programs' table,
 * parameter ranges and defaults, the filter compiler, and the attach
 * itself. The rest of the daemon decides; this file does.
 *
 * An attach, in its one order: open the program (a built-in, or the
 * policy's installed object, read once, its SHA-256 checked, and opened
 * from that copy in a memfd so the file cannot change in between); set
 * the parameters (bounded by the policy; one the rule does not list must
 * keep its default); register the rule's ring filter (default deny, the
 * listed opcodes allowed) on the client's ring; bind to the ring (its
 * layout read from the kernel), load, attach. What the client gets back:
 * fds of the program's .bss and .data maps, to watch its counters.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "iouring-bpf.h"
#include "daemon.h"

struct attached {
	struct iouring_bpf	*h;
	int			memfd;	/* an object's verified copy, or -1 */
};

void attach_init(int verbose)
{
	iouring_bpf_set_verbose(verbose);
}

int attach_is_builtin(const char *name)
{
	const struct iouring_bpf_prog *p = iouring_bpf_prog_find(name);
	struct iouring_bpf *h;
	int kind;

	if (!p)
		return 0;
	h = iouring_bpf_open_prog(p, NULL);
	if (!h)
		return 0;
	kind = iouring_bpf_kind(h);
	iouring_bpf_close(h);
	return kind == IOURING_BPF_KIND_LOOP ? 1 : 2;
}

int attach_param_range(const char *prog, const char *param, long long *min,
		       long long *max)
{
	const struct iouring_bpf_prog *p = iouring_bpf_prog_find(prog);

	if (!p)
		return -ENOENT;
	return iouring_bpf_prog_param_range(p, param, min, max);
}

int attach_check_opcodes(const char *list, char *msg, size_t len, int *col)
{
	struct iouring_bpf_error err;
	struct iouring_bpf_filter *f;
	char text[600];
	const char *p;

	snprintf(text, sizeof(text), "default deny\nallow %s\n", list);
	f = iouring_bpf_filter_compile(text, "opcodes", NULL, &err);
	if (f) {
		iouring_bpf_filter_free(f);
		return 0;
	}
	/* "opcodes:2:COL: problem": keep the problem, return the column */
	*col = 0;
	p = strstr(err.msg, "opcodes:2:");
	if (p) {
		*col = atoi(p + 10) - 1;
		p = strchr(p + 10, ':');
		p = p ? p + 1 : err.msg;
		while (*p == ' ')
			p++;
	} else {
		p = err.msg;
	}
	snprintf(msg, len, "opcodes: %s", p);
	return -1;
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

static int from_err(struct attach_out *out, const struct iouring_bpf_error *e)
{
	out->status = e->status ? e->status : IOURING_BPF_FAIL;
	out->err = e->err;
	out->fix = e->fix;
	snprintf(out->msg, sizeof(out->msg), "%s", e->msg);
	return -1;
}

/* the policy's object, read once and checked, as a memfd path */
static int open_object(const struct pol_rule *r, struct attached *a,
		       struct attach_out *out)
{
	unsigned char got[32];
	char path[64];
	struct iouring_bpf_error err;
	void *buf;
	ssize_t n;
	int fd;

	fd = open(r->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(out, IOURING_BPF_FAIL, errno,
			    "the policy's object %s cannot be read: %s",
			    r->path, strerror(errno));
	buf = malloc(64 << 20);
	n = buf ? read(fd, buf, 64 << 20) : -1;
	close(fd);
	if (n <= 0) {
		free(buf);
		return fail(out, IOURING_BPF_FAIL, EIO, "cannot read %s",
			    r->path);
	}
	sha256(buf, n, got);
	if (memcmp(got, r->sha256, 32)) {
		free(buf);
		return fail(out, IOURING_BPF_PERM, EPERM,
			    "%s has changed since the policy named it (its SHA-256 differs): refused; the administrator must check it and update the policy",
			    r->path);
	}
	a->memfd = memfd_create("iouring-bpfd-object", MFD_CLOEXEC);
	if (a->memfd < 0 || write(a->memfd, buf, n) != n) {
		free(buf);
		return fail(out, IOURING_BPF_FAIL, errno, "memfd: %s",
			    strerror(errno));
	}
	free(buf);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", a->memfd);
	a->h = iouring_bpf_open(path, &err);
	return a->h ? 0 : from_err(out, &err);
}

/* one KEY=VALUE: bounded by the rule, or the program's default */
static int set_param(const struct pol_rule *r, struct attached *a,
		     const char *kv, struct attach_out *out)
{
	struct iouring_bpf_error err;
	const struct pol_param *pp;
	char key[POL_NAME_MAX];
	const char *eq = strchr(kv, '=');
	long long v, def;
	char *end;

	if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof(key))
		return fail(out, IOURING_BPF_USAGE, EINVAL,
			    "parameter '%s' is not KEY=VALUE", kv);
	memcpy(key, kv, eq - kv);
	key[eq - kv] = 0;
	if (!policy_name_ok(key))
		return fail(out, IOURING_BPF_USAGE, EINVAL,
			    "'%s' is not a parameter name", key);
	errno = 0;
	v = strtoll(eq + 1, &end, 0);
	if (errno || end == eq + 1 || *end)
		return fail(out, IOURING_BPF_USAGE, EINVAL,
			    "parameter %s: '%s' is not an integer (the broker takes numbers only)",
			    key, eq + 1);
	pp = policy_param(r, key);
	if (pp && (v < pp->min || v > pp->max))
		return fail(out, IOURING_BPF_PERM, ERANGE,
			    "parameter %s=%lld is outside the policy's bounds for %s (%lld..%lld)",
			    key, v, r->name, pp->min, pp->max);
	if (!pp) {
		if (iouring_bpf_var_int(a->h, key, &def))
			return fail(out, IOURING_BPF_USAGE, ENOENT,
				    "%s has no parameter '%s'", r->name, key);
		if (def != v)
			return fail(out, IOURING_BPF_PERM, EPERM,
				    "parameter %s: the policy's rule for %s does not list it, so only its default (%lld) is allowed; got %lld",
				    key, r->name, def, v);
		return 0;
	}
	if (iouring_bpf_set(a->h, kv, &err))
		return from_err(out, &err);
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
	struct bpf_object *obj = iouring_bpf_object(a->h);
	struct bpf_map *map;

	bpf_object__for_each_map(map, obj) {
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

struct attached *attach_program(const struct attach_req *req,
				struct attach_out *out)
{
	const struct pol_rule *r = req->rule;
	struct iouring_bpf_error err;
	struct iouring_bpf_filter *f;
	struct attached *a;
	int i;

	memset(out, 0, sizeof(*out));
	a = calloc(1, sizeof(*a));
	if (!a) {
		fail(out, IOURING_BPF_FAIL, ENOMEM, "out of memory");
		return NULL;
	}
	a->memfd = -1;
	if (r->is_object) {
		if (open_object(r, a, out))
			goto fail;
	} else {
		a->h = iouring_bpf_open(r->name, &err);
		if (!a->h) {
			from_err(out, &err);
			goto fail;
		}
	}
	if (iouring_bpf_kind(a->h) != IOURING_BPF_KIND_LOOP) {
		fail(out, IOURING_BPF_USAGE, EINVAL,
		     "%s is an IORING_OP_BPF op, which serves every ring of the system: the broker attaches loop programs only",
		     r->name);
		goto fail;
	}
	for (i = 0; i < req->nparams; i++)
		if (set_param(r, a, req->params[i], out))
			goto fail;
	if (iouring_bpf_check_kernel(a->h, &err)) {
		from_err(out, &err);
		goto fail;
	}
	if (r->opcodes[0]) {
		char text[600];

		snprintf(text, sizeof(text), "default deny\nallow %s\n",
			 r->opcodes);
		f = iouring_bpf_filter_compile(text, r->name, NULL, &err);
		if (!f || iouring_bpf_filter_apply(f, req->ring_fd, &err)) {
			iouring_bpf_filter_free(f);
			from_err(out, &err);
			snprintf(out->msg, sizeof(out->msg),
				 "the policy limits %s's ring to the opcodes %s, and the ring filter could not be registered: %.300s",
				 r->name, r->opcodes, err.msg);
			goto fail;
		}
		iouring_bpf_filter_free(f);
	}
	if (iouring_bpf_set_ring(a->h, req->ring_fd, NULL, &err) ||
	    iouring_bpf_load(a->h, &err) || iouring_bpf_attach_link(a->h, &err)) {
		from_err(out, &err);
		goto fail;
	}
	snprintf(out->binding, sizeof(out->binding), "%s",
		 iouring_bpf_loop_api_key(iouring_bpf_loop_binding(a->h)));
	data_fds(a, out);
	return a;
fail:
	attach_release(a);
	if (!out->status)
		out->status = IOURING_BPF_FAIL;
	return NULL;
}

void attach_release(struct attached *a)
{
	if (!a)
		return;
	iouring_bpf_close(a->h);	/* detach, unload */
	if (a->memfd >= 0)
		close(a->memfd);
	free(a);
}
