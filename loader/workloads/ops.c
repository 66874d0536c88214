// SPDX-License-Identifier: GPL-2.0
/*
 * ops.c - the workloads `run` drives for the IORING_OP_BPF programs
 * (nop, memcpy, errinject, chain). Each submits requests with opcode 65 and
 * the program's op id, reaps every CQE, and checks results and counters
 * exactly.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <bpf/libbpf.h>
#include "workload.h"
#include "nop.skel.h"
#include "memcpy.skel.h"
#include "errinject.skel.h"
#include "chain.skel.h"

#define BATCH		32

/* nop: N BPF NOPs, then as many IORING_OP_NOPs to compare the cost */
int run_nop(struct run_ctx *rc)
{
	long long n = rc_count(rc, 1000), done, bad = 0, t[2];
	struct io_uring_cqe cqes[BATCH];
	struct iou_nop s;
	unsigned int i, k;

	RC_VIEW(rc, &s, bss);

	for (int pass = 0; pass < 2; pass++) {
		long long t0 = now_ns();

		for (done = 0; done < n; done += k) {
			k = n - done < BATCH ? n - done : BATCH;
			for (i = 0; i < k; i++) {
				struct io_uring_sqe *sqe = ring_get_sqe(&rc->ring);

				if (pass == 0)
					ring_prep_bpf(sqe, rc_opf(rc, 0, 0, 0),
						      0, 0, 0, 0, 0, done + i);
				else
					ring_prep_nop(sqe, done + i);
			}
			if (rc_reap(rc, cqes, k))
				return -1;
			for (i = 0; i < k; i++)
				if (cqes[i].res != 0 && !bad++)
					rc_check(rc, 0, "%s request %llu: res %d, want 0",
						 pass ? "IORING_OP_NOP" : "BPF",
						 (unsigned long long)cqes[i].user_data,
						 cqes[i].res);
		}
		t[pass] = now_ns() - t0;	/* 0: BPF, 1: IORING_OP_NOP */
	}
	rc_num(rc, "requests", n);
	rc_num(rc, "bad_res", bad);
	RC_NUM(rc, s.bss, nr_prep);
	RC_NUM(rc, s.bss, nr_issue);
	if (n) {
		rc_out(rc, "ns_per_bpf_nop", "%lld", t[0] / n);
		rc_out(rc, "ns_per_iouring_nop", "%lld", t[1] / n);
	}
	rc_check(rc, !bad, "%lld requests completed with res != 0", bad);
	rc_check(rc, s.bss->nr_prep == (__u64)n, "prep_fn ran %lld times, want %lld",
		 (long long)s.bss->nr_prep, n);
	rc_check(rc, s.bss->nr_issue == (__u64)n, "issue_fn ran %lld times, want %lld",
		 (long long)s.bss->nr_issue, n);
	return 0;
}

/* memcpy ----------------------------------------------------------------- */

static const unsigned int memcpy_sizes[] = {
	1, 7, 64, 511, 4095, 4096, 4097, 65536, 100000,
};
#define NSIZES	(sizeof(memcpy_sizes) / sizeof(memcpy_sizes[0]))
#define MAXSZ	100000

static void fill_random(unsigned char *p, size_t n, unsigned int *seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = rand_r(seed);
}

int run_memcpy(struct run_ctx *rc)
{
	long long n = rc_count(rc, 64), bytes = 0, bad = 0;
	struct iou_memcpy s = { 0 };
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
			fill_random(two, len, &seed);
		}
		fill_random(one, len, &seed);
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

/* errinject -------------------------------------------------------------- */

enum { MODE_ALWAYS, MODE_NTH, MODE_PROB, MODE_UD };

int run_errinject(struct run_ctx *rc)
{
	long long n = rc_count(rc, 100), failed = 0, want_failed = -1;
	struct iou_errinject s = { 0 };
	long long mode = RC_VIEW(rc, &s, rodata)->mode, nth = s.rodata->nth;
	long long prob = s.rodata->prob_pct, err = s.rodata->err;
	long long submitted = 0, bad = 0;
	struct bpf_map *fail_ud;
	struct io_uring_cqe cqe[2];
	__u32 special = 28;	/* ENOSPC for one chosen user_data */

	RC_VIEW(rc, &s, bss);
	fail_ud = bpf_object__find_map_by_name(iouring_bpf_object(rc->h),
					       "fail_ud");
	if (mode == MODE_UD) {
		/* fail every third request, and request 1 with ENOSPC */
		for (__u64 ud = 0; ud < (__u64)n; ud++) {
			__u32 e = ud == 1 ? special : 0;

			if ((ud % 3 && ud != 1) || !fail_ud)
				continue;
			if (bpf_map__update_elem(fail_ud, &ud, sizeof(ud), &e,
						 sizeof(e), BPF_ANY)) {
				rc_check(rc, 0, "cannot fill map fail_ud");
				return -1;
			}
		}
	}

	for (long long i = 0; i < n; i++) {
		long long want = 0;

		ring_prep_bpf(ring_get_sqe(&rc->ring), rc_opf(rc, 0, 0, 0),
			      0, 0, 0, 0, 0, i);
		if (rc_reap(rc, cqe, 1))
			return -1;
		submitted++;
		switch (mode) {
		case MODE_ALWAYS:
			want = -err;
			break;
		case MODE_NTH:
			want = nth && (i + 1) % nth == 0 ? -err : 0;
			break;
		case MODE_UD:
			want = i == 1 ? -(long long)special :
			       i % 3 == 0 ? -err : 0;
			break;
		case MODE_PROB:
			want = cqe[0].res;	/* checked in bulk below */
			if (cqe[0].res != 0 && cqe[0].res != -err)
				want = -err;
			break;
		}
		if (cqe[0].res != 0)
			failed++;
		if (cqe[0].res != want && !bad++)
			rc_check(rc, 0, "request %lld: res %d, want %lld", i,
				 cqe[0].res, want);
	}
	if (mode == MODE_ALWAYS)
		want_failed = n;
	else if (mode == MODE_NTH)
		want_failed = nth ? n / nth : 0;
	else if (mode == MODE_UD)
		want_failed = n > 1 ? (n + 2) / 3 + 1 : (n + 2) / 3;

	/* a failed op breaks its link chain: the NOP after it is cancelled */
	if (mode == MODE_ALWAYS || mode == MODE_UD) {
		struct io_uring_sqe *sqe = ring_get_sqe(&rc->ring);

		ring_prep_bpf(sqe, rc_opf(rc, 0, 0, 0), 0, 0, 0, 0, 0, 0);
		sqe->flags |= IOSQE_IO_LINK;
		ring_prep_nop(ring_get_sqe(&rc->ring), 1000000);
		if (rc_reap(rc, cqe, 2))
			return -1;
		submitted++;
		failed++;
		rc_check(rc, cqe[0].res == -err && cqe[1].res == -ECANCELED,
			 "link: injected res %d (want %lld), linked NOP res %d (want -ECANCELED)",
			 cqe[0].res, -err, cqe[1].res);
		rc_out(rc, "link_chain", "errinject %d -> nop %d", cqe[0].res,
		       cqe[1].res);
		if (want_failed >= 0)
			want_failed++;
	}

	rc_num(rc, "requests", submitted);
	rc_num(rc, "failed", failed);
	RC_NUM(rc, s.bss, nr_injected);
	RC_NUM(rc, s.bss, nr_passed);
	rc_check(rc, !bad, "%lld requests had the wrong result", bad);
	if (want_failed >= 0)
		rc_check(rc, failed == want_failed, "%lld failed, want %lld",
			 failed, want_failed);
	if (mode == MODE_PROB && n >= 100) {
		/* loose: within 6 sigma of n * p */
		double mean = n * prob / 100.0;
		double sd = __builtin_sqrt(n * prob / 100.0 * (1 - prob / 100.0));

		rc_check(rc, failed >= mean - 6 * sd - 1 && failed <= mean + 6 * sd + 1,
			 "%lld of %lld failed with prob_pct=%lld", failed, n, prob);
	}
	RC_CHECK_EQ(rc, s.bss, nr_injected, failed);
	rc_check(rc, s.bss->nr_injected + s.bss->nr_passed == (__u64)submitted,
		 "nr_injected + nr_passed = %lld, want %lld",
		 (long long)(s.bss->nr_injected + s.bss->nr_passed), submitted);
	return 0;
}

/* chain ------------------------------------------------------------------ */

#define CHAIN_VERIFY	1
#define CHAIN_KEY(k)	((__u32)(k) << 1)

static int one_chain(struct run_ctx *rc, __u32 key, unsigned char *a,
		     unsigned char *b, unsigned int len, struct io_uring_cqe *c)
{
	struct io_uring_sqe *sqe;

	sqe = ring_get_sqe(&rc->ring);
	ring_prep_bpf(sqe, rc_opf(rc, IORING_BPF_BUF_TYPE_PLAIN, 0,
				  CHAIN_KEY(key)),
		      (__u64)(unsigned long)a, len, 0, 0, 0, 1);
	sqe->flags |= IOSQE_IO_LINK;
	sqe = ring_get_sqe(&rc->ring);
	ring_prep_bpf(sqe, rc_opf(rc, IORING_BPF_BUF_TYPE_PLAIN, 0,
				  CHAIN_KEY(key) | CHAIN_VERIFY),
		      (__u64)(unsigned long)b, len, 0, 0, 0, 2);
	sqe->flags |= IOSQE_IO_LINK;
	ring_prep_nop(ring_get_sqe(&rc->ring), 3);
	return rc_reap(rc, c, 3);
}

int run_chain(struct run_ctx *rc)
{
	long long n = rc_count(rc, 32), bad = 0, m;
	struct iou_chain s = { 0 };
	long long max_len = RC_VIEW(rc, &s, rodata)->max_len;
	unsigned char a[4096], b[4096];
	struct io_uring_cqe c[3];
	unsigned int seed = 7;

	if (n > 100000) {
		fprintf(stderr, "iouring-bpf run: chain: --count at most 100000\n");
		return -1;
	}
	m = n / 4 ? n / 4 : 1;
	for (long long i = 0; i < n + m; i++) {
		unsigned int len = 1 + (i * 977) % 4096;
		unsigned int want = len > max_len ? max_len : len;
		int corrupt = i >= n;

		fill_random(a, len, &seed);
		memcpy(b, a, len);
		if (corrupt)
			b[(i * 31) % want] ^= 0x5a;
		if (one_chain(rc, i + 1, a, b, len, c))
			return -1;
		if (!corrupt && (c[0].res != (int)want || c[1].res != (int)want ||
				 c[2].res != 0) && !bad++)
			rc_check(rc, 0, "chain %lld (%u bytes): res %d, %d, %d; want %u, %u, 0",
				 i, len, c[0].res, c[1].res, c[2].res, want,
				 want);
		if (corrupt && (c[0].res != (int)want || c[1].res != -EBADMSG ||
				c[2].res != -ECANCELED) && !bad++)
			rc_check(rc, 0, "corrupted chain %lld: res %d, %d, %d; want %u, -EBADMSG, -ECANCELED",
				 i, c[0].res, c[1].res, c[2].res, want);
	}
	/* VERIFY with no COMPUTE before it */
	ring_prep_bpf(ring_get_sqe(&rc->ring),
		      rc_opf(rc, IORING_BPF_BUF_TYPE_PLAIN, 0,
			     CHAIN_KEY(0x1ffff) | CHAIN_VERIFY),
		      (__u64)(unsigned long)a, 16, 0, 0, 0, 4);
	if (!rc_reap(rc, c, 1))
		rc_check(rc, c[0].res == -ENOENT, "VERIFY without COMPUTE: res %d, want -ENOENT",
			 c[0].res);

	rc_num(rc, "chains", n);
	rc_num(rc, "corrupted_chains", m);
	RC_VIEW(rc, &s, bss);
	RC_NUM(rc, s.bss, nr_computed);
	RC_NUM(rc, s.bss, nr_verified);
	RC_NUM(rc, s.bss, nr_mismatch);
	RC_NUM(rc, s.bss, nr_missing);
	rc_check(rc, !bad, "%lld chains wrong", bad);
	RC_CHECK_EQ(rc, s.bss, nr_computed, n + m);
	RC_CHECK_EQ(rc, s.bss, nr_verified, n);
	RC_CHECK_EQ(rc, s.bss, nr_mismatch, m);
	RC_CHECK_EQ(rc, s.bss, nr_missing, 1);
	return 0;
}
