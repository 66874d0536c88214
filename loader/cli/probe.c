// SPDX-License-Identifier: GPL-2.0
/*
 * probe.c - `iouring-bpf probe`: does this kernel have what the programs
 * need, and may we use it? One line per item: ok / MISSING / info, and
 * what to do. Probes by BTF type names and by asking io_uring, never by
 * config symbol names.
 *
 * Exit (no --hook): 0 both features and the privileges are there, 3 a
 * feature is missing, 4 the features are there but we lack privileges.
 * --hook loop|op|filters[,...]: the same three codes for the hooks named
 * only, so that `probe --hook loop && run nop-chain` works on a stock
 * 7.1+ kernel (which has no IORING_OP_BPF).
 */
#include <argp.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include "cli.h"
#include "../workloads/ring.h"

enum group { G_BASE, G_OP, G_LOOP, G_PRIV, G_INFO };

struct item {
	const char	*name;
	enum group	group;
	int		ok;
	char		detail[256];
	const char	*fix;
};

#define MAX_ITEMS	32

struct probe {
	struct item	items[MAX_ITEMS];
	int		n;
	int		btf_err;	/* -errno: no readable kernel BTF */
	int		have[8];	/* of btf_labels[] */
	enum iouring_bpf_loop_api api;
	struct iouring_bpf_filter_kinfo filters;
};

__attribute__((format(printf, 6, 7)))
static struct item *add(struct probe *p, const char *name, enum group g,
			int ok, const char *fix, const char *fmt, ...)
{
	struct item *it = &p->items[p->n++];
	va_list ap;

	it->name = name;
	it->group = g;
	it->ok = ok;
	it->fix = ok ? NULL : fix;
	va_start(ap, fmt);
	vsnprintf(it->detail, sizeof(it->detail), fmt, ap);
	va_end(ap);
	return it;
}

/* the hints name source-tree commands only when we run from the tree */
#define FIX_KERNEL	fix_kernel()
#define FIX_LOOP	fix_loop()

static const char *fix_kernel(void)
{
	return cli_source_tree() ?
	"boot the project's kernel: make kernel; kernel/vm-run -- iouring-bpf probe" :
	"boot a kernel with IORING_OP_BPF (the iouring-bpf project's patched Linux), then check it with: iouring-bpf probe";
}

static const char *fix_loop(void)
{
	return cli_source_tree() ?
	"boot a stock Linux 7.1+ kernel (CONFIG_IO_URING_BPF_OPS) or the project's: make kernel; kernel/vm-run -- iouring-bpf probe" :
	"boot Linux 7.1+ with CONFIG_IO_URING_BPF_OPS=y (or the iouring-bpf project's kernel), then check it with: iouring-bpf probe";
}

/* what probe looks for in the kernel's BTF: "kfunc NAME" or a struct */
static const char *const btf_labels[] = {
	"uring_bpf_ops", "uring_bpf_data", "kfunc uring_bpf_set_result",
	"kfunc io_uring_bpf_req_memcpy", "iou_loop_state", "iou_loop_params",
	"kfunc bpf_io_uring_submit_sqes", "kfunc bpf_io_uring_get_region",
};
#define NR_BTF_LABELS	(sizeof(btf_labels) / sizeof(btf_labels[0]))

static const char *btf_name(const char *label)
{
	return strncmp(label, "kfunc ", 6) ? label : label + 6;
}

/* the library reads the kernel's BTF once for all of them */
static void btf_read(struct probe *p)
{
	const char *names[NR_BTF_LABELS];
	size_t i;

	for (i = 0; i < NR_BTF_LABELS; i++)
		names[i] = btf_name(btf_labels[i]);
	p->btf_err = iouring_bpf_kernel_has_types(names, NR_BTF_LABELS,
						  p->have);
}

static void btf_item(struct probe *p, const char *label, enum group g)
{
	int func = !!strncmp(label, btf_name(label), 6);
	size_t i;
	int have = 0;

	for (i = 0; i < NR_BTF_LABELS; i++)
		if (!strcmp(btf_labels[i], label))
			have = !p->btf_err && p->have[i];
	add(p, label, g, have, g == G_LOOP ? FIX_LOOP : FIX_KERNEL,
	    "%s %s %s", func ? "kfunc" : "struct", btf_name(label),
	    have ? "in kernel BTF" : "not in kernel BTF");
}

static int have_cap(int cap)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data))
		return 0;
	return !!(data[cap / 32].effective & (1U << (cap % 32)));
}

static void probe_rings(struct probe *p)
{
	struct io_uring_params par;
	int fd, ret;

	memset(&par, 0, sizeof(par));
	fd = io_uring_setup_raw(4, &par);
	if (fd < 0) {
		add(p, "io_uring", G_BASE, 0,
		    "check sysctl kernel.io_uring_disabled (0 enables it) and CONFIG_IO_URING",
		    "io_uring_setup failed: %s", strerror(-fd));
		add(p, "IORING_OP_BPF opcode", G_OP, 0, FIX_KERNEL,
		    "cannot ask: no io_uring");
		add(p, "IORING_SETUP_BPF", G_OP, 0, FIX_KERNEL,
		    "cannot ask: no io_uring");
		add(p, "IORING_FEAT_BPF", G_OP, 0, FIX_KERNEL,
		    "cannot ask: no io_uring");
		add(p, "DEFER_TASKRUN rings", G_LOOP, 0, FIX_LOOP,
		    "cannot ask: no io_uring");
		return;
	}
	add(p, "io_uring", G_BASE, 1, NULL, "io_uring_setup works");
	ret = ring_probe_op(fd, IORING_OP_BPF);
	add(p, "IORING_OP_BPF opcode", G_OP, ret == 1, FIX_KERNEL,
	    ret < 0 ? "IORING_REGISTER_PROBE failed: %s" :
	    ret ? "opcode 65 supported (IORING_REGISTER_PROBE)%s" :
	    "opcode 65 not supported (IORING_REGISTER_PROBE)%s",
	    ret < 0 ? strerror(-ret) : "");
	add(p, "IORING_FEAT_BPF", G_OP, !!(par.features & IORING_FEAT_BPF),
	    FIX_KERNEL, "features 0x%x %s IORING_FEAT_BPF (1<<18)",
	    par.features, par.features & IORING_FEAT_BPF ? "include" : "lack");
	close(fd);

	/* bit 20 is IORING_SETUP_SQ_REWIND on mainline: ask only our kernel */
	if (!iouring_bpf_op_setup_flag()) {
		add(p, "IORING_SETUP_BPF", G_OP, 0, FIX_KERNEL,
		    "not asked: no struct uring_bpf_ops, and the flag's bit (1<<20) is IORING_SETUP_SQ_REWIND on Linux 7.0+");
	} else {
		memset(&par, 0, sizeof(par));
		par.flags = IOU_SETUP_BPF_OP;
		fd = io_uring_setup_raw(4, &par);
		add(p, "IORING_SETUP_BPF", G_OP, fd >= 0, FIX_KERNEL,
		    fd >= 0 ? "io_uring_setup accepts IORING_SETUP_BPF (1<<20)" :
		    "io_uring_setup(IORING_SETUP_BPF) failed: %s",
		    fd >= 0 ? "" : strerror(-fd));
		if (fd >= 0)
			close(fd);
	}

	memset(&par, 0, sizeof(par));
	par.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	fd = io_uring_setup_raw(4, &par);
	add(p, "DEFER_TASKRUN rings", G_LOOP, fd >= 0, FIX_LOOP,
	    fd >= 0 ? "SINGLE_ISSUER|DEFER_TASKRUN rings can be made%s" :
	    "io_uring_setup(SINGLE_ISSUER|DEFER_TASKRUN): %s",
	    fd >= 0 ? "" : strerror(-fd));
	if (fd >= 0)
		close(fd);
}

/* io_uring filters (Linux 7.2+): information, not part of the status */
static void probe_filters(struct probe *p)
{
	iouring_bpf_filter_probe(&p->filters);
	add(p, "io_uring filters", G_INFO, p->filters.available, NULL, "%s%s",
	    p->filters.available ? "IORING_REGISTER_BPF_FILTER works; payload bytes: " :
	    p->filters.why, p->filters.available ? p->filters.payloads : "");
}

static void run_probe(struct probe *p)
{
	struct statfs st;
	int admin, bpf, perfmon, bpffs;

	btf_read(p);
	add(p, "kernel BTF", G_BASE, !p->btf_err,
	    "a kernel with CONFIG_DEBUG_INFO_BTF=y (the project's has it)",
	    !p->btf_err ? "/sys/kernel/btf/vmlinux readable" :
	    "/sys/kernel/btf/vmlinux: %s",
	    !p->btf_err ? "" : strerror(-p->btf_err));

	btf_item(p, "uring_bpf_ops", G_OP);
	btf_item(p, "uring_bpf_data", G_OP);
	btf_item(p, "kfunc uring_bpf_set_result", G_OP);
	btf_item(p, "kfunc io_uring_bpf_req_memcpy", G_OP);
	p->api = iouring_bpf_kernel_loop_api();
	add(p, "loop hook API", G_LOOP, p->api != IOURING_BPF_LOOP_NONE,
	    FIX_LOOP, "%s", p->api != IOURING_BPF_LOOP_NONE ?
	    iouring_bpf_loop_api_desc(p->api) :
	    "neither struct io_uring_ops (v3) nor struct io_uring_bpf_ops (Linux 7.1+) in kernel BTF");
	if (p->api != IOURING_BPF_LOOP_NONE)
		btf_item(p, p->api == IOURING_BPF_LOOP_V3 ? "iou_loop_state" :
			 "iou_loop_params", G_LOOP);
	btf_item(p, "kfunc bpf_io_uring_submit_sqes", G_LOOP);
	btf_item(p, "kfunc bpf_io_uring_get_region", G_LOOP);

	probe_rings(p);
	probe_filters(p);

	bpffs = !statfs("/sys/fs/bpf", &st) && st.f_type == BPF_FS_MAGIC;
	add(p, "bpffs", G_INFO, bpffs, NULL, "/sys/fs/bpf %s", bpffs ?
	    "is a BPF filesystem" :
	    "is not mounted as bpf (load mounts it, or: mount -t bpf bpf /sys/fs/bpf)");

	admin = have_cap(CAP_SYS_ADMIN);
	bpf = have_cap(CAP_BPF);
	perfmon = have_cap(CAP_PERFMON);
	add(p, "privileges", G_PRIV, admin || (bpf && perfmon),
	    "run as root, or grant CAP_BPF and CAP_PERFMON",
	    "CAP_SYS_ADMIN %s, CAP_BPF %s, CAP_PERFMON %s",
	    admin ? "yes" : "no", bpf ? "yes" : "no", perfmon ? "yes" : "no");
}

static int group_ok(const struct probe *p, enum group g)
{
	int i;

	for (i = 0; i < p->n; i++)
		if ((p->items[i].group == g || p->items[i].group == G_BASE) &&
		    !p->items[i].ok)
			return 0;
	return 1;
}

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* --hook NAME[,NAME...]: the hooks a script needs */
enum hook_bit { HOOK_LOOP = 1, HOOK_OP = 2, HOOK_FILTERS = 4 };

static const struct {
	const char	*name;
	int		bit;
} hook_names[] = {
	{ "loop", HOOK_LOOP }, { "op", HOOK_OP }, { "filters", HOOK_FILTERS },
};

struct probe_args {
	int	hooks;		/* enum hook_bit; 0: op and loop (no --hook) */
	char	named[64];	/* as given, for the JSON */
};

static int parse_hooks(const char *arg, struct probe_args *a)
{
	char buf[64], *tok, *save;
	size_t i;

	if (snprintf(buf, sizeof(buf), "%s", arg) >= (int)sizeof(buf))
		return -1;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < ARRAY_SIZE(hook_names); i++)
			if (!strcmp(tok, hook_names[i].name))
				break;
		if (i == ARRAY_SIZE(hook_names))
			return -1;
		a->hooks |= hook_names[i].bit;
	}
	if (!a->hooks)
		return -1;
	snprintf(a->named, sizeof(a->named), "%s", arg);
	return 0;
}

static error_t probe_opt(int key, char *arg, struct argp_state *state)
{
	struct probe_args *a = state->input;

	switch (key) {
	case 'H':
		if (parse_hooks(arg, a)) {
			cli_fail(EXIT_USAGE, "probe", "--hook %s: expected loop, op or filters (or a comma list: --hook loop,filters)",
				 cli_arg(arg));
			exit(EXIT_USAGE);
		}
		return 0;
	case ARGP_KEY_ARG:
		cli_fail(EXIT_USAGE, "probe", "probe takes no arguments (for one hook: --hook loop, op or filters)");
		exit(EXIT_USAGE);
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp_option probe_options[] = {
	{ "hook", 'H', "HOOK[,HOOK]", 0,
	  "Exit for these hooks only: loop (the loop hook: v3 or mainline 7.1+), op (IORING_OP_BPF, the project's kernel), filters (io_uring filters, 7.2+): 0 usable, 3 missing, 4 not privileged (filters need no privilege)",
	  0 },
	{ 0 },
};

static const struct argp probe_argp = {
	probe_options, probe_opt, NULL,
	"Check that the running kernel has IORING_OP_BPF (struct uring_bpf_ops) "
	"and the loop hook, and name the loop API it has: v3's struct "
	"io_uring_ops (the project's kernel) or mainline's struct "
	"io_uring_bpf_ops (Linux 7.1; 7.2+ with an opaque struct iou_ctx), "
	"which load, run and the library then use; io_uring filters; and that "
	"we may load BPF.\v"
	"Exit without --hook: 0 all there (IORING_OP_BPF and the loop hook); "
	"3 the kernel lacks a feature (a stock 7.1+ kernel lacks IORING_OP_BPF: "
	"the loop programs run there); 4 not privileged. With --hook: the same "
	"codes for the hooks named only: `probe --hook loop && run nop-chain` "
	"on any kernel the loop programs run on, --hook op for IORING_OP_BPF, "
	"--hook filters for io_uring filters (no privilege needed). --json "
	"always has \"hooks\" with each hook's \"available\" and \"status\".",
	cli_common, NULL, NULL,
};

/* 0, 3 or 4 for one hook */
static int hook_status(int bit, int op, int loop, int priv, int filters)
{
	switch (bit) {
	case HOOK_LOOP:
		return !loop ? EXIT_NOFEATURE : !priv ? EXIT_PERM : EXIT_OK;
	case HOOK_OP:
		return !op ? EXIT_NOFEATURE : !priv ? EXIT_PERM : EXIT_OK;
	default:
		return filters ? EXIT_OK : EXIT_NOFEATURE;
	}
}

/* the status for the hooks asked: a missing one wins over privileges */
static int hooks_status(int hooks, int op, int loop, int priv, int filters)
{
	int worst = EXIT_OK, st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(hook_names); i++) {
		if (!(hooks & hook_names[i].bit))
			continue;
		st = hook_status(hook_names[i].bit, op, loop, priv, filters);
		if (st == EXIT_NOFEATURE || worst == EXIT_OK)
			worst = st == EXIT_OK ? worst : st;
	}
	return worst;
}

int cmd_probe(int argc, char **argv)
{
	struct probe_args a = { 0 };
	int json;
	struct probe p = { 0 };
	struct utsname u;
	struct json j;
	int op, loop, priv, status, i, filters;
	size_t k;

	cli_parse(&probe_argp, argc, argv, 0, &a);
	json = cli_json;
	uname(&u);
	run_probe(&p);
	op = group_ok(&p, G_OP);
	loop = group_ok(&p, G_LOOP);
	priv = group_ok(&p, G_PRIV);
	filters = p.filters.available;
	status = a.hooks ? hooks_status(a.hooks, op, loop, priv, filters) :
		 !op || !loop ? EXIT_NOFEATURE : !priv ? EXIT_PERM : EXIT_OK;

	if (json) {
		json_start(&j, stdout);
		json_obj(&j, NULL);
		json_str(&j, "kernel", u.release);
		json_bool(&j, "op_bpf", op);
		json_bool(&j, "loop_hook", loop);
		json_str(&j, "loop_api", iouring_bpf_loop_api_key(loop ? p.api :
							IOURING_BPF_LOOP_NONE));
		json_bool(&j, "privileged", priv);
		json_int(&j, "status", status);
		if (a.hooks)
			json_str(&j, "hook", a.named);
		json_obj(&j, "hooks");
		for (k = 0; k < ARRAY_SIZE(hook_names); k++) {
			int st = hook_status(hook_names[k].bit, op, loop, priv,
					     filters);

			json_obj(&j, hook_names[k].name);
			json_bool(&j, "available", st != EXIT_NOFEATURE);
			json_int(&j, "status", st);
			json_end(&j, NULL);
		}
		json_end(&j, NULL);
		json_bool(&j, "filters", p.filters.available);
		json_obj(&j, "filter_payloads");
		for (i = 0; i < p.filters.nr_ops; i++)
			if (p.filters.pdu_size[i])
				json_int(&j, p.filters.opname[i],
					 p.filters.pdu_size[i]);
		json_end(&j, NULL);
		json_arr(&j, "items");
		for (i = 0; i < p.n; i++) {
			json_break(&j, "\n  ");
			json_obj(&j, NULL);
			json_str(&j, "name", p.items[i].name);
			json_bool(&j, "ok", p.items[i].ok);
			json_bool(&j, "info", p.items[i].group == G_INFO);
			json_str(&j, "detail", p.items[i].detail);
			json_str(&j, "fix", p.items[i].fix);
			json_end(&j, NULL);
		}
		json_end(&j, "\n");
		json_end(&j, NULL);
		putchar('\n');
		return status;
	}

	printf("kernel %s\n", u.release);
	for (i = 0; i < p.n; i++) {
		struct item *it = &p.items[i];

		printf("%-8s %-32s %s\n", it->group == G_INFO ? "info" :
		       it->ok ? "ok" : "MISSING", it->name, it->detail);
		if (!it->ok && it->fix)
			printf("%-8s %-32s -> %s\n", "", "", it->fix);
	}
	printf("IORING_OP_BPF (uring_bpf_ops): %s\n", op ? "available" :
	       "NOT available");
	if (loop)
		printf("loop hook:                     available: %s\n",
		       iouring_bpf_loop_api_desc(p.api));
	else
		printf("loop hook:                     NOT available\n");
	printf("io_uring filters:              %s\n", p.filters.available ?
	       "available (iouring-bpf filter, sandbox)" : "NOT available");
	if (a.hooks) {
		for (k = 0; k < ARRAY_SIZE(hook_names); k++)
			if (a.hooks & hook_names[k].bit)
				printf("--hook %-8s                %s\n",
				       hook_names[k].name,
				       hook_status(hook_names[k].bit, op, loop,
						   priv, filters) ==
				       EXIT_NOFEATURE ? "NOT available" :
				       hook_status(hook_names[k].bit, op, loop,
						   priv, filters) == EXIT_PERM ?
				       "available, but not privileged" :
				       "available");
		printf("exit %d for --hook %s\n", status, a.named);
		return status;
	}
	if (status == EXIT_NOFEATURE && loop)
		printf("the loop programs run on this kernel; IORING_OP_BPF needs the project's kernel (%s)\n",
		       cli_source_tree() ? "make kernel; kernel/vm-run -- iouring-bpf probe" :
		       "its patched Linux");
	else if (status == EXIT_NOFEATURE)
		printf("this kernel lacks the io_uring BPF features: boot the project's kernel (%s), or a stock 7.1+ kernel for the loop programs\n",
		       cli_source_tree() ? "make kernel; kernel/vm-run -- iouring-bpf probe" :
		       "its patched Linux");
	else if (status == EXIT_PERM)
		printf("the kernel has the features, but this process may not load BPF: run as root, or with CAP_BPF and CAP_PERFMON\n");
	return status;
}
