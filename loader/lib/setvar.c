// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * setvar.c - give a program's globals their values: any global of
 * .rodata, .data or .bss, by name, from a "NAME=VALUE" string.
 *
 *   NAME=42, NAME=-1, NAME=0x10   an integer (1, 2, 4, 8 bytes, signed or
 *                                 unsigned, enum, bool, pointer), range
 *                                 checked against its type
 *   NAME[I]=V                     element I of an integer array
 *   NAME=text                     a char array: the string, NUL-padded
 *   NAME=@PATH, NAME=@>PATH       a resource: the fd of PATH opened for
 *                                 reading, or created/truncated for writing
 *                                 when the program is attached (a refused
 *                                 start creates and truncates nothing)
 *   ADDR[,SIZE]=@buf:N            a resource: N bytes (K, M, G suffixes)
 *                                 of zeroed memory; its address goes into
 *                                 ADDR, N into SIZE
 *
 * Before load a value goes into libbpf's image of the section (libbpf
 * writes .data/.bss into the maps at load); after load .data/.bss are
 * written in the live map and .rodata refuses (the kernel froze it).
 * Resources belong to this process (the one whose io_uring_enter() runs
 * the program): they live until iouring_bpf_close().
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* O_TMPFILE, dup3() */
#endif
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <bpf/btf.h>
#include "internal.h"

/* "4-byte unsigned integer", "char[64]", ... for messages */
static void type_desc(const struct objvar *v, char *out, size_t len)
{
	const struct btf_type *t = v->type;

	if (btf_is_int(t))
		snprintf(out, len, "%u-byte %s", t->size,
			 btf_int_encoding(t) & BTF_INT_BOOL ? "bool" :
			 btf_int_encoding(t) & BTF_INT_SIGNED ?
			 "signed integer" : "unsigned integer");
	else if (btf_is_any_enum(t))
		snprintf(out, len, "%u-byte enum", t->size);
	else if (btf_is_ptr(t))
		snprintf(out, len, "pointer");
	else if (btf_is_array(t))
		snprintf(out, len, "array of %u", btf_array(t)->nelems);
	else if (btf_is_struct(t) || btf_is_union(t))
		snprintf(out, len, "%s of %u bytes",
			 btf_is_struct(t) ? "struct" : "union", t->size);
	else
		snprintf(out, len, "%zu-byte value", v->size);
}

/* the names of the object's globals, for "no global X" */
static void global_names(struct iouring_bpf *h, char *out, size_t len)
{
	static const char *const secs[] = { ".rodata", ".data", ".bss" };
	struct btf *btf = bpf_object__btf(h->obj);
	size_t used = 0, i;

	out[0] = '\0';
	for (i = 0; btf && i < 3; i++) {
		const struct btf_var_secinfo *vs;
		const struct btf_type *t;
		int id = btf__find_by_name_kind(btf, secs[i], BTF_KIND_DATASEC);
		int j;

		if (id < 0)
			continue;
		t = btf__type_by_id(btf, id);
		vs = btf_var_secinfos(t);
		for (j = 0; j < btf_vlen(t) && used < len; j++, vs++) {
			const struct btf_type *var = btf__type_by_id(btf, vs->type);
			const char *n = btf__name_by_offset(btf, var->name_off);

			if (!strcmp(n, "iou_exit"))
				continue;
			used += snprintf(out + used, len - used, "%s%s",
					 used ? ", " : "", n);
		}
	}
	if (!out[0])
		snprintf(out, len, "none");
}

/* a number with an optional K, M or G suffix (powers of 1024) */
static int parse_size(const char *s, unsigned long long *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	v = strtoull(s, &end, 0);
	if (errno)
		return -ERANGE;
	if (v > (1ULL << 40))
		return -EINVAL;
	if (*end && strchr("KkMmGg", *end)) {
		v <<= *end == 'K' || *end == 'k' ? 10 :
		      *end == 'M' || *end == 'm' ? 20 : 30;
		end++;
	}
	if (*end || !v || v > (1ULL << 40))
		return -EINVAL;
	*out = v;
	return 0;
}

/* store the integer text s in an integer of size bytes at p */
static int put_text(void *p, size_t size, int is_signed, int is_bool,
		    const char *s)
{
	unsigned long long u;
	long long v;
	char *end;

	if (is_bool && (!strcmp(s, "true") || !strcmp(s, "false")))
		return int_put(p, size, 0, s[0] == 't');
	errno = 0;
	if (is_signed) {
		v = strtoll(s, &end, 0);
		if (errno || end == s || *end)
			return errno == ERANGE ? -ERANGE : -EINVAL;
		return int_put(p, size, 1, v);
	}
	if (*s == '-' || !*s)
		return *s ? -ERANGE : -EINVAL;
	u = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		return errno == ERANGE ? -ERANGE : -EINVAL;
	if (is_bool && u > 1)
		return -ERANGE;
	if (size == 8) {
		*(__u64 *)p = u;
		return 0;
	}
	if (u > 0xffffffffULL)
		return -ERANGE;
	return int_put(p, size, 0, (long long)u);
}

/* an integer-like type: size, signedness, bool; -1 if not one */
static int int_like(const struct btf_type *t, size_t *size, int *is_signed,
		    int *is_bool)
{
	*is_bool = 0;
	if (btf_is_int(t)) {
		*size = t->size;
		*is_signed = !!(btf_int_encoding(t) & BTF_INT_SIGNED);
		*is_bool = !!(btf_int_encoding(t) & BTF_INT_BOOL);
		return 0;
	}
	if (btf_is_any_enum(t)) {
		*size = t->size;
		*is_signed = btf_kflag(t) || btf_is_enum(t);
		return 0;
	}
	if (btf_is_ptr(t)) {
		*size = 8;
		*is_signed = 0;
		return 0;
	}
	return -1;
}

static int store_int(struct iouring_bpf *h, const struct objvar *v,
		     const char *shown, void *p, const struct btf_type *t,
		     const char *val, struct iouring_bpf_error *err)
{
	int is_signed, is_bool, ret;
	char desc[64];
	size_t size;

	type_desc(v, desc, sizeof(desc));
	if (int_like(t, &size, &is_signed, &is_bool))
		return iou_fail(err, IOURING_BPF_USAGE, EINVAL,
				"%s: %s (%s, %s) is not an integer: --set takes integers, integer arrays by index (NAME[I]=V), char arrays and resources (@PATH, @buf:N)",
				h->name, shown, v->sec, desc);
	ret = put_text(p, size, is_signed, is_bool, val);
	if (ret == -ERANGE)
		return iou_fail(err, IOURING_BPF_USAGE, ERANGE,
				"%s: %s=%s does not fit %s (%s, %zu-byte %s)",
				h->name, shown, val, shown, v->sec, size,
				is_bool ? "bool" : is_signed ? "signed" : "unsigned");
	if (ret)
		return iou_fail(err, IOURING_BPF_USAGE, EINVAL,
				"%s: bad value '%s' for %s (%s, %s): expected an integer, or @PATH, @>PATH, @buf:N",
				h->name, val, shown, v->sec, desc);
	return 0;
}

/*
 * a built-in program's parameter: stored as any integer, then held to its
 * range (progs/NAME/unit.c); an out-of-range value leaves the old one
 */
static int store_param(struct iouring_bpf *h, const struct objvar *v,
		       const char *val, struct iouring_bpf_error *err)
{
	int is_signed, is_bool, ret;
	unsigned char old[8];
	long long got;
	size_t size;

	if (int_like(v->type, &size, &is_signed, &is_bool) ||
	    size > sizeof(old))
		return store_int(h, v, v->name, v->ptr, v->type, val, err);
	memcpy(old, v->ptr, size);
	ret = store_int(h, v, v->name, v->ptr, v->type, val, err);
	if (ret)
		return ret;
	if (iouring_bpf_int_get(v->ptr, size, is_signed, &got))
		return 0;
	ret = iou_param_check(h->prog, v->name, got, !is_signed, err);
	if (ret)
		memcpy(v->ptr, old, size);
	return ret;
}

static int add_fd(struct iouring_bpf *h, int fd)
{
	if (h->nres_fds == IOU_MAX_RES) {
		close(fd);
		return -ENOSPC;
	}
	h->res_fds[h->nres_fds++] = fd;
	return 0;
}

/*
 * @>PATH before the start is admitted: a fd number for the global and
 * nothing changed on disk. PATH if it exists (opened for writing, not
 * truncated: that checks the permission); else, if its directory lets us
 * create it, a placeholder (an unnamed O_TMPFILE there, or /dev/null)
 * that iou_outputs_commit() replaces with PATH
 */
static int output_reserve(const char *path, int *exists)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	struct stat st;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd >= 0 || errno != ENOENT) {
		*exists = 1;
		return fd;
	}
	*exists = 0;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	fd = open(dir, O_WRONLY | O_TMPFILE | O_CLOEXEC, 0644);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR &&
			errno != EINVAL))
		return fd;
	/* a file system without O_TMPFILE: ask the directory */
	if (stat(dir, &st))
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS))
		return -1;
	return open("/dev/null", O_WRONLY | O_CLOEXEC);
}

/* NAME=@PATH or NAME=@>PATH: open it (@>PATH: reserve it), store the fd */
static int set_fd(struct iouring_bpf *h, const struct objvar *v,
		  const char *val, struct iouring_bpf_error *err)
{
	int wr = val[1] == '>';
	const char *path = val + 1 + wr;
	struct iou_output *o = NULL;
	int fd, ret, exists = 1;
	char num[16];

	if (!*path)
		return iou_fail(err, IOURING_BPF_USAGE, EINVAL,
				"%s: %s=%s names no file: @PATH opens PATH for reading, @>PATH creates it for writing",
				h->name, v->name, val);
	if (wr && h->nouts == IOU_MAX_RES)
		return iou_fail(err, IOURING_BPF_USAGE, ENOSPC,
				"%s: more than %d @>PATH outputs", h->name,
				IOU_MAX_RES);
	fd = wr ? output_reserve(path, &exists) :
		  open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return iou_fail(err, IOURING_BPF_USAGE, errno,
				"%s: %s=%s: cannot %s %s%s: %s",
				h->name, v->name, val,
				wr && !exists ? "create" : "open", path,
				!wr ? " for reading" : exists ?
				" for writing" : "", strerror(errno));
	if (add_fd(h, fd))
		return iou_fail(err, IOURING_BPF_USAGE, ENOSPC,
				"%s: more than %d resources", h->name, IOU_MAX_RES);
	if (wr) {
		o = &h->outs[h->nouts];
		o->path = strdup(path);
		if (!o->path)
			return iou_fail(err, IOURING_BPF_FAIL, ENOMEM,
					"out of memory");
		o->fd = fd;
		o->exists = exists;
		o->created = 0;
		h->nouts++;
	}
	snprintf(num, sizeof(num), "%d", fd);
	ret = store_int(h, v, v->name, v->ptr, v->type, num, err);
	/* attached already: the program may use it now */
	if (!ret && o && h->link)
		ret = iou_outputs_commit(h, err);
	return ret;
}

/*
 * The start is admitted (values, kernel, privilege, load, ring checked):
 * each @>PATH becomes its file, truncated or created, on the fd number
 * its global holds
 */
int iou_outputs_commit(struct iouring_bpf *h, struct iouring_bpf_error *err)
{
	struct iou_output *o;
	struct stat st;
	int fd;

	for (; h->outs_done < h->nouts; h->outs_done++) {
		o = &h->outs[h->outs_done];
		if (o->exists) {
			if (!fstat(o->fd, &st) && S_ISREG(st.st_mode) &&
			    ftruncate(o->fd, 0))
				return iou_fail(err, IOURING_BPF_FAIL, errno,
						"%s: cannot truncate %s: %s",
						h->name, o->path,
						strerror(errno));
			continue;
		}
		fd = open(o->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			  0644);
		if (fd >= 0)
			o->created = 1;
		else if (errno == EEXIST)
			fd = open(o->path, O_WRONLY | O_TRUNC | O_CLOEXEC);
		if (fd < 0)
			return iou_fail(err, IOURING_BPF_FAIL, errno,
					"%s: cannot create %s: %s", h->name,
					o->path, strerror(errno));
		if (dup3(fd, o->fd, O_CLOEXEC) < 0) {
			int e = errno;

			close(fd);
			return iou_fail(err, IOURING_BPF_FAIL, e,
					"%s: cannot put %s on fd %d: %s",
					h->name, o->path, o->fd, strerror(e));
		}
		close(fd);
	}
	return 0;
}

/* the start failed after the commit: remove the files it created */
void iou_outputs_undo(struct iouring_bpf *h)
{
	int i;

	for (i = 0; i < h->outs_done; i++)
		if (h->outs[i].created) {
			unlink(h->outs[i].path);
			h->outs[i].created = 0;
		}
}

/* ADDR[,SIZE]=@buf:N: map N bytes, store the address (and N) */
static int set_buf(struct iouring_bpf *h, const struct objvar *v,
		   const char *size_name, const char *val,
		   struct iouring_bpf_error *err)
{
	unsigned long long n;
	struct objvar sv;
	char num[32];
	void *m;
	int ret;

	if (parse_size(val + 5, &n))
		return iou_fail(err, IOURING_BPF_USAGE, EINVAL,
				"%s: %s: '%s' wants a size: @buf:N with N > 0, K, M or G allowed (@buf:1M)",
				h->name, v->name, val);
	if (v->size != 8 || (!btf_is_ptr(v->type) && !btf_is_int(v->type)))
		return iou_fail(err, IOURING_BPF_USAGE, EINVAL,
				"%s: %s (%s) cannot hold an address: it must be a pointer or a 64-bit integer",
				h->name, v->name, v->sec);
	if (size_name) {
		ret = objvar_find(h->obj, size_name, &sv);
		if (ret)
			return iou_fail(err, IOURING_BPF_USAGE, ENOENT,
					"%s: no global '%s' for the size of %s",
					h->name, size_name, v->name);
		if (h->loaded && !strcmp(sv.sec, ".rodata"))
			return iou_fail(err, IOURING_BPF_USAGE, EROFS,
					"%s: %s is in .rodata (a const volatile global): it is fixed at load, set it before load",
					h->name, size_name);
	}
	if (h->nbufs == IOU_MAX_RES)
		return iou_fail(err, IOURING_BPF_USAGE, ENOSPC,
				"%s: more than %d buffers", h->name, IOU_MAX_RES);
	m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (m == MAP_FAILED)
		return iou_fail(err, IOURING_BPF_FAIL, errno,
				"%s: cannot allocate %llu bytes for %s: %s",
				h->name, n, v->name, strerror(errno));
	h->bufs[h->nbufs].addr = m;
	h->bufs[h->nbufs++].len = n;
	*(__u64 *)v->ptr = (unsigned long)m;
	if (!size_name)
		return 0;
	snprintf(num, sizeof(num), "%llu", n);
	return store_int(h, &sv, sv.name, sv.ptr, sv.type, num, err);
}

/* "NAME", "NAME[I]" or "ADDR,SIZE" of kv, up to '=' */
struct setname {
	char	name[128];
	char	size_name[128];	/* after a ',', else "" */
	long	index;		/* -1: none */
};

static int parse_name(const char *kv, const char *eq, struct setname *s)
{
	const char *comma, *br;
	size_t n = eq - kv;
	char *end;

	if (!n || n >= sizeof(s->name))
		return -EINVAL;
	memcpy(s->name, kv, n);
	s->name[n] = '\0';
	s->size_name[0] = '\0';
	s->index = -1;
	comma = strchr(s->name, ',');
	if (comma) {
		snprintf(s->size_name, sizeof(s->size_name), "%s", comma + 1);
		s->name[comma - s->name] = '\0';
		if (!s->name[0] || !s->size_name[0])
			return -EINVAL;
	}
	br = strchr(s->name, '[');
	if (br) {
		errno = 0;
		s->index = strtol(br + 1, &end, 0);
		if (errno || end == br + 1 || *end != ']' || end[1] ||
		    s->index < 0 || br == s->name || comma)
			return -EINVAL;
		s->name[br - s->name] = '\0';
	}
	return 0;
}

/* check_param: a built-in program takes only its listed parameters */
static int set_kv(struct iouring_bpf *h, const char *kv, int check_param,
		  struct iouring_bpf_error *err)
{
	const char *eq = strchr(kv, '='), *val;
	const struct btf_type *elem;
	struct setname s;
	struct objvar v;
	char names[512], desc[64], shown[160];
	__u32 nelems;
	__s64 esz;

	if (!eq || parse_name(kv, eq, &s))
		return iou_fail(err, IOURING_BPF_USAGE, EINVAL,
				"bad --set '%.200s': expected NAME=VALUE, NAME[I]=VALUE or ADDR,SIZE=@buf:N",
				kv);
	val = eq + 1;
	if (check_param && h->prog && !iouring_bpf_prog_param(h->prog, s.name))
		return iou_fail(err, IOURING_BPF_USAGE, ENOENT,
			"%s has no parameter '%s' (see `iouring-bpf list`)",
			h->name, s.name);
	if (h->prog && (val[0] == '@' || s.size_name[0] || s.index >= 0))
		return iou_fail(err, IOURING_BPF_USAGE, EINVAL,
				"%s: its parameters are numbers: %s=N (resources and arrays are for FILE.bpf.o)",
				h->name, s.name);
	if (objvar_find(h->obj, s.name, &v)) {
		global_names(h, names, sizeof(names));
		return iou_fail(err, IOURING_BPF_USAGE, ENOENT,
				"%s: no global '%s' in .rodata, .data or .bss (its globals: %s)",
				h->name, s.name, names);
	}
	type_desc(&v, desc, sizeof(desc));
	if (h->loaded && !strcmp(v.sec, ".rodata"))
		return iou_fail(err, IOURING_BPF_USAGE, EROFS,
				"%s: %s is in .rodata (a const volatile global): it is fixed at load, set it before load",
				h->name, s.name);
	if (s.size_name[0] && strncmp(val, "@buf:", 5))
		return iou_fail(err, IOURING_BPF_USAGE, EINVAL,
				"%s: ADDR,SIZE=... is for buffers: %s,%s=@buf:N",
				h->name, s.name, s.size_name);
	if (!strncmp(val, "@buf:", 5) && s.index < 0)
		return set_buf(h, &v, s.size_name[0] ? s.size_name : NULL,
			       val, err);
	if (val[0] == '@' && s.index < 0)
		return set_fd(h, &v, val, err);
	if (!btf_is_array(v.type)) {
		if (s.index >= 0)
			return iou_fail(err, IOURING_BPF_USAGE, EINVAL,
					"%s: %s (%s, %s) is not an array: drop the [%ld]",
					h->name, s.name, v.sec, desc, s.index);
		if (h->prog)
			return store_param(h, &v, val, err);
		return store_int(h, &v, s.name, v.ptr, v.type, val, err);
	}
	nelems = btf_array(v.type)->nelems;
	elem = objvar_resolve(v.btf, btf_array(v.type)->type, NULL);
	esz = elem ? btf__resolve_size(v.btf, btf_array(v.type)->type) : -1;
	if (esz <= 0)
		return iou_fail(err, IOURING_BPF_USAGE, EINVAL,
				"%s: %s (%s) has an element type --set does not know",
				h->name, s.name, v.sec);
	if (s.index < 0 && esz == 1 && btf_is_int(elem)) {
		size_t len = strlen(val);

		if (len >= nelems)
			return iou_fail(err, IOURING_BPF_USAGE, ERANGE,
					"%s: %s (%s, char[%u]) holds at most %u characters and a NUL; '%.64s' has %zu",
					h->name, s.name, v.sec, nelems,
					nelems - 1, val, len);
		memset(v.ptr, 0, nelems);
		memcpy(v.ptr, val, len);
		return 0;
	}
	if (s.index < 0)
		return iou_fail(err, IOURING_BPF_USAGE, EINVAL,
				"%s: %s (%s) is an array of %u: set one element with %s[I]=VALUE",
				h->name, s.name, v.sec, nelems, s.name);
	if (s.index >= (long)nelems)
		return iou_fail(err, IOURING_BPF_USAGE, ERANGE,
				"%s: %s[%ld]: %s (%s) has %u elements (0..%u)",
				h->name, s.name, s.index, s.name, v.sec, nelems,
				nelems - 1);
	snprintf(shown, sizeof(shown), "%s[%ld]", s.name, s.index);
	return store_int(h, &v, shown, (char *)v.ptr + s.index * esz, elem,
			 val, err);
}

int iouring_bpf_set_var(struct iouring_bpf *h, const char *name,
			long long value, struct iouring_bpf_error *err)
{
	char kv[192];

	if (strlen(name) > 127 || strpbrk(name, "=[,"))
		return iou_fail(err, IOURING_BPF_USAGE, EINVAL,
				"bad global name '%.128s'", name);
	snprintf(kv, sizeof(kv), "%s=%lld", name, value);
	return set_kv(h, kv, 0, err);
}

int iouring_bpf_set(struct iouring_bpf *h, const char *kv,
		    struct iouring_bpf_error *err)
{
	return set_kv(h, kv, 1, err);
}

void iou_res_free(struct iouring_bpf *h)
{
	int i;

	for (i = 0; i < h->nres_fds; i++)
		close(h->res_fds[i]);
	for (i = 0; i < h->nbufs; i++)
		munmap(h->bufs[i].addr, h->bufs[i].len);
	for (i = 0; i < h->nouts; i++)
		free(h->outs[i].path);
	h->nres_fds = h->nbufs = h->nouts = h->outs_done = 0;
}
