// SPDX-License-Identifier: GPL-2.0
/*
 * conf_driver.c - an application of the posted IORING_OP_BPF series, on
 * liburing, driving the op of conf_op.bpf.c (registered beforehand by
 * bpftool or the CLI; see test_*.sh next to this file).
 *
 *   conf_driver matrix OPID
 *	every buffer combination of the posting (buffer 1 NONE, PLAIN or
 *	FIXED; buffer 2 NONE or PLAIN), both copy directions, each issued
 *	inline and with IOSQE_ASYNC; copies land in pages user space never
 *	touched (a fresh mmap, a freshly registered fixed buffer) and are
 *	checked byte for byte, bytes around them too.
 *   conf_driver cycle OPID UNREG_CMD REG_CMD
 *	with one ring alive: the op works, UNREG_CMD (a shell command)
 *	unregisters it, requests then fail with -EOPNOTSUPP, REG_CMD
 *	registers it again and requests work again.
 *
 * Prints "ok NAME" / "not ok NAME: why" per check; exits 0 if all passed,
 * 1 if any failed, 77 (with the reason last) if the kernel lacks the
 * feature.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <liburing.h>

/* The posted series' uapi; Debian 12's liburing 2.3 lacks it. */
#ifndef IORING_OP_BPF
#define IORING_OP_BPF			65
#endif
#ifndef IORING_SETUP_BPF
#define IORING_SETUP_BPF		(1U << 20)
#endif
#ifndef IORING_BPF_OP_SHIFT
#define IORING_BPF_OP_SHIFT		24
#define IORING_BPF_BUF1_TYPE_SHIFT	21
#define IORING_BPF_BUF2_TYPE_SHIFT	18
#define IORING_BPF_BUF_TYPE_NONE	0
#define IORING_BPF_BUF_TYPE_PLAIN	1
#define IORING_BPF_BUF_TYPE_FIXED	2
#endif
#define IORING_BPF_OP_FLAGS(op, b1, b2, flags) \
	((__u32)(op) << IORING_BPF_OP_SHIFT | \
	 (__u32)(b1) << IORING_BPF_BUF1_TYPE_SHIFT | \
	 (__u32)(b2) << IORING_BPF_BUF2_TYPE_SHIFT | (flags))

/* conf_op.bpf.c's custom flags */
#define F_DIR_2_TO_1	(1U << 0)
#define F_ECHO		(1U << 1)
#define F_DST_OFF(off)	((__u32)(off) << 4)

#define PAGE		4096
#define NONE		IORING_BPF_BUF_TYPE_NONE
#define PLAIN		IORING_BPF_BUF_TYPE_PLAIN
#define FIXED		IORING_BPF_BUF_TYPE_FIXED

static int failed, passed;
static unsigned int op_id;

#define CHECK(cond, name, fmt, ...) do {				\
	if (cond) {							\
		passed++;						\
		printf("ok %s\n", name);				\
	} else {							\
		failed++;						\
		printf("not ok %s: " fmt " (line %d)\n", name,	\
		       ##__VA_ARGS__, __LINE__);			\
	}								\
} while (0)

/* one request, its result */
struct req {
	int b1, b2;			/* buffer types */
	__u64 addr1, addr3;
	__u32 len1, len2;
	__u16 buf_index;
	__u32 flags;			/* custom flags */
	int async;
};

static int submit_one(struct io_uring *ring, const struct req *r, int *res)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	struct io_uring_cqe *cqe;
	int ret;

	if (!sqe)
		return -EBUSY;
	io_uring_prep_rw(IORING_OP_BPF, sqe, -1, (void *)(unsigned long)r->addr1,
			 r->len1, 0);
	sqe->rw_flags = IORING_BPF_OP_FLAGS(op_id, r->b1, r->b2, r->flags);
	sqe->buf_index = r->buf_index;
	sqe->addr3 = r->addr3;
	/* sqe->optlen (6.12: a __u32 over addr_len and __pad3) */
	memcpy(&sqe->addr_len, &r->len2, sizeof(r->len2));
	if (r->async)
		sqe->flags |= IOSQE_ASYNC;
	sqe->user_data = 0x1234;
	ret = io_uring_submit_and_wait(ring, 1);
	if (ret < 0)
		return ret;
	ret = io_uring_wait_cqe(ring, &cqe);
	if (ret < 0)
		return ret;
	if (cqe->user_data != 0x1234)
		ret = -EBADMSG;
	*res = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return ret;
}

static void *fresh(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	return p;
}

static void fill(unsigned char *p, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 7 + seed + (i >> 8));
}

/* dst[off, off+len) must be src's pattern, the rest of [0, size) zero */
static const char *verify(const unsigned char *dst, size_t size, size_t off,
			  size_t len, unsigned int seed, size_t *where)
{
	for (size_t i = 0; i < size; i++) {
		unsigned char want = 0;

		if (i >= off && i < off + len)
			want = (unsigned char)((i - off) * 7 + seed + ((i - off) >> 8));
		if (dst[i] != want) {
			*where = i;
			return i >= off && i < off + len ? "copied byte differs" :
			       "byte outside the copy changed";
		}
	}
	return NULL;
}

static int register_one(struct io_uring *ring, void *base, size_t len)
{
	struct iovec iov = { .iov_base = base, .iov_len = len };

	return io_uring_register_buffers(ring, &iov, 1);
}

/* sizes: the source crosses pages, the destination offset is odd */
#define SRC_LEN		(3 * PAGE + 100)
#define DST_SIZE	(5 * PAGE)
#define DST_OFF		57
#define FIX_SIZE	(8 * PAGE)
#define FIX_OFF		(PAGE + 13)	/* the FIXED buffer's addr inside it */

static void echo_case(struct io_uring *ring, const char *combo, int b1, int b2,
		      int async)
{
	unsigned char *p1 = fresh(FIX_SIZE), *p2 = fresh(PAGE);
	char name[96];
	struct req r = { .b1 = b1, .b2 = b2, .flags = F_ECHO, .async = async };
	int res = 0, ret, want = 0;

	if (b1 == FIXED) {
		ret = register_one(ring, p1, FIX_SIZE);
		if (ret) {
			snprintf(name, sizeof(name), "%s_echo%s", combo, async ? "_async" : "");
			CHECK(0, name, "io_uring_register_buffers: %s", strerror(-ret));
			goto out;
		}
		r.addr1 = (unsigned long)p1 + FIX_OFF;
		r.len1 = 3 * PAGE;
		want += r.len1;
	} else if (b1 == PLAIN) {
		r.addr1 = (unsigned long)p1 + 9;
		r.len1 = 2 * PAGE + 1;
		want += r.len1;
	}
	if (b2 == PLAIN) {
		r.addr3 = (unsigned long)p2 + 5;
		r.len2 = 100;
		want += r.len2;
	}
	snprintf(name, sizeof(name), "%s_buffers_seen%s", combo, async ? "_async" : "");
	ret = submit_one(ring, &r, &res);
	CHECK(ret == 0 && res == want, name, "submit %d, res %d, want %d (-71: the program saw other addresses/lengths than the SQE's)",
	      ret, res, want);

	/* a copy needs both buffers: the kfunc refuses, nothing crashes */
	if (b1 == NONE || b2 == NONE) {
		r.flags = 0;
		snprintf(name, sizeof(name), "%s_copy_refused%s", combo, async ? "_async" : "");
		ret = submit_one(ring, &r, &res);
		CHECK(ret == 0 && res == -EINVAL, name, "submit %d, res %d, want -EINVAL",
		      ret, res);
	}
	if (b1 == FIXED)
		io_uring_unregister_buffers(ring);
out:
	munmap(p1, FIX_SIZE);
	munmap(p2, PAGE);
}

/* buffer 1 (PLAIN or FIXED) and buffer 2 (PLAIN); dir 0: 1 -> 2, 1: 2 -> 1 */
static void copy_case(struct io_uring *ring, int b1, int dir, int async,
		      unsigned int seed)
{
	const char *combo = b1 == FIXED ? "fixed_plain" : "plain_plain";
	unsigned char *src, *dst, *dst_check, *fix = NULL, *extra;
	struct req r = { .b1 = b1, .b2 = PLAIN, .async = async };
	char name[96];
	size_t where = 0;
	const char *why;
	int res = 0, ret;

	snprintf(name, sizeof(name), "%s_copy_%s%s", combo,
		 dir ? "2_to_1" : "1_to_2", async ? "_async" : "");
	r.flags = F_DST_OFF(DST_OFF) | (dir ? F_DIR_2_TO_1 : 0);

	if (b1 == FIXED) {
		fix = fresh(FIX_SIZE);
		if (dir == 0)		/* the fixed buffer is the source */
			fill(fix + FIX_OFF, SRC_LEN, seed);
		ret = register_one(ring, fix, FIX_SIZE);
		if (ret) {
			CHECK(0, name, "io_uring_register_buffers: %s", strerror(-ret));
			munmap(fix, FIX_SIZE);
			return;
		}
	}
	extra = fresh(DST_SIZE);	/* the plain buffer 2 */
	if (dir == 0) {
		/* 1 -> 2: buffer 1 is the source, buffer 2 the untouched dst */
		if (b1 == FIXED) {
			src = fix + FIX_OFF;
		} else {
			src = fresh(SRC_LEN);
			fill(src, SRC_LEN, seed);
		}
		dst = extra;
		r.addr1 = (unsigned long)src;
		r.len1 = SRC_LEN;
		r.addr3 = (unsigned long)dst;
		r.len2 = DST_SIZE;
		dst_check = dst;
	} else {
		/* 2 -> 1: buffer 2 is the source, buffer 1 the untouched dst */
		src = extra;
		fill(src, SRC_LEN, seed);
		dst = b1 == FIXED ? fix + FIX_OFF : fresh(DST_SIZE);
		r.addr1 = (unsigned long)dst;
		r.len1 = DST_SIZE;
		r.addr3 = (unsigned long)src;
		r.len2 = SRC_LEN;
		dst_check = dst;
	}
	ret = submit_one(ring, &r, &res);
	if (ret || res != SRC_LEN) {
		CHECK(0, name, "submit %d, res %d, want %d", ret, res, SRC_LEN);
	} else {
		why = verify(dst_check, DST_SIZE, DST_OFF, SRC_LEN, seed, &where);
		CHECK(!why, name, "%s at offset %zu", why, where);
		if (b1 == FIXED && dir == 1) {
			/* nothing before the fixed addr was written either */
			size_t i;

			for (i = 0; i < FIX_OFF && !fix[i]; i++)
				;
			snprintf(name + strlen(name), sizeof(name) - strlen(name),
				 "_fixed_head_intact");
			CHECK(i == FIX_OFF, name, "byte %zu of the registered buffer before sqe->addr changed", i);
		}
	}
	if (b1 == FIXED) {
		io_uring_unregister_buffers(ring);
		munmap(fix, FIX_SIZE);
	} else {
		munmap(dir == 0 ? src : dst, dir == 0 ? SRC_LEN : DST_SIZE);
	}
	munmap(extra, DST_SIZE);
}

static int ring_or_skip(struct io_uring *ring)
{
	struct io_uring_params p = { .flags = IORING_SETUP_BPF };
	int ret = io_uring_queue_init_params(8, ring, &p);

	if (ret == -EINVAL) {
		printf("kernel refuses IORING_SETUP_BPF (no IORING_OP_BPF)\n");
		exit(77);
	}
	if (ret) {
		printf("io_uring_queue_init_params: %s\n", strerror(-ret));
		exit(1);
	}
	return 0;
}

static int matrix(void)
{
	struct io_uring ring;
	unsigned int seed = 1;

	ring_or_skip(&ring);
	for (int async = 0; async <= 1; async++) {
		echo_case(&ring, "none", NONE, NONE, async);
		echo_case(&ring, "plain", PLAIN, NONE, async);
		echo_case(&ring, "fixed", FIXED, NONE, async);
		echo_case(&ring, "plain_plain", PLAIN, PLAIN, async);
		echo_case(&ring, "fixed_plain", FIXED, PLAIN, async);
		for (int dir = 0; dir <= 1; dir++) {
			copy_case(&ring, PLAIN, dir, async, seed++);
			copy_case(&ring, FIXED, dir, async, seed++);
		}
	}
	io_uring_queue_exit(&ring);
	return 0;
}

/* an echo request with no buffers: its result (0) or -errno */
static int probe(struct io_uring *ring, int async)
{
	struct req r = { .flags = F_ECHO, .async = async };
	int res = -1, ret = submit_one(ring, &r, &res);

	return ret ? ret : res;
}

static int cycle(const char *unreg, const char *reg)
{
	struct io_uring ring;
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int res, i, odd = 0;

	ring_or_skip(&ring);
	res = probe(&ring, 0);
	CHECK(res == 0, "registered_works", "res %d, want 0", res);

	CHECK(system(unreg) == 0, "unregister_command", "'%s' failed", unreg);
	/*
	 * Unregistering may be deferred a little (removing the last pin of a
	 * link may release it later): until then the op still runs;
	 * after it, every request fails with -EOPNOTSUPP. Anything else is
	 * wrong at any time.
	 */
	for (i = 0; i < 250; i++) {
		res = probe(&ring, i & 1);
		if (res != 0 && res != -EOPNOTSUPP)
			odd = res;
		if (res == -EOPNOTSUPP)
			break;
		nanosleep(&ts, NULL);
	}
	CHECK(res == -EOPNOTSUPP && !odd, "unregistered_eopnotsupp",
	      "last res %d, unexpected %d, want -EOPNOTSUPP within 5 s", res, odd);
	res = probe(&ring, 1);
	CHECK(res == -EOPNOTSUPP, "unregistered_eopnotsupp_async", "res %d", res);

	CHECK(system(reg) == 0, "reregister_command", "'%s' failed", reg);
	res = probe(&ring, 0);
	CHECK(res == 0, "reregistered_works", "res %d, want 0", res);
	res = probe(&ring, 1);
	CHECK(res == 0, "reregistered_works_async", "res %d, want 0", res);
	io_uring_queue_exit(&ring);
	/* and a copy through the re-registered op, on a new ring */
	ring_or_skip(&ring);
	copy_case(&ring, FIXED, 1, 0, 99);
	copy_case(&ring, PLAIN, 0, 1, 100);
	io_uring_queue_exit(&ring);
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: conf_driver matrix OPID\n"
		"       conf_driver cycle OPID UNREG_CMD REG_CMD\n");
	exit(2);
}

int main(int argc, char **argv)
{
	char *end;

	if (argc < 3)
		usage();
	op_id = strtoul(argv[2], &end, 0);
	if (*end || op_id > 255) {
		fprintf(stderr, "conf_driver: OPID must be 0..255, not '%s'\n", argv[2]);
		exit(2);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "matrix") && argc == 3)
		matrix();
	else if (!strcmp(argv[1], "cycle") && argc == 5)
		cycle(argv[3], argv[4]);
	else
		usage();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
