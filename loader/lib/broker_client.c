// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * broker_client.c - the client side of iouring-bpfd
 * (iouring-bpf/broker.h): connect, send ATTACH with the ring's fd number
 * (the daemon takes the fd from this process: pidfd_getfd()), read the
 * REPLY and the map fds that come with it (mapped read-only over the
 * caller's object's sections), enable the ring, and hand the connection
 * to the caller: the program stays attached while it is open. The wire
 * format is broker_proto.h's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>
#include "internal.h"
#include "engine-broker.h"
#include "broker_proto.h"

#ifndef IORING_REGISTER_ENABLE_RINGS
#define IORING_REGISTER_ENABLE_RINGS	12
#endif
/* an attach under emulation can take a while; a hung daemon must not */
#define BROKER_TIMEOUT_S	120

static const char *socket_path(const char *socket)
{
	const char *env = getenv("IOURING_BPF_BROKER_SOCKET");

	return socket ? socket : env && *env ? env : IOURING_BPF_BROKER_SOCKET;
}

static int broker_connect(const char *path, struct iouring_bpf_error *err)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = BROKER_TIMEOUT_S };
	int fd, e;

	if (strlen(path) >= sizeof(sa.sun_path))
		return iouring_bpf_errorf(err, IOURING_BPF_USAGE, ENAMETOOLONG,
					  "broker socket %s: path too long", path);
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return iouring_bpf_errorf(err, IOURING_BPF_FAIL, errno,
					  "socket: %s", strerror(errno));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (!connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		return fd;
	e = errno;
	close(fd);
	if (e == EACCES || e == EPERM)
		return iouring_bpf_errorf(err, IOURING_BPF_PERM, e,
					  "cannot connect to the broker at %s: %s (the socket's mode or its directory keeps this user out)",
					  path, strerror(e));
	return iouring_bpf_errorf(err, IOURING_BPF_FAIL, e,
				  "cannot connect to the broker at %s: %s; is iouring-bpfd running? (systemctl start iouring-bpfd.socket, or iouring-bpfd --socket %s as root)",
				  path, strerror(e), path);
}

/* ATTACH over b->fd; the reply's map fds into fds[], *nfds */
static int broker_request(int sfd, int ring_fd,
			  const char *prog, const char *const *params,
			  int *fds, int *nfds, char secs[][16],
			  struct iouring_bpf_error *err)
{
	static __thread unsigned char buf[IOB_MAX_MSG + 1];
	static __thread struct iob_msg m;
	char cbuf[CMSG_SPACE(sizeof(int) * IOB_MAX_FDS)], num[16];
	struct iovec iov;
	struct msghdr mh = { 0 };
	struct cmsghdr *cm;
	size_t len = IOB_HDR_SIZE;
	const char *why = "", *v;
	int i, status, e, ns = 0;
	ssize_t n;

	*nfds = 0;
	iob_header(buf, IOB_ATTACH, 0);
	snprintf(num, sizeof(num), "%d", ring_fd);
	if (iob_add(buf, &len, "program", prog) ||
	    iob_add(buf, &len, "ring", num))
		return iouring_bpf_errorf(err, IOURING_BPF_USAGE, E2BIG,
					  "the request does not fit a message");
	for (i = 0; params && params[i]; i++)
		if (iob_add(buf, &len, "param", params[i]))
			return iouring_bpf_errorf(err, IOURING_BPF_USAGE, E2BIG,
						  "too many parameters for one message");
	iov.iov_base = buf;
	iov.iov_len = len;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	do
		n = sendmsg(sfd, &mh, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return iouring_bpf_errorf(err, IOURING_BPF_FAIL, errno,
					  "sending the request to the broker: %s",
					  strerror(errno));
	iov.iov_len = sizeof(buf);
	mh.msg_control = cbuf;
	mh.msg_controllen = sizeof(cbuf);
	mh.msg_flags = 0;
	do
		n = recvmsg(sfd, &mh, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return iouring_bpf_errorf(err, IOURING_BPF_FAIL,
					  n < 0 ? errno : ECONNRESET,
					  "no reply from the broker: %s",
					  n < 0 ? strerror(errno) : "it closed the connection");
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		for (i = 0; i < (int)((cm->cmsg_len - CMSG_LEN(0)) / sizeof(int)); i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof(int));
			if (*nfds < IOB_MAX_FDS)
				fds[(*nfds)++] = fd;
			else
				close(fd);
		}
	}
	if (iob_decode(buf, n, &m, &why))
		m.type = 0;
	v = m.type == IOB_REPLY ? iob_get(&m, "status") : NULL;
	if (!v)
		return iouring_bpf_errorf(err, IOURING_BPF_FAIL, EPROTO,
					  "the broker's reply is malformed (%s)",
					  m.type != IOB_REPLY ? "not a REPLY" : why);
	status = atoi(v);
	v = iob_get(&m, "errno");
	e = v ? atoi(v) : 0;
	if (status) {
		v = iob_get(&m, "message");
		iouring_bpf_errorf(err, status, e, "iouring-bpfd: %s",
				   v ? v : "refused");
		v = iob_get(&m, "fix");
		if (err && v)
			err->fix = atoi(v);
		return -(e ? e : EPERM);
	}
	for (i = 0; i < m.nlines; i++) {
		if (!strcmp(m.line[i].key, "section") && ns < IOB_MAX_FDS)
			snprintf(secs[ns++], 16, "%.15s", m.line[i].val);
	}
	if (ns != *nfds)
		return iouring_bpf_errorf(err, IOURING_BPF_FAIL, EPROTO,
					  "the broker's reply names %d sections and passed %d fds",
					  ns, *nfds);
	return 0;
}

/* enable a ring made IORING_SETUP_R_DISABLED (an enabled one: -EBADFD) */
static void enable_ring(int ring_fd)
{
	syscall(__NR_io_uring_register, ring_fd, IORING_REGISTER_ENABLE_RINGS,
		NULL, 0);
}

/*
 * obj's built-in parameters as "NAME=VALUE" into kv (the values set with
 * iouring_bpf_obj_set_global()), then the caller's params; NULL-ended
 */
static int obj_params(struct bpf_object *obj, const char *const *params,
		      const char **out, char kv[][96],
		      struct iouring_bpf_error *err)
{
	struct iouring_bpf_obj_info info = { .sz = sizeof(info) };
	const struct iouring_bpf_prog *p;
	struct iouring_bpf h = { .obj = obj };
	int i, n = 0;

	p = iouring_bpf_prog_find(bpf_object__name(obj));
	if (!p)
		return iouring_bpf_errorf(err, IOURING_BPF_USAGE, EINVAL,
					  "%s is not a built-in program: the broker opens installed objects itself, by the name its policy gives them (give that name, and no object)",
					  bpf_object__name(obj));
	if (iouring_bpf_obj_info(obj, &info) || info.kind != IOURING_BPF_KIND_LOOP)
		return iouring_bpf_errorf(err, IOURING_BPF_USAGE, EINVAL,
					  "%s is not a loop program (an IORING_OP_BPF op serves every ring of the system): the broker attaches loop programs only",
					  p->name);
	if (info.loaded)
		return iouring_bpf_errorf(err, IOURING_BPF_USAGE, EBUSY,
					  "%s: the object is loaded: give the broker one that is opened only (iouring_bpf_builtin_open()), whose sections it can show the attached program through",
					  p->name);
	for (i = 0; i < IOURING_BPF_MAX_PARAMS && p->params[i].name; i++) {
		long long v;

		if (iouring_bpf_var_int(&h, p->params[i].name, &v))
			continue;
		snprintf(kv[n], 96, "%s=%lld", p->params[i].name, v);
		out[n] = kv[n];
		n++;
	}
	for (i = 0; params && params[i]; i++) {
		if (n == 2 * IOURING_BPF_MAX_PARAMS)
			return iouring_bpf_errorf(err, IOURING_BPF_USAGE, E2BIG,
						  "more than %d parameters",
						  2 * IOURING_BPF_MAX_PARAMS);
		out[n++] = params[i];
	}
	out[n] = NULL;
	return 0;
}

/*
 * the attached program's section sec (fd: its map) over obj's image of
 * it, read-only, as libbpf maps a loaded map over its own image: every
 * pointer into the image (a skeleton's, obj_get_global()'s) then reads
 * the attached program. Mapped elsewhere first and moved there: a
 * MAP_FIXED mmap that fails would leave a hole where the image was.
 */
static int map_over(struct bpf_object *obj, const char *sec, int fd)
{
	long page = sysconf(_SC_PAGESIZE);
	struct bpf_map *map;
	size_t size = 0, len;
	void *img = NULL, *q;
	const char *dot;

	bpf_object__for_each_map(map, obj) {
		dot = strrchr(bpf_map__name(map), '.');
		if (bpf_map__is_internal(map) && dot && !strcmp(dot, sec)) {
			img = bpf_map__initial_value(map, &size);
			break;
		}
	}
	if (!img || !size)
		return 0;	/* obj has no such section: nothing to show */
	len = (size + page - 1) / page * page;
	q = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (q == MAP_FAILED)
		return -errno;
	if (mremap(q, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, img) == MAP_FAILED) {
		int e = errno;

		munmap(q, len);
		return -e;
	}
	return 0;
}

int iou_broker_attach(int ring_fd, const char *prog,
		      const struct iouring_bpf_broker_opts *opts,
		      struct iouring_bpf_error *err)
{
	const char *params[2 * IOURING_BPF_MAX_PARAMS + 1];
	char kv[IOURING_BPF_MAX_PARAMS][96], secs[IOB_MAX_FDS][16];
	struct iouring_bpf_broker_opts o = { 0 };
	int fds[IOB_MAX_FDS], nfds = 0, i, sfd, ret = 0;
	size_t sz = opts ? opts->sz : 0;

	if (err)
		memset(err, 0, sizeof(*err));
	if (opts) {
		const unsigned char *b = (const void *)opts;

		if (sz && sz < sizeof(size_t))
			return iouring_bpf_errorf(err, IOURING_BPF_USAGE, EINVAL,
						  "struct iouring_bpf_broker_opts: sz %zu is smaller than sz itself; set it to sizeof(struct iouring_bpf_broker_opts) (IOURING_BPF_OPTS() does)",
						  sz);
		for (i = sizeof(o); (size_t)i < sz; i++)
			if (b[i])
				return iouring_bpf_errorf(err, IOURING_BPF_USAGE, EINVAL,
							  "struct iouring_bpf_broker_opts: sz %zu, and byte %d is not zero: this library (%s) knows %zu bytes of it (use a library as new as the header)",
							  sz, i, IOURING_BPF_VERSION, sizeof(o));
		memcpy(&o, opts, !sz || sz > sizeof(o) ? sizeof(o) : sz);
	}
	if (!prog && o.obj)
		prog = bpf_object__name(o.obj);
	if (!prog || !*prog)
		return iouring_bpf_errorf(err, IOURING_BPF_USAGE, EINVAL,
					  "iouring_bpf_broker_attach: no program: give its name (or opts->obj)");
	if (ring_fd < 0)
		return iouring_bpf_errorf(err, IOURING_BPF_USAGE, EINVAL,
					  "iouring_bpf_broker_attach: ring fd %d: not an fd; give the io_uring's fd",
					  ring_fd);
	if (o.obj) {
		ret = obj_params(o.obj, o.params, params, kv, err);
		if (ret)
			return ret;
		o.params = params;
	}
	sfd = broker_connect(socket_path(o.socket), err);
	if (sfd < 0)
		return sfd;
	ret = broker_request(sfd, ring_fd, prog, o.params, fds, &nfds, secs,
			     err);
	for (i = 0; i < nfds; i++) {
		int r = ret || !o.obj ? 0 : map_over(o.obj, secs[i], fds[i]);

		close(fds[i]);
		if (r && !ret)
			ret = iouring_bpf_errorf(err, IOURING_BPF_FAIL, -r,
						 "cannot map the attached program's %s: %s",
						 secs[i], strerror(-r));
	}
	if (ret) {
		close(sfd);
		return ret;
	}
	enable_ring(ring_fd);
	return sfd;
}

int iouring_bpf_broker_attach(int ring_fd, const char *prog,
			      const struct iouring_bpf_broker_opts *opts)
{
	struct iouring_bpf_error e;
	int ret;

	ret = iou_broker_attach(ring_fd, prog, opts, &e);
	if (ret >= 0)
		return ret;
	iou_log(IOURING_BPF_WARN, "libiouring-bpf: %s\n", e.msg);
	switch (e.status) {
	case IOURING_BPF_PERM:
		return -EPERM;
	case IOURING_BPF_NOFEATURE:
		return -EOPNOTSUPP;
	case IOURING_BPF_REJECTED:
		return -EINVAL;
	case IOURING_BPF_USAGE:
		return e.err == ERANGE || e.err == ENOENT || e.err == EBUSY ||
		       e.err == EOPNOTSUPP || e.err == E2BIG ||
		       e.err == ENAMETOOLONG ? -e.err : -EINVAL;
	default:
		return -(e.err > 0 && e.err < 4000 ? e.err : EIO);
	}
}
