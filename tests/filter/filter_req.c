// SPDX-License-Identifier: GPL-2.0
/*
 * filter_req.c - submit io_uring requests and check which ones a filter
 * denied (-EACCES) and which ran, for the tests of tests/filter/.
 *
 * Usage: filter_req [--ring-policy POLICY]... [--task-policy POLICY]
 *                   [--dir DIR] [--inherited-ring] REQ=allow|deny|any...
 *        filter_req --exec-ring [--cloexec] -- COMMAND [ARG...]
 *   --ring-policy  apply POLICY to the ring with the library
 *                  (iouring_bpf_filter_apply(f, ring_fd)) before the requests;
 *                  several stack, in the order given
 *   --task-policy  apply POLICY to this task (fd -1), without setting
 *                  no_new_privs; prints "task-policy: status S errno E"
 *   --dir          where files are made (default: $TEST_TMPDIR or /tmp)
 *   --pause DIR    after making the ring, write "PID FD" to DIR/ring and
 *                  wait (up to 60 s) for DIR/go before the requests: for
 *                  `iouring-bpf filter apply POLICY --ring PID:FD`
 *   --exec-ring    make a ring, leave it open across exec (unless --cloexec)
 *                  with its fd in $FILTER_REQ_RING, and exec COMMAND: a
 *                  ring made before a sandbox
 *   --inherited-ring  submit on the ring of $FILTER_REQ_RING instead of a
 *                  new one
 * REQ: nop | socket:FAMILY:TYPE | connect:ADDR:PORT | connect:unix |
 *      openat:PATH:FLAG[|FLAG] | openat2:PATH:FLAG[|FLAG] | read | write |
 *      unlinkat:PATH | mkdirat:PATH | accept | send | recv | bind | listen
 *      (FAMILY inet inet6 unix; TYPE stream dgram; FLAG rdonly wronly rdwr
 *      creat trunc append; ADDR 127.0.0.1 or [::1]; PATH relative to DIR)
 * "allow" means the request ran (any result but -EACCES), "deny" that it
 * completed with -EACCES; "any" expects nothing and prints the verdict. Prints one line per request; exit 0 if every
 * expectation held, 1 if one did not, 2 on a usage error, 3 if the ring
 * or task policy could not be applied (the library's status on stderr).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <linux/openat2.h>
#include "ring.h"
#include "engine.h"

#ifndef IORING_OP_BIND
#define IORING_OP_BIND		56
#define IORING_OP_LISTEN	57
#endif

static const char *dir;
static int listener = -1;

static int submit(struct ring *r, struct io_uring_sqe *sqe)
{
	struct io_uring_cqe cqe;
	int ret;

	(void)sqe;
	ret = ring_wait_cqe(r, &cqe);
	return ret < 0 ? ret : cqe.res;
}

static int open_flags(const char *s)
{
	char buf[128], *tok, *save;
	int fl = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, "|", &save); tok; tok = strtok_r(NULL, "|", &save)) {
		if (!strcmp(tok, "rdonly"))
			fl |= O_RDONLY;
		else if (!strcmp(tok, "wronly"))
			fl |= O_WRONLY;
		else if (!strcmp(tok, "rdwr"))
			fl |= O_RDWR;
		else if (!strcmp(tok, "creat"))
			fl |= O_CREAT;
		else if (!strcmp(tok, "trunc"))
			fl |= O_TRUNC;
		else if (!strcmp(tok, "append"))
			fl |= O_APPEND;
		else
			return -1;
	}
	return fl;
}

static void path_in_dir(char *out, size_t len, const char *p)
{
	if (p[0] == '/')
		snprintf(out, len, "%s", p);
	else
		snprintf(out, len, "%s/%s", dir, p);
}

/* connect:127.0.0.1:80, connect:[::1]:443, connect:unix */
static int prep_connect(struct io_uring_sqe *sqe, const char *spec,
			struct sockaddr_storage *ss, int *fd)
{
	char host[64];
	const char *port;
	int fam;

	memset(ss, 0, sizeof(*ss));
	if (!strcmp(spec, "unix")) {
		struct sockaddr_un *un = (void *)ss;

		un->sun_family = AF_UNIX;
		snprintf(un->sun_path, sizeof(un->sun_path), "%s/nosuch.sock", dir);
		fam = AF_UNIX;
		*fd = socket(AF_UNIX, SOCK_STREAM, 0);
		ring_prep_rw(sqe, IORING_OP_CONNECT, *fd, ss, 0, sizeof(*un), 0);
		return *fd < 0 ? -1 : 0;
	}
	if (spec[0] == '[') {
		const char *e = strchr(spec, ']');

		if (!e || e[1] != ':')
			return -1;
		snprintf(host, sizeof(host), "%.*s", (int)(e - spec - 1), spec + 1);
		port = e + 2;
		fam = AF_INET6;
	} else {
		port = strrchr(spec, ':');
		if (!port)
			return -1;
		snprintf(host, sizeof(host), "%.*s", (int)(port - spec), spec);
		port++;
		fam = AF_INET;
	}
	if (fam == AF_INET) {
		struct sockaddr_in *in = (void *)ss;

		in->sin_family = AF_INET;
		in->sin_port = htons(atoi(port));
		if (inet_pton(AF_INET, host, &in->sin_addr) != 1)
			return -1;
	} else {
		struct sockaddr_in6 *in6 = (void *)ss;

		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(atoi(port));
		if (inet_pton(AF_INET6, host, &in6->sin6_addr) != 1)
			return -1;
	}
	*fd = socket(fam, SOCK_STREAM, 0);
	if (*fd < 0)
		return -2;	/* no such family here: the test cannot ask */
	ring_prep_rw(sqe, IORING_OP_CONNECT, *fd, ss, 0,
		     fam == AF_INET ? sizeof(struct sockaddr_in) :
		     sizeof(struct sockaddr_in6), 0);
	return 0;
}

static int listener_fd(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int c;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (listener < 0) {
		listener = socket(AF_INET, SOCK_STREAM, 0);
		if (listener < 0 || bind(listener, (void *)&a, sizeof(a)) ||
		    listen(listener, 8))
			return -1;
	}
	/* a client waiting, so that ACCEPT completes at once */
	getsockname(listener, (void *)&a, &len);
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (void *)&a, len))
		return -1;
	return listener;
}

/* run one request: its result, or -10000 if REQ is malformed */
static int run_req(struct ring *r, const char *req)
{
	static char buf[64];
	static int sp[2] = { -1, -1 };
	struct io_uring_sqe *sqe = ring_get_sqe(r);
	struct sockaddr_storage ss;
	char kind[32], arg[256], path[512], *colon;
	int fd = -1, ret;

	snprintf(kind, sizeof(kind), "%.31s", req);
	colon = strchr(kind, ':');
	if (colon)
		*colon = 0;
	snprintf(arg, sizeof(arg), "%s", strchr(req, ':') ? strchr(req, ':') + 1 : "");
	if (!strcmp(kind, "nop")) {
		ring_prep_nop(sqe, 1);
	} else if (!strcmp(kind, "socket")) {
		char *t = strchr(arg, ':');
		int fam, type;

		if (!t)
			return -10000;
		*t++ = 0;
		fam = !strcmp(arg, "inet") ? AF_INET : !strcmp(arg, "inet6") ?
		      AF_INET6 : !strcmp(arg, "unix") ? AF_UNIX : -1;
		type = !strcmp(t, "stream") ? SOCK_STREAM : !strcmp(t, "dgram") ?
		       SOCK_DGRAM : -1;
		if (fam < 0 || type < 0)
			return -10000;
		ring_prep_rw(sqe, IORING_OP_SOCKET, fam, NULL, 0, type, 0);
	} else if (!strcmp(kind, "connect")) {
		ret = prep_connect(sqe, arg, &ss, &fd);
		if (ret)
			return ret == -2 ? -10001 : -10000;
	} else if (!strcmp(kind, "openat") || !strcmp(kind, "openat2")) {
		char *fl = strrchr(arg, ':');
		int flags;

		if (!fl)
			return -10000;
		*fl++ = 0;
		flags = open_flags(fl);
		if (flags < 0)
			return -10000;
		path_in_dir(path, sizeof(path), arg);
		if (!strcmp(kind, "openat")) {
			ring_prep_rw(sqe, IORING_OP_OPENAT, AT_FDCWD, path, 0644, 0, 0);
			sqe->open_flags = flags;
		} else {
			static struct open_how how;

			memset(&how, 0, sizeof(how));
			how.flags = flags;
			how.mode = flags & O_CREAT ? 0644 : 0;
			ring_prep_rw(sqe, IORING_OP_OPENAT2, AT_FDCWD, path,
				     sizeof(how), (__u64)(unsigned long)&how, 0);
		}
	} else if (!strcmp(kind, "read") || !strcmp(kind, "write")) {
		int rd = kind[0] == 'r';

		fd = open(rd ? "/dev/zero" : "/dev/null", rd ? O_RDONLY : O_WRONLY);
		ring_prep_rw(sqe, rd ? IORING_OP_READ : IORING_OP_WRITE, fd, buf,
			     sizeof(buf), 0, 0);
	} else if (!strcmp(kind, "unlinkat") || !strcmp(kind, "mkdirat")) {
		path_in_dir(path, sizeof(path), arg);
		if (kind[0] == 'u')
			ring_prep_rw(sqe, IORING_OP_UNLINKAT, AT_FDCWD, path, 0, 0, 0);
		else
			ring_prep_rw(sqe, IORING_OP_MKDIRAT, AT_FDCWD, path, 0755, 0, 0);
	} else if (!strcmp(kind, "accept")) {
		int l = listener_fd();

		if (l < 0)
			return -10001;
		ring_prep_rw(sqe, IORING_OP_ACCEPT, l, NULL, 0, 0, 0);
	} else if (!strcmp(kind, "send") || !strcmp(kind, "recv")) {
		if (sp[0] < 0 && socketpair(AF_UNIX, SOCK_STREAM, 0, sp))
			return -10001;
		if (kind[0] == 'r' && write(sp[1], "x", 1) != 1)
			return -10001;
		ring_prep_rw(sqe, kind[0] == 's' ? IORING_OP_SEND : IORING_OP_RECV,
			     sp[0], buf, 1, 0, 0);
	} else if (!strcmp(kind, "bind") || !strcmp(kind, "listen")) {
		static struct sockaddr_in a;

		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0)
			return -10001;
		a.sin_family = AF_INET;
		a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		if (kind[0] == 'b') {
			ring_prep_rw(sqe, IORING_OP_BIND, fd, &a, 0, sizeof(a), 0);
		} else {
			if (bind(fd, (void *)&a, sizeof(a)))
				return -10001;
			ring_prep_rw(sqe, IORING_OP_LISTEN, fd, NULL, 8, 0, 0);
		}
	} else {
		return -10000;
	}
	ret = submit(r, sqe);
	if (ret >= 0 && (!strcmp(kind, "socket") || !strcmp(kind, "accept") ||
			 !strncmp(kind, "openat", 6)))
		close(ret);
	if (fd >= 0)
		close(fd);
	return ret;
}

static int apply(const char *policy, int fd, const char *what)
{
	struct iouring_bpf_error err;
	struct iouring_bpf_filter *f = iouring_bpf_filter_load(policy, NULL, &err);
	int ret;

	if (!f) {
		fprintf(stderr, "filter_req: %s\n", err.msg);
		return -1;
	}
	ret = iouring_bpf_filter_apply(f, fd, &err);
	iouring_bpf_filter_free(f);
	if (fd == -1) {
		printf("%s: status %d errno %d\n", what, ret ? err.status : 0,
		       ret ? err.err : 0);
		return 0;
	}
	if (ret) {
		fprintf(stderr, "filter_req: %s: status %d: %s\n", what,
			err.status, err.msg);
		return -1;
	}
	return 0;
}

static int wait_go(const char *d, int fd)
{
	char path[512], tmp[512];
	FILE *f;
	int k;

	snprintf(tmp, sizeof(tmp), "%s/ring.tmp", d);
	snprintf(path, sizeof(path), "%s/ring", d);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	fprintf(f, "%d %d\n", (int)getpid(), fd);
	fclose(f);
	rename(tmp, path);
	snprintf(path, sizeof(path), "%s/go", d);
	for (k = 0; k < 6000; k++) {
		if (!access(path, F_OK))
			return 0;
		usleep(10000);
	}
	fprintf(stderr, "filter_req: no %s after 60 s\n", path);
	return -1;
}

/* --exec-ring: a ring COMMAND inherits, as a parent made it before */
static int exec_ring(char **cmd, int cloexec)
{
	struct io_uring_params p;
	char env[16];
	int fd;

	memset(&p, 0, sizeof(p));
	fd = io_uring_setup_raw(8, &p);
	if (fd < 0) {
		fprintf(stderr, "filter_req: io_uring_setup: %s\n", strerror(-fd));
		return 1;
	}
	if (fcntl(fd, F_SETFD, cloexec ? FD_CLOEXEC : 0)) {
		perror("filter_req: fcntl");
		return 1;
	}
	snprintf(env, sizeof(env), "%d", fd);
	setenv("FILTER_REQ_RING", env, 1);
	execvp(cmd[0], cmd);
	fprintf(stderr, "filter_req: cannot run %s: %s\n", cmd[0], strerror(errno));
	return 1;
}

/*
 * --inherited-ring: map the ring of $FILTER_REQ_RING; the mmap offsets are
 * those of any ring of the same size, so a scratch one gives them
 */
static int inherited_ring(struct ring *r)
{
	const char *e = getenv("FILTER_REQ_RING");
	struct io_uring_params p;
	int fd, scratch;

	fd = e ? atoi(e) : -1;
	if (fd < 0 || fcntl(fd, F_GETFD) < 0) {
		fprintf(stderr, "filter_req: no inherited ring ($FILTER_REQ_RING=%s)\n",
			e ? e : "");
		return -1;
	}
	memset(&p, 0, sizeof(p));
	scratch = io_uring_setup_raw(8, &p);
	if (scratch < 0)
		return scratch;
	close(scratch);
	printf("using the inherited ring, fd %d\n", fd);
	return ring_init_fd(r, fd, &p);
}

int main(int argc, char **argv)
{
	const char *ring_policy[16], *pause = NULL;
	int nring_policy = 0, inherited = 0, exec = 0, cloexec = 0;
	struct ring r;
	int i, k, ret, bad = 0;

	dir = getenv("TEST_TMPDIR") ? getenv("TEST_TMPDIR") : "/tmp";
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--ring-policy") && i + 1 < argc &&
		    nring_policy < 16) {
			ring_policy[nring_policy++] = argv[++i];
		} else if (!strcmp(argv[i], "--inherited-ring")) {
			inherited = 1;
		} else if (!strcmp(argv[i], "--exec-ring")) {
			exec = 1;
		} else if (!strcmp(argv[i], "--cloexec")) {
			cloexec = 1;
		} else if (!strcmp(argv[i], "--") && exec) {
			i++;
			break;
		} else if (!strcmp(argv[i], "--task-policy") && i + 1 < argc) {
			if (apply(argv[++i], -1, "task-policy"))
				return 3;
		} else if (!strcmp(argv[i], "--pause") && i + 1 < argc) {
			pause = argv[++i];
		} else if (!strcmp(argv[i], "--dir") && i + 1 < argc) {
			dir = argv[++i];
		} else {
			fprintf(stderr, "filter_req: bad option %s\n", argv[i]);
			return 2;
		}
	}
	if (exec)
		return i < argc ? exec_ring(argv + i, cloexec) : 2;
	ret = inherited ? inherited_ring(&r) : ring_init(&r, 8, 0, 0);
	if (ret) {
		fprintf(stderr, "filter_req: ring_init: %s\n", strerror(-ret));
		return 1;
	}
	for (k = 0; k < nring_policy; k++)
		if (apply(ring_policy[k], r.fd, "ring-policy"))
			return 3;
	if (pause && wait_go(pause, r.fd))
		return 1;
	for (; i < argc; i++) {
		char req[300], *eq;
		int deny;

		snprintf(req, sizeof(req), "%s", argv[i]);
		eq = strrchr(req, '=');
		if (!eq || (strcmp(eq + 1, "allow") && strcmp(eq + 1, "deny") &&
			    strcmp(eq + 1, "any"))) {
			fprintf(stderr, "filter_req: '%s': want REQ=allow|deny|any\n", argv[i]);
			return 2;
		}
		*eq = 0;
		deny = !strcmp(eq + 1, "deny") ? 1 : !strcmp(eq + 1, "any") ? -1 : 0;
		ret = run_req(&r, req);
		if (ret == -10000) {
			fprintf(stderr, "filter_req: bad request '%s'\n", req);
			return 2;
		}
		if (ret == -10001) {
			printf("%-32s cannot be set up here: skipped\n", argv[i]);
			continue;
		}
		if (deny < 0) {
			printf("%-32s res %d (%s): verdict %s\n", argv[i], ret,
			       ret < 0 ? strerror(-ret) : "ok",
			       ret == -EACCES ? "deny" : "allow");
			continue;
		}
		if ((ret == -EACCES) != deny)
			bad++;
		printf("%-32s res %d (%s): %s\n", argv[i], ret,
		       ret < 0 ? strerror(-ret) : "ok",
		       (ret == -EACCES) == deny ? "ok" : "WRONG");
	}
	ring_exit(&r);
	return bad ? 1 : 0;
}
