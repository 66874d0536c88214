/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check.h - a tiny harness for the compiled kernel tests (tests/kernel/).
 *
 * One executable per area runs several named subtests and prints, for each,
 *     ok NAME
 *     not ok NAME: WHY            (WHY = the first failed check)
 *     ok NAME # SKIP REASON
 * then "N passed, M failed, K skipped" and exits 1 if any subtest failed.
 * Exit 77 (SKIP, liburing's convention) when the kernel lacks a feature:
 * REQUIRE_BTF_TYPE() probes the running kernel's BTF for a struct by name.
 *
 * Usage:
 *     static void t_foo(void) { CHECK_EQ(got, want, "what"); ... }
 *     int main(int argc, char **argv) {
 *         T_INIT(argc, argv);            // -v, -l, name filters
 *         REQUIRE_ROOT(); REQUIRE_BTF_TYPE("uring_bpf_ops");
 *         RUN(t_foo);                    // subtest named "foo"
 *         return T_DONE();
 *     }
 *
 * Every CHECK_* is an expression that is true when the check passed, so a
 * subtest can bail out with `if (!CHECK_EQ(...)) goto out;`.
 * A watchdog ends the process (status 1) if one subtest runs longer than
 * T_SUBTEST_TIMEOUT seconds (default 120, env IOURING_BPF_SUBTEST_TIMEOUT),
 * so a request the kernel never completes fails the test instead of hanging.
 */
#ifndef TESTS_LIB_CHECK_H
#define TESTS_LIB_CHECK_H

#include <errno.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#define T_SKIP_RC 77

struct t_state {
	int argc;
	char **argv;
	bool verbose, list;
	int passed, failed, skipped;
	const char *cur;		/* running subtest */
	bool cur_failed, cur_skipped;
	char why[600];			/* first failure of the current subtest */
	char skip_why[256];
	/* libbpf log of the current subtest, printed on failure or with -v */
	char *log;
	size_t log_len, log_cap;
	/* watchdog */
	pthread_mutex_t wd_lock;
	pthread_cond_t wd_cond;
	unsigned long wd_gen;
	bool wd_armed;
	int timeout_s;
};

static struct t_state T = {
	.wd_lock = PTHREAD_MUTEX_INITIALIZER,
	.wd_cond = PTHREAD_COND_INITIALIZER,
};

/* ---- errno names: "-22 (EINVAL)" reads better than "-22" ---------------- */

static inline const char *t_errname(long long v)
{
	switch (v < 0 ? -v : v) {
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EINTR: return "EINTR";
	case EIO: return "EIO";
	case EBADF: return "EBADF";
	case EAGAIN: return "EAGAIN";
	case ENOMEM: return "ENOMEM";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	case EBUSY: return "EBUSY";
	case EEXIST: return "EEXIST";
	case ENODEV: return "ENODEV";
	case EINVAL: return "EINVAL";
	case ENOSPC: return "ENOSPC";
	case ERANGE: return "ERANGE";
	case ETIME: return "ETIME";
	case EBADMSG: return "EBADMSG";
	case EOVERFLOW: return "EOVERFLOW";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ETIMEDOUT: return "ETIMEDOUT";
	case ECANCELED: return "ECANCELED";
	case E2BIG: return "E2BIG";
	case ESRCH: return "ESRCH";
	case 524: return "ENOTSUPP";
	case 529: return "EIOCBQUEUED";
	default: return NULL;
	}
}

/* formats v as "-22 (-EINVAL)" for small negative values, else decimal */
static inline const char *t_fmt(char *buf, size_t sz, long long v)
{
	const char *n = (v < 0 && v >= -4095) ? t_errname(v) : NULL;

	if (n)
		snprintf(buf, sz, "%lld (-%s)", v, n);
	else if (v > 0xffff || v < -0xffff)
		snprintf(buf, sz, "%lld (0x%llx)", v, (unsigned long long)v);
	else
		snprintf(buf, sz, "%lld", v);
	return buf;
}

static inline double t_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---- failure recording -------------------------------------------------- */

static inline void t_failf(int line, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void t_failf(int line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printf("  # %s: line %d: %s\n", T.cur ? T.cur : "-", line, msg);
	fflush(stdout);
	if (!T.cur_failed) {
		snprintf(T.why, sizeof(T.why), "%.560s (line %d)", msg, line);
		T.cur_failed = true;
	}
}

/* informational line, shown always (goes to the test's output) */
#define T_INFO(...) do { printf("  # " __VA_ARGS__); printf("\n"); fflush(stdout); } while (0)
/* shown only with -v */
#define T_DEBUG(...) do { if (T.verbose) T_INFO(__VA_ARGS__); } while (0)

#define FAIL(...) t_failf(__LINE__, __VA_ARGS__)

/* CHECK_EQ(got, expected, msg): integer comparison, errno-aware printing */
#define CHECK_EQ(got, want, msg) ({					\
	long long __g = (long long)(got), __w = (long long)(want);	\
	bool __ok = __g == __w;						\
	if (!__ok) {							\
		char __b1[64], __b2[64];				\
		t_failf(__LINE__, "%s: expected %s, got %s", (msg),	\
			t_fmt(__b1, sizeof(__b1), __w),			\
			t_fmt(__b2, sizeof(__b2), __g));		\
	}								\
	__ok;								\
})

#define CHECK_NE(got, notwant, msg) ({					\
	long long __g = (long long)(got), __w = (long long)(notwant);	\
	bool __ok = __g != __w;						\
	if (!__ok) {							\
		char __b1[64];						\
		t_failf(__LINE__, "%s: expected anything but %s", (msg),\
			t_fmt(__b1, sizeof(__b1), __w));		\
	}								\
	__ok;								\
})

/* CHECK_GE(got, min, msg), CHECK_LT(got, bound, msg), CHECK_LE */
#define __CHECK_CMP(got, op, ref, opname, msg) ({			\
	long long __g = (long long)(got), __r = (long long)(ref);	\
	bool __ok = __g op __r;						\
	if (!__ok) {							\
		char __b1[64], __b2[64];				\
		t_failf(__LINE__, "%s: expected %s %s, got %s", (msg),	\
			opname, t_fmt(__b1, sizeof(__b1), __r),		\
			t_fmt(__b2, sizeof(__b2), __g));		\
	}								\
	__ok;								\
})
#define CHECK_GE(got, ref, msg) __CHECK_CMP(got, >=, ref, ">=", msg)
#define CHECK_GT(got, ref, msg) __CHECK_CMP(got, >, ref, ">", msg)
#define CHECK_LE(got, ref, msg) __CHECK_CMP(got, <=, ref, "<=", msg)
#define CHECK_LT(got, ref, msg) __CHECK_CMP(got, <, ref, "<", msg)

#define CHECK_TRUE(cond, msg) ({					\
	bool __ok = !!(cond);						\
	if (!__ok)							\
		t_failf(__LINE__, "%s: expected true: %s", (msg), #cond);\
	__ok;								\
})

/* CHECK_PTR(p, msg): p must be non-NULL; prints errno otherwise */
#define CHECK_PTR(p, msg) ({						\
	bool __ok = (p) != NULL;					\
	if (!__ok) {							\
		int __e = errno;					\
		const char *__n = t_errname(__e);			\
		t_failf(__LINE__, "%s: failed, errno %d (%s)", (msg),	\
			__e, __n ? __n : strerror(__e));		\
	}								\
	__ok;								\
})

/* CHECK_MEM(got, want, len, msg): byte for byte, reports the first diff */
#define CHECK_MEM(got, want, len, msg) ({				\
	const unsigned char *__g = (const void *)(got);		\
	const unsigned char *__w = (const void *)(want);		\
	size_t __n = (len), __i;					\
	bool __ok = true;						\
	for (__i = 0; __i < __n; __i++) {				\
		if (__g[__i] != __w[__i]) {				\
			size_t __j, __nd = 0;				\
			for (__j = __i; __j < __n; __j++)		\
				__nd += __g[__j] != __w[__j];		\
			t_failf(__LINE__, "%s: first difference at byte %zu of %zu:"\
				" expected 0x%02x, got 0x%02x (%zu bytes differ)",\
				(msg), __i, __n, __w[__i], __g[__i], __nd);\
			__ok = false;					\
			break;						\
		}							\
	}								\
	__ok;								\
})

/* skip the whole executable (exit 77), the reason is the last line */
#define SKIP(...) do {							\
	fflush(stdout);							\
	fprintf(stdout, "SKIP: " __VA_ARGS__);				\
	fprintf(stdout, "\n");						\
	fflush(stdout);							\
	exit(T_SKIP_RC);						\
} while (0)

/* skip the current subtest only */
#define SKIP_SUBTEST(...) do {						\
	snprintf(T.skip_why, sizeof(T.skip_why), __VA_ARGS__);		\
	T.cur_skipped = true;						\
} while (0)

/* ---- libbpf log capture -------------------------------------------------- */

static inline int t_libbpf_print(enum libbpf_print_level level,
				 const char *fmt, va_list ap)
{
	char buf[4096];
	int n;

	if (level == LIBBPF_DEBUG && !T.verbose)
		return 0;
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n < 0)
		return 0;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	if (T.log_len + n + 1 > T.log_cap) {
		size_t cap = T.log_cap ? T.log_cap * 2 : 65536;
		char *p;

		while (cap < T.log_len + n + 1)
			cap *= 2;
		if (cap > (8u << 20))	/* keep at most 8 MiB of log */
			return 0;
		p = realloc(T.log, cap);
		if (!p)
			return 0;
		T.log = p;
		T.log_cap = cap;
	}
	memcpy(T.log + T.log_len, buf, n);
	T.log_len += n;
	T.log[T.log_len] = 0;
	return 0;
}

/* the libbpf log gathered so far in this subtest (never NULL) */
static inline const char *t_libbpf_log(void)
{
	return T.log ? T.log : "";
}

static inline void t_libbpf_log_reset(void)
{
	T.log_len = 0;
	if (T.log)
		T.log[0] = 0;
}

/* print the last `max` bytes of the libbpf log, indented */
static inline void t_print_log(size_t max)
{
	const char *s = t_libbpf_log();
	size_t n = strlen(s);
	const char *p;

	if (!n)
		return;
	if (n > max) {
		s += n - max;
		p = strchr(s, '\n');	/* start at a line */
		if (p)
			s = p + 1;
		printf("  # libbpf log (last %zu bytes):\n", max);
	} else {
		printf("  # libbpf log:\n");
	}
	while (*s) {
		p = strchr(s, '\n');
		if (!p)
			p = s + strlen(s);
		printf("  #   %.*s\n", (int)(p - s), s);
		s = *p ? p + 1 : p;
	}
}

/* ---- watchdog ------------------------------------------------------------ */

static void *t_watchdog(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&T.wd_lock);
	for (;;) {
		unsigned long gen;
		struct timespec dl;
		int rc = 0;

		while (!T.wd_armed)
			pthread_cond_wait(&T.wd_cond, &T.wd_lock);
		gen = T.wd_gen;
		clock_gettime(CLOCK_REALTIME, &dl);
		dl.tv_sec += T.timeout_s;
		while (T.wd_armed && T.wd_gen == gen && rc != ETIMEDOUT)
			rc = pthread_cond_timedwait(&T.wd_cond, &T.wd_lock, &dl);
		if (T.wd_armed && T.wd_gen == gen) {
			printf("not ok %s: timed out after %d s (the kernel never "
			       "completed something, or a wait did not end)\n",
			       T.cur, T.timeout_s);
			printf("%d passed, %d failed, %d skipped\n",
			       T.passed, T.failed + 1, T.skipped);
			fflush(stdout);
			_exit(1);
		}
	}
	return NULL;
}

static inline void t_watchdog_arm(bool on)
{
	pthread_mutex_lock(&T.wd_lock);
	T.wd_armed = on;
	T.wd_gen++;
	pthread_cond_broadcast(&T.wd_cond);
	pthread_mutex_unlock(&T.wd_lock);
}

/* ---- runner -------------------------------------------------------------- */

static inline void t_usage(const char *prog)
{
	fprintf(stderr, "usage: %s [-v] [-l] [SUBTEST-GLOB...]\n"
		"  -v  verbose (libbpf debug log, per-subtest details)\n"
		"  -l  list subtests\n", prog);
	exit(2);
}

static inline void t_init(int argc, char **argv)
{
	const char *to = getenv("IOURING_BPF_SUBTEST_TIMEOUT");
	pthread_t th;
	int i, j = 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	T.timeout_s = to && atoi(to) > 0 ? atoi(to) : 120;
	if (getenv("V") && atoi(getenv("V")) > 0)
		T.verbose = true;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v"))
			T.verbose = true;
		else if (!strcmp(argv[i], "-l"))
			T.list = true;
		else if (argv[i][0] == '-')
			t_usage(argv[0]);
		else
			argv[j++] = argv[i];
	}
	T.argc = j;
	T.argv = argv;
	libbpf_set_print(t_libbpf_print);
	if (!T.list && pthread_create(&th, NULL, t_watchdog, NULL) == 0)
		pthread_detach(th);
}
#define T_INIT(argc, argv) t_init(argc, argv)

static inline bool t_selected(const char *name)
{
	int i;

	if (T.argc <= 1)
		return true;
	for (i = 1; i < T.argc; i++) {
		if (!fnmatch(T.argv[i], name, 0) || strstr(name, T.argv[i]))
			return true;
	}
	return false;
}

static inline void t_run(const char *name, void (*fn)(void))
{
	double t0;

	if (!t_selected(name))
		return;
	if (T.list) {
		printf("%s\n", name);
		return;
	}
	T.cur = name;
	T.cur_failed = T.cur_skipped = false;
	T.why[0] = T.skip_why[0] = 0;
	t_libbpf_log_reset();
	if (T.verbose)
		printf("# --- %s\n", name);
	t0 = t_now_ms();
	t_watchdog_arm(true);
	fn();
	t_watchdog_arm(false);
	if (T.cur_failed) {
		t_print_log(6000);
		printf("not ok %s: %s\n", name, T.why);
		T.failed++;
	} else if (T.cur_skipped) {
		printf("ok %s # SKIP %s\n", name, T.skip_why);
		T.skipped++;
	} else {
		if (T.verbose)
			printf("  # %.0f ms\n", t_now_ms() - t0);
		printf("ok %s\n", name);
		T.passed++;
	}
	fflush(stdout);
	T.cur = NULL;
}

/* RUN(t_foo) runs subtest "foo" (the t_ prefix is dropped) */
#define RUN(fn) t_run(strncmp(#fn, "t_", 2) ? #fn : #fn + 2, fn)

static inline int t_done(void)
{
	if (T.list)
		return 0;
	printf("%d passed, %d failed, %d skipped\n", T.passed, T.failed,
	       T.skipped);
	if (T.failed)
		return 1;
	if (!T.passed && T.skipped) {
		/* every subtest skipped: the executable skips */
		printf("SKIP: every subtest skipped\n");
		return T_SKIP_RC;
	}
	return 0;
}
#define T_DONE() t_done()

/* ---- skip conditions -------------------------------------------------------- */

#define REQUIRE_ROOT() do {						\
	if (geteuid() != 0)						\
		SKIP("needs root (BPF struct_ops and io_uring setup)");	\
} while (0)

/*
 * true if the running kernel's BTF has `struct name`; *why gets a reason
 * when not (no BTF at all, or no such type).
 */
static inline bool t_have_btf_struct(const char *name, char *why, size_t sz)
{
	struct btf *btf;
	int id;

	btf = btf__load_vmlinux_btf();
	if (!btf) {
		snprintf(why, sz, "cannot load kernel BTF (/sys/kernel/btf/vmlinux): %s",
			 strerror(errno));
		return false;
	}
	id = btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT);
	btf__free(btf);
	if (id < 0) {
		struct utsname_s { char s[65]; } rel = { "" };
		FILE *f = fopen("/proc/sys/kernel/osrelease", "r");

		if (f) {
			if (!fgets(rel.s, sizeof(rel.s), f))
				rel.s[0] = 0;
			rel.s[strcspn(rel.s, "\n")] = 0;
			fclose(f);
		}
		snprintf(why, sz, "kernel %s has no BTF type 'struct %s'",
			 rel.s, name);
		return false;
	}
	return true;
}

/* REQUIRE_BTF_TYPE("uring_bpf_ops", "IORING_OP_BPF"): skip (77) if missing */
#define REQUIRE_BTF_TYPE(name, feature) do {				\
	char __why[256];						\
	if (!t_have_btf_struct(name, __why, sizeof(__why)))		\
		SKIP("%s (%s not supported)", __why, feature);		\
} while (0)

#endif /* TESTS_LIB_CHECK_H */
