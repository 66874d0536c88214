// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * broker_client.c - the client side of iouring-bpfd
 * (iouring-bpf-broker.h): connect, send ATTACH with the ring's fd number
 * (the daemon takes the fd from this process: pidfd_getfd()), read the
 * REPLY and the map fds that come with it (mapped read-only here), keep
 * the connection for as long as the program is to stay attached. The
 * wire format is broker_proto.h's.
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
#include "iouring-bpf.h"
#include "broker_proto.h"

#ifndef IORING_REGISTER_ENABLE_RINGS
#define IORING_REGISTER_ENABLE_RINGS	12
#endif
/* an attach under emulation can take a while; a hung daemon must not */
#define BROKER_TIMEOUT_S	120

struct iouring_bpf_broker {
	int	fd;
	int	nsec;
	struct {
		char	name[16];
		void	*addr;
		size_t	len;
		size_t	size;
		int	own;		/* our mapping (not over a handle's) */
	} sec[IOB_MAX_FDS];
	char	binding[32];
};

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
static int broker_request(struct iouring_bpf_broker *b, int ring_fd,
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
		n = sendmsg(b->fd, &mh, MSG_NOSIGNAL);
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
		n = recvmsg(b->fd, &mh, MSG_CMSG_CLOEXEC);
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
		else if (!strcmp(m.line[i].key, "binding"))
			snprintf(b->binding, sizeof(b->binding), "%s",
				 m.line[i].val);
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

static struct iouring_bpf_broker *
broker_open(const char *socket, int ring_fd, const char *prog,
	    const char *const *params, int *fds, int *nfds, char secs[][16],
	    struct iouring_bpf_error *err)
{
	struct iouring_bpf_broker *b;

	if (!prog || ring_fd < 0) {
		iouring_bpf_errorf(err, IOURING_BPF_USAGE, EINVAL,
				   "the broker needs a program and a ring fd");
		return NULL;
	}
	b = calloc(1, sizeof(*b));
	if (!b) {
		iouring_bpf_errorf(err, IOURING_BPF_FAIL, ENOMEM, "out of memory");
		return NULL;
	}
	b->fd = broker_connect(socket_path(socket), err);
	if (b->fd < 0 ||
	    broker_request(b, ring_fd, prog, params, fds, nfds, secs, err)) {
		while (*nfds > 0)
			close(fds[--*nfds]);
		if (b->fd >= 0)
			close(b->fd);
		free(b);
		return NULL;
	}
	enable_ring(ring_fd);
	return b;
}

struct iouring_bpf_broker *
iouring_bpf_broker_attach(const char *socket, int ring_fd, const char *prog,
			  const char *const *params,
			  struct iouring_bpf_error *err)
{
	char secs[IOB_MAX_FDS][16];
	int fds[IOB_MAX_FDS], nfds = 0, i;
	struct iouring_bpf_broker *b;
	long page = sysconf(_SC_PAGESIZE);

	b = broker_open(socket, ring_fd, prog, params, fds, &nfds, secs, err);
	if (!b)
		return NULL;
	for (i = 0; i < nfds; i++) {
		/* the map's size: one page is what a global section needs */
		void *p = mmap(NULL, page, PROT_READ, MAP_SHARED, fds[i], 0);

		close(fds[i]);
		if (p == MAP_FAILED)
			continue;
		snprintf(b->sec[b->nsec].name, 16, "%.15s", secs[i]);
		b->sec[b->nsec].addr = p;
		b->sec[b->nsec].len = page;
		b->sec[b->nsec].size = page;
		b->sec[b->nsec].own = 1;
		b->nsec++;
	}
	return b;
}

int iouring_bpf_broker_start(struct iouring_bpf *h, const char *socket,
			     int ring_fd, struct iouring_bpf_broker **out,
			     struct iouring_bpf_error *err)
{
	const struct iouring_bpf_prog *p = iouring_bpf_builtin(h);
	const char *params[IOURING_BPF_MAX_PARAMS + 1];
	char kv[IOURING_BPF_MAX_PARAMS][96], secs[IOB_MAX_FDS][16];
	int fds[IOB_MAX_FDS], nfds = 0, n = 0, i;
	struct iouring_bpf_broker *b;
	long page = sysconf(_SC_PAGESIZE);

	*out = NULL;
	if (!p)
		return iouring_bpf_errorf(err, IOURING_BPF_USAGE, EINVAL,
					  "%s is not a built-in program: the broker opens installed objects itself, by the name its policy gives them (iouring_bpf_broker_attach())",
					  iouring_bpf_name(h));
	for (i = 0; i < IOURING_BPF_MAX_PARAMS && p->params[i].name; i++) {
		long long v;

		if (iouring_bpf_var_int(h, p->params[i].name, &v))
			continue;
		snprintf(kv[n], sizeof(kv[n]), "%s=%lld", p->params[i].name, v);
		params[n] = kv[n];
		n++;
	}
	params[n] = NULL;
	b = broker_open(socket, ring_fd, p->name, params, fds, &nfds, secs, err);
	if (!b)
		return err ? -(err->err ? err->err : EPERM) : -EPERM;
	for (i = 0; i < nfds; i++) {
		size_t size = 0;
		void *img = iouring_bpf_section(h, secs[i], &size), *q;
		size_t len = (size + page - 1) / page * page;
		int e;

		/*
		 * over the section's image, as libbpf maps a loaded map over
		 * its own: every pointer into it reads the attached program.
		 * Mapped elsewhere first and moved there: a MAP_FIXED mmap
		 * that fails would leave a hole where the image was.
		 */
		q = img && len ? mmap(NULL, len, PROT_READ, MAP_SHARED, fds[i], 0) :
		    MAP_FAILED;
		e = errno;
		close(fds[i]);
		if (q != MAP_FAILED &&
		    mremap(q, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, img) == MAP_FAILED) {
			e = errno;
			munmap(q, len);
			q = MAP_FAILED;
		}
		if (q == MAP_FAILED && !strcmp(secs[i], ".bss")) {
			int j;

			for (j = i + 1; j < nfds; j++)
				close(fds[j]);
			iouring_bpf_broker_detach(b);
			return iouring_bpf_errorf(err, IOURING_BPF_FAIL, e,
						  "cannot map the attached program's %s: %s",
						  secs[i], strerror(e));
		}
		if (q == MAP_FAILED)
			continue;
		snprintf(b->sec[b->nsec].name, 16, "%.15s", secs[i]);
		b->sec[b->nsec].addr = q;
		b->sec[b->nsec].len = len;
		b->sec[b->nsec].size = size;
		b->nsec++;
	}
	*out = b;
	return 0;
}

const void *iouring_bpf_broker_section(const struct iouring_bpf_broker *b,
				       const char *sec, size_t *size)
{
	int i;

	for (i = 0; b && i < b->nsec; i++) {
		if (!strcmp(b->sec[i].name, sec)) {
			if (size)
				*size = b->sec[i].size;
			return b->sec[i].addr;
		}
	}
	return NULL;
}

const char *iouring_bpf_broker_binding(const struct iouring_bpf_broker *b)
{
	return b && b->binding[0] ? b->binding : "none";
}

void iouring_bpf_broker_detach(struct iouring_bpf_broker *b)
{
	int i;

	if (!b)
		return;
	close(b->fd);
	for (i = 0; i < b->nsec; i++)
		if (b->sec[i].own)
			munmap(b->sec[i].addr, b->sec[i].len);
	free(b);
}
