// SPDX-License-Identifier: GPL-2.0
/*
 * iou-sqe-fuzz - a seeded, reproducible fuzzer of IORING_OP_BPF SQEs.
 *
 * Three ops are registered (sqe_fuzz.bpf.c: ids 1-3; other ids stay
 * unregistered). Every SQE is random: op id, both buffer types (0-7),
 * addresses (our buffers at random offsets, NULL, unmapped, read-only,
 * kernel and non-canonical addresses), lengths, offsets (sqe->off drives
 * the memcpy op's descriptors and length), custom flag bits, fixed-buffer
 * indexes (rings with and without registered buffers), other SQE fields,
 * SQE flags (IOSQE_ASYNC, links and hard links in random chains), with
 * some NOPs mixed in. The same seed gives the same SQEs.
 *
 * Each request must complete exactly once, with a result or a clean
 * negative errno (-1..-4095, never a kernel-internal code 512-529); a
 * request whose buffer is a kernel or non-canonical address must never
 * report bytes copied. The fuzzer's buffers sit at the start of a large
 * PROT_NONE reservation, so a copy the kernel lets run past them faults
 * instead of overwriting the fuzzer.
 *
 *   iou-sqe-fuzz [--seed N] [--requests N] [--seconds S] [-v]
 *
 * Exit: 0 clean, 1 a check failed (the SQE is printed), 2 usage, 77 no
 * kernel support (or not root).
 */
#include <limits.h>
#include <sys/mman.h>
#include <time.h>

#include "t_helpers.h"
#include "sqe_fuzz.skel.h"

#define RESERVE		(64UL << 20)	/* PROT_NONE guard around the buffers */
#define BUF_AREA	(1UL << 20)	/* read-write, at the reservation's start */
#define RO_OFF		(BUF_AREA)	/* 64 KiB read-only after it */
#define RO_LEN		(64UL << 10)
#define FIXED_LEN	(64UL << 10)	/* two registered buffers */
#define NR_RINGS	4
#define RING_SQ		64
#define MAX_BATCH	48

static struct {
	unsigned long long seed, requests;
	int seconds;
	bool verbose;
} o = { 1, 100000, 600, false };

static uint8_t *area;			/* RESERVE bytes, BUF_AREA of them RW */
static uint8_t *unmapped;		/* a hole: mapped, then unmapped */
static int errors;

/* figures */
static unsigned long long n_req, n_bpf, n_nop, n_chains, n_ok, n_neg;
static unsigned long long n_errno[4096];

/* xorshift64*: the whole stream follows from the seed */
static uint64_t rs;

static uint64_t rnd(void)
{
	rs ^= rs >> 12;
	rs ^= rs << 25;
	rs ^= rs >> 27;
	return rs * 0x2545F4914F6CDD1DULL;
}

static uint64_t pick(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static bool is_kernel(uint64_t a)
{
	/* x86-64: user space ends at 0x00007fffffffffff */
	return a >= 0x0000800000000000ULL;
}

static uint64_t rnd_addr(void)
{
	switch (pick(12)) {
	case 0:
		return 0;
	case 1:
		return (uintptr_t)unmapped + pick(4096);
	case 2:
		return (uintptr_t)area + RO_OFF + pick(RO_LEN);
	case 3:
		return 0xffff888000000000ULL + (pick(1 << 20) << 12);
	case 4:
		return 0xffffffff81000000ULL + pick(1 << 24);
	case 5:
		return 0x8000000000000000ULL | rnd();	/* non-canonical */
	case 6:
		return (uintptr_t)area + BUF_AREA - pick(64);	/* at the end */
	case 7:
		return pick(1 << 16);			/* offset-like */
	default:
		return (uintptr_t)area + pick(BUF_AREA);
	}
}

static uint32_t rnd_len(void)
{
	switch (pick(8)) {
	case 0:
		return 0;
	case 1:
		return 0xffffffff;
	case 2:
		return 1U << pick(32);
	case 3:
		return pick(1 << 20) + 1;
	default:
		return pick(4096) + 1;
	}
}

/* the memcpy op's parameters in sqe->off: ids, offsets, length */
static uint64_t rnd_off(void)
{
	static const uint64_t max[] = { 64, 1 << 12, 1 << 24 };
	uint64_t k = pick(4), len = k < 3 ? pick(max[k]) : 0xffffff;

	return pick(4) | pick(4) << 2 | pick(1 << 16) << 8 | pick(1 << 16) << 24 |
	       len << 40;
}

struct fz_ring {
	struct uring r;
	bool fixed;		/* buffers registered */
};

struct req_info {
	uint8_t op, bpf, t1, t2;
	uint64_t addr, addr3;
	uint32_t len, optlen;
	int chain;		/* chain number, -1 alone */
};

static struct req_info info[MAX_BATCH];

static void print_req(const char *why, const struct req_info *q, int res)
{
	printf("ERROR: %s: res %d; %s op %u buf1 type %u addr 0x%llx len %u, "
	       "buf2 type %u addr 0x%llx len %u%s\n", why, res,
	       q->bpf ? "IORING_OP_BPF" : "NOP", q->op, q->t1,
	       (unsigned long long)q->addr, q->len, q->t2,
	       (unsigned long long)q->addr3, q->optlen,
	       q->chain >= 0 ? " (in a link chain)" : "");
}

static void check_cqe(const struct io_uring_cqe *c)
{
	unsigned int idx = c->user_data & 0xffff;
	const struct req_info *q;
	int res = c->res;

	if (idx >= MAX_BATCH) {
		errors++;
		printf("ERROR: CQE with user_data 0x%llx we never submitted\n",
		       (unsigned long long)c->user_data);
		return;
	}
	q = &info[idx];
	if (res >= 0) {
		n_ok++;
		if (q->bpf && q->op == 1 && res > 0 &&
		    ((q->t1 == 1 && is_kernel(q->addr)) ||
		     (q->t2 == 1 && is_kernel(q->addr3)))) {
			errors++;
			print_req("bytes copied with a kernel address", q, res);
		}
		return;
	}
	n_neg++;
	if (res < -4095 || (res <= -512 && res >= -529)) {
		errors++;
		print_req("not a user-visible errno", q, res);
		return;
	}
	n_errno[-res]++;
}

/*
 * half of the memcpy op's requests: two plain buffers in our area and
 * parameters near their bounds, so that copies happen and their edges are
 * hit, not only the early checks
 */
static void plausible_copy(struct req_info *q, struct io_uring_sqe *sqe)
{
	uint64_t len = pick(2) ? pick(4097) : 4096 - pick(3) + pick(3);
	uint64_t doff = pick(2) ? 0 : pick(4097), soff = pick(2) ? 0 : pick(4097);
	uint64_t ids = pick(2) ? (2 | 1 << 2) : (1 | 2 << 2);

	q->t1 = q->t2 = T_BPF_BUF_PLAIN;
	q->addr = (uintptr_t)area + pick(BUF_AREA / 2);
	q->addr3 = (uintptr_t)area + BUF_AREA / 2 + pick(BUF_AREA / 2 - 8192);
	q->len = q->optlen = 4096;
	sqe->rw_flags = T_BPF_OP_FLAGS(1, q->t1, q->t2, rnd());	/* bpf_op_flags */
	sqe->off = ids | doff << 8 | soff << 24 | len << 40;
}

static void batch(struct fz_ring *fr)
{
	struct io_uring_cqe cqes[MAX_BATCH];
	int n = 1 + pick(MAX_BATCH), i, ret, chain = -1, nchain = 0;

	for (i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = uring_get_sqe(&fr->r);
		struct req_info *q = &info[i];
		uint8_t flags = 0;

		memset(q, 0, sizeof(*q));
		q->chain = chain;
		if (pick(10) == 0) {
			sqe_nop(sqe, i);
			n_nop++;
		} else {
			uint32_t op = pick(5) ? 1 + pick(3) : pick(256);
			uint32_t t1 = pick(4) ? pick(3) : pick(8);
			uint32_t t2 = pick(4) ? pick(2) : pick(8);

			sqe_bpf(sqe, T_BPF_OP_FLAGS(op, t1, t2, rnd()), i);
			q->bpf = 1;
			q->op = op;
			q->t1 = t1;
			q->t2 = t2;
			/* FIXED: an offset, or an address in the buffer */
			if (t1 == 2 && pick(2))
				q->addr = pick(2) ? pick(FIXED_LEN + 64) :
					(uintptr_t)area + pick(2) * FIXED_LEN +
					pick(FIXED_LEN + 64);
			else
				q->addr = rnd_addr();
			q->len = rnd_len();
			q->addr3 = rnd_addr();
			q->optlen = rnd_len();
			if (op == 1 && pick(2))
				plausible_copy(q, sqe);
			sqe_bpf_buf1(sqe, q->addr, q->len,
				     pick(4) ? pick(3) : rnd());
			sqe_bpf_buf2(sqe, q->addr3, q->optlen);
			if (!sqe->off)
				sqe->off = rnd_off();
			if (!pick(8))
				sqe->ioprio = rnd();
			if (!pick(8))
				sqe->fd = rnd();
			n_bpf++;
		}
		if (!pick(4))
			flags |= IOSQE_ASYNC;
		/* links: start or continue a chain, never past the batch */
		if (i < n - 1 && (chain >= 0 ? pick(3) != 0 : pick(6) == 0)) {
			flags |= pick(4) ? IOSQE_IO_LINK : IOSQE_IO_HARDLINK;
			if (chain < 0) {
				chain = nchain++;
				n_chains++;
			}
			q->chain = chain;
		} else {
			chain = -1;
		}
		sqe->flags = flags;
	}
	n_req += n;
	ret = uring_submit(&fr->r);
	if (ret != n) {
		errors++;
		printf("ERROR: submitted %d of %d SQEs\n", ret, n);
		return;
	}
	ret = uring_wait_cqes(&fr->r, cqes, n, 20000);
	if (ret != n) {
		errors++;
		printf("ERROR: %d of %d CQEs within 20 s\n", ret, n);
		return;
	}
	for (i = 0; i < n; i++)
		check_cqe(&cqes[i]);
	/* exactly one CQE each: nothing more may arrive */
	if (uring_cq_ready(&fr->r)) {
		errors++;
		printf("ERROR: %u CQEs more than requests\n", uring_cq_ready(&fr->r));
	}
}

static int setup_rings(struct fz_ring *rings)
{
	struct iovec iov[2] = {
		{ area, FIXED_LEN }, { area + FIXED_LEN, FIXED_LEN },
	};
	int i, ret;

	for (i = 0; i < NR_RINGS; i++) {
		unsigned int flags = T_IORING_SETUP_BPF | IORING_SETUP_SUBMIT_ALL;

		if (i & 1)
			flags |= IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
		ret = uring_init(&rings[i].r, RING_SQ, flags, 2 * RING_SQ);
		if (ret)
			return ret;
		rings[i].fixed = i >= 2;
		if (rings[i].fixed) {
			ret = uring_register_buffers(&rings[i].r, iov, 2);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: iou-sqe-fuzz [--seed N] [--requests N] [--seconds S] [-v]\n"
		"  --seed N      the random stream (default 1): the same seed, the same SQEs\n"
		"  --requests N  stop after N requests (default 100000)\n"
		"  --seconds S   ... or after S seconds (default 600)\n"
		"exit: 0 clean, 1 a check failed, 2 usage, 77 no kernel support\n");
	exit(2);
}

static unsigned long long num_arg(int argc, char **argv, int *i)
{
	char *end;
	unsigned long long v;

	if (*i + 1 >= argc)
		usage();
	errno = 0;
	v = strtoull(argv[++*i], &end, 0);
	if (errno || *end || argv[*i][0] == '-') {
		fprintf(stderr, "iou-sqe-fuzz: %s wants a number >= 0, got '%s'\n",
			argv[*i - 1], argv[*i]);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	struct bpf_link *links[3] = { NULL, NULL, NULL };
	struct fz_ring rings[NR_RINGS];
	struct timespec t0, t1;
	struct sqe_fuzz *skel;
	char why[256];
	double secs;
	int i, ret;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seed"))
			o.seed = num_arg(argc, argv, &i);
		else if (!strcmp(argv[i], "--requests"))
			o.requests = num_arg(argc, argv, &i);
		else if (!strcmp(argv[i], "--seconds"))
			o.seconds = num_arg(argc, argv, &i);
		else if (!strcmp(argv[i], "-v"))
			o.verbose = true;
		else
			usage();
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid() != 0) {
		printf("SKIP: iou-sqe-fuzz needs root\n");
		return 77;
	}
	if (!t_have_btf_struct("uring_bpf_ops", why, sizeof(why))) {
		printf("SKIP: %s\n", why);
		return 77;
	}
	rs = o.seed * 0x9E3779B97F4A7C15ULL + 1;

	area = mmap(NULL, RESERVE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unmapped = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED || unmapped == MAP_FAILED ||
	    mprotect(area, BUF_AREA, PROT_READ | PROT_WRITE) ||
	    mprotect(area + RO_OFF, RO_LEN, PROT_READ) ||
	    munmap(unmapped, 4096)) {
		printf("ERROR: mmap: %s\n", strerror(errno));
		return 1;
	}
	memset(area, 0x5a, BUF_AREA);

	skel = sqe_fuzz__open_and_load();
	if (!skel) {
		printf("ERROR: sqe_fuzz__open_and_load: %s\n", strerror(errno));
		return 1;
	}
	ret = t_attach(skel->maps.fz_copy, &links[0]) ?:
	      t_attach(skel->maps.fz_ret, &links[1]) ?:
	      t_attach(skel->maps.fz_read, &links[2]);
	if (ret) {
		printf("ERROR: registering ops 1-3: %d\n", ret);
		return 1;
	}
	ret = setup_rings(rings);
	if (ret) {
		printf("ERROR: ring setup: %d\n", ret);
		return 1;
	}
	printf("iou-sqe-fuzz: seed %llu, %llu requests or %d s, %d rings (2 with "
	       "registered buffers)\n", o.seed, o.requests, o.seconds, NR_RINGS);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &t1);
		secs = t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9;
		if (n_req >= o.requests || secs >= o.seconds || errors >= 10)
			break;
		batch(&rings[pick(NR_RINGS)]);
		if (o.verbose && n_req % 10000 < MAX_BATCH)
			printf("  %llu requests, %.0f s\n", n_req, secs);
	}
	for (i = 0; i < NR_RINGS; i++)
		uring_exit(&rings[i].r);
	for (i = 0; i < 3; i++)
		t_detach(&links[i]);
	printf("results: %llu >= 0, %llu negative:", n_ok, n_neg);
	{
		unsigned long long other = 0;

		for (i = 1; i < 4096; i++) {
			if (n_errno[i] && t_errname(i) && n_errno[i] >= 10)
				printf(" -%s %llu", t_errname(i), n_errno[i]);
			else
				other += n_errno[i];
		}
		printf(" (others, mostly chosen by the fz_ret program: %llu)", other);
	}
	printf("\nmemcpy op: %llu copies, %llu refused by the kfunc\n",
	       (unsigned long long)skel->bss->copies,
	       (unsigned long long)skel->bss->copy_errors);
	printf("figures: seed %llu, %llu requests (%llu IORING_OP_BPF, %llu NOP, "
	       "%llu link chains) in %.0f s, %d errors\n", o.seed, n_req, n_bpf,
	       n_nop, n_chains, secs, errors);
	sqe_fuzz__destroy(skel);
	return errors ? 1 : 0;
}
