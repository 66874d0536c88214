// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * setarg.c - the --set language: a program's globals given their values
 * from "NAME=VALUE" strings, and the files and buffers some values make.
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
 * A built-in program takes its listed parameters only, as numbers: they
 * go through the engine's typed store (iouring_bpf_set_var()), which
 * holds them to their ranges. Any other global is written where the
 * engine says it is (iouring_bpf_global_writable()): libbpf's image before load,
 * the live map after (.rodata refuses then: the kernel froze it).
 *
 * Resources belong to this process (the one whose io_uring_enter() runs
 * the program) and to the caller's struct setarg_res: free it with
 * setarg_free() after iouring_bpf_close(), when no program can use them.
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
#include "setarg.h"

#define setarg_fail iouring_bpf_errorf

/* "4-byte unsigned integer", "char[64]", ... for messages */
static void type_desc(const struct iouring_bpf_global *v, char *out,
		      size_t len)
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
		return iouring_bpf_int_put(p, size, 0, s[0] == 't');
	errno = 0;
	if (is_signed) {
		v = strtoll(s, &end, 0);
		if (errno || end == s || *end)
			return errno == ERANGE ? -ERANGE : -EINVAL;
		return iouring_bpf_int_put(p, size, 1, v);
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
	return iouring_bpf_int_put(p, size, 0, (long long)u);
}

static int store_int(struct iouring_bpf *h, const struct iouring_bpf_global *v,
		     const char *shown, void *p, const struct btf_type *t,
		     const char *val, struct iouring_bpf_error *err)
{
	const char *name = iouring_bpf_name(h);
	int is_signed, is_bool, ret;
	char desc[64];
	size_t size;

	type_desc(v, desc, sizeof(desc));
	if (iouring_bpf_int_type(t, &size, &is_signed, &is_bool))
		return setarg_fail(err, IOURING_BPF_USAGE, EINVAL,
				   "%s: %s (%s, %s) is not an integer: --set takes integers, integer arrays by index (NAME[I]=V), char arrays and resources (@PATH, @buf:N)",
				   name, shown, v->sec, desc);
	ret = put_text(p, size, is_signed, is_bool, val);
	if (ret == -ERANGE)
		return setarg_fail(err, IOURING_BPF_USAGE, ERANGE,
				   "%s: %s=%s does not fit %s (%s, %zu-byte %s)",
				   name, shown, val, shown, v->sec, size,
				   is_bool ? "bool" :
				   is_signed ? "signed" : "unsigned");
	if (ret)
		return setarg_fail(err, IOURING_BPF_USAGE, EINVAL,
				   "%s: bad value '%s' for %s (%s, %s): expected an integer, or @PATH, @>PATH, @buf:N",
				   name, val, shown, v->sec, desc);
	return 0;
}

/*
 * a built-in program's parameter: the text read as its type holds it,
 * then stored through the engine, which holds it to its range
 */
static int store_param(struct iouring_bpf *h,
		       const struct iouring_bpf_global *v, const char *val,
		       struct iouring_bpf_error *err)
{
	int is_signed, is_bool, ret;
	unsigned char tmp[8];
	long long got;
	size_t size;

	if (iouring_bpf_int_type(v->type, &size, &is_signed, &is_bool) ||
	    size > sizeof(tmp))
		return store_int(h, v, v->name, v->ptr, v->type, val, err);
	ret = store_int(h, v, v->name, tmp, v->type, val, err);
	if (ret)
		return ret;
	iouring_bpf_int_get(tmp, size, is_signed, &got);
	if (!is_signed && got < 0)	/* a __u64 past LLONG_MAX */
		return setarg_fail(err, IOURING_BPF_USAGE, ERANGE,
				   "%s: %s=%s is out of range: a built-in program's parameters take at most %lld",
				   iouring_bpf_name(h), v->name, val,
				   0x7fffffffffffffffLL);
	return iouring_bpf_set_var(h, v->name, got, err);
}

static int add_fd(struct setarg_res *res, int fd)
{
	if (res->nfds == SETARG_MAX_RES) {
		close(fd);
		return -ENOSPC;
	}
	res->fds[res->nfds++] = fd;
	return 0;
}

/*
 * @>PATH before the start is admitted: a fd number for the global and
 * nothing changed on disk. PATH if it exists (opened for writing, not
 * truncated: that checks the permission); else, if its directory lets us
 * create it, a placeholder (an unnamed O_TMPFILE there, or /dev/null)
 * that setarg_commit() replaces with PATH
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

/*
 * the start is admitted: each @>PATH not yet made becomes its file,
 * truncated or created, on the fd number its global holds
 */
static int setarg_commit(struct iouring_bpf *h, struct setarg_res *res,
			 struct iouring_bpf_error *err)
{
	const char *name = iouring_bpf_name(h);
	struct setarg_output *o;
	struct stat st;
	int fd;

	for (; res->outs_done < res->nouts; res->outs_done++) {
		o = &res->outs[res->outs_done];
		if (o->exists) {
			if (!fstat(o->fd, &st) && S_ISREG(st.st_mode) &&
			    ftruncate(o->fd, 0))
				return setarg_fail(err, IOURING_BPF_FAIL, errno,
						   "%s: cannot truncate %s: %s",
						   name, o->path,
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
			return setarg_fail(err, IOURING_BPF_FAIL, errno,
					   "%s: cannot create %s: %s", name,
					   o->path, strerror(errno));
		if (dup3(fd, o->fd, O_CLOEXEC) < 0) {
			int e = errno;

			close(fd);
			return setarg_fail(err, IOURING_BPF_FAIL, e,
					   "%s: cannot put %s on fd %d: %s",
					   name, o->path, o->fd, strerror(e));
		}
		close(fd);
	}
	return 0;
}

/* the start failed after the commit: remove the files it created */
static void setarg_undo(struct setarg_res *res)
{
	int i;

	for (i = 0; i < res->outs_done; i++)
		if (res->outs[i].created) {
			unlink(res->outs[i].path);
			res->outs[i].created = 0;
		}
}

/* NAME=@PATH or NAME=@>PATH: open it (@>PATH: reserve it), store the fd */
static int set_fd(struct iouring_bpf *h, struct setarg_res *res,
		  const struct iouring_bpf_global *v, const char *val,
		  struct iouring_bpf_error *err)
{
	const char *name = iouring_bpf_name(h);
	int wr = val[1] == '>';
	const char *path = val + 1 + wr;
	struct setarg_output *o = NULL;
	int fd, ret, exists = 1;
	char num[16];

	if (!*path)
		return setarg_fail(err, IOURING_BPF_USAGE, EINVAL,
				   "%s: %s=%s names no file: @PATH opens PATH for reading, @>PATH creates it for writing",
				   name, v->name, val);
	if (wr && res->nouts == SETARG_MAX_RES)
		return setarg_fail(err, IOURING_BPF_USAGE, ENOSPC,
				   "%s: more than %d @>PATH outputs", name,
				   SETARG_MAX_RES);
	fd = wr ? output_reserve(path, &exists) :
		  open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return setarg_fail(err, IOURING_BPF_USAGE, errno,
				   "%s: %s=%s: cannot %s %s%s: %s",
				   name, v->name, val,
				   wr && !exists ? "create" : "open", path,
				   !wr ? " for reading" : exists ?
				   " for writing" : "", strerror(errno));
	if (add_fd(res, fd))
		return setarg_fail(err, IOURING_BPF_USAGE, ENOSPC,
				   "%s: more than %d resources", name,
				   SETARG_MAX_RES);
	if (wr) {
		o = &res->outs[res->nouts];
		o->path = strdup(path);
		if (!o->path)
			return setarg_fail(err, IOURING_BPF_FAIL, ENOMEM,
					   "out of memory");
		o->fd = fd;
		o->exists = exists;
		o->created = 0;
		res->nouts++;
	}
	snprintf(num, sizeof(num), "%d", fd);
	ret = store_int(h, v, v->name, v->ptr, v->type, num, err);
	/* attached already: the program may use it now */
	if (!ret && o && iouring_bpf_link(h))
		ret = setarg_commit(h, res, err);
	return ret;
}

/*
 * An op may be called by any ring once registered, so its files are in
 * place first; a loop program runs only inside io_uring_enter(), so its
 * files are touched only once the attach has succeeded, and a refused
 * attach leaves every file as it was.
 */
int setarg_attach(struct iouring_bpf *h, struct setarg_res *res,
		  struct iouring_bpf_error *err)
{
	int op = iouring_bpf_kind(h) == IOURING_BPF_KIND_OP;
	int ret = op ? setarg_commit(h, res, err) : 0;

	if (!ret)
		ret = iouring_bpf_attach_link(h, err);
	if (!ret && !op) {
		ret = setarg_commit(h, res, err);
		if (ret)
			iouring_bpf_detach_link(h);
	}
	if (ret)
		setarg_undo(res);
	return ret;
}

/* ADDR[,SIZE]=@buf:N: map N bytes, store the address (and N) */
static int set_buf(struct iouring_bpf *h, struct setarg_res *res,
		   const struct iouring_bpf_global *v, const char *size_name,
		   const char *val, struct iouring_bpf_error *err)
{
	const char *name = iouring_bpf_name(h);
	struct iouring_bpf_global sv;
	unsigned long long n;
	char num[32];
	void *m;

	if (parse_size(val + 5, &n))
		return setarg_fail(err, IOURING_BPF_USAGE, EINVAL,
				   "%s: %s: '%s' wants a size: @buf:N with N > 0, K, M or G allowed (@buf:1M)",
				   name, v->name, val);
	if (v->size != 8 || (!btf_is_ptr(v->type) && !btf_is_int(v->type)))
		return setarg_fail(err, IOURING_BPF_USAGE, EINVAL,
				   "%s: %s (%s) cannot hold an address: it must be a pointer or a 64-bit integer",
				   name, v->name, v->sec);
	if (size_name) {
		int ret = iouring_bpf_global_writable(h, size_name, &sv, err);

		if (ret)
			return ret;
	}
	if (res->nbufs == SETARG_MAX_RES)
		return setarg_fail(err, IOURING_BPF_USAGE, ENOSPC,
				   "%s: more than %d buffers", name,
				   SETARG_MAX_RES);
	m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (m == MAP_FAILED)
		return setarg_fail(err, IOURING_BPF_FAIL, errno,
				   "%s: cannot allocate %llu bytes for %s: %s",
				   name, n, v->name, strerror(errno));
	res->bufs[res->nbufs].addr = m;
	res->bufs[res->nbufs++].len = n;
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

/* NAME=text into a char array, NAME[I]=V into an element of any other */
static int set_array(struct iouring_bpf *h, const struct iouring_bpf_global *v,
		     const struct setname *s, const char *val,
		     struct iouring_bpf_error *err)
{
	const char *name = iouring_bpf_name(h);
	__u32 nelems = btf_array(v->type)->nelems;
	const struct btf_type *elem;
	char shown[160];
	int elem_id;
	__s64 esz;

	/* the element's type behind typedefs and const/volatile */
	elem_id = btf__resolve_type(v->btf, btf_array(v->type)->type);
	elem = elem_id < 0 ? NULL : btf__type_by_id(v->btf, elem_id);
	esz = elem ? btf__resolve_size(v->btf, elem_id) : -1;
	if (esz <= 0)
		return setarg_fail(err, IOURING_BPF_USAGE, EINVAL,
				   "%s: %s (%s) has an element type --set does not know",
				   name, s->name, v->sec);
	if (s->index < 0 && esz == 1 && btf_is_int(elem)) {
		size_t len = strlen(val);

		if (len >= nelems)
			return setarg_fail(err, IOURING_BPF_USAGE, ERANGE,
					   "%s: %s (%s, char[%u]) holds at most %u characters and a NUL; '%.64s' has %zu",
					   name, s->name, v->sec, nelems,
					   nelems - 1, val, len);
		memset(v->ptr, 0, nelems);
		memcpy(v->ptr, val, len);
		return 0;
	}
	if (s->index < 0)
		return setarg_fail(err, IOURING_BPF_USAGE, EINVAL,
				   "%s: %s (%s) is an array of %u: set one element with %s[I]=VALUE",
				   name, s->name, v->sec, nelems, s->name);
	if (s->index >= (long)nelems)
		return setarg_fail(err, IOURING_BPF_USAGE, ERANGE,
				   "%s: %s[%ld]: %s (%s) has %u elements (0..%u)",
				   name, s->name, s->index, s->name, v->sec,
				   nelems, nelems - 1);
	snprintf(shown, sizeof(shown), "%s[%ld]", s->name, s->index);
	return store_int(h, v, shown, (char *)v->ptr + s->index * esz, elem,
			 val, err);
}

int setarg_apply(struct iouring_bpf *h, struct setarg_res *res,
		 const char *kv, struct iouring_bpf_error *err)
{
	const struct iouring_bpf_prog *prog = iouring_bpf_builtin(h);
	const char *name = iouring_bpf_name(h);
	const char *eq = strchr(kv, '='), *val;
	struct iouring_bpf_global v;
	struct setname s;
	char desc[64];
	int ret;

	if (!eq || parse_name(kv, eq, &s))
		return setarg_fail(err, IOURING_BPF_USAGE, EINVAL,
				   "bad --set '%.200s': expected NAME=VALUE, NAME[I]=VALUE or ADDR,SIZE=@buf:N",
				   kv);
	val = eq + 1;
	if (prog && !iouring_bpf_prog_param(prog, s.name))
		return setarg_fail(err, IOURING_BPF_USAGE, ENOENT,
				   "%s has no parameter '%s' (see `iouring-bpf list`)",
				   name, s.name);
	if (prog && (val[0] == '@' || s.size_name[0] || s.index >= 0))
		return setarg_fail(err, IOURING_BPF_USAGE, EINVAL,
				   "%s: its parameters are numbers: %s=N (resources and arrays are for FILE.bpf.o)",
				   name, s.name);
	ret = iouring_bpf_global_writable(h, s.name, &v, err);
	if (ret)
		return ret;
	type_desc(&v, desc, sizeof(desc));
	if (s.size_name[0] && strncmp(val, "@buf:", 5))
		return setarg_fail(err, IOURING_BPF_USAGE, EINVAL,
				   "%s: ADDR,SIZE=... is for buffers: %s,%s=@buf:N",
				   name, s.name, s.size_name);
	if (!strncmp(val, "@buf:", 5) && s.index < 0)
		return set_buf(h, res, &v, s.size_name[0] ? s.size_name : NULL,
			       val, err);
	if (val[0] == '@' && s.index < 0)
		return set_fd(h, res, &v, val, err);
	if (btf_is_array(v.type))
		return set_array(h, &v, &s, val, err);
	if (s.index >= 0)
		return setarg_fail(err, IOURING_BPF_USAGE, EINVAL,
				   "%s: %s (%s, %s) is not an array: drop the [%ld]",
				   name, s.name, v.sec, desc, s.index);
	if (prog)
		return store_param(h, &v, val, err);
	return store_int(h, &v, s.name, v.ptr, v.type, val, err);
}

void setarg_free(struct setarg_res *res)
{
	int i;

	for (i = 0; i < res->nfds; i++)
		close(res->fds[i]);
	for (i = 0; i < res->nbufs; i++)
		munmap(res->bufs[i].addr, res->bufs[i].len);
	for (i = 0; i < res->nouts; i++)
		free(res->outs[i].path);
	memset(res, 0, sizeof(*res));
}
