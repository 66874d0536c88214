// SPDX-License-Identifier: GPL-2.0
/*
 * copy: the workload `iouring-bpf run copy` drives (loader/workloads/
 * workload.h) and its checks, on the program's skeleton (struct iou_unit).
 * It takes no --count: the copy is of one file (or pipe) of fixed size.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "workload.h"
#include IOU_UNIT_SKEL

#define COPY_FILE_SIZE	(1024 * 1024 + 123)
#define COPY_PIPE_SIZE	(300000 + 77)

struct copy_state {
	int		in, out;
	pid_t		child;
	size_t		size;
	unsigned char	*buf;
	char		dir[256];
	char		src[300], dst[300];
};

static unsigned char pattern(size_t i)
{
	return (unsigned char)(i * 2654435761u >> 13);
}

static void feed_pipe(int fd)
{
	static unsigned char chunk[8192];
	size_t off = 0, n;
	unsigned int k = 0;

	while (off < COPY_PIPE_SIZE) {
		n = 1 + (k++ * 7919) % sizeof(chunk);	/* odd sizes */
		if (n > COPY_PIPE_SIZE - off)
			n = COPY_PIPE_SIZE - off;
		for (size_t i = 0; i < n; i++)
			chunk[i] = pattern(off + i);
		if (write(fd, chunk, n) != (ssize_t)n)
			_exit(1);
		off += n;
		if (k % 8 == 0)
			usleep(200);	/* let the reader see a short read */
	}
	_exit(0);
}

static int setup_copy(struct run_ctx *rc)
{
	struct iou_unit k;
	long long block = RC_VIEW(rc, &k, rodata)->block;
	long long stream = k.rodata->stream_in;
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	struct copy_state *s;
	int p[2];

	if (block <= 0 || block > (64 << 20)) {
		return rc_fail(rc, IOURING_BPF_USAGE, ERANGE,
			       "block=%lld: must be 1..64M", block);
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return rc_fail(rc, IOURING_BPF_FAIL, ENOMEM, "out of memory");
	rc->priv = s;
	s->in = s->out = -1;
	s->buf = aligned_alloc(4096, (block + 4095) / 4096 * 4096);
	snprintf(s->dir, sizeof(s->dir), "%s/iouring-bpf-copy-XXXXXX", tmp);
	if (!s->buf || !mkdtemp(s->dir)) {
		return rc_fail(rc, IOURING_BPF_FAIL, errno,
			       "cannot make a directory in %s: %s (set TMPDIR)",
			       tmp, strerror(errno));
	}
	snprintf(s->src, sizeof(s->src), "%s/src", s->dir);
	snprintf(s->dst, sizeof(s->dst), "%s/dst", s->dir);
	if (stream) {
		if (pipe(p))
			return rc_fail(rc, IOURING_BPF_FAIL, errno, "pipe: %s",
				       strerror(errno));
		s->child = fork();
		if (s->child < 0)
			return rc_fail(rc, IOURING_BPF_FAIL, errno, "fork: %s",
				       strerror(errno));
		if (s->child == 0) {
			close(p[0]);
			close(rc->ring.fd);
			feed_pipe(p[1]);
		}
		close(p[1]);
		s->in = p[0];
		s->size = COPY_PIPE_SIZE;
	} else {
		int fd = open(s->src, O_CREAT | O_RDWR | O_TRUNC, 0600);
		unsigned char *data = malloc(COPY_FILE_SIZE);

		if (fd < 0 || !data) {
			free(data);
			return rc_fail(rc, IOURING_BPF_FAIL, errno,
				       "cannot create %s: %s", s->src,
				       strerror(errno));
		}
		for (size_t i = 0; i < COPY_FILE_SIZE; i++)
			data[i] = pattern(i);
		if (write(fd, data, COPY_FILE_SIZE) != COPY_FILE_SIZE) {
			free(data);
			close(fd);
			return rc_fail(rc, IOURING_BPF_FAIL, EIO,
				       "cannot write %s", s->src);
		}
		free(data);
		s->in = fd;
		s->size = COPY_FILE_SIZE;
	}
	s->out = open(s->dst, O_CREAT | O_RDWR | O_TRUNC, 0600);
	if (s->out < 0)
		return rc_fail(rc, IOURING_BPF_FAIL, errno, "cannot create %s: %s",
			       s->dst, strerror(errno));
	return RC_SET(rc, k.rodata, fd_in, s->in) ?:
	       RC_SET(rc, k.rodata, fd_out, s->out) ?:
	       RC_SET(rc, k.rodata, buf, (long long)(unsigned long)s->buf);
}

static int run_copy(struct run_ctx *rc)
{
	struct copy_state *s = rc->priv;
	struct iou_unit k;
	long long block = RC_VIEW(rc, &k, rodata)->block;
	long long t0, t, bad_at = -1;
	unsigned char *got;
	ssize_t n;
	int ret, status;

	/*
	 * 10 s, plus 50 ms per block: a debug kernel under emulation copying
	 * 1 MiB in 1000-byte blocks over 9p needs about 35 s.
	 */
	t0 = now_ns();
	ret = ring_wait(&rc->ring, 0, 10 * SEC_NS +
			(long long)(s->size / block + 1) * 50000000LL);
	t = now_ns() - t0;

	got = malloc(s->size + 1);
	n = got ? pread(s->out, got, s->size + 1, 0) : -1;
	for (size_t i = 0; n == (ssize_t)s->size && i < s->size; i++) {
		if (got[i] != pattern(i)) {
			bad_at = i;
			break;
		}
	}
	free(got);
	if (s->child > 0) {
		if (ret)
			kill(s->child, SIGKILL);
		waitpid(s->child, &status, 0);
	}

	rc_out(rc, "source", "%s, %zu bytes", s->child ? "pipe" : "file",
	       s->size);
	RC_VIEW(rc, &k, bss);
	rc_num(rc, "block", block);
	RC_NUM(rc, k.bss, bytes_read);
	RC_NUM(rc, k.bss, bytes_written);
	rc_num(rc, "reads", k.bss->nr_reads);
	rc_num(rc, "writes", k.bss->nr_writes);
	RC_NUM(rc, k.bss, short_reads);
	RC_NUM(rc, k.bss, short_writes);
	RC_NUM(rc, k.bss, steps);
	if (t > 0)
		rc_out(rc, "MiB_per_s", "%.1f", s->size / 1048576.0 / (t / 1e9));
	rc_check(rc, ret == 0, "io_uring_enter returned %d (%s), want 0", ret,
		 ret < 0 ? strerror(-ret) : "");
	rc_check(rc, rc_exit_kind(rc) == IOU_EXIT_KIND_DONE,
		 "the program did not reach end of file");
	rc_check(rc, n == (ssize_t)s->size, "destination has %zd bytes, want %zu",
		 n, s->size);
	rc_check(rc, bad_at < 0, "destination differs at byte %lld", bad_at);
	RC_CHECK_EQ(rc, k.bss, bytes_written, s->size);
	RC_CHECK_EQ(rc, k.bss, bytes_read, s->size);
	rc_check(rc, k.bss->short_reads >= 1,
		 "no short read was seen (the last block of the file is one)");

	close(s->in);
	close(s->out);
	unlink(s->src);
	unlink(s->dst);
	rmdir(s->dir);
	free(s->buf);
	return 0;
}

IOU_WORKLOAD(.desc = "loop: copy a file, each write sized by the read before it",
	     .example = "iouring-bpf run copy --set block=65536",
	     .setup = setup_copy,
	     .run = run_copy);
