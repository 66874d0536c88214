// SPDX-License-Identifier: GPL-2.0
/*
 * lib_api - libiouring-bpf 2.0's calls with bad arguments, as an
 * application built with pkg-config sees them (tests/host/test_lib_api.sh
 * builds it against a staged install). Needs no privilege and no io_uring
 * BPF kernel: every check here is made before the kernel is asked.
 *
 * - every public call with NULL and out-of-range arguments: no crash,
 *   -EINVAL (NULL and errno EINVAL for the calls returning a pointer), and
 *   a message through the print callback;
 * - options structs: zero-initialised ones (sz 0, all fields 0) are the
 *   defaults; sz smaller than sz itself, or a larger sz with a non-zero
 *   unknown tail, is refused with -EINVAL and a message saying so, a zero
 *   tail is accepted;
 * - calls out of order fail with -EINVAL and name the missing call;
 * - the messages name the problem, never a command or flag of the CLI
 *   (`iouring-bpf list`, --set, ...: the CLI adds those itself);
 * - iouring_bpf_broker_attach() (2.1, <iouring-bpf/broker.h>) the same,
 *   and with no daemon at its socket: -ENOENT, saying how to start one;
 * - the version agrees with the header, the symbol nodes are
 *   IOURING_BPF_2.0 and 2.1 (checked by the script with nm).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <iouring-bpf/iouring-bpf.h>
#include <iouring-bpf/broker.h>

static char last[4096], cli_msg[4096];
static int nmsg, nlibbpf, ncli;
static int fails, checks;

static int capture(enum iouring_bpf_print_level level, const char *fmt,
		   va_list ap)
{
	if (level == IOURING_BPF_DEBUG) {
		nlibbpf++;
		return 0;
	}
	vsnprintf(last, sizeof(last), fmt, ap);
	nmsg++;
	if (strstr(last, "`iouring-bpf") || strstr(last, "iouring-bpf -") ||
	    strstr(last, "--set") || strstr(last, "--ring") ||
	    strstr(last, "--id")) {
		ncli++;
		snprintf(cli_msg, sizeof(cli_msg), "%s", last);
	}
	return 0;
}

static void check(int ok, const char *fmt, ...)
{
	va_list ap;

	checks++;
	printf("%s: ", ok ? "ok" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (!ok) {
		fails++;
		printf(" (last message: %s)", last[0] ? last : "none");
	}
	printf("\n");
}

/* ret is want, and a message came (containing pat, if given) */
static void expect(int ret, int want, const char *pat, const char *what)
{
	int said = nmsg > 0 && (!pat || strstr(last, pat));

	check(ret == want && said, "%s: %d (%s), want %d%s%s%s", what, ret,
	      ret < 0 ? strerror(-ret) : "-", want,
	      pat ? ", saying \"" : "", pat ? pat : "", pat ? "\"" : "");
	nmsg = 0;
	last[0] = '\0';
}

static void expect_ptr(const void *p, int want_errno, const char *pat,
		       const char *what)
{
	expect(p ? 0 : -errno, -want_errno, pat, what);
}

/* an opts struct with a tail this library does not know */
struct big_ring_opts {
	struct iouring_bpf_ring_opts o;
	long long future;
};

struct big_attach_opts {
	struct iouring_bpf_attach_opts o;
	long long future;
};

struct big_filter_opts {
	struct iouring_bpf_filter_opts o;
	long long future;
};

struct big_broker_opts {
	struct iouring_bpf_broker_opts o;
	long long future;
};

int main(void)
{
	struct iouring_bpf_ring_opts zero_ring = { 0 };
	struct iouring_bpf_attach_opts zero_attach = { 0 };
	struct iouring_bpf_filter_opts zero_filter = { 0 };
	struct iouring_bpf_kernel k = { 0 };
	struct iouring_bpf_obj_info info = { 0 };
	struct big_ring_opts big_ring = { { sizeof(big_ring) }, 0 };
	struct big_attach_opts big_attach = { { sizeof(big_attach) }, 0 };
	struct big_filter_opts big_filter = { { sizeof(big_filter) }, 0 };
	struct bpf_object_open_opts bad_open = { .sz = 1 };
	struct iou_exit_info ei;
	struct bpf_object *loop, *op;
	iouring_bpf_print_fn_t prev;
	char want[32];
	const char *name;
	long long v;
	int devnull, n;

	prev = iouring_bpf_set_print(capture);
	check(prev != NULL, "iouring_bpf_set_print: the previous callback is the default");
	snprintf(want, sizeof(want), "%d.%d.%d", IOURING_BPF_VERSION_MAJOR,
		 IOURING_BPF_VERSION_MINOR, IOURING_BPF_VERSION_PATCH);
	check(!strcmp(iouring_bpf_version(), want),
	      "iouring_bpf_version() %s is the header's %s",
	      iouring_bpf_version(), want);

	/* kernel_probe */
	expect(iouring_bpf_kernel_probe(NULL), -EINVAL, "NULL",
	       "kernel_probe(NULL)");
	k.sz = 3;
	expect(iouring_bpf_kernel_probe(&k), -EINVAL, "sz",
	       "kernel_probe(sz 3)");

	/* ring_setup: out of range */
	expect(iouring_bpf_ring_setup(7, 8, NULL), -EINVAL, "kind",
	       "ring_setup(kind 7)");
	expect(iouring_bpf_ring_setup(-1, 8, NULL), -EINVAL, "kind",
	       "ring_setup(kind -1)");
	expect(iouring_bpf_ring_setup(IOURING_BPF_KIND_LOOP, 0, NULL), -EINVAL,
	       "entries", "ring_setup(0 entries)");
	expect(iouring_bpf_ring_setup(IOURING_BPF_KIND_LOOP, 1U << 20, NULL),
	       -EINVAL, "entries", "ring_setup(1M entries)");

	/* the built-ins */
	for (n = 0, name = iouring_bpf_builtin_next(NULL); name;
	     name = iouring_bpf_builtin_next(name))
		n++;
	check(n >= 2, "iouring_bpf_builtin_next() walks %d built-in programs", n);
	check(!iouring_bpf_builtin_next("no-such-program"),
	      "builtin_next(an unknown name) is NULL");
	expect_ptr(iouring_bpf_builtin_open(NULL, NULL), EINVAL, "(null)",
		   "builtin_open(NULL)");
	expect_ptr(iouring_bpf_builtin_open("no-such-program", NULL), ENOENT,
		   "no-such-program", "builtin_open(unknown)");
	expect_ptr(iouring_bpf_builtin_open("nop-chain", &bad_open), EINVAL,
		   "sz", "builtin_open(nop-chain, opts sz 1)");
	loop = iouring_bpf_builtin_open("nop-chain", NULL);
	op = iouring_bpf_builtin_open("nop", NULL);
	check(loop && op, "builtin_open(nop-chain), builtin_open(nop)");
	if (!loop || !op)
		return 1;

	/* obj_info */
	expect(iouring_bpf_obj_info(NULL, &info), -EINVAL, "NULL",
	       "obj_info(NULL, info)");
	expect(iouring_bpf_obj_info(loop, NULL), -EINVAL, "NULL",
	       "obj_info(obj, NULL)");
	info.sz = 2;
	expect(iouring_bpf_obj_info(loop, &info), -EINVAL, "sz",
	       "obj_info(sz 2)");
	memset(&info, 0, sizeof(info));		/* sz 0: 2.0's layout */
	check(!iouring_bpf_obj_info(loop, &info) &&
	      info.kind == IOURING_BPF_KIND_LOOP && !info.loaded && !info.bound,
	      "obj_info(nop-chain, zeroed info): a loop program, not loaded, not bound");
	memset(&info, 0, sizeof(info));
	check(!iouring_bpf_obj_info(op, &info) &&
	      info.kind == IOURING_BPF_KIND_OP && info.op_id >= 0,
	      "obj_info(nop): an op program, op id %d", info.op_id);
	nmsg = 0;

	/* globals */
	expect(iouring_bpf_obj_get_global(NULL, "nr", &v), -EINVAL, "NULL",
	       "get_global(NULL obj)");
	expect(iouring_bpf_obj_get_global(loop, NULL, &v), -EINVAL, "NULL",
	       "get_global(NULL name)");
	expect(iouring_bpf_obj_get_global(loop, "nr", NULL), -EINVAL, "NULL",
	       "get_global(NULL value)");
	expect(iouring_bpf_obj_get_global(loop, "no_such_global", &v), -ENOENT,
	       "no_such_global", "get_global(unknown)");
	expect(iouring_bpf_obj_set_global(NULL, "nr", 1), -EINVAL, "NULL",
	       "set_global(NULL obj)");
	expect(iouring_bpf_obj_set_global(loop, NULL, 1), -EINVAL, "NULL",
	       "set_global(NULL name)");
	expect(iouring_bpf_obj_set_global(loop, "no_such_global", 1), -ENOENT,
	       "no_such_global", "set_global(unknown)");
	expect(iouring_bpf_obj_set_global(loop, "depth", 1LL << 40), -ERANGE,
	       "depth", "set_global(depth out of its range)");
	v = -1;
	n = iouring_bpf_obj_set_global(loop, "nr", 77);
	n = n ? n : iouring_bpf_obj_get_global(loop, "nr", &v);
	check(!n && v == 77, "set_global(nr 77), get_global(nr): %lld", v);

	/* op id */
	expect(iouring_bpf_obj_set_op_id(NULL, 1), -EINVAL, "NULL",
	       "set_op_id(NULL)");
	expect(iouring_bpf_obj_set_op_id(op, 256), -EINVAL, "0..255",
	       "set_op_id(256)");
	expect(iouring_bpf_obj_set_op_id(op, -1), -EINVAL, "0..255",
	       "set_op_id(-1)");
	expect(iouring_bpf_obj_set_op_id(loop, 3), -EINVAL, "loop program",
	       "set_op_id(a loop program)");

	/* bind_ring: arguments, options */
	devnull = open("/dev/null", O_RDONLY);
	expect(iouring_bpf_obj_bind_ring(NULL, devnull, NULL), -EINVAL, "NULL",
	       "bind_ring(NULL obj)");
	expect(iouring_bpf_obj_bind_ring(loop, -1, NULL), -EINVAL, "-1",
	       "bind_ring(fd -1)");
	expect(iouring_bpf_obj_bind_ring(loop, 0, NULL), -EINVAL, "fd 0",
	       "bind_ring(fd 0)");
	expect(iouring_bpf_obj_bind_ring(op, devnull, NULL), -EINVAL,
	       "op program", "bind_ring(an op program)");
	zero_ring.sz = 1;
	expect(iouring_bpf_obj_bind_ring(loop, devnull, &zero_ring), -EINVAL,
	       "sz 1", "bind_ring(opts sz 1)");
	zero_ring.sz = 0;
	big_ring.future = 1;
	expect(iouring_bpf_obj_bind_ring(loop, devnull, &big_ring.o), -EINVAL,
	       "is not zero", "bind_ring(opts with a non-zero unknown tail)");
	big_ring.future = 0;

	/* out of order: load before bind, attach before load */
	expect(iouring_bpf_obj_load(NULL), -EINVAL, "NULL", "obj_load(NULL)");
	expect(iouring_bpf_obj_load(loop), -EINVAL,
	       "iouring_bpf_obj_bind_ring() was not called",
	       "obj_load(nop-chain) before bind_ring");
	expect_ptr(iouring_bpf_obj_attach(NULL, NULL), EINVAL, "NULL",
		   "obj_attach(NULL)");
	expect_ptr(iouring_bpf_obj_attach(loop, NULL), EINVAL,
		   "iouring_bpf_obj_load()", "obj_attach(nop-chain) before load");
	expect_ptr(iouring_bpf_obj_attach(op, &zero_attach), EINVAL,
		   "iouring_bpf_obj_load()",
		   "obj_attach(nop, zeroed opts) before load: the opts are fine");
	expect_ptr(iouring_bpf_obj_attach(op, &big_attach.o), EINVAL,
		   "iouring_bpf_obj_load()",
		   "obj_attach(nop, a zero unknown tail) before load: the opts are fine");
	big_attach.future = -1;
	expect_ptr(iouring_bpf_obj_attach(op, &big_attach.o), EINVAL,
		   "is not zero", "obj_attach(a non-zero unknown tail)");

	/* exit info */
	expect(iouring_bpf_obj_exit_info(NULL, &ei), -EINVAL, "NULL",
	       "exit_info(NULL obj)");
	expect(iouring_bpf_obj_exit_info(loop, NULL), -EINVAL, "NULL",
	       "exit_info(NULL out)");
	check(iouring_bpf_obj_exit_info(loop, &ei) == IOU_EXIT_KIND_NONE,
	      "exit_info(nop-chain) before it ran: IOU_EXIT_KIND_NONE");

	/* filters */
	expect(iouring_bpf_filter_install(-5, "no-network", NULL), -EINVAL,
	       "-5", "filter_install(fd -5)");
	expect(iouring_bpf_filter_install(devnull, NULL, NULL), -EINVAL,
	       "NULL", "filter_install(NULL policy)");
	zero_filter.sz = 4;
	expect(iouring_bpf_filter_install(devnull, "no-network", &zero_filter),
	       -EINVAL, "sz 4", "filter_install(opts sz 4)");
	big_filter.future = 9;
	expect(iouring_bpf_filter_install(devnull, "no-network", &big_filter.o),
	       -EINVAL, "is not zero",
	       "filter_install(a non-zero unknown tail)");
	zero_filter.sz = 0;
	zero_filter.text = "this is not a policy";
	check(iouring_bpf_filter_install(devnull, "bad", &zero_filter) < 0 &&
	      nmsg, "filter_install(a bad policy text): refused, saying: %s",
	      last);
	nmsg = 0;
	zero_filter.text = NULL;
	expect(iouring_bpf_filter_install(devnull, "/nonexistent/policy", NULL),
	       -ENOENT, "cannot open policy",
	       "filter_install(a policy file that is not there)");

	/* the broker call (2.1): checked before the daemon is asked */
	{
		struct big_broker_opts big = { .o.sz = sizeof(big) };
		struct iouring_bpf_broker_opts zero = { 0 };
		char path[200];

		expect(iouring_bpf_broker_attach(-1, "nop-chain", NULL),
		       -EINVAL, "not an fd", "broker_attach(fd -1)");
		expect(iouring_bpf_broker_attach(devnull, NULL, NULL), -EINVAL,
		       "no program", "broker_attach(NULL program)");
		zero.sz = 4;
		expect(iouring_bpf_broker_attach(devnull, "nop-chain", &zero),
		       -EINVAL, "sz 4", "broker_attach(opts sz 4)");
		big.future = 9;
		expect(iouring_bpf_broker_attach(devnull, "nop-chain", &big.o),
		       -EINVAL, "is not zero",
		       "broker_attach(a non-zero unknown tail)");
		memset(path, 'x', sizeof(path) - 1);
		path[sizeof(path) - 1] = 0;
		zero.sz = 0;
		zero.socket = path;
		expect(iouring_bpf_broker_attach(devnull, "nop-chain", &zero),
		       -ENAMETOOLONG, "too long",
		       "broker_attach(a socket path too long)");
		zero.socket = "/nonexistent/iouring-bpfd.sock";
		expect(iouring_bpf_broker_attach(devnull, "nop-chain", &zero),
		       -ENOENT, "is iouring-bpfd running",
		       "broker_attach(no daemon at the socket)");
		zero.obj = op;
		expect(iouring_bpf_broker_attach(devnull, NULL, &zero),
		       -EINVAL, "loop programs only",
		       "broker_attach(an op program's object)");
	}

	/* messages name the problem; the CLI names its commands and flags */
	check(!ncli, "no message names a command or flag of the CLI: %d (%s)",
	      ncli, ncli ? cli_msg : "none");

	/* libbpf's messages came to the callback, at DEBUG, not to stderr */
	check(nlibbpf > 0,
	      "libbpf's own messages came to the callback at DEBUG: %d",
	      nlibbpf);
	close(devnull);
	bpf_object__close(loop);
	bpf_object__close(op);
	printf("%d checks, %d failed\n", checks, fails);
	return fails ? 1 : 0;
}
