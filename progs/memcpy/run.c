// SPDX-License-Identifier: GPL-2.0
/*
 * memcpy: the workload `iouring-bpf run memcpy` drives (loader/workloads/
 * workload.h) and its checks, on the program's skeleton (struct iou_unit).
 * --count: the copies of sizes 1 B .. 100 KB, checked byte for byte.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "workload.h"
#include IOU_UNIT_SKEL

static const unsigned int memcpy_sizes[] = {
	1, 7, 64, 511, 4095, 4096, 4097, 65536, 100000,
};
#define NSIZES	(sizeof(memcpy_sizes) / sizeof(memcpy_sizes[0]))
#define MAXSZ	100000

static int run_memcpy(struct run_ctx *rc)
{
	long long n = rc_count(rc), bytes = 0, bad = 0;
	struct iou_unit s = { 0 };
	long long reverse = RC_VIEW(rc, &s, rodata)->reverse;
	long long max_len = s.rodata->max_len;
	unsigned char *fixed, *b1, *b2, *expect, *src, *dst;
	struct io_uring_cqe cqe = { 0 };
	unsigned int seed = 1;
	struct iovec iov;
	char why[48];
	int ret;

	RC_VIEW(rc, &s, bss);
	fixed = malloc(MAXSZ);
	b1 = malloc(MAXSZ);
	b2 = malloc(MAXSZ);
	expect = malloc(MAXSZ);
	if (!fixed || !b1 || !b2 || !expect)
		return -1;
	iov.iov_base = fixed;
	iov.iov_len = MAXSZ;
	ret = ring_register_buffers(&rc->ring, &iov, 1);
	if (!rc_check(rc, ret == 0, "IORING_REGISTER_BUFFERS: %s", strerror(-ret)))
		goto out;

	for (long long i = 0; i < n; i++) {
		unsigned int len = memcpy_sizes[i % NSIZES];
		int use_fixed = (i / NSIZES) % 2, flip = i % 2;
		int rev = flip ^ !!reverse;
		unsigned int want = max_len && len > max_len ? max_len : len;
		unsigned char *one = use_fixed ? fixed : b1, *two = b2;
		/* every third pass: buffer 2 is fresh memory, never touched,
		 * so the kernel must fault its pages in */
		int fresh = (i / NSIZES) % 3 == 2;
		struct io_uring_sqe *sqe = ring_get_sqe(&rc->ring);

		if (fresh) {
			two = mmap(NULL, MAXSZ, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (two == MAP_FAILED)
				goto out;
		} else {
			rc_fill_random(two, len, &seed);
		}
		rc_fill_random(one, len, &seed);
		src = rev ? two : one;
		dst = rev ? one : two;
		memcpy(expect, src, want);	/* what dst must become */
		ring_prep_bpf(sqe, rc_opf(rc, use_fixed ? IORING_BPF_BUF_TYPE_FIXED :
					  IORING_BPF_BUF_TYPE_PLAIN,
					  IORING_BPF_BUF_TYPE_PLAIN, flip),
			      (__u64)(unsigned long)one, len, 0,
			      (__u64)(unsigned long)two, len, i);
		ret = rc_reap(rc, &cqe, 1);
		snprintf(why, sizeof(why), "res %d, want %u", cqe.res, want);
		if (!ret && cqe.res == (int)want && !memcmp(dst, expect, want))
			bytes += want;
		else if (!ret && !bad++)
			rc_check(rc, 0, "request %lld (%u bytes, %s, %s%s): %s",
				 i, len, use_fixed ? "fixed" : "plain",
				 rev ? "2->1" : "1->2",
				 fresh ? ", untouched buffer 2" : "",
				 cqe.res != (int)want ? why : "data differs");
		if (fresh)
			munmap(two, MAXSZ);
		if (ret)
			goto out;
	}

	/* only one buffer: prep_fn says -EINVAL */
	ring_prep_bpf(ring_get_sqe(&rc->ring),
		      rc_opf(rc, IORING_BPF_BUF_TYPE_PLAIN, 0, 0),
		      (__u64)(unsigned long)b1, 16, 0, 0, 0, ~0ULL);
	if (!rc_reap(rc, &cqe, 1))
		rc_check(rc, cqe.res == -EINVAL, "one-buffer request: res %d, want -EINVAL",
			 cqe.res);

	rc_num(rc, "requests", n);
	rc_num(rc, "bytes_checked", bytes);
	RC_NUM(rc, s.bss, nr_copies);
	RC_NUM(rc, s.bss, nr_bytes);
	rc_check(rc, !bad, "%lld requests wrong", bad);
	if (!bad)
		RC_CHECK_EQ(rc, s.bss, nr_copies, n);
	RC_CHECK_EQ(rc, s.bss, nr_bytes, bytes);
out:
	free(fixed);
	free(b1);
	free(b2);
	free(expect);
	return 0;
}

IOU_WORKLOAD(.desc = "IORING_OP_BPF op copying buffer 1 <-> buffer 2 (kfunc)",
	     .example = "iouring-bpf run memcpy --count 64",
	     .takes_count = 1,
	     .count = 64,
	     .run = run_memcpy);
