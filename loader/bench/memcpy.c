// SPDX-License-Identifier: GPL-2.0
/*
 * memcpy.c - `bench memcpy`: the `memcpy` IORING_OP_BPF op
 * (progs/memcpy/prog.bpf.c: io_uring_bpf_req_memcpy(), buffer 1 -> buffer 2)
 * against copying the same buffers in user space.
 *
 * Two 1 MiB page-aligned buffers, src and dst, touched before the start; src
 * is also registered as fixed buffer 0. For each size (4 KiB .. 1 MiB),
 * `--count` MiB are copied src -> dst, size bytes at a time, in each mode:
 *
 *   user      memcpy(dst, src, size) (glibc)
 *   op-plain  IORING_OP_BPF memcpy op, buffer 1 = src PLAIN, buffer 2 = dst,
 *             32 requests per io_uring_enter(fd, k, k, GETEVENTS)
 *   op-fixed  the same with buffer 1 = fixed buffer 0 (src), sqe->addr = src
 *   rw-pair   pwrite(memfd, src, size) + pread(memfd, dst, size): the
 *             kernel's own copy routines, twice (a write/read pair)
 *
 * Every mode's result is compared with src once per size before timing; each
 * CQE must report size bytes copied. Reported: MiB/s per mode and size, and
 * mode / user within each run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "bench.h"

#define MC_BATCH	32
#define MC_MAX		(1024 * 1024)

static const unsigned int sizes[] = {
	4096, 16384, 65536, 262144, 1048576,
};
#define NSIZES	(sizeof(sizes) / sizeof(sizes[0]))

enum { M_USER, M_PLAIN, M_FIXED, M_RW, NMODES };

static const struct {
	const char *mode, *label;
} modes[NMODES] = {
	{ "user", "user-space memcpy()" },
	{ "op-plain", "memcpy op, plain buffers" },
	{ "op-fixed", "memcpy op, fixed src buffer" },
	{ "rw-pair", "pwrite+pread on a memfd" },
};

struct mc {
	struct bench_scn	*s;
	struct ring		r;
	unsigned char		*src, *dst;
	int			memfd;
	unsigned int		op_id;
};

static long long do_user(struct mc *c, unsigned int size, long long copies)
{
	long long t0 = bench_t0(c->s);

	for (long long i = 0; i < copies; i++) {
		memcpy(c->dst, c->src, size);
		/* the copy must happen every time */
		__asm__ __volatile__("" : : "r"(c->dst) : "memory");
	}
	return bench_t1(c->s, t0);
}

static long long do_op(struct mc *c, unsigned int size, long long copies,
		       int fixed)
{
	__u32 opf = iou_bpf_op_flags(c->op_id, fixed ? IORING_BPF_BUF_TYPE_FIXED :
				     IORING_BPF_BUF_TYPE_PLAIN,
				     IORING_BPF_BUF_TYPE_PLAIN, 0);
	/* FIXED: a user address inside the registered buffer, as READ_FIXED */
	__u64 a1 = (__u64)(unsigned long)c->src;
	long long t0 = bench_t0(c->s);
	unsigned int k;

	for (long long done = 0; done < copies; done += k) {
		k = copies - done < MC_BATCH ? copies - done : MC_BATCH;
		for (unsigned int i = 0; i < k; i++)
			ring_prep_bpf(ring_get_sqe(&c->r), opf, a1, size, 0,
				      (__u64)(unsigned long)c->dst, size,
				      done + i);
		if (bench_enter(c->s, &c->r, k, size))
			return -1;
	}
	return bench_t1(c->s, t0);
}

static long long do_rw(struct mc *c, unsigned int size, long long copies)
{
	long long t0 = bench_t0(c->s);

	for (long long i = 0; i < copies; i++) {
		if (pwrite(c->memfd, c->src, size, 0) != (ssize_t)size ||
		    pread(c->memfd, c->dst, size, 0) != (ssize_t)size) {
			bench_fail(c->s, "pwrite/pread of %u bytes: %s", size,
				   strerror(errno));
			return -1;
		}
	}
	return bench_t1(c->s, t0);
}

static long long do_mode(struct mc *c, int m, unsigned int size,
			 long long copies)
{
	switch (m) {
	case M_USER:
		return do_user(c, size, copies);
	case M_PLAIN:
		return do_op(c, size, copies, 0);
	case M_FIXED:
		return do_op(c, size, copies, 1);
	default:
		return do_rw(c, size, copies);
	}
}

/* each mode copies src to dst correctly, once */
static int verify(struct mc *c, unsigned int size)
{
	for (int m = 0; m < NMODES; m++) {
		memset(c->dst, 0, MC_MAX);
		if (do_mode(c, m, size, 1) < 0)
			return -1;
		if (memcmp(c->dst, c->src, size)) {
			bench_fail(c->s, "%s, %u bytes: dst differs from src",
				   modes[m].mode, size);
			return -1;
		}
	}
	return 0;
}

int bench_memcpy(struct bench_scn *s)
{
	long long mib = s->count > 0 ? s->count : 64;
	struct mc c = { .s = s, .memfd = -1 };
	struct iouring_bpf *h = NULL;
	struct iovec iov;
	int ret, status = 0;

	s->count = mib;
	c.src = mmap(NULL, MC_MAX, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	c.dst = mmap(NULL, MC_MAX, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (c.src == MAP_FAILED || c.dst == MAP_FAILED) {
		bench_fail(s, "mmap: %s", strerror(errno));
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < MC_MAX; i++)
		c.src[i] = (unsigned char)(i * 2654435761u >> 11);
	memset(c.dst, 0x5a, MC_MAX);

	/* bit 20 is IORING_SETUP_SQ_REWIND on mainline: make no such ring */
	if (!iouring_bpf_op_setup_flag()) {
		status = cli_fail(EXIT_NOFEATURE, "bench", "this kernel has no IORING_OP_BPF (no struct uring_bpf_ops): memcpy needs the project's kernel");
		goto out;
	}
	ret = ring_init(&c.r, BENCH_SQ, BENCH_CQ, BENCH_OP_FLAGS);
	if (ret) {
		bench_fail(s, "io_uring_setup: %s", strerror(-ret));
		goto out;
	}
	iov.iov_base = c.src;
	iov.iov_len = MC_MAX;
	ret = ring_register_buffers(&c.r, &iov, 1);
	if (ret) {
		bench_fail(s, "IORING_REGISTER_BUFFERS: %s", strerror(-ret));
		goto out;
	}
	c.memfd = memfd_create("iouring-bpf-bench", MFD_CLOEXEC);
	if (c.memfd < 0 || pwrite(c.memfd, c.src, MC_MAX, 0) != MC_MAX) {
		bench_fail(s, "memfd: %s", strerror(errno));
		goto out;
	}
	h = bench_attach("memcpy", &c.r, NULL, &status);
	if (!h)
		goto out;
	c.op_id = iouring_bpf_op_id(h);

	bench_param(s, "copies", "%lld MiB per mode, size and run, size bytes per copy/request; op: %d requests per io_uring_enter",
		    mib, MC_BATCH);
	bench_param(s, "buffers", "src and dst 1 MiB each, page-aligned, populated; src is fixed buffer 0");
	bench_param(s, "ring", "%s, %u SQ / %u CQ entries",
		    bench_ring_flags(BENCH_OP_FLAGS), BENCH_SQ, BENCH_CQ);
	bench_param(s, "op", "progs/memcpy/prog.bpf.c as op id %u (buffer 1 -> buffer 2, io_uring_bpf_req_memcpy)",
		    c.op_id);
	bench_param(s, "order", "per run: for each size: user op-plain op-fixed rw-pair; %d runs",
		    s->runs);
	for (int f = 0; f < 2; f++) {
		for (unsigned int i = 2; i < NSIZES; i++) {
			char text[120];

			snprintf(text, sizeof(text),
				 "memcpy op (%s) >= %.2fx user-space memcpy at %u KiB",
				 f ? "fixed" : "plain", f ? 0.95 : 0.9,
				 sizes[i] / 1024);
			bench_target(s, text, f ? "op-fixed/user" : "op-plain/user",
				     "ratio", sizes[i], '>', f ? 0.95 : 0.9);
		}
	}

	snprintf(s->cur, sizeof(s->cur), "verify");
	for (unsigned int i = 0; i < NSIZES; i++)
		if (verify(&c, sizes[i]))
			goto out;

	for (int run = 0; run < s->runs; run++) {
		for (unsigned int i = 0; i < NSIZES; i++) {
			unsigned int size = sizes[i];
			long long copies = (mib << 20) / size;
			double mibs[NMODES];

			if (copies < 1)
				copies = 1;
			for (int m = 0; m < NMODES; m++) {
				long long t;

				snprintf(s->cur, sizeof(s->cur), "%s size %u run %d",
					 modes[m].mode, size, run);
				t = do_mode(&c, m, size, copies);
				if (t < 0)
					goto out;
				mibs[m] = (double)copies * size / 1048576.0 /
					  (t / 1e9);
				bench_add(s, modes[m].mode, modes[m].label,
					  "MiB_per_s", "MiB/s", size, mibs[m]);
			}
			bench_add(s, "op-plain/user", "ratio op-plain / user",
				  "ratio", "x", size, mibs[M_PLAIN] / mibs[M_USER]);
			bench_add(s, "op-fixed/user", "ratio op-fixed / user",
				  "ratio", "x", size, mibs[M_FIXED] / mibs[M_USER]);
			bench_add(s, "rw-pair/user", "ratio rw-pair / user",
				  "ratio", "x", size, mibs[M_RW] / mibs[M_USER]);
		}
	}
out:
	iouring_bpf_close(h);
	if (c.r.ring_mem)
		ring_exit(&c.r);
	if (c.memfd >= 0)
		close(c.memfd);
	munmap(c.src, MC_MAX);
	munmap(c.dst, MC_MAX);
	if (status)
		return status;
	return s->failed ? EXIT_FAIL : 0;
}
