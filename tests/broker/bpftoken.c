// SPDX-License-Identifier: GPL-2.0
/*
 * bpftoken.c - run a command as an unprivileged user holding a BPF token,
 * the way a container with a delegated bpffs does (tests/broker/test_token).
 *
 *	bpftoken UID DIR CMDS MAPS PROGS ATTACHS -- CMD [ARG]...
 *
 * Run as root. A child becomes UID (no capability left), enters a user
 * namespace of its own (mapping its uid to 0 there) and a mount
 * namespace, and opens a bpffs context there (fsopen("bpf"): the
 * instance belongs to the child's user namespace). The parent, root of
 * the initial namespace, is the only one who may set the delegate_*
 * options: it sets delegate_cmds=CMDS, delegate_maps=MAPS,
 * delegate_progs=PROGS, delegate_attachs=ATTACHS ("-" leaves one out)
 * and creates the superblock. The child mounts it at DIR (in its own
 * mount namespace) and execs CMD, which finds the bpffs with
 * LIBBPF_BPF_TOKEN_PATH=DIR if the caller set it: libbpf then makes a
 * token from it for each object it loads. The kernel's selftests
 * (prog_tests/token.c) set a token up the same way.
 *
 * Exit: CMD's, or 1 with a message if the setup failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/fs.h>
#include <linux/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static void die(const char *what)
{
	fprintf(stderr, "bpftoken: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void send_fd(int s, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, b = 0;
	struct iovec iov = { &b, 1 };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	if (sendmsg(s, &mh, 0) != 1)
		die("sendmsg");
}

static int recv_fd(int s)
{
	char cbuf[CMSG_SPACE(sizeof(int))], b;
	struct iovec iov = { &b, 1 };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(s, &mh, 0) != 1) {
		fprintf(stderr, "bpftoken: the child sent no bpffs context (it failed: above)\n");
		exit(1);
	}
	cm = CMSG_FIRSTHDR(&mh);
	if (!cm || cm->cmsg_type != SCM_RIGHTS) {
		errno = EPROTO;
		die("no fd from the child");
	}
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		die(path);
	close(fd);
}

static void child(int s, uid_t uid, const char *dir, char **cmd)
{
	char map[64], b;
	int fs, mnt;

	if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid))
		die("dropping to the user");
	/* the uid change made /proc/self root's: the maps need it ours */
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		die("prctl(PR_SET_DUMPABLE)");
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS))
		die("unshare(CLONE_NEWUSER | CLONE_NEWNS)");
	write_file("/proc/self/setgroups", "deny");
	snprintf(map, sizeof(map), "0 %u 1", (unsigned int)uid);
	write_file("/proc/self/uid_map", map);
	write_file("/proc/self/gid_map", map);
	if (syscall(SYS_mount, NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		die("making the mounts private");
	fs = syscall(SYS_fsopen, "bpf", 0);
	if (fs < 0)
		die("fsopen(bpf) in the user namespace");
	send_fd(s, fs);
	if (read(s, &b, 1) != 1 || b != 'y') {
		fprintf(stderr, "bpftoken: the parent could not set the delegation\n");
		exit(1);
	}
	mnt = syscall(SYS_fsmount, fs, 0, 0);
	if (mnt < 0)
		die("fsmount");
	if (syscall(SYS_move_mount, mnt, "", AT_FDCWD, dir,
		    MOVE_MOUNT_F_EMPTY_PATH))
		die("move_mount to DIR");
	close(mnt);
	close(fs);
	close(s);
	execvp(cmd[0], cmd);
	die(cmd[0]);
}

static void delegate(int fs, const char *key, const char *val)
{
	if (strcmp(val, "-") &&
	    syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, key, val, 0))
		die(key);
}

int main(int argc, char **argv)
{
	int sv[2], fs, st;
	pid_t pid;

	if (argc < 9 || strcmp(argv[7], "--")) {
		fprintf(stderr, "usage: bpftoken UID DIR CMDS MAPS PROGS ATTACHS -- CMD [ARG]...\n");
		return 1;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		die("socketpair");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		close(sv[0]);
		child(sv[1], atoi(argv[1]), argv[2], argv + 8);
	}
	close(sv[1]);
	fs = recv_fd(sv[0]);
	delegate(fs, "delegate_cmds", argv[3]);
	delegate(fs, "delegate_maps", argv[4]);
	delegate(fs, "delegate_progs", argv[5]);
	delegate(fs, "delegate_attachs", argv[6]);
	if (syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		die("fsconfig(FSCONFIG_CMD_CREATE)");
	if (write(sv[0], "y", 1) != 1)
		die("write");
	close(fs);
	if (waitpid(pid, &st, 0) < 0)
		die("waitpid");
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
