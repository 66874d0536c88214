// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - iouring-bpfd: attach vetted loop programs to the rings of
 * unprivileged clients. Runs as root, listens on a UNIX socket
 * (SOCK_SEQPACKET; --socket, or the one systemd passes: LISTEN_FDS), takes
 * one request at a time on one thread, and keeps each client's program
 * attached while its connection is open. docs/broker.md is the manual.
 *
 *	iouring-bpfd [--socket PATH] [--policy FILE] [--log-json] [-v]
 *	iouring-bpfd check POLICY
 *
 * This file: the options, the socket, the connections and their limits,
 * the checks of a request before attach.c acts on it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <iouring-bpf/iouring-bpf.h>	/* the ring flags */
#include "broker_proto.h"
#include "daemon.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD	77
#endif
#ifndef IORING_SETUP_R_DISABLED
#define IORING_SETUP_R_DISABLED	(1U << 6)
#endif

#define DEFAULT_POLICY	"/etc/iouring-bpf/iouring-bpfd.policy"
#define MAX_GROUPS	64

struct conn {
	int		fd;
	int		pidfd;		/* the peer's, or -1 */
	pid_t		pid;
	uid_t		uid;
	gid_t		gid;
	gid_t		groups[MAX_GROUPS];
	int		ngroups;
	struct attached	*att;
	char		prog[POL_NAME_MAX];
	char		params[512];
	struct conn	*next;
};

static struct policy pol;
static struct conn *conns;
static int nconns;
static volatile sig_atomic_t stop;

static const char usage[] =
"Usage: iouring-bpfd [--socket PATH] [--policy FILE] [--log-json] [-v]\n"
"       iouring-bpfd check POLICY\n"
"Attach vetted io_uring loop programs to the rings of unprivileged clients\n"
"(iouring-bpf run --broker, iouring_bpf_broker_attach()). Runs as root, in\n"
"the foreground; one log line per decision on stderr.\n"
"  --socket PATH   listen there (default " IOB_DEFAULT_SOCKET "; under systemd the\n"
"                  socket unit's, LISTEN_FDS)\n"
"  --policy FILE   the policy (default " DEFAULT_POLICY ")\n"
"  --log-json      log lines as JSON objects\n"
"  -v              libbpf's messages too\n"
"check POLICY: validate a policy (FILE:LINE:COL errors), exit 0 if good, 1 if not.\n"
"Exit: 0 stopped by SIGTERM/SIGINT, 1 failure, 2 usage, 4 not root.\n";

static void on_signal(int sig)
{
	stop = 1;
}

static int user_count(uid_t uid, int attached)
{
	struct conn *c;
	int n = 0;

	for (c = conns; c; c = c->next)
		if (c->uid == uid && (!attached || c->att))
			n++;
	return n;
}

static int prog_count(uid_t uid, const char *prog)
{
	struct conn *c;
	int n = 0;

	for (c = conns; c; c = c->next)
		if (c->uid == uid && c->att && !strcmp(c->prog, prog))
			n++;
	return n;
}

/* a REPLY with status, errno, message and the map fds of out (or none) */
static void reply(struct conn *c, int status, int err, int fix,
		  const char *msg, const struct attach_out *out)
{
	unsigned char buf[IOB_MAX_MSG];
	char num[32], cbuf[CMSG_SPACE(sizeof(int) * IOB_MAX_FDS)];
	struct iovec iov;
	struct msghdr mh = { 0 };
	size_t len = IOB_HDR_SIZE;
	int i;

	iob_header(buf, IOB_REPLY, 0);
	snprintf(num, sizeof(num), "%d", status);
	iob_add(buf, &len, "status", num);
	snprintf(num, sizeof(num), "%d", err);
	iob_add(buf, &len, "errno", num);
	snprintf(num, sizeof(num), "%d", fix);
	iob_add(buf, &len, "fix", num);
	iob_add(buf, &len, "message", msg);
	if (out && out->binding[0])
		iob_add(buf, &len, "binding", out->binding);
	for (i = 0; out && i < out->nfds; i++)
		iob_add(buf, &len, "section", out->sections[i]);
	iov.iov_base = buf;
	iov.iov_len = len;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (out && out->nfds) {
		struct cmsghdr *cm;

		memset(cbuf, 0, sizeof(cbuf));
		mh.msg_control = cbuf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * out->nfds);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int) * out->nfds);
		memcpy(CMSG_DATA(cm), out->fds, sizeof(int) * out->nfds);
	}
	if (sendmsg(c->fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		log_decision("reply-lost", c->pid, c->uid, c->prog, c->params,
			     status, strerror(errno));
}

static void refuse(struct conn *c, int status, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void refuse(struct conn *c, int status, int err, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_decision("deny", c->pid, c->uid, c->prog, c->params, status, msg);
	reply(c, status, err, 0, msg, NULL);
}

static void conn_close(struct conn *c, int epfd, const char *why)
{
	struct conn **pp;

	if (c->att) {
		attach_release(c->att);
		log_decision("detach", c->pid, c->uid, c->prog, c->params, 0,
			     why);
	}
	epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	if (c->pidfd >= 0)
		close(c->pidfd);
	for (pp = &conns; *pp; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	}
	nconns--;
	free(c);
}

/*
 * the client's fd number fdnum, taken from its fd table through its pidfd
 * (the kernel refuses io_uring fds in SCM_RIGHTS); -1 and msg if not
 */
static int take_fd(struct conn *c, const char *fdnum, char *msg, size_t len,
		   int *status)
{
	char *end;
	long n;
	int fd;

	errno = 0;
	n = strtol(fdnum, &end, 10);
	*status = IOB_USAGE;
	if (errno || end == fdnum || *end || n < 0 || n > 1 << 20) {
		snprintf(msg, len, "'ring %.20s': the ring is its fd number in the client (0..)",
			 fdnum);
		return -1;
	}
	if (c->pidfd < 0)
		c->pidfd = syscall(SYS_pidfd_open, c->pid, 0);
	fd = c->pidfd < 0 ? -1 : syscall(SYS_pidfd_getfd, c->pidfd, (int)n, 0);
	if (fd >= 0)
		return fd;
	if (errno == EBADF) {
		snprintf(msg, len, "the client (pid %d) has no fd %ld: give the ring's fd number",
			 (int)c->pid, n);
	} else {
		*status = IOB_FAIL;
		snprintf(msg, len, "cannot take fd %ld of the client (pid %d): %s",
			 n, (int)c->pid, strerror(errno));
	}
	return -1;
}

static void do_attach_ring(struct conn *c, struct attach_req *req,
			   const char *prog, int ring);

/* the fields of a "KEY:\tA\tB..." line of /proc/PID/status, or -1 */
static int proc_status(pid_t pid, const char *key, unsigned long long *v,
		       int n, int base)
{
	char path[64], line[256], *p, *end;
	size_t klen = strlen(key);
	int i = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) || line[klen] != ':')
			continue;
		p = line + klen + 1;
		for (i = 0; i < n; i++, p = end) {
			errno = 0;
			v[i] = strtoull(p, &end, base);
			if (errno || end == p)
				break;
		}
		break;
	}
	fclose(f);
	return i == n ? 0 : -1;
}

/*
 * Is process tgid, the submitter of a ring the client passed, the
 * client's own: one it may ptrace, which is what `load --broker` needed
 * to take that ring with pidfd_getfd()? Its real, effective, saved and
 * fs uid and gid are the client's, it is dumpable (else /proc/PID is
 * root's), and it has no capability the client lacks.
 */
static int submitter_is_clients(pid_t tgid, const struct conn *c)
{
	unsigned long long uid[4], gid[4], cap, ccap;
	char path[64];
	struct stat st;
	int i;

	snprintf(path, sizeof(path), "/proc/%d", (int)tgid);
	if (stat(path, &st) || st.st_uid != c->uid ||
	    proc_status(tgid, "Uid", uid, 4, 10) ||
	    proc_status(tgid, "Gid", gid, 4, 10) ||
	    proc_status(tgid, "CapPrm", &cap, 1, 16) ||
	    proc_status(c->pid, "CapPrm", &ccap, 1, 16))
		return 0;
	for (i = 0; i < 4; i++)
		if (uid[i] != c->uid || gid[i] != c->gid)
			return 0;
	return !(cap & ~ccap);
}

/* the checks of an ATTACH, then the ring's (do_attach_ring()) */
static void do_attach(struct conn *c, const struct iob_msg *m)
{
	const char *prog = iob_get(m, "program");
	const char *ringarg = iob_get(m, "ring");
	struct attach_req req = { 0 };
	const struct pol_rule *r;
	char msg[1024];
	size_t off = 0;
	int i, ring, status;

	c->params[0] = 0;
	snprintf(c->prog, sizeof(c->prog), "%.*s", (int)sizeof(c->prog) - 1,
		 prog ? prog : "");
	for (i = 0; i < m->nlines; i++) {
		const char *k = m->line[i].key;

		if (!strcmp(k, "param")) {
			if (req.nparams == POL_MAX_PARAMS)
				return refuse(c, IOB_USAGE, E2BIG,
					      "more than %d parameters",
					      POL_MAX_PARAMS);
			req.params[req.nparams++] = m->line[i].val;
			if (off < sizeof(c->params))
				off += snprintf(c->params + off,
						sizeof(c->params) - off, "%s%s",
						off ? " " : "", m->line[i].val);
		} else if (strcmp(k, "program") && strcmp(k, "ring")) {
			return refuse(c, IOB_USAGE, EINVAL,
				      "unknown key '%.40s' in ATTACH (program, ring, param)",
				      k);
		}
	}
	if (c->att)
		return refuse(c, IOB_USAGE, EBUSY,
			      "this connection has %s attached already: one program per connection (open another, or DETACH first)",
			      c->prog);
	if (!prog)
		return refuse(c, IOB_USAGE, EINVAL,
			      "ATTACH names no program ('program NAME')");
	if (!policy_name_ok(prog))
		return refuse(c, IOB_USAGE, EINVAL,
			      "'%.64s' is not a program name: a name has letters, digits, '_', '-', '.' only (no path, no control character); see `iouring-bpf list`",
			      prog);
	r = policy_find(&pol, prog);
	if (!r)
		return refuse(c, IOB_PERM, EPERM,
			      "%s is not in the policy %s (default deny): %s",
			      prog, pol.file, attach_is_builtin(prog) ?
			      "ask the administrator to add a 'program' block for it" :
			      "no such program (built-ins: `iouring-bpf list`)");
	if (!policy_user_ok(r, c->uid, c->gid, c->groups, c->ngroups))
		return refuse(c, IOB_PERM, EPERM,
			      "uid %u may not attach %s: the policy's block for it (line %d) names other users and groups",
			      (unsigned)c->uid, prog, r->line);
	if (user_count(c->uid, 1) >= pol.user_attached)
		return refuse(c, IOB_PERM, EUSERS,
			      "uid %u has %d programs attached, the policy's limit (limit attached %d): detach one first",
			      (unsigned)c->uid, pol.user_attached,
			      pol.user_attached);
	if (r->max_attached && prog_count(c->uid, prog) >= r->max_attached)
		return refuse(c, IOB_PERM, EUSERS,
			      "uid %u has %s attached %d times, the policy's max-attached for it",
			      (unsigned)c->uid, prog, r->max_attached);
	if (!ringarg)
		return refuse(c, IOB_USAGE, EBADF,
			      "ATTACH names no ring: 'ring FD', the ring's fd number in the client");
	ring = take_fd(c, ringarg, msg, sizeof(msg), &status);
	if (ring < 0)
		return refuse(c, status, EBADF, "%s", msg);
	req.rule = r;
	do_attach_ring(c, &req, prog, ring);
	close(ring);
}

/* the checks of the ring, then attach.c */
static void do_attach_ring(struct conn *c, struct attach_req *req,
			   const char *prog, int ring)
{
	const struct pol_rule *r = req->rule;
	struct attach_out out;
	struct ring_facts rf;
	char msg[1024];
	int i;

	if (ring_facts(ring, &rf, msg, sizeof(msg)))
		return refuse(c, IOB_FAIL, EIO, "%s", msg);
	if (!rf.is_ring)
		return refuse(c, IOB_USAGE, EBADF, "%s", msg);
	if (rf.creator_uid != c->uid)
		return refuse(c, IOB_PERM, EPERM,
			      "the ring belongs to uid %u, not to the client (uid %u): a program is attached only to a ring of the client's own",
			      rf.creator_uid, (unsigned)c->uid);
	if (rf.submitter_tgid && rf.submitter_tgid != c->pid &&
	    !submitter_is_clients(rf.submitter_tgid, c))
		return refuse(c, IOB_PERM, EPERM,
			      "the ring's submitter is process %d, not the client (pid %d) nor a process of the client's it could trace (same uid and gid, dumpable, no more capabilities): pass a ring this process created",
			      rf.submitter_tgid, (int)c->pid);
	if (c->pidfd >= 0 && syscall(SYS_pidfd_send_signal, c->pidfd, 0, NULL, 0))
		return refuse(c, IOB_FAIL, ESRCH,
			      "the client process is gone");
	if ((rf.flags & (IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN)) !=
	    (IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN))
		return refuse(c, IOB_USAGE, EINVAL,
			      "the ring (flags 0x%x) lacks %s: a loop program needs a ring made with IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN (iouring_bpf_ring_setup())",
			      rf.flags, !(rf.flags & IORING_SETUP_DEFER_TASKRUN) ?
			      "IORING_SETUP_DEFER_TASKRUN" : "IORING_SETUP_SINGLE_ISSUER");
	if (r->opcodes[0] && !(rf.flags & IORING_SETUP_R_DISABLED))
		return refuse(c, IOB_USAGE, EINVAL,
			      "the policy limits %s's ring to the opcodes %s: the broker registers that limit (a ring filter, or io_uring's restrictions) before attaching, which a SINGLE_ISSUER ring allows only while it is disabled: make the ring with IORING_SETUP_R_DISABLED and enable it (IORING_REGISTER_ENABLE_RINGS) after the reply (the library's call does)",
			      prog, r->opcodes);
	req->ring_fd = ring;
	req->ring_disabled = !!(rf.flags & IORING_SETUP_R_DISABLED);
	c->att = attach_program(req, &out);
	if (!c->att) {
		log_decision("deny", c->pid, c->uid, prog, c->params,
			     out.status, out.msg);
		reply(c, out.status, out.err, out.fix, out.msg, NULL);
		return;
	}
	snprintf(msg, sizeof(msg), "attached (binding %s%s%s%s%s)", out.binding,
		 r->opcodes[0] ? "; " : "", out.limit,
		 r->opcodes[0] ? ": only " : "", r->opcodes);
	log_decision("allow", c->pid, c->uid, prog, c->params, 0, msg);
	reply(c, 0, 0, 0, msg, &out);
	for (i = 0; i < out.nfds; i++)
		close(out.fds[i]);
}

/* one message of c; -1: close the connection */
static int conn_read(struct conn *c)
{
	static unsigned char buf[IOB_MAX_MSG + 1];
	static struct iob_msg m;
	char cbuf[CMSG_SPACE(sizeof(int) * 8)];
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr mh = { 0 };
	struct cmsghdr *cm;
	int fds[8], nfds = 0, i, ret = 0;
	const char *why;
	ssize_t n;

	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cbuf;
	mh.msg_controllen = sizeof(cbuf);
	n = recvmsg(c->fd, &mh, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0)
		return -1;
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		for (i = 0; i < (int)((cm->cmsg_len - CMSG_LEN(0)) / sizeof(int)); i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof(int));
			if (nfds < 8)
				fds[nfds++] = fd;
			else
				close(fd);
		}
	}
	if (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
		refuse(c, IOB_USAGE, EMSGSIZE,
		       "malformed message: %s", mh.msg_flags & MSG_TRUNC ?
		       "longer than a message may be" : "too many fds");
		ret = -1;
	} else if (iob_decode(buf, n, &m, &why)) {
		c->prog[0] = 0;
		c->params[0] = 0;
		refuse(c, IOB_USAGE, EPROTO, "malformed message: %s", why);
		ret = -1;
	} else if (m.type == IOB_ATTACH) {
		if (nfds)
			refuse(c, IOB_USAGE, EINVAL,
			       "ATTACH came with %d fd%s (SCM_RIGHTS): the daemon takes none; the ring is 'ring FD', its number in the client (the kernel refuses io_uring fds in SCM_RIGHTS)",
			       nfds, nfds == 1 ? "" : "s");
		else
			do_attach(c, &m);
	} else if (m.type == IOB_DETACH) {
		if (m.nlines || nfds) {
			refuse(c, IOB_USAGE, EINVAL,
			       "malformed message: DETACH takes no payload and no fd");
			ret = -1;
		} else if (!c->att) {
			refuse(c, IOB_USAGE, ENOENT,
			       "DETACH: nothing is attached on this connection");
		} else {
			attach_release(c->att);
			c->att = NULL;
			log_decision("detach", c->pid, c->uid, c->prog, c->params,
				     0, "asked by the client");
			reply(c, 0, 0, 0, "detached", NULL);
		}
	} else {
		refuse(c, IOB_USAGE, EPROTO,
		       "malformed message: a client sends ATTACH or DETACH");
		ret = -1;
	}
	for (i = 0; i < nfds; i++)
		close(fds[i]);
	return ret;
}

static void conn_new(int lfd, int epfd)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct ucred cred;
	socklen_t len = sizeof(cred);
	struct conn *c;
	int fd, over;

	fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	c = calloc(1, sizeof(*c));
	if (!c || getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len)) {
		free(c);
		close(fd);
		return;
	}
	c->fd = fd;
	c->pid = cred.pid;
	c->uid = cred.uid;
	c->gid = cred.gid;
	len = sizeof(c->groups);
	if (!getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, c->groups, &len))
		c->ngroups = len / sizeof(gid_t);
	len = sizeof(c->pidfd);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERPIDFD, &c->pidfd, &len))
		c->pidfd = -1;
	over = nconns >= pol.max_connections ? 1 :
	       user_count(c->uid, 0) >= pol.user_connections ? 2 : 0;
	if (over == 1)
		refuse(c, IOB_PERM, EUSERS,
		       "the broker has %d connections open, its limit (limit total %d): try again later",
		       nconns, pol.max_connections);
	else if (over == 2)
		refuse(c, IOB_PERM, EUSERS,
		       "uid %u has %d connections open, the policy's limit (limit connections %d): close one",
		       (unsigned)c->uid, pol.user_connections,
		       pol.user_connections);
	if (over) {
		if (c->pidfd >= 0)
			close(c->pidfd);
		close(fd);
		free(c);
		return;
	}
	ev.data.ptr = c;
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev)) {
		if (c->pidfd >= 0)
			close(c->pidfd);
		close(fd);
		free(c);
		return;
	}
	c->next = conns;
	conns = c;
	nconns++;
}

/* the socket systemd passed (LISTEN_PID, LISTEN_FDS), else -1 */
static int activated_socket(void)
{
	const char *pid = getenv("LISTEN_PID"), *n = getenv("LISTEN_FDS");

	if (!pid || !n || atoi(pid) != getpid() || atoi(n) < 1)
		return -1;
	fcntl(3, F_SETFD, FD_CLOEXEC);
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	return 3;
}

static int listen_on(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "iouring-bpfd: --socket %s: longer than a UNIX socket path may be (%zu)\n",
			path, sizeof(sa.sun_path) - 1);
		return -1;
	}
	strcpy(sa.sun_path, path);
	if (!lstat(path, &st)) {
		if (!S_ISSOCK(st.st_mode)) {
			fprintf(stderr, "iouring-bpfd: %s exists and is not a socket: remove it or choose another --socket\n",
				path);
			return -1;
		}
		unlink(path);	/* a previous daemon's */
	}
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    chmod(path, 0666) || listen(fd, 1024)) {
		fprintf(stderr, "iouring-bpfd: cannot listen on %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	return fd;
}

int main(int argc, char **argv)
{
	const char *sock = IOB_DEFAULT_SOCKET, *policy = DEFAULT_POLICY;
	struct epoll_event ev, evs[64];
	struct rlimit rl;
	struct sigaction sa;
	char msg[1024];
	int i, n, lfd, epfd, verbose = 0, activated;

	if (argc >= 2 && !strcmp(argv[1], "check")) {
		if (argc != 3) {
			fprintf(stderr, "iouring-bpfd check: which policy? iouring-bpfd check POLICY\n");
			return 2;
		}
		attach_init(0);
		if (policy_load(argv[2], &pol, msg, sizeof(msg))) {
			fprintf(stderr, "iouring-bpfd check: %s\n", msg);
			return 1;
		}
		printf("%s: %d program%s, limits: %d connections and %d attached per user, %d in all\n",
		       argv[2], pol.nrules, pol.nrules == 1 ? "" : "s",
		       pol.user_connections, pol.user_attached,
		       pol.max_connections);
		return 0;
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--socket") && i + 1 < argc) {
			sock = argv[++i];
		} else if (!strcmp(argv[i], "--policy") && i + 1 < argc) {
			policy = argv[++i];
		} else if (!strcmp(argv[i], "--log-json")) {
			log_json = 1;
		} else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
			verbose = 1;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage, stdout);
			return 0;
		} else {
			fprintf(stderr, "iouring-bpfd: %s '%s' (try --help)\n",
				!strcmp(argv[i], "--socket") || !strcmp(argv[i], "--policy") ?
				"a value is needed after" : "unrecognized argument",
				argv[i]);
			return 2;
		}
	}
	if (geteuid()) {
		fprintf(stderr, "iouring-bpfd: runs as root (it loads BPF programs for its clients); unprivileged users are its clients: iouring-bpf run --broker\n");
		return 4;
	}
	attach_init(verbose);
	if (policy_load(policy, &pol, msg, sizeof(msg))) {
		fprintf(stderr, "iouring-bpfd: %s\n", msg);
		return 1;
	}
	if (ring_init(msg, sizeof(msg))) {
		fprintf(stderr, "iouring-bpfd: %s\n", msg);
		return 1;
	}
	/* a fd per client, two while a request is in hand, and libbpf's */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	activated = (lfd = activated_socket()) >= 0;
	if (!activated)
		lfd = listen_on(sock);
	if (lfd < 0)
		return 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	epfd = epoll_create1(EPOLL_CLOEXEC);
	ev.events = EPOLLIN;
	ev.data.ptr = NULL;
	if (epfd < 0 || epoll_ctl(epfd, EPOLL_CTL_ADD, lfd, &ev)) {
		fprintf(stderr, "iouring-bpfd: epoll: %s\n", strerror(errno));
		return 1;
	}
	fprintf(stderr, "iouring-bpfd: listening on %s%s, policy %s: %d program%s\n",
		activated ? "the socket systemd passed" : sock,
		activated ? "" : "", policy, pol.nrules,
		pol.nrules == 1 ? "" : "s");
	while (!stop) {
		n = epoll_wait(epfd, evs, 64, -1);
		for (i = 0; i < n; i++) {
			struct conn *c = evs[i].data.ptr;

			if (!c) {
				conn_new(lfd, epfd);
				continue;
			}
			if (conn_read(c))
				conn_close(c, epfd, "connection closed");
		}
	}
	while (conns)
		conn_close(conns, epfd, "the daemon stops");
	if (!activated)
		unlink(sock);
	fprintf(stderr, "iouring-bpfd: stopped; nothing left attached\n");
	return 0;
}
