// SPDX-License-Identifier: GPL-2.0
/*
 * bclient.c - the clients of tests/broker: a liburing application using
 * the library's broker call, the same attached directly (root), and the
 * hostile clients of issue 29 (raw protocol, bad fds and rings, floods).
 *
 *	bclient SOCK app PROG [--ring KIND] [--hold] [--read-after] [K=V]...
 *		attach through the broker (iouring_bpf_broker_attach() with
 *		the built-in's object opened here; a name that is not a
 *		built-in goes by name alone), enter the ring once, print the program's
 *		counters ("completed=N errors=N exit=KIND code=N"); --hold:
 *		print "attached pid=PID" and wait to be killed instead;
 *		--read-after: detach, then submit a READ of /dev/zero from
 *		user space and print its result ("read=RES"). KIND: loop
 *		(SINGLE_ISSUER|DEFER_TASKRUN|R_DISABLED, the default),
 *		enabled (the same, not disabled), no-defer, no-single, pipe
 *		(a pipe instead of a ring), none (no fd)
 *	bclient - direct PROG [K=V]...	the same attached by this process
 *	bclient SOCK raw KIND		one malformed message (below)
 *	bclient SOCK fuzz SEED N	N random and mutated messages
 *	bclient SOCK conns N		N connections at once, then one more
 *	bclient SOCK bench N PROG	N attaches timed (connect to reply)
 *	bclient - benchdirect N PROG	N direct attaches timed (root)
 *	bclient SOCK many N PROG	N programs attached at once, until
 *					killed
 *	bclient SOCK confed PROG	(root) a ring made by root, sent by a
 *					child that became uid 65534
 *	bclient SOCK killmid PROG	a child sends ATTACH and is killed
 *
 * The library's public calls only (iouring-bpf/iouring-bpf.h, broker.h):
 * what an application writes. Exit: 0 done (an attach attached), else the
 * CLI's exit code for the refusal's errno (EPERM 4, EOPNOTSUPP 3, EINVAL
 * and ERANGE 2), 1 for anything else; the raw clients exit with the
 * daemon's status itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <liburing.h>
#include <grp.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <stdarg.h>
#include <bpf/libbpf.h>
#include <iouring-bpf/iouring-bpf.h>
#include <iouring-bpf/broker.h>
#include "broker_proto.h"

static const char *sock;

static int connect_raw(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	struct timeval tv = { .tv_sec = 120 };

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		perror("connect");
		exit(1);
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

/* send n bytes with fd (or -1); read the reply: its status, or -1 */
static int exchange(int s, const void *buf, size_t n, int fd, char *msg,
		    size_t len)
{
	char cbuf[CMSG_SPACE(sizeof(int) * 2)];
	unsigned char rbuf[IOB_MAX_MSG];
	static struct iob_msg m;
	struct iovec iov = { (void *)buf, n };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	const char *why, *v;
	ssize_t r;

	if (fd >= 0) {
		struct cmsghdr *cm;

		memset(cbuf, 0, sizeof(cbuf));
		mh.msg_control = cbuf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int));
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	}
	if (sendmsg(s, &mh, MSG_NOSIGNAL) < 0) {
		snprintf(msg, len, "send: %s", strerror(errno));
		return -1;
	}
	r = recv(s, rbuf, sizeof(rbuf), 0);
	if (r <= 0) {
		snprintf(msg, len, "no reply (%s)", r ? strerror(errno) : "closed");
		return -1;
	}
	v = iob_decode(rbuf, r, &m, &why) ? NULL : iob_get(&m, "status");
	if (!v) {
		snprintf(msg, len, "bad reply");
		return -1;
	}
	snprintf(msg, len, "%s", iob_get(&m, "message") ?: "");
	return atoi(v);
}

static int make_ring(const char *kind, struct io_uring *ring, int *made,
		     struct io_uring_params *pp)
{
	struct io_uring_params p = { 0 };
	int ret, fds[2];

	*made = 0;
	if (!strcmp(kind, "none"))
		return -1;
	if (!strcmp(kind, "pipe")) {
		if (pipe(fds))
			return -1;
		return fds[0];
	}
	p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	if (!strcmp(kind, "loop"))
		p.flags |= IORING_SETUP_R_DISABLED;
	else if (!strcmp(kind, "no-defer"))
		p.flags = IORING_SETUP_SINGLE_ISSUER;
	else if (!strcmp(kind, "no-single"))
		p.flags = 0;
	else if (strcmp(kind, "enabled")) {
		fprintf(stderr, "bclient: no ring kind %s\n", kind);
		exit(1);
	}
	ret = io_uring_queue_init_params(64, ring, &p);
	if (ret) {
		fprintf(stderr, "bclient: io_uring_queue_init_params: %s\n",
			strerror(-ret));
		exit(1);
	}
	*made = 1;
	*pp = p;
	return ring->ring_fd;
}

/* the library's last message (its print callback) */
static char lib_msg[1024];

static int lib_print(enum iouring_bpf_print_level level, const char *fmt,
		     va_list ap)
{
	size_t n;

	if (level != IOURING_BPF_WARN)
		return 0;
	vsnprintf(lib_msg, sizeof(lib_msg), fmt, ap);
	n = strlen(lib_msg);
	if (n && lib_msg[n - 1] == '\n')
		lib_msg[n - 1] = 0;
	return 0;
}

/* a refusal: "refused STATUS: message", the CLI's exit code for -ret */
static int refused(int ret)
{
	int e = -ret, st;

	st = e == EPERM || e == EACCES ? 4 : e == EOPNOTSUPP ? 3 :
	     e == EINVAL || e == ERANGE || e == EBUSY || e == E2BIG ? 2 : 1;
	printf("refused %d: %s (%s)\n", st, lib_msg, strerror(e));
	return st;
}

static void print_state(struct bpf_object *obj)
{
	struct iou_exit_info ei = { 0 };
	long long c = -1, e = -1;

	iouring_bpf_obj_get_global(obj, "completed", &c);
	iouring_bpf_obj_get_global(obj, "errors", &e);
	iouring_bpf_obj_exit_info(obj, &ei);
	printf("completed=%lld errors=%lld exit=%s code=%d\n", c, e,
	       iou_exit_kind_name(ei.kind), ei.code);
}

/* "K=V" into obj's global K: 0, or -errno */
static int set_kv(struct bpf_object *obj, const char *kv)
{
	char key[64];
	const char *eq = strchr(kv, '=');

	if (!eq || (size_t)(eq - kv) >= sizeof(key)) {
		snprintf(lib_msg, sizeof(lib_msg), "'%s' is not K=V", kv);
		return -EINVAL;
	}
	memcpy(key, kv, eq - kv);
	key[eq - kv] = 0;
	return iouring_bpf_obj_set_global(obj, key, strtoll(eq + 1, NULL, 0));
}

static int app(int argc, char **argv, int direct)
{
	IOURING_BPF_OPTS(iouring_bpf_broker_opts, o, .socket = sock);
	IOURING_BPF_OPTS(iouring_bpf_ring_opts, ro);
	const char *kind = "loop", *prog = argv[0];
	struct bpf_link *link = NULL;
	struct io_uring_params p;
	struct bpf_object *obj;
	struct io_uring ring;
	int i, fd, made, hold = 0, read_after = 0, ret = 0, conn = -1;

	obj = iouring_bpf_builtin_open(prog, NULL);
	if (!obj && !direct) {
		/* not a built-in: by name, as the policy may name an object */
		fd = make_ring(kind, &ring, &made, &p);
		conn = iouring_bpf_broker_attach(fd, prog, &o);
		if (conn < 0)
			return refused(conn);
		printf("attached %s by name\n", prog);
		close(conn);
		return 0;
	}
	if (!obj)
		return refused(-errno);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--ring") && i + 1 < argc)
			kind = argv[++i];
		else if (!strcmp(argv[i], "--hold"))
			hold = 1;
		else if (!strcmp(argv[i], "--read-after"))
			read_after = 1;
		else
			ret = set_kv(obj, argv[i]);
		if (ret)
			return refused(ret);
	}
	if (direct)
		kind = "enabled";
	fd = make_ring(kind, &ring, &made, &p);
	if (direct) {
		ro.params = &p;
		ret = iouring_bpf_obj_bind_ring(obj, fd, &ro) ?:
		      iouring_bpf_obj_load(obj);
		link = ret ? NULL : iouring_bpf_obj_attach(obj, NULL);
		if (!ret && !link)
			ret = -errno;
	} else {
		o.obj = made ? obj : NULL;
		conn = iouring_bpf_broker_attach(fd, prog, &o);
		ret = conn < 0 ? conn : 0;
	}
	if (ret)
		return refused(ret);
	if (!made) {
		printf("attached to a non-ring?\n");
		return 1;
	}
	if (hold) {
		printf("attached pid=%d\n", (int)getpid());
		fflush(stdout);
		pause();	/* until killed */
		return 0;
	}
	ret = io_uring_enter(fd, 0, 0, IORING_ENTER_GETEVENTS, NULL);
	if (ret < 0)
		printf("enter=%d\n", -errno);
	print_state(obj);
	if (read_after) {
		struct io_uring_sqe *sqe;
		struct io_uring_cqe *cqe;
		static char buf[64];
		int z = open("/dev/zero", O_RDONLY);

		if (conn >= 0)
			close(conn);
		conn = -1;
		bpf_link__destroy(link);
		link = NULL;
		usleep(200000);	/* the daemon detaches on the close */
		/* the program moved the SQ: start liburing's view from there */
		ring.sq.sqe_head = ring.sq.sqe_tail = *ring.sq.ktail;
		sqe = io_uring_get_sqe(&ring);
		if (!sqe) {
			printf("read: no SQE\n");
			return 1;
		}
		io_uring_prep_read(sqe, z, buf, sizeof(buf), 0);
		ret = io_uring_submit_and_wait(&ring, 1);
		if (ret < 0 || io_uring_peek_cqe(&ring, &cqe)) {
			printf("read: submit %d\n", ret);
			return 1;
		}
		printf("read=%d\n", cqe->res);
	}
	if (conn >= 0)
		close(conn);
	bpf_link__destroy(link);
	bpf_object__close(obj);
	io_uring_queue_exit(&ring);
	return 0;
}

static int raw(const char *kind)
{
	unsigned char buf[IOB_MAX_MSG + 64];
	size_t len = IOB_HDR_SIZE;
	char msg[1100];
	int s = connect_raw(), st, fds[2] = { -1, -1 }, fd = -1;

	iob_header(buf, IOB_ATTACH, 0);
	iob_add(buf, &len, "program", "nop-chain");
	if (!strcmp(kind, "truncated"))
		len -= 5;
	else if (!strcmp(kind, "header-only"))
		len = 10;
	else if (!strcmp(kind, "badmagic"))
		buf[0] ^= 0xff;
	else if (!strcmp(kind, "badversion"))
		buf[4] = 9;
	else if (!strcmp(kind, "badtype"))
		buf[6] = 77;
	else if (!strcmp(kind, "longlen"))
		iob_put32(buf + 8, 1 << 30);
	else if (!strcmp(kind, "reply"))
		buf[6] = IOB_REPLY;
	else if (!strcmp(kind, "nul")) {
		buf[IOB_HDR_SIZE + 3] = 0;
	} else if (!strcmp(kind, "ctrl")) {
		len = IOB_HDR_SIZE;
		memcpy(buf + len, "program nop\x1b[31m-chain\n", 23);
		len += 23;
		iob_put32(buf + 8, len - IOB_HDR_SIZE);
	} else if (!strcmp(kind, "path")) {
		len = IOB_HDR_SIZE;
		iob_add(buf, &len, "program", "../../../tmp/evil.bpf.o");
	} else if (!strcmp(kind, "slash")) {
		len = IOB_HDR_SIZE;
		iob_add(buf, &len, "program", "/tmp/evil.bpf.o");
	} else if (!strcmp(kind, "oversize")) {
		memset(buf + len, 'a', sizeof(buf) - len);
		len = sizeof(buf);
	} else if (!strcmp(kind, "unknown-key")) {
		iob_add(buf, &len, "path", "/etc/shadow");
	} else if (!strcmp(kind, "twofds")) {
		if (pipe(fds))
			return 1;
	} else if (!strcmp(kind, "scm")) {
		/* a ring with SCM_RIGHTS: the kernel refuses to send it */
		struct io_uring_params p = { .flags = IORING_SETUP_SINGLE_ISSUER |
			IORING_SETUP_DEFER_TASKRUN };

		fd = syscall(__NR_io_uring_setup, 8, &p);
		iob_add(buf, &len, "ring", "0");
	} else if (!strcmp(kind, "badring")) {
		iob_add(buf, &len, "ring", "3x");
	} else if (!strcmp(kind, "nosuchfd")) {
		iob_add(buf, &len, "ring", "999");
	} else if (strcmp(kind, "noring")) {
		fprintf(stderr, "bclient: no raw kind %s\n", kind);
		return 1;
	}
	if (!strcmp(kind, "twofds")) {
		/* two fds in one SCM_RIGHTS */
		char cbuf[CMSG_SPACE(sizeof(int) * 2)];
		struct iovec iov = { buf, len };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
				     .msg_control = cbuf,
				     .msg_controllen = sizeof(cbuf) };
		struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
		unsigned char r[IOB_MAX_MSG];
		static struct iob_msg m;
		const char *why;
		ssize_t n;

		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int) * 2);
		memcpy(CMSG_DATA(cm), fds, sizeof(fds));
		sendmsg(s, &mh, 0);
		n = recv(s, r, sizeof(r), 0);
		if (n <= 0 || iob_decode(r, n, &m, &why))
			return 1;
		printf("status %s: %s\n", iob_get(&m, "status"),
		       iob_get(&m, "message"));
		return atoi(iob_get(&m, "status"));
	}
	st = exchange(s, buf, len, fd, msg, sizeof(msg));
	printf("status %d: %s\n", st, msg);
	return st < 0 ? 1 : st;
}

/* N messages: random bytes, and valid ones with bytes flipped or cut */
static int fuzz(unsigned int seed, int n)
{
	unsigned char buf[IOB_MAX_MSG];
	int i, replies = 0, closed = 0, s = -1;
	char msg[1100];

	srand(seed);
	for (i = 0; i < n; i++) {
		size_t len = IOB_HDR_SIZE, j;
		int st;

		if (s < 0)
			s = connect_raw();
		iob_header(buf, rand() % 4, 0);
		iob_add(buf, &len, "program", "nop-chain");
		iob_add(buf, &len, "param", "nr=5");
		switch (rand() % 4) {
		case 0:
			len = rand() % sizeof(buf);
			for (j = 0; j < len; j++)
				buf[j] = rand();
			break;
		case 1:
			for (j = 0; j < 1 + (size_t)rand() % 4; j++)
				buf[rand() % len] = rand();
			break;
		case 2:
			len = rand() % len;
			break;
		default:
			buf[IOB_HDR_SIZE + rand() % (len - IOB_HDR_SIZE)] =
				rand() % 32;
		}
		st = exchange(s, buf, len, -1, msg, sizeof(msg));
		if (st >= 0)
			replies++;
		if (st == 0) {
			printf("FAIL: message %d was accepted: %s\n", i, msg);
			return 1;
		}
		/* the daemon closes after a malformed message: reconnect */
		close(s);
		s = -1;
		closed++;
	}
	printf("fuzz: %d messages, %d refused with a reply\n", n, replies);
	return 0;
}

static int conns(int n)
{
	int *fd = calloc(n, sizeof(int)), i, st, refused = 0;
	char msg[1100];
	unsigned char buf[IOB_MAX_MSG];

	for (i = 0; i < n; i++) {
		struct timeval tv = { .tv_sec = 0, .tv_usec = 1000 };
		char b;

		fd[i] = connect_raw();
		/* a refused one gets a reply and is closed at once */
		setsockopt(fd[i], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		if (recv(fd[i], &b, 1, MSG_PEEK) > 0)
			refused++;
	}
	usleep(500000);
	for (i = 0; i < n; i++) {
		char b;

		if (recv(fd[i], &b, 1, MSG_PEEK | MSG_DONTWAIT) >= 0)
			;
	}
	/* one more: refused at once, with a reply and no request */
	{
		int s = connect_raw();
		static struct iob_msg m;
		const char *why;
		ssize_t r = recv(s, buf, sizeof(buf), 0);

		st = r > 0 && !iob_decode(buf, r, &m, &why) && iob_get(&m, "status") ?
		     atoi(iob_get(&m, "status")) : -1;
		snprintf(msg, sizeof(msg), "%s", st >= 0 ? iob_get(&m, "message") :
			 "no reply");
		close(s);
	}
	printf("conns: %d opened, %d refused at once; then one more: status %d: %s\n",
	       n, refused, st, msg);
	for (i = 0; i < n; i++)
		close(fd[i]);
	return st == 4 ? 0 : 1;
}

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/*
 * n attaches of prog, each to a new ring, timed from connect to the
 * reply (through the broker) or from open to attached (direct, root: the
 * same calls as the daemon's, the ring's layout read from the kernel):
 * "bench: N attaches, median U us, p99 U us, mean U us"
 */
static int bench(int n, const char *prog, int direct)
{
	IOURING_BPF_OPTS(iouring_bpf_broker_opts, o, .socket = sock);
	long long *t = calloc(n, sizeof(*t)), sum = 0;
	int i;

	for (i = 0; i < n; i++) {
		struct io_uring_params p = { .flags = IORING_SETUP_SINGLE_ISSUER |
			IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_NO_SQARRAY |
			(direct ? 0 : IORING_SETUP_R_DISABLED) };
		int fd = syscall(__NR_io_uring_setup, 8, &p), conn = -1, ret;
		struct bpf_object *obj = NULL;
		struct bpf_link *link = NULL;
		long long t0;

		if (fd < 0) {
			perror("io_uring_setup");
			return 1;
		}
		t0 = now_us();
		if (direct) {
			obj = iouring_bpf_builtin_open(prog, NULL);
			/* the layout from the kernel, as the daemon reads it */
			ret = !obj ? -errno :
			      iouring_bpf_obj_bind_ring(obj, fd, NULL) ?:
			      iouring_bpf_obj_load(obj);
			link = ret ? NULL : iouring_bpf_obj_attach(obj, NULL);
		} else {
			conn = iouring_bpf_broker_attach(fd, prog, &o);
		}
		t[i] = now_us() - t0;
		if (!link && conn < 0) {
			printf("attach %d: %s\n", i, lib_msg);
			return 1;
		}
		sum += t[i];
		bpf_link__destroy(link);
		bpf_object__close(obj);
		if (conn >= 0)
			close(conn);
		close(fd);
	}
	qsort(t, n, sizeof(*t), cmp_ll);
	printf("bench %s: %d attaches of %s, median %lld us, p99 %lld us, mean %lld us\n",
	       direct ? "direct" : "broker", n, prog, t[n / 2],
	       t[n * 99 / 100 < n ? n * 99 / 100 : n - 1], sum / n);
	return 0;
}

/* n programs attached at once through the broker, until killed */
static int many(int n, const char *prog)
{
	IOURING_BPF_OPTS(iouring_bpf_broker_opts, o, .socket = sock);
	int i;

	for (i = 0; i < n; i++) {
		struct io_uring_params p = { .flags = IORING_SETUP_SINGLE_ISSUER |
			IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_R_DISABLED };
		int fd = syscall(__NR_io_uring_setup, 8, &p);

		if (fd < 0 || iouring_bpf_broker_attach(fd, prog, &o) < 0) {
			printf("attach %d: %s\n", i, fd < 0 ? "no ring" : lib_msg);
			return 1;
		}
	}
	printf("attached %d\n", n);
	pause();
	return 0;
}

static int send_ring_as(int ring_fd, const char *prog, uid_t uid)
{
	unsigned char buf[IOB_MAX_MSG];
	size_t len = IOB_HDR_SIZE;
	char msg[1100], num[16];
	int st;

	if (uid && (setgroups(0, NULL), setgid(uid) || setuid(uid)))
		return 1;

	iob_header(buf, IOB_ATTACH, 0);
	iob_add(buf, &len, "program", prog);
	snprintf(num, sizeof(num), "%d", ring_fd);
	iob_add(buf, &len, "ring", num);
	st = exchange(connect_raw(), buf, len, -1, msg, sizeof(msg));
	printf("status %d: %s\n", st, msg);
	return st < 0 ? 1 : st;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: see bclient.c\n");
		return 1;
	}
	sock = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	iouring_bpf_set_print(lib_print);
	if (!strcmp(argv[2], "app") && argc > 3)
		return app(argc - 3, argv + 3, 0);
	if (!strcmp(argv[2], "direct") && argc > 3)
		return app(argc - 3, argv + 3, 1);
	if (!strcmp(argv[2], "raw") && argc == 4)
		return raw(argv[3]);
	if (!strcmp(argv[2], "fuzz") && argc == 5)
		return fuzz(atoi(argv[3]), atoi(argv[4]));
	if (!strcmp(argv[2], "bench") && argc == 5)
		return bench(atoi(argv[3]), argv[4], 0);
	if (!strcmp(argv[2], "benchdirect") && argc == 5)
		return bench(atoi(argv[3]), argv[4], 1);
	if (!strcmp(argv[2], "many") && argc == 5)
		return many(atoi(argv[3]), argv[4]);
	if (!strcmp(argv[2], "conns") && argc == 4)
		return conns(atoi(argv[3]));
	if (!strcmp(argv[2], "confed") && argc == 4) {
		struct io_uring_params p = { .flags = IORING_SETUP_SINGLE_ISSUER |
			IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_R_DISABLED };
		int fd = syscall(__NR_io_uring_setup, 8, &p), st;
		pid_t pid;

		if (fd < 0)
			return 1;
		pid = fork();
		if (!pid)
			_exit(send_ring_as(fd, argv[3], 65534));
		waitpid(pid, &st, 0);
		return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
	}
	if (!strcmp(argv[2], "killmid") && argc == 4) {
		struct io_uring_params p = { .flags = IORING_SETUP_SINGLE_ISSUER |
			IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_R_DISABLED };
		pid_t pid = fork();
		int st;

		if (!pid) {
			unsigned char buf[IOB_MAX_MSG];
			size_t len = IOB_HDR_SIZE;
			int fd = syscall(__NR_io_uring_setup, 8, &p);
			int s = connect_raw();
			char num[16];

			iob_header(buf, IOB_ATTACH, 0);
			iob_add(buf, &len, "program", argv[3]);
			snprintf(num, sizeof(num), "%d", fd);
			iob_add(buf, &len, "ring", num);
			send(s, buf, len, 0);
			kill(getpid(), SIGKILL);
		}
		waitpid(pid, &st, 0);
		printf("killmid: the client died by signal %d\n",
		       WIFSIGNALED(st) ? WTERMSIG(st) : 0);
		return 0;
	}
	fprintf(stderr, "bclient: bad arguments (see bclient.c)\n");
	return 1;
}
