// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * filter_layout.c - where each field of struct io_uring_bpf_ctx is, and
 * what the opcodes are called: read from the running kernel's BTF (or a
 * BTF file), so that a policy compiled for one kernel never reads the
 * wrong bytes on another ("CO-RE for classic BPF"). Without BTF, a
 * built-in table measured on Debian's Linux 7.2.13 (bpftool btf dump of
 * its vmlinux) is used, and the layout's source says so.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include "filter_internal.h"
#include "internal.h"

static const char *const field_names[F_NR] = {
	[F_USER_DATA] = "user_data", [F_SQE_FLAGS] = "sqe_flags",
	[F_FAMILY] = "family", [F_TYPE] = "type", [F_PROTOCOL] = "protocol",
	[F_PORT] = "port", [F_ADDR] = "addr", [F_FLAGS] = "flags",
	[F_ACCMODE] = "accmode", [F_MODE] = "mode", [F_RESOLVE] = "resolve",
};

const char *iouf_field_name(enum iouf_field f)
{
	return f < F_NR ? field_names[f] : "?";
}

enum iouf_payload iouf_op_payload(const char *opname)
{
	if (!strcmp(opname, "socket"))
		return P_SOCKET;
	if (!strcmp(opname, "openat") || !strcmp(opname, "openat2"))
		return P_OPEN;
	if (!strcmp(opname, "connect"))
		return P_CONNECT;
	return P_NONE;
}

/* Linux 7.2.13 (Debian 7.2.13-1), enum io_uring_op */
static const char *const builtin_ops[] = {
	"nop", "readv", "writev", "fsync", "read_fixed", "write_fixed",
	"poll_add", "poll_remove", "sync_file_range", "sendmsg", "recvmsg",
	"timeout", "timeout_remove", "accept", "async_cancel", "link_timeout",
	"connect", "fallocate", "openat", "close", "files_update", "statx",
	"read", "write", "fadvise", "madvise", "send", "recv", "openat2",
	"epoll_ctl", "splice", "provide_buffers", "remove_buffers", "tee",
	"shutdown", "renameat", "unlinkat", "mkdirat", "symlinkat", "linkat",
	"msg_ring", "fsetxattr", "setxattr", "fgetxattr", "getxattr", "socket",
	"uring_cmd", "send_zc", "sendmsg_zc", "read_multishot", "waitid",
	"futex_wait", "futex_wake", "futex_waitv", "fixed_fd_install",
	"ftruncate", "bind", "listen", "recv_zc", "epoll_wait", "readv_fixed",
	"writev_fixed", "pipe", "nop128", "uring_cmd128",
};

void iouf_layout_builtin(struct iouf_layout *lay)
{
	unsigned int i;

	memset(lay, 0, sizeof(*lay));
	snprintf(lay->source, sizeof(lay->source), "%s",
		 "built-in table (Linux 7.2.13), no kernel BTF");
	lay->ctx_size = 40;
	lay->user_data = (struct iouf_loc){ 0, 8 };
	lay->sqe_flags = (struct iouf_loc){ 9, 1 };
	lay->socket_family = (struct iouf_loc){ 16, 4 };
	lay->socket_type = (struct iouf_loc){ 20, 4 };
	lay->socket_protocol = (struct iouf_loc){ 24, 4 };
	lay->open_flags = (struct iouf_loc){ 16, 8 };
	lay->open_mode = (struct iouf_loc){ 24, 8 };
	lay->open_resolve = (struct iouf_loc){ 32, 8 };
	lay->connect_family = (struct iouf_loc){ 16, 4 };
	lay->connect_port = (struct iouf_loc){ 20, 2 };
	lay->connect_v4 = (struct iouf_loc){ 24, 4 };
	lay->connect_v6 = (struct iouf_loc){ 24, 16 };
	lay->payload_size[P_SOCKET] = 12;
	lay->payload_size[P_OPEN] = 24;
	lay->payload_size[P_CONNECT] = 24;
	lay->nr_ops = sizeof(builtin_ops) / sizeof(builtin_ops[0]);
	for (i = 0; i < (unsigned int)lay->nr_ops; i++)
		snprintf(lay->opname[i], sizeof(lay->opname[i]), "%s",
			 builtin_ops[i]);
}

/*
 * Member `name` of struct/union `id`, looking through anonymous members;
 * *off is the byte offset from the start of `id`. The member's type id,
 * or 0 if there is none.
 */
static __u32 find_member(const struct btf *btf, __u32 id, const char *name,
			 int *off)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m;
	int i, sub;

	while (t && (btf_is_typedef(t) || btf_is_mod(t)))
		t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_composite(t))
		return 0;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *mn = btf__name_by_offset(btf, m->name_off);
		__u32 r;

		if (btf_member_bitfield_size(t, i))
			continue;
		if (mn && *mn) {
			if (!strcmp(mn, name)) {
				*off = btf_member_bit_offset(t, i) / 8;
				return m->type;
			}
			continue;
		}
		r = find_member(btf, m->type, name, &sub);
		if (r) {
			*off = btf_member_bit_offset(t, i) / 8 + sub;
			return r;
		}
	}
	return 0;
}

/* "connect.port" in struct id: its offset and size, or off -1 */
static void locate(const struct btf *btf, __u32 id, const char *path,
		   struct iouf_loc *loc, int *outer_size)
{
	char buf[64], *dot;
	int off1 = 0, off2 = 0;
	__u32 t;
	__s64 sz;

	loc->off = -1;
	loc->size = 0;
	snprintf(buf, sizeof(buf), "%s", path);
	dot = strchr(buf, '.');
	if (dot)
		*dot = 0;
	t = find_member(btf, id, buf, &off1);
	if (!t)
		return;
	if (outer_size) {
		sz = btf__resolve_size(btf, t);
		*outer_size = sz > 0 ? (int)sz : 0;
	}
	if (dot) {
		t = find_member(btf, t, dot + 1, &off2);
		if (!t)
			return;
	}
	sz = btf__resolve_size(btf, t);
	if (sz <= 0)
		return;
	loc->off = off1 + off2;
	loc->size = (int)sz;
}

static void read_ops(struct iouf_layout *lay, const struct btf *btf)
{
	int id = btf__find_by_name_kind(btf, "io_uring_op", BTF_KIND_ENUM);
	const struct btf_type *t;
	const struct btf_enum *e;
	int i, j, last = -1;

	if (id <= 0)
		return;		/* keep the built-in names */
	t = btf__type_by_id(btf, id);
	e = btf_enum(t);
	for (i = 0; i < btf_vlen(t); i++, e++)
		if (!strcmp(btf__name_by_offset(btf, e->name_off),
			    "IORING_OP_LAST"))
			last = e->val;
	if (last <= 0 || last > IOUF_MAX_OPS)
		return;
	memset(lay->opname, 0, sizeof(lay->opname));
	lay->nr_ops = last;
	e = btf_enum(t);
	for (i = 0; i < btf_vlen(t); i++, e++) {
		const char *n = btf__name_by_offset(btf, e->name_off);

		if (strncmp(n, "IORING_OP_", 10) || e->val < 0 || e->val >= last)
			continue;
		for (j = 0; n[10 + j] && j < 23; j++)
			lay->opname[e->val][j] = tolower(n[10 + j]);
	}
}

int iouf_layout_load(struct iouf_layout *lay, const char *btf_path,
		     struct iouring_bpf_error *err)
{
	struct btf *btf;
	int id, ret = 0;

	iouf_layout_builtin(lay);
	/* for the tests (and the curious): the table, whatever the kernel */
	if (!btf_path && getenv("IOURING_BPF_NO_KERNEL_BTF"))
		return 0;
	errno = 0;
	btf = btf_path ? btf__parse(btf_path, NULL) : iou_kernel_btf_load(&ret);
	if (!btf) {
		if (btf_path)
			return iou_fail(err, IOURING_BPF_USAGE, errno,
					"cannot read BTF from %s: %s; give a vmlinux or a raw .btf file",
					btf_path, strerror(errno ? errno : ENOENT));
		return 0;	/* no kernel BTF: the built-in table */
	}
	id = btf__find_by_name_kind(btf, "io_uring_bpf_ctx", BTF_KIND_STRUCT);
	if (id <= 0) {
		/* a kernel without filters: its opcodes, the table's layout */
		read_ops(lay, btf);
		snprintf(lay->source, sizeof(lay->source),
			 "built-in table (Linux 7.2.13): %s has no struct io_uring_bpf_ctx",
			 btf_path ? btf_path : "the kernel's BTF");
		iou_kernel_btf_free(btf);
		return 0;
	}
	snprintf(lay->source, sizeof(lay->source), "%s",
		 btf_path ? btf_path : "kernel BTF");
	lay->from_btf = 1;
	lay->ctx_size = (int)btf__resolve_size(btf, id);
	locate(btf, id, "user_data", &lay->user_data, NULL);
	locate(btf, id, "sqe_flags", &lay->sqe_flags, NULL);
	locate(btf, id, "socket.family", &lay->socket_family,
	       &lay->payload_size[P_SOCKET]);
	locate(btf, id, "socket.type", &lay->socket_type, NULL);
	locate(btf, id, "socket.protocol", &lay->socket_protocol, NULL);
	locate(btf, id, "open.flags", &lay->open_flags,
	       &lay->payload_size[P_OPEN]);
	locate(btf, id, "open.mode", &lay->open_mode, NULL);
	locate(btf, id, "open.resolve", &lay->open_resolve, NULL);
	locate(btf, id, "connect.family", &lay->connect_family,
	       &lay->payload_size[P_CONNECT]);
	locate(btf, id, "connect.port", &lay->connect_port, NULL);
	locate(btf, id, "connect.v4_addr", &lay->connect_v4, NULL);
	locate(btf, id, "connect.v6_addr", &lay->connect_v6, NULL);
	if (lay->socket_family.off < 0)
		lay->payload_size[P_SOCKET] = 0;
	if (lay->open_flags.off < 0)
		lay->payload_size[P_OPEN] = 0;
	if (lay->connect_family.off < 0)
		lay->payload_size[P_CONNECT] = 0;
	read_ops(lay, btf);
	iou_kernel_btf_free(btf);
	return 0;
}

/* the name of the field a 32-bit load at off reads, for the disassembler */
const char *iouf_layout_describe(const struct iouf_layout *lay, int off,
				 const char *opname)
{
	static char buf[160];
	const struct {
		const char *name;
		const struct iouf_loc *loc;
	} f[] = {
		{ "user_data", &lay->user_data },
		{ "sqe_flags", &lay->sqe_flags },
		{ "socket.family", &lay->socket_family },
		{ "socket.type", &lay->socket_type },
		{ "socket.protocol", &lay->socket_protocol },
		{ "open.flags", &lay->open_flags },
		{ "open.mode", &lay->open_mode },
		{ "open.resolve", &lay->open_resolve },
		{ "connect.family", &lay->connect_family },
		{ "connect.port", &lay->connect_port },
		{ "connect.v4_addr", &lay->connect_v4 },
		{ "connect.v6_addr", &lay->connect_v6 },
	};
	size_t i, n = 0;

	buf[0] = 0;
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		const struct iouf_loc *l = f[i].loc;

		const char *dot = strchr(f[i].name, '.');
		enum iouf_payload pl = iouf_op_payload(opname);

		if (l->off < 0 || off + 4 <= l->off || off >= l->off + l->size)
			continue;
		/* a payload field only for the opcodes that have that payload */
		if (dot && !((pl == P_SOCKET && !strncmp(f[i].name, "socket", 6)) ||
			     (pl == P_OPEN && !strncmp(f[i].name, "open", 4)) ||
			     (pl == P_CONNECT && !strncmp(f[i].name, "connect", 7))))
			continue;
		if (n < sizeof(buf))
			n += snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? " | " : "",
				      f[i].name);
		if (l->size > 4 && n < sizeof(buf))
			n += snprintf(buf + n, sizeof(buf) - n, " bytes %d-%d",
				      off - l->off, off - l->off + 3);
	}
	return buf[0] ? buf : "(no field)";
}
