// SPDX-License-Identifier: GPL-2.0
/*
 * test_op_memcpy - IORING_OP_BPF buffers and io_uring_bpf_req_memcpy():
 * plain<->plain, fixed->plain, plain->fixed, inline and IOSQE_ASYNC, data
 * compared byte for byte; offsets/lengths at, past and wrapping around the
 * ends (-EINVAL, nothing copied); NULL descriptors; invalid buffer types;
 * fixed buffer index and range checks (sqe->addr is a user address inside
 * the registered buffer, as for READ_FIXED). Both bodies of the kfunc: a
 * sleepable issue_fn (op_memcpy.bpf.c: copies user memory directly, an
 * io-wq retry when the inline issue would fault) and a non-sleepable one
 * (op_memcpy_ns.bpf.c: plain buffers pinned at prep), each copying into
 * never-touched pages. Parameters per request come from a .bss slot named
 * in the custom flag bits, kept in the pdu.
 */
#include <sys/mman.h>

#include <linux/types.h>

#include "t_helpers.h"
#include "op_memcpy.h"
#include "op_memcpy.skel.h"
#include "op_memcpy_ns.skel.h"
#include "op_sleepable_cleanup.skel.h"
#include "op_memcpy_cb.skel.h"

#define ID_MEMCPY	40
#define PAGE		4096u
#define REG0_SIZE	(64u * 1024)
#define REG1_SIZE	(512u * 1024)

static struct op_memcpy *skel;
static struct bpf_link *mc_link;
/* the op mc_run() submits for, and its parameter slots (.bss) */
static unsigned int cur_id = ID_MEMCPY;
static struct mc_param *cur_params;
static struct uring ring;
static unsigned char *reg[2];			/* registered (fixed) buffers */
static const unsigned int reg_size[2] = { REG0_SIZE, REG1_SIZE };

/* one request: buffer 1 and 2 as the SQE gives them, memcpy parameters */
struct mc {
	unsigned int buf1_type;
	uint64_t buf1_addr;		/* PLAIN: address, FIXED: address inside */
	uint32_t buf1_len;
	uint16_t buf_index;
	unsigned int buf2_type;
	uint64_t buf2_addr;
	uint32_t buf2_len;
	uint8_t dst_id, src_id;
	uint32_t dst_off, src_off, len;
	uint8_t sqe_flags;
	uint32_t flags;			/* program flag bits (MC_F_*) */
};

/* m: a request on two plain buffers (ids 1 and 2), every other field 0 */
static void mc_plain(struct mc *m, void *b1, uint32_t len1, void *b2,
		     uint32_t len2)
{
	memset(m, 0, sizeof(*m));
	m->buf1_type = T_BPF_BUF_PLAIN;
	m->buf1_addr = (uint64_t)(uintptr_t)b1;
	m->buf1_len = len1;
	m->buf2_type = T_BPF_BUF_PLAIN;
	m->buf2_addr = (uint64_t)(uintptr_t)b2;
	m->buf2_len = len2;
}

/* submit one memcpy request on ring r, wait, return 0 and *res */
static int mc_run(struct uring *r, const struct mc *m, int *res)
{
	struct io_uring_sqe *sqe;
	struct io_uring_cqe cqe;
	int ret;

	cur_params[0].dst_id = m->dst_id;
	cur_params[0].src_id = m->src_id;
	cur_params[0].dst_off = m->dst_off;
	cur_params[0].src_off = m->src_off;
	cur_params[0].len = m->len;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);

	sqe = uring_get_sqe(r);
	if (!sqe)
		return -EBUSY;
	sqe_bpf(sqe, T_BPF_OP_FLAGS(cur_id, m->buf1_type, m->buf2_type, m->flags),
		0xc0de);
	sqe_bpf_buf1(sqe, m->buf1_addr, m->buf1_len, m->buf_index);
	sqe_bpf_buf2(sqe, m->buf2_addr, m->buf2_len);
	sqe->flags = m->sqe_flags;
	ret = uring_submit(r);
	if (ret != 1)
		return ret < 0 ? ret : -EIO;
	ret = uring_wait_cqe(r, &cqe, T_CQE_TIMEOUT_MS);
	if (ret)
		return ret;
	*res = cqe.res;
	return 0;
}

static unsigned char *map_buf(size_t len)
{
	void *p = mmap(NULL, len ? len : 1, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void fill(unsigned char *p, size_t len, unsigned int seed)
{
	uint32_t x = seed * 2654435761u + 1;

	for (size_t i = 0; i < len; i++) {
		x = x * 1103515245u + 12345u;
		p[i] = x >> 16;
	}
}

static bool setup_tried;

/* load, attach, ring + registered buffers: once, in the first subtest */
static bool need_setup(void)
{
	struct iovec iov[2];
	int i, ret;

	if (setup_tried) {
		if (!skel || !mc_link || ring.fd < 0) {
			FAIL("setup failed (see the first subtest that failed)");
			return false;
		}
		return true;
	}
	setup_tried = true;
	ring.fd = -1;
	skel = op_memcpy__open();
	if (!CHECK_PTR(skel, "op_memcpy__open"))
		return false;
	ret = op_memcpy__load(skel);
	if (!CHECK_EQ(ret, 0, "op_memcpy__load")) {
		op_memcpy__destroy(skel);
		skel = NULL;
		return false;
	}
	cur_params = skel->bss->params;
	if (!CHECK_EQ(t_attach(skel->maps.memcpy_op, &mc_link), 0, "attach memcpy_op"))
		return false;
	ret = uring_init(&ring, 16, T_IORING_SETUP_BPF, 0);
	if (!CHECK_EQ(ret, 0, "io_uring_setup(IORING_SETUP_BPF)"))
		return false;
	for (i = 0; i < 2; i++) {
		reg[i] = map_buf(reg_size[i]);
		if (!CHECK_PTR(reg[i], "mmap registered buffer"))
			goto fail;
		iov[i].iov_base = reg[i];
		iov[i].iov_len = reg_size[i];
	}
	ret = uring_register_buffers(&ring, iov, 2);
	if (CHECK_EQ(ret, 0, "IORING_REGISTER_BUFFERS (64 KiB, 512 KiB)"))
		return true;
fail:
	uring_exit(&ring);
	return false;
}

static void t_setup(void)
{
	need_setup();
}

/*
 * One copy and its byte-for-byte check. buf1 is PLAIN (a fresh buffer of
 * b1len) or FIXED (registered buffer `idx` at offset foff, b1len long),
 * buf2 is PLAIN of b2len. Copies len bytes from src_id at src_off to
 * dst_id at dst_off; expects res == len, the destination's range replaced,
 * every other byte of both buffers untouched.
 */
static void copy_case(const char *what, unsigned int b1type, unsigned int idx,
		      uint32_t foff, uint32_t b1len, uint32_t b2len,
		      uint8_t dst_id, uint32_t dst_off, uint32_t src_off,
		      uint32_t len, bool async)
{
	unsigned char *p1 = NULL, *p2 = NULL, *v1, *e1 = NULL, *e2 = NULL;
	uint8_t src_id = dst_id == 1 ? 2 : 1;
	static unsigned int seed;
	struct mc m = {0};
	char msg[200];
	int res = 0, ret;

	snprintf(msg, sizeof(msg), "%s: buf%u[%u..+%u] <- buf%u[%u..+%u]%s",
		 what, dst_id, dst_off, len, src_id, src_off, len,
		 async ? " (IOSQE_ASYNC)" : "");
	/* a valid copy by construction (else the test case is wrong) */
	if ((uint64_t)dst_off + len > (dst_id == 1 ? b1len : b2len) ||
	    (uint64_t)src_off + len > (src_id == 1 ? b1len : b2len)) {
		FAIL("test bug: %s is out of range (buffer 1 %u, buffer 2 %u bytes)",
		     msg, b1len, b2len);
		return;
	}
	if (b1type == T_BPF_BUF_FIXED) {
		v1 = reg[idx] + foff;
	} else {
		p1 = map_buf(b1len);
		v1 = p1;
	}
	p2 = map_buf(b2len);
	e1 = malloc(b1len ? b1len : 1);
	e2 = malloc(b2len ? b2len : 1);
	if (!CHECK_TRUE(v1 && p2 && e1 && e2, "buffers"))
		goto out;
	fill(v1, b1len, ++seed);
	fill(p2, b2len, ++seed);
	memcpy(e1, v1, b1len);
	memcpy(e2, p2, b2len);
	if (dst_id == 1)
		memcpy(e1 + dst_off, p2 + src_off, len);
	else
		memcpy(e2 + dst_off, v1 + src_off, len);

	m.buf1_type = b1type;
	m.buf1_addr = (uint64_t)(uintptr_t)v1;
	m.buf1_len = b1len;
	m.buf_index = idx;
	m.buf2_type = T_BPF_BUF_PLAIN;
	m.buf2_addr = (uint64_t)(uintptr_t)p2;
	m.buf2_len = b2len;
	m.dst_id = dst_id;
	m.src_id = src_id;
	m.dst_off = dst_off;
	m.src_off = src_off;
	m.len = len;
	m.sqe_flags = async ? IOSQE_ASYNC : 0;
	ret = mc_run(&ring, &m, &res);
	if (!CHECK_EQ(ret, 0, msg))
		goto out;
	if (!CHECK_EQ(res, (int)len, msg))
		goto out;
	CHECK_MEM(v1, e1, b1len, dst_id == 1 ? "buffer 1 (destination)" : "buffer 1 (source, unchanged)");
	CHECK_MEM(p2, e2, b2len, dst_id == 2 ? "buffer 2 (destination)" : "buffer 2 (source, unchanged)");
out:
	if (p1)
		munmap(p1, b1len ? b1len : 1);
	if (p2)
		munmap(p2, b2len ? b2len : 1);
	free(e1);
	free(e2);
}

static void t_plain_to_plain(void)
{
	static const struct { uint32_t b1, b2, doff, soff, len; } c[] = {
		{ 64, 64, 0, 0, 1 },
		{ 256, 256, 7, 100, 100 },
		{ PAGE, PAGE, 0, 0, PAGE },			/* whole buffers */
		{ 4 * PAGE, 4 * PAGE, 4095, 13, 3 * PAGE + 1 },	/* page crossings, to the end */
		{ 200 * 1024, 200 * 1024, 0, 0, 200 * 1024 },	/* > 32 pages */
		{ 300 * 1024 + 123, 310 * 1024, 1, 10 * 1024 + 5, 290 * 1024 },
	};

	if (!need_setup())
		return;
	for (unsigned int i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		for (int async = 0; async < 2; async++) {
			/* 2 -> 1 */
			copy_case("plain->plain", T_BPF_BUF_PLAIN, 0, 0, c[i].b1, c[i].b2,
				  1, c[i].doff, c[i].soff, c[i].len, async);
			/* 1 -> 2 */
			copy_case("plain->plain", T_BPF_BUF_PLAIN, 0, 0, c[i].b1, c[i].b2,
				  2, c[i].doff, c[i].soff, c[i].len, async);
		}
	}
}

static void fixed_cases(uint8_t dst_id, const char *what)
{
	static const struct { unsigned int idx; uint32_t foff, b1, b2, doff, soff, len; } c[] = {
		{ 0, 0, REG0_SIZE, 64, 0, 0, 64 },
		{ 0, 100, 1000, 1000, 10, 20, 900 },
		{ 1, PAGE + 5, 200 * 1024, 200 * 1024, 3, 0, 200 * 1024 - 3 },
		{ 1, 0, REG1_SIZE, REG1_SIZE, 0, 0, REG1_SIZE },	/* whole 512 KiB */
		{ 1, REG1_SIZE - 3 * PAGE, 3 * PAGE, 4 * PAGE, 1, PAGE - 1, 2 * PAGE + 1 },
	};

	if (!need_setup())
		return;
	for (unsigned int i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		for (int async = 0; async < 2; async++)
			copy_case(what, T_BPF_BUF_FIXED, c[i].idx, c[i].foff, c[i].b1,
				  c[i].b2, dst_id, c[i].doff, c[i].soff, c[i].len, async);
	}
}

static void t_fixed_to_plain(void)
{
	fixed_cases(2, "fixed->plain");
}

static void t_plain_to_fixed(void)
{
	fixed_cases(1, "plain->fixed");
}

/*
 * A request that must fail with `want` and copy nothing: both buffers are
 * compared with their prior content. b1/b2 point at the buffers' bytes as
 * seen by the request (for FIXED: the registered buffer from the offset).
 */
static void expect_fail(const char *msg, struct mc *m, unsigned char *b1,
			size_t b1len, unsigned char *b2, size_t b2len, int want)
{
	unsigned char *s1 = malloc(b1len ? b1len : 1), *s2 = malloc(b2len ? b2len : 1);
	int res = 0, ret;

	if (!s1 || !s2)
		goto out;
	if (b1)
		memcpy(s1, b1, b1len);
	if (b2)
		memcpy(s2, b2, b2len);
	ret = mc_run(&ring, m, &res);
	if (CHECK_EQ(ret, 0, msg))
		CHECK_EQ(res, want, msg);
	if (b1)
		CHECK_MEM(b1, s1, b1len, "buffer 1 unchanged");
	if (b2)
		CHECK_MEM(b2, s2, b2len, "buffer 2 unchanged");
out:
	free(s1);
	free(s2);
}

/* offset/len checks of the kfunc, for one buffer-1 type */
static void bounds_cases(unsigned int b1type, bool async)
{
	const uint32_t L1 = 2 * PAGE, L2 = PAGE;
	unsigned char *p1 = NULL, *p2, *v1;
	struct mc m = {0};
	char msg[200];
	int res, ret;
	struct {
		const char *what;
		uint8_t dst_id;
		uint32_t doff, soff, len;
		int ok;			/* 1: must succeed (res == len) */
	} c[] = {
		{ "dst range ends at the end of buffer 2", 2, L2 - 16, 0, 16, 1 },
		{ "dst range ends at the end of buffer 1", 1, L1 - 16, 0, 16, 1 },
		{ "src range ends at the end of buffer 2", 1, 0, L2 - 16, 16, 1 },
		{ "src range ends at the end of buffer 1", 2, 0, L1 - 16, 16, 1 },
		{ "whole buffer 2 into buffer 1", 1, L1 - L2, 0, L2, 1 },
		{ "dst one byte past the end of buffer 2", 2, L2 - 15, 0, 16, 0 },
		{ "dst one byte past the end of buffer 1", 1, L1 - 15, 0, 16, 0 },
		{ "src one byte past the end of buffer 2", 1, 0, L2 - 15, 16, 0 },
		{ "src one byte past the end of buffer 1", 2, 0, L1 - 15, 16, 0 },
		{ "dst offset == length of buffer 2, len 1", 2, L2, 0, 1, 0 },
		{ "len longer than both buffers", 1, 0, 0, L1 + 1, 0 },
		{ "len longer than the source", 1, 0, 0, L2 + 1, 0 },
		{ "dst offset 0xffffffff, len 2 (wraps u32)", 2, 0xffffffffu, 0, 2, 0 },
		{ "src offset 0xffffffff, len 2 (wraps u32)", 1, 0, 0xffffffffu, 2, 0 },
		{ "dst offset 0xffffffff, len 2 into buffer 1", 1, 0xffffffffu, 0, 2, 0 },
		{ "src offset 0xffffffff, len 2 from buffer 1", 2, 0, 0xffffffffu, 2, 0 },
		{ "dst offset 1, len 0xffffffff (wraps)", 2, 1, 0, 0xffffffffu, 0 },
		{ "src offset 2, len 0xfffffffe (wraps to 0)", 1, 0, 2, 0xfffffffeu, 0 },
		{ "dst offset 0x80000000, len 0x80000000 (wraps to 0)", 2, 0x80000000u, 0, 0x80000000u, 0 },
	};

	if (b1type == T_BPF_BUF_FIXED) {
		v1 = reg[0] + 8;		/* registered buffer 0 from offset 8 */
	} else {
		p1 = map_buf(L1);
		v1 = p1;
	}
	p2 = map_buf(L2);
	if (!CHECK_TRUE(v1 && p2, "buffers"))
		goto out;
	for (unsigned int i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		fill(v1, L1, i + 1);
		fill(p2, L2, i + 100);
		memset(&m, 0, sizeof(m));
		m.buf1_type = b1type;
		m.buf1_addr = (uint64_t)(uintptr_t)v1;
		m.buf1_len = L1;
		m.buf_index = 0;
		m.buf2_type = T_BPF_BUF_PLAIN;
		m.buf2_addr = (uint64_t)(uintptr_t)p2;
		m.buf2_len = L2;
		m.dst_id = c[i].dst_id;
		m.src_id = c[i].dst_id == 1 ? 2 : 1;
		m.dst_off = c[i].doff;
		m.src_off = c[i].soff;
		m.len = c[i].len;
		m.sqe_flags = async ? IOSQE_ASYNC : 0;
		snprintf(msg, sizeof(msg), "%s buffer 1%s: %s", b1type == T_BPF_BUF_FIXED ?
			 "fixed" : "plain", async ? ", IOSQE_ASYNC" : "", c[i].what);
		if (c[i].ok) {
			res = 0;
			ret = mc_run(&ring, &m, &res);
			if (CHECK_EQ(ret, 0, msg))
				CHECK_EQ(res, (int)c[i].len, msg);
		} else {
			expect_fail(msg, &m, v1, L1, p2, L2, -EINVAL);
		}
	}
out:
	if (p1)
		munmap(p1, L1);
	if (p2)
		munmap(p2, L2);
}

static void t_bounds_plain(void)
{
	if (!need_setup())
		return;
	bounds_cases(T_BPF_BUF_PLAIN, false);
	bounds_cases(T_BPF_BUF_PLAIN, true);
}

static void t_bounds_fixed(void)
{
	if (!need_setup())
		return;
	bounds_cases(T_BPF_BUF_FIXED, false);
	bounds_cases(T_BPF_BUF_FIXED, true);
}

/* buffer ids the kfunc must refuse, and missing buffers */
static void t_bad_buffer_ids(void)
{
	static const struct { uint8_t dst, src; unsigned int b1, b2; const char *what; } c[] = {
		{ 1, 1, T_BPF_BUF_PLAIN, T_BPF_BUF_PLAIN, "dst id == src id == 1" },
		{ 2, 2, T_BPF_BUF_PLAIN, T_BPF_BUF_PLAIN, "dst id == src id == 2" },
		{ 0, 1, T_BPF_BUF_PLAIN, T_BPF_BUF_PLAIN, "dst id 0" },
		{ 1, 3, T_BPF_BUF_PLAIN, T_BPF_BUF_PLAIN, "src id 3" },
		{ 3, 2, T_BPF_BUF_PLAIN, T_BPF_BUF_PLAIN, "dst id 3" },
		{ 2, 1, T_BPF_BUF_PLAIN, T_BPF_BUF_NONE, "copy into buffer 2 of type NONE" },
		{ 1, 2, T_BPF_BUF_NONE, T_BPF_BUF_PLAIN, "copy into buffer 1 of type NONE" },
		{ 1, 2, T_BPF_BUF_PLAIN, T_BPF_BUF_NONE, "copy from buffer 2 of type NONE" },
	};
	unsigned char *p1, *p2;

	if (!need_setup())
		return;
	p1 = map_buf(PAGE);
	p2 = map_buf(PAGE);
	if (!CHECK_TRUE(p1 && p2, "buffers"))
		return;
	fill(p1, PAGE, 1);
	fill(p2, PAGE, 2);
	for (unsigned int i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct mc m = {0};

		m.buf1_type = c[i].b1;
		if (c[i].b1 == T_BPF_BUF_PLAIN) {
			m.buf1_addr = (uint64_t)(uintptr_t)p1;
			m.buf1_len = PAGE;
		}
		m.buf2_type = c[i].b2;
		if (c[i].b2 == T_BPF_BUF_PLAIN) {
			m.buf2_addr = (uint64_t)(uintptr_t)p2;
			m.buf2_len = PAGE;
		}
		m.dst_id = c[i].dst;
		m.src_id = c[i].src;
		m.len = 16;
		expect_fail(c[i].what, &m, p1, PAGE, p2, PAGE, -EINVAL);
	}
	munmap(p1, PAGE);
	munmap(p2, PAGE);
}

/* buf1 type 3..7 and buf2 type 2..7 are rejected before issue */
static void t_invalid_buffer_types(void)
{
	unsigned char *p1, *p2;
	char msg[96];

	if (!need_setup())
		return;
	p1 = map_buf(PAGE);
	p2 = map_buf(PAGE);
	if (!CHECK_TRUE(p1 && p2, "buffers"))
		return;
	fill(p1, PAGE, 3);
	fill(p2, PAGE, 4);
	for (unsigned int t = 0; t < 8; t++) {
		for (int which = 1; which <= 2; which++) {
			struct mc m = {0};
			int i0 = skel->bss->issue_calls;

			if ((which == 1 && t < 3) || (which == 2 && t < 2))
				continue;
			m.buf1_type = which == 1 ? t : T_BPF_BUF_PLAIN;
			m.buf1_addr = (uint64_t)(uintptr_t)p1;
			m.buf1_len = PAGE;
			m.buf2_type = which == 2 ? t : T_BPF_BUF_PLAIN;
			m.buf2_addr = (uint64_t)(uintptr_t)p2;
			m.buf2_len = PAGE;
			m.dst_id = 2;
			m.src_id = 1;
			m.len = 64;
			m.sqe_flags = t & 1 ? IOSQE_ASYNC : 0;
			snprintf(msg, sizeof(msg), "buffer %d type %u", which, t);
			expect_fail(msg, &m, p1, PAGE, p2, PAGE, -EINVAL);
			CHECK_EQ(skel->bss->issue_calls - i0, 0,
				 "issue_fn must not run for an invalid buffer type");
		}
	}
	munmap(p1, PAGE);
	munmap(p2, PAGE);
}

/*
 * FIXED buffer 1: index and range against the registered buffer. sqe->addr
 * is a user address inside it (READ_FIXED's convention); a range that is
 * not inside it is refused at prep with -EFAULT, as io_import_fixed() does,
 * an index past the registered ones with -EINVAL.
 */
static void t_fixed_checks(void)
{
	struct {
		const char *what;
		uint16_t idx;
		bool abs;		/* off is an absolute address */
		uint64_t off;		/* else: from the start of reg[idx] */
		uint32_t len;
		int want;
	} c[] = {
		{ "buf_index 2 == number of registered buffers", 2, false, 0, 64, -EINVAL },
		{ "buf_index 100", 100, false, 0, 64, -EINVAL },
		{ "buf_index 0xffff", 0xffff, false, 0, 64, -EINVAL },
		{ "range one byte past registered buffer 0", 0, false, REG0_SIZE - 63, 64, -EFAULT },
		{ "range past registered buffer 0 (10 of 20 bytes)", 0, false, REG0_SIZE - 10, 20, -EFAULT },
		{ "len registered size + 1", 0, false, 0, REG0_SIZE + 1, -EFAULT },
		{ "address == end of the buffer, len 1", 0, false, REG0_SIZE, 1, -EFAULT },
		{ "address 4 GiB past the buffer, len 64", 0, false, 1ULL << 32, 64, -EFAULT },
		{ "address one byte before the buffer", 0, false, -1ULL, 64, -EFAULT },
		{ "address 0 (an offset, the posting's comment)", 0, true, 0, 64, -EFAULT },
		{ "address 8 (an offset, the posting's comment)", 0, true, 8, 64, -EFAULT },
		{ "address 0xffffffffffffffff, len 2 (wraps)", 0, true, ~0ULL, 2, -EFAULT },
		{ "address -4096, len 8192 (wraps)", 0, true, -4096ULL, 8192, -EFAULT },
		{ "range past registered buffer 1", 1, false, REG1_SIZE - PAGE, PAGE + 1, -EFAULT },
		{ "registered buffer 1's address with buf_index 0", 0, true, 0, 64, -EFAULT },
	};
	unsigned char *p2;
	int res, ret;

	if (!need_setup())
		return;
	/* the last case: buffer 1's address is outside buffer 0 */
	c[sizeof(c) / sizeof(c[0]) - 1].off = (uint64_t)(uintptr_t)reg[1];
	p2 = map_buf(PAGE);
	if (!CHECK_PTR(p2, "buffer"))
		return;
	for (unsigned int i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		for (int async = 0; async < 2; async++) {
			struct mc m = {0};
			char msg[160];

			fill(reg[0], REG0_SIZE, i);
			fill(reg[1], REG1_SIZE, i + 7);
			fill(p2, PAGE, i + 50);
			m.buf1_type = T_BPF_BUF_FIXED;
			m.buf1_addr = c[i].abs ? c[i].off :
				(uint64_t)(uintptr_t)reg[c[i].idx < 2 ? c[i].idx : 0] + c[i].off;
			m.buf1_len = c[i].len;
			m.buf_index = c[i].idx;
			m.buf2_type = T_BPF_BUF_PLAIN;
			m.buf2_addr = (uint64_t)(uintptr_t)p2;
			m.buf2_len = PAGE;
			/* copy 4 bytes from buffer 2 into buffer 1 at offset 0 */
			m.dst_id = 1;
			m.src_id = 2;
			m.len = 4;
			m.sqe_flags = async ? IOSQE_ASYNC : 0;
			snprintf(msg, sizeof(msg), "%s%s", c[i].what,
				 async ? ", IOSQE_ASYNC" : "");
			/* compare both registered buffers as a whole */
			expect_fail(msg, &m, reg[0], REG0_SIZE, reg[1], REG1_SIZE, c[i].want);
		}
	}

	/* the very end of a registered buffer is fine */
	{
		struct mc m = {0};

		fill(p2, PAGE, 99);
		m.buf1_type = T_BPF_BUF_FIXED;
		m.buf1_addr = (uint64_t)(uintptr_t)reg[0] + REG0_SIZE - 64;
		m.buf1_len = 64;
		m.buf_index = 0;
		m.buf2_type = T_BPF_BUF_PLAIN;
		m.buf2_addr = (uint64_t)(uintptr_t)p2;
		m.buf2_len = PAGE;
		m.dst_id = 1;
		m.src_id = 2;
		m.len = 64;
		res = 0;
		ret = mc_run(&ring, &m, &res);
		if (CHECK_EQ(ret, 0, "last 64 bytes of registered buffer 0") &&
		    CHECK_EQ(res, 64, "last 64 bytes of registered buffer 0"))
			CHECK_MEM(reg[0] + REG0_SIZE - 64, p2, 64, "copied bytes");
	}
	munmap(p2, PAGE);
}

/*
 * NULL descriptors: the verifier lets a program pass NULL for dest or src
 * (struct bpf_req_mem_desc holds only scalars). The kfunc must refuse it
 * with -EINVAL; without the check the kernel oopsed in the submit path.
 */
static void t_null_descriptors(void)
{
	static const struct { uint32_t flag; const char *what; } c[] = {
		{ MC_F_NULL_DST, "NULL destination descriptor" },
		{ MC_F_NULL_SRC, "NULL source descriptor" },
	};
	unsigned char *p1, *p2;

	if (!need_setup())
		return;
	p1 = map_buf(PAGE);
	p2 = map_buf(PAGE);
	if (!CHECK_TRUE(p1 && p2, "buffers"))
		return;
	for (unsigned int i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		for (int async = 0; async < 2; async++) {
			struct mc m = {0};
			char msg[96];

			fill(p1, PAGE, i + 1);
			fill(p2, PAGE, i + 2);
			mc_plain(&m, p1, PAGE, p2, PAGE);
			m.dst_id = 2;
			m.src_id = 1;
			m.len = 64;
			m.flags = c[i].flag;
			m.sqe_flags = async ? IOSQE_ASYNC : 0;
			snprintf(msg, sizeof(msg), "%s%s", c[i].what,
				 async ? ", IOSQE_ASYNC" : "");
			expect_fail(msg, &m, p1, PAGE, p2, PAGE, -EINVAL);
		}
	}
	munmap(p1, PAGE);
	munmap(p2, PAGE);
}

/* FIXED with no buffers registered on the ring: -EFAULT */
static void t_fixed_unregistered(void)
{
	struct uring r2;
	unsigned char *p2;
	struct mc m = {0};
	int res = 0, ret;

	if (!need_setup())
		return;
	ret = uring_init(&r2, 4, T_IORING_SETUP_BPF, 0);
	if (!CHECK_EQ(ret, 0, "second BPF ring"))
		return;
	p2 = map_buf(PAGE);
	m.buf1_type = T_BPF_BUF_FIXED;
	m.buf1_len = 64;
	m.buf2_type = T_BPF_BUF_PLAIN;
	m.buf2_addr = (uint64_t)(uintptr_t)p2;
	m.buf2_len = PAGE;
	m.dst_id = 2;
	m.src_id = 1;
	m.len = 16;
	ret = mc_run(&r2, &m, &res);
	if (CHECK_EQ(ret, 0, "FIXED on a ring without registered buffers"))
		CHECK_EQ(res, -EFAULT, "FIXED on a ring without registered buffers");
	munmap(p2, PAGE);
	uring_exit(&r2);
}

/* a plain buffer that is not (writably) mapped: an error, never success */
static void t_unmapped_plain(void)
{
	unsigned char *p1, *hole;
	struct mc m = {0};
	int res = 0, ret;

	if (!need_setup())
		return;
	p1 = map_buf(PAGE);
	hole = mmap(NULL, PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!CHECK_TRUE(p1 && hole != MAP_FAILED, "buffers"))
		return;
	fill(p1, PAGE, 5);
	mc_plain(&m, p1, PAGE, hole, PAGE);
	m.len = 128;

	/* from a PROT_NONE source */
	m.dst_id = 1;
	m.src_id = 2;
	expect_fail("copy from a PROT_NONE buffer", &m, p1, PAGE, NULL, 0, -EFAULT);

	/* into a PROT_NONE destination: any error (or a short count), not success */
	m.dst_id = 2;
	m.src_id = 1;
	ret = mc_run(&ring, &m, &res);
	if (CHECK_EQ(ret, 0, "copy into a PROT_NONE buffer")) {
		if (res == 128)
			FAIL("copy into a PROT_NONE buffer reported success (res %d)", res);
		else
			T_DEBUG("copy into a PROT_NONE buffer: res %d", res);
	}
	munmap(p1, PAGE);
	munmap(hole, PAGE);
}

/*
 * The fixed buffer is taken at prep: a request queued behind a 300 ms
 * timeout still copies into the buffer it was prepared with when, in the
 * meantime, user space replaces that buffer (IORING_REGISTER_BUFFERS_UPDATE)
 * or unregisters all buffers. KASAN would catch a use after free.
 */
static void fixed_swap_case(bool unregister_all)
{
	const uint32_t len = 3 * PAGE;
	unsigned char *old = NULL, *new = NULL, *src = NULL, *new_copy = NULL;
	struct __kernel_timespec ts;
	struct io_uring_cqe cqes[2];
	struct io_uring_sqe *sqe;
	struct iovec iov;
	struct uring r;
	int ret, n;

	if (!CHECK_EQ(uring_init(&r, 8, T_IORING_SETUP_BPF, 0), 0, "BPF ring"))
		return;
	old = map_buf(len);
	new = map_buf(len);
	src = map_buf(len);
	new_copy = malloc(len);
	if (!CHECK_TRUE(old && new && src && new_copy, "buffers"))
		goto out;
	memset(old, 0, len);
	fill(new, len, 11);
	memcpy(new_copy, new, len);
	fill(src, len, 12);
	iov.iov_base = old;
	iov.iov_len = len;
	if (!CHECK_EQ(uring_register_buffers(&r, &iov, 1), 0, "register one buffer"))
		goto out;

	skel->bss->params[0].dst_id = 1;
	skel->bss->params[0].src_id = 2;
	skel->bss->params[0].dst_off = 0;
	skel->bss->params[0].src_off = 0;
	skel->bss->params[0].len = len;
	t_ms_to_ts(&ts, 300);
	sqe = uring_get_sqe(&r);
	sqe_timeout(sqe, &ts, 0, IORING_TIMEOUT_ETIME_SUCCESS, 1);
	sqe->flags = IOSQE_IO_LINK;
	sqe = uring_get_sqe(&r);
	sqe_bpf(sqe, T_BPF_OP_FLAGS(ID_MEMCPY, T_BPF_BUF_FIXED, T_BPF_BUF_PLAIN, 0), 2);
	sqe_bpf_buf1(sqe, (uint64_t)(uintptr_t)old, len, 0);
	sqe_bpf_buf2(sqe, (uint64_t)(uintptr_t)src, len);
	ret = uring_submit(&r);
	if (!CHECK_EQ(ret, 2, "submit [TIMEOUT 300 ms] -> [memcpy into fixed buffer 0]"))
		goto out;

	if (unregister_all) {
		ret = t_io_uring_register(r.fd, IORING_UNREGISTER_BUFFERS, NULL, 0);
		CHECK_EQ(ret, 0, "IORING_UNREGISTER_BUFFERS while the request is queued");
	} else {
		struct io_uring_rsrc_update2 up;
		struct iovec niov = { new, len };

		memset(&up, 0, sizeof(up));
		up.offset = 0;
		up.data = (uint64_t)(uintptr_t)&niov;
		up.nr = 1;
		ret = t_io_uring_register(r.fd, IORING_REGISTER_BUFFERS_UPDATE, &up, sizeof(up));
		CHECK_EQ(ret, 1, "IORING_REGISTER_BUFFERS_UPDATE of index 0 while the request is queued");
	}
	n = uring_wait_cqes(&r, cqes, 2, T_CQE_TIMEOUT_MS);
	if (CHECK_EQ(n, 2, "CQEs")) {
		for (int i = 0; i < 2; i++) {
			if (cqes[i].user_data == 2)
				CHECK_EQ(cqes[i].res, (int)len, "memcpy res");
			else
				CHECK_EQ(cqes[i].res, -ETIME, "timeout res");
		}
	}
	CHECK_MEM(old, src, len, "the buffer registered at prep got the data");
	CHECK_MEM(new, new_copy, len, "the replacement buffer is untouched");
out:
	uring_exit(&r);
	if (old)
		munmap(old, len);
	if (new)
		munmap(new, len);
	if (src)
		munmap(src, len);
	free(new_copy);
}

static void t_fixed_buffer_replaced_while_queued(void)
{
	if (need_setup())
		fixed_swap_case(false);
}

static void t_fixed_buffers_unregistered_while_queued(void)
{
	if (need_setup())
		fixed_swap_case(true);
}

/* loading @obj must fail, and libbpf's log (the verifier's) must say @why */
static void expect_refused(struct bpf_object *obj, const char *what,
			  const char *why)
{
	char msg[256];

	t_libbpf_log_reset();
	snprintf(msg, sizeof(msg), "%s must not load", what);
	CHECK_TRUE(bpf_object__load(obj) < 0, msg);
	snprintf(msg, sizeof(msg), "the verifier's log says \"%s\"", why);
	CHECK_TRUE(strstr(t_libbpf_log(), why) != NULL, msg);
}

/* fresh anonymous memory, never touched: no page is mapped yet */
static unsigned char *map_untouched(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * One copy into a never-touched destination (and, for plain->plain, from a
 * never-touched source: zeroes), with the current op (cur_id). dst_id 2:
 * buffer 1 (PLAIN filled, or FIXED reg[0] + 100) -> buffer 2 untouched;
 * dst_id 1: buffer 2 (filled) -> buffer 1 (PLAIN untouched, or FIXED).
 */
static void untouched_case(const char *what, unsigned int b1type, uint8_t dst_id,
			   bool src_untouched, bool async)
{
	const uint32_t len = 5 * PAGE + 123, doff = 77, soff = 5;
	unsigned char *b1 = NULL, *b2 = NULL, *want = NULL, *src, *dst;
	unsigned char *p1 = NULL;
	struct mc m = {0};
	char msg[200];
	int res = 0, ret;

	snprintf(msg, sizeof(msg), "%s: %u bytes into never-touched pages%s%s",
		 what, len - doff, src_untouched ? " from never-touched pages" : "",
		 async ? " (IOSQE_ASYNC)" : "");
	if (b1type == T_BPF_BUF_FIXED) {
		b1 = reg[0] + 100;
	} else {
		p1 = map_untouched(len);
		b1 = p1;
	}
	b2 = map_untouched(len);
	want = malloc(len);
	if (!CHECK_TRUE(b1 && b2 && want, "buffers"))
		goto out;
	src = dst_id == 2 ? b1 : b2;
	dst = dst_id == 2 ? b2 : b1;
	if (!src_untouched || src == reg[0] + 100)
		fill(src, len, 31);
	if (dst == reg[0] + 100)
		fill(dst, len, 32);
	/* what the destination must hold: untouched memory reads as zeroes */
	if (dst == reg[0] + 100)
		memcpy(want, dst, len);
	else
		memset(want, 0, len);
	if (src_untouched && src != reg[0] + 100)
		memset(want + doff, 0, len - doff);
	else
		memcpy(want + doff, src + soff, len - doff);

	m.buf1_type = b1type;
	m.buf1_addr = (uint64_t)(uintptr_t)b1;
	m.buf1_len = len;
	m.buf_index = 0;
	m.buf2_type = T_BPF_BUF_PLAIN;
	m.buf2_addr = (uint64_t)(uintptr_t)b2;
	m.buf2_len = len;
	m.dst_id = dst_id;
	m.src_id = dst_id == 1 ? 2 : 1;
	m.dst_off = doff;
	m.src_off = soff;
	m.len = len - doff;
	m.sqe_flags = async ? IOSQE_ASYNC : 0;
	ret = mc_run(&ring, &m, &res);
	if (CHECK_EQ(ret, 0, msg) && CHECK_EQ(res, (int)(len - doff), msg))
		CHECK_MEM(dst, want, len, "destination after the copy");
out:
	if (p1)
		munmap(p1, len);
	if (b2)
		munmap(b2, len);
	free(want);
}

static void untouched_cases(void)
{
	for (int async = 0; async < 2; async++) {
		untouched_case("plain->plain", T_BPF_BUF_PLAIN, 2, false, async);
		untouched_case("plain->plain", T_BPF_BUF_PLAIN, 1, false, async);
		untouched_case("plain->plain", T_BPF_BUF_PLAIN, 2, true, async);
		untouched_case("fixed->plain", T_BPF_BUF_FIXED, 2, false, async);
		untouched_case("plain->fixed", T_BPF_BUF_FIXED, 1, false, async);
	}
}

/*
 * io_uring_bpf_req_memcpy() from a NON-sleepable issue_fn, as programs
 * written for the posted series call it. Such a program runs under
 * rcu_read_lock() and must not fault: the kernel pins the request's plain
 * buffers at prep and the kfunc copies between pinned pages. The program
 * must load (patch 0033; a KF_SLEEPABLE kfunc, an earlier form of the fix,
 * made the verifier refuse it), copy the right bytes
 * into pages user space never touched, plain and fixed, inline and from
 * io-wq, and leave no lockdep or might_sleep report (the VM run scans the
 * debug kernel's log). Also: a read-only destination and a plain buffer
 * above the 64 MiB pinning limit are refused.
 */
static void t_memcpy_in_non_sleepable_prog(void)
{
	const size_t big = (64u << 20) + PAGE;
	struct op_memcpy_ns *ns = NULL;
	struct bpf_link *link = NULL;
	unsigned char *ro = NULL, *huge = NULL, *p1 = NULL;
	struct mc m = {0};
	int ret, res = 0;

	if (!need_setup())
		return;
	ns = op_memcpy_ns__open();
	if (!CHECK_PTR(ns, "op_memcpy_ns__open"))
		return;
	ret = op_memcpy_ns__load(ns);
	if (!CHECK_EQ(ret, 0, "a non-sleepable issue_fn calling io_uring_bpf_req_memcpy() loads"))
		goto out;
	if (!CHECK_EQ(t_attach(ns->maps.memcpy_op, &link), 0, "attach the non-sleepable op (id 41)"))
		goto out;
	cur_id = 41;
	cur_params = ns->bss->params;
	untouched_cases();

	/* into a read-only mapping: pinned read-only, refused */
	p1 = map_buf(PAGE);
	ro = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (CHECK_TRUE(p1 && ro != MAP_FAILED, "buffers")) {
		fill(p1, PAGE, 41);
		mc_plain(&m, p1, PAGE, ro, PAGE);
		m.dst_id = 2;
		m.src_id = 1;
		m.len = 64;
		expect_fail("copy into a PROT_READ buffer (non-sleepable)", &m,
			    p1, PAGE, NULL, 0, -EFAULT);
		/* from it is fine (zeroes) */
		m.dst_id = 1;
		m.src_id = 2;
		ret = mc_run(&ring, &m, &res);
		if (CHECK_EQ(ret, 0, "copy from a PROT_READ buffer (non-sleepable)"))
			CHECK_EQ(res, 64, "copy from a PROT_READ buffer (non-sleepable)");
	}

	/* a plain buffer above the pinning limit: -E2BIG at prep */
	huge = map_untouched(big);
	if (CHECK_PTR(huge, "mmap 64 MiB + 4 KiB (not touched)")) {
		mc_plain(&m, huge, big, p1, PAGE);
		m.dst_id = 2;
		m.src_id = 1;
		m.len = 64;
		res = 0;
		ret = mc_run(&ring, &m, &res);
		if (CHECK_EQ(ret, 0, "plain buffer of 64 MiB + 4 KiB (non-sleepable)"))
			CHECK_EQ(res, -E2BIG, "plain buffer of 64 MiB + 4 KiB (non-sleepable)");
	}
out:
	cur_id = ID_MEMCPY;
	cur_params = skel ? skel->bss->params : NULL;
	t_detach(&link);
	if (ns)
		op_memcpy_ns__destroy(ns);
	if (ro && ro != MAP_FAILED)
		munmap(ro, PAGE);
	if (huge)
		munmap(huge, big);
	if (p1)
		munmap(p1, PAGE);
}

/*
 * The sleepable body copies user memory directly, without pinning. Inline
 * (IO_URING_F_NONBLOCK) it must not take a fault: a copy into pages never
 * touched returns -EAGAIN, io_uring retries the request from io-wq, where
 * the copy faults the pages in. So the program runs twice, the second time
 * without IO_URING_F_NONBLOCK, and the bytes come out right.
 */
static void t_sleepable_untouched_pages(void)
{
	const uint32_t nonblock = 1u << 31;	/* IO_URING_F_NONBLOCK (INT_MIN) */
	unsigned char *p1, *p2;
	struct mc m = {0};
	int i0, res = 0, ret;

	if (!need_setup())
		return;
	untouched_cases();

	p1 = map_buf(PAGE);
	p2 = map_untouched(PAGE);
	if (!CHECK_TRUE(p1 && p2, "buffers"))
		return;
	fill(p1, PAGE, 61);
	mc_plain(&m, p1, PAGE, p2, PAGE);
	m.dst_id = 2;
	m.src_id = 1;
	m.len = PAGE;
	i0 = skel->bss->issue_calls;
	ret = mc_run(&ring, &m, &res);
	if (CHECK_EQ(ret, 0, "inline copy into a never-touched page") &&
	    CHECK_EQ(res, (int)PAGE, "inline copy into a never-touched page")) {
		CHECK_MEM(p2, p1, PAGE, "copied bytes");
		CHECK_EQ(skel->bss->issue_calls - i0, 2,
			 "issue_fn calls (inline: -EAGAIN, then io-wq)");
		CHECK_EQ(skel->bss->last_issue_flags & nonblock, 0,
			 "the last call (io-wq) without IO_URING_F_NONBLOCK");
	}
	munmap(p1, PAGE);
	munmap(p2, PAGE);
}

/*
 * Only prep_fn and issue_fn may be sleepable: fail_fn and cleanup_fn are
 * called from completion and freeing paths that may not sleep (patch
 * 0025). The object's sleepable prep_fn loads first, so the refusal must
 * name cleanup_fn.
 */
static void t_sleepable_only_prep_and_issue(void)
{
	struct op_sleepable_cleanup *sc = op_sleepable_cleanup__open();

	if (!CHECK_PTR(sc, "op_sleepable_cleanup__open"))
		return;
	expect_refused(sc->obj, "a sleepable cleanup_fn",
		       "unsupported member cleanup_fn");
	op_sleepable_cleanup__destroy(sc);
}

/*
 * A sleepable program's kfunc body may fault and sleep: the verifier
 * accepts it in a bpf_loop() callback (run where bpf_loop() was called)
 * and refuses it in a bpf_for_each_map_elem() callback over a hash map
 * (run under rcu_read_lock(): the debug kernel reported "suspicious RCU
 * usage" and "sleeping function called from invalid context" before).
 */
static void t_memcpy_in_callbacks(void)
{
	struct bpf_link *link = NULL;
	unsigned char *p1, *p2;
	struct op_memcpy_cb *cb;
	unsigned int id0 = cur_id;
	struct mc m = {0};
	int ret, res = 0;

	if (!need_setup())
		return;
	cb = op_memcpy_cb__open();
	if (!CHECK_PTR(cb, "op_memcpy_cb__open"))
		return;
	bpf_map__set_autocreate(cb->maps.loop_op, false);
	bpf_program__set_autoload(cb->progs.loop_issue, false);
	expect_refused(cb->obj, "a sleepable issue_fn calling the memcpy kfunc "
		       "from a hash map's bpf_for_each_map_elem() callback",
		       "may fault in a sleepable program");
	op_memcpy_cb__destroy(cb);

	cb = op_memcpy_cb__open();
	if (!CHECK_PTR(cb, "op_memcpy_cb__open"))
		return;
	bpf_map__set_autocreate(cb->maps.hash_op, false);
	bpf_program__set_autoload(cb->progs.hash_issue, false);
	ret = op_memcpy_cb__load(cb);
	if (!CHECK_EQ(ret, 0, "a sleepable issue_fn calling the memcpy kfunc "
		      "from a bpf_loop() callback loads"))
		goto out;
	if (!CHECK_EQ(t_attach(cb->maps.loop_op, &link), 0, "attach loop_op (id 44)"))
		goto out;
	p1 = map_buf(PAGE);
	p2 = map_buf(PAGE);
	if (!CHECK_TRUE(p1 && p2, "buffers"))
		goto out;
	fill(p1, PAGE, 44);
	mc_plain(&m, p1, PAGE, p2, PAGE);
	cur_id = 44;
	ret = mc_run(&ring, &m, &res);
	cur_id = id0;
	if (CHECK_EQ(ret, 0, "copy from a bpf_loop() callback") &&
	    CHECK_EQ(res, (int)PAGE, "copy from a bpf_loop() callback"))
		CHECK_MEM(p2, p1, PAGE, "copied bytes");
	CHECK_GT(cb->bss->cb_calls, 0, "callback calls");
	munmap(p1, PAGE);
	munmap(p2, PAGE);
out:
	t_detach(&link);
	op_memcpy_cb__destroy(cb);
}

/* every request above released the op: the id can be registered again */
static void t_no_leaked_op_refs(void)
{
	if (!need_setup())
		return;
	uring_exit(&ring);
	t_detach(&mc_link);
	CHECK_EQ(t_attach(skel->maps.memcpy_op, &mc_link), 0,
		 "re-register the memcpy op after all its requests completed");
}

int main(int argc, char **argv)
{
	T_INIT(argc, argv);
	REQUIRE_ROOT();
	REQUIRE_BTF_TYPE("uring_bpf_ops", "IORING_OP_BPF");
	REQUIRE_BTF_TYPE("bpf_req_mem_desc", "io_uring_bpf_req_memcpy");

	ring.fd = -1;
	RUN(t_setup);
	RUN(t_plain_to_plain);
	RUN(t_fixed_to_plain);
	RUN(t_plain_to_fixed);
	RUN(t_bounds_plain);
	RUN(t_bounds_fixed);
	RUN(t_bad_buffer_ids);
	RUN(t_invalid_buffer_types);
	RUN(t_fixed_checks);
	RUN(t_null_descriptors);
	RUN(t_fixed_unregistered);
	RUN(t_unmapped_plain);
	RUN(t_fixed_buffer_replaced_while_queued);
	RUN(t_fixed_buffers_unregistered_while_queued);
	RUN(t_memcpy_in_non_sleepable_prog);
	RUN(t_sleepable_untouched_pages);
	RUN(t_memcpy_in_callbacks);
	RUN(t_no_leaked_op_refs);
	RUN(t_sleepable_only_prep_and_issue);

	if (ring.fd >= 0)
		uring_exit(&ring);
	t_detach(&mc_link);
	if (skel)
		op_memcpy__destroy(skel);
	return T_DONE();
}
