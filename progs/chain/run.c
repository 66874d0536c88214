// SPDX-License-Identifier: GPL-2.0
/*
 * chain: the workload `iouring-bpf run chain` drives (loader/workloads/
 * workload.h) and its checks, on the program's skeleton (struct iou_unit).
 * --count: the BPF requests: half of them compute, half verify (N/2 link
 * chains, and N/8 corrupted ones).
 */
#include <errno.h>
#include <string.h>
#include "workload.h"
#include IOU_UNIT_SKEL

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

static int args_chain(struct run_ctx *rc)
{
	if (rc_count(rc) > 200000)
		return rc_fail(rc, IOURING_BPF_USAGE, ERANGE,
			       "--count at most 200000");
	return 0;
}

static int run_chain(struct run_ctx *rc)
{
	long long req = rc_count(rc), n = (req + 1) / 2, bad = 0, m;
	struct iou_unit s = { 0 };
	long long max_len = RC_VIEW(rc, &s, rodata)->max_len;
	unsigned char a[4096], b[4096];
	struct io_uring_cqe c[3];
	unsigned int seed = 7;

	m = n / 4 ? n / 4 : 1;
	for (long long i = 0; i < n + m; i++) {
		unsigned int len = 1 + (i * 977) % 4096;
		unsigned int want = len > max_len ? max_len : len;
		int corrupt = i >= n;

		rc_fill_random(a, len, &seed);
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

	rc_num(rc, "requests", 2 * n);
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

IOU_WORKLOAD(.desc = "IORING_OP_BPF ops passing a checksum along a link chain",
	     .example = "iouring-bpf run chain --count 64",
	     .takes_count = 1,
	     .count = 64,
	     .args = args_chain,
	     .run = run_chain);
