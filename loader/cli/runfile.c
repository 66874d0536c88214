// SPDX-License-Identifier: GPL-2.0
/*
 * runfile.c - `iouring-bpf run FILE.bpf.o`: the generic workload of any
 * loop object, ours or written elsewhere. It makes the ring liburing's
 * tests of the merged hook use (SINGLE_ISSUER | DEFER_TASKRUN |
 * NO_SQARRAY | CQSIZE), applies --set, binds the object to the ring (the
 * library fills the ring globals the object declares), loads, attaches and
 * calls io_uring_enter() until the program stops (enter returns >= 0) or
 * the timeout's SIGALRM ends the wait. It reports what enter returned,
 * the CQEs left in the CQ and every global after the run; the exit code
 * is 0 when enter returned >= 0, 1 when it failed or timed out.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "cli.h"
#include "../workloads/ring.h"
#include "../workloads/workload.h"

static volatile sig_atomic_t timed_out;

static void on_alarm(int sig)
{
	timed_out = 1;
}

/* every global of the object's data sections, after the run */
static void globals_after(struct iouring_bpf *h, struct json *j)
{
	static const char *const secs[] = { ".rodata", ".data", ".bss" };
	const struct btf *btf = bpf_object__btf(iouring_bpf_object(h));
	size_t i, size;

	if (j)
		json_obj(j, "globals");
	else
		printf("globals after the run:\n");
	for (i = 0; btf && i < 3; i++) {
		int id = btf__find_by_name_kind(btf, secs[i], BTF_KIND_DATASEC);
		void *data = iouring_bpf_section(h, secs[i], &size);

		if (id < 0 || !data)
			continue;
		print_globals(btf, btf__type_by_id(btf, id), secs[i], data,
			      size, j, 0);
	}
	if (j)
		json_end(j, NULL);
}

/* "sq_entries=64 cq_entries=256 ..." of the ring globals the object has */
static void geometry_line(struct iouring_bpf *h, char *out, size_t len)
{
	static const char *const names[] = {
		"sq_entries", "cq_entries", "cq_head_offset", "cq_tail_offset",
		"cqes_offset", "sq_head_offset", "sq_tail_offset",
		"sq_array_offset", "ring_flags", "iou_sq_entries",
		"iou_cq_entries",
	};
	size_t used = 0, i, sz;
	long long v;

	out[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]) && used < len; i++)
		if (iouring_bpf_var(h, names[i], &sz) &&
		    !iouring_bpf_var_int(h, names[i], &v))
			used += snprintf(out + used, len - used, "%s%s=%lld",
					 used ? " " : "", names[i], v);
	if (!out[0])
		snprintf(out, len, "(none of the names the loader fills)");
}

/* the ring callback of the start, once the kernel can take the program */
static int make_ring(struct iouring_bpf *h, void *ctx, int *fd,
		     struct io_uring_params *p, struct iouring_bpf_error *err)
{
	return rc_ring_make(ctx, IOURING_BPF_KIND_LOOP, fd, p, err);
}

int cmd_run_file(const char *path, const struct prog_args *pa, int json,
		 long long timeout_s)
{
	struct ring ring = { .fd = -1 };
	struct iouring_bpf_start_opts opts = {
		.sz = sizeof(opts), .params = pa->sets, .op_id = -1,
		.ring = make_ring, .ctx = &ring,
	};
	struct io_uring_params p;
	struct iouring_bpf_error err;
	struct iouring_bpf *h;
	struct sigaction sa;
	char geo[512];
	long long t0, elapsed;
	int ret, calls = 0, status;
	unsigned int left;
	struct json j;

	h = iouring_bpf_open(path, &err);
	if (!h)
		return report_error("run", &err);
	if (iouring_bpf_kind(h) != IOURING_BPF_KIND_LOOP) {
		status = cli_fail(EXIT_USAGE, "run", "%s is an IORING_OP_BPF op: `run FILE` drives loop programs; register an op with `iouring-bpf load %s --id N`",
				  path, path);
		goto out;
	}
	if (pa->have_id) {
		status = cli_fail(EXIT_USAGE, "run", "%s is a loop program: --id is for IORING_OP_BPF ops",
				  path);
		goto out;
	}
	if (iouring_bpf_start_opts(h, &opts, &err))
		goto fail;
	p = *iouring_bpf_ring_params(h);
	geometry_line(h, geo, sizeof(geo));

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART: the wait ends */
	sigaction(SIGALRM, &sa, NULL);
	timed_out = 0;
	alarm(timeout_s);
	t0 = now_ns();
	do {
		ret = io_uring_enter_raw(ring.fd, 0, 0,
					 IORING_ENTER_GETEVENTS, NULL, 0);
		calls++;
	} while (ret == -EINTR && !timed_out);
	alarm(0);
	elapsed = (now_ns() - t0) / 1000;
	iouring_bpf_detach_link(h);
	left = ring_cq_ready(&ring);
	status = ret >= 0 && !timed_out ? EXIT_OK : EXIT_FAIL;

	if (json) {
		json_start(&j, stdout);
		json_obj(&j, NULL);
		json_str(&j, "program", path);
		json_str(&j, "kind", "loop");
		json_str(&j, "struct_ops", iouring_bpf_ops_type(h));
		json_str(&j, "binding",
			 iouring_bpf_loop_api_key(iouring_bpf_loop_binding(h)));
		json_bool(&j, "ok", status == EXIT_OK);
		json_obj(&j, "ring");
		json_int(&j, "sq_entries", p.sq_entries);
		json_int(&j, "cq_entries", p.cq_entries);
		json_int(&j, "flags", p.flags);
		json_end(&j, NULL);
		json_int(&j, "enter_ret", ret);
		json_str(&j, "enter_error", ret < 0 ? strerror(-ret) : NULL);
		json_int(&j, "enter_calls", calls);
		json_bool(&j, "timed_out", timed_out);
		json_int(&j, "cqes_left", left);
		json_int(&j, "elapsed_us", elapsed);
		globals_after(h, &j);
		json_end(&j, NULL);
		putchar('\n');
	} else {
		printf("run %s (loop, struct %s, binding %s)\n", path,
		       iouring_bpf_ops_type(h),
		       iouring_bpf_loop_api_desc(iouring_bpf_loop_binding(h)));
		printf("  %-24s %u SQ / %u CQ entries, flags 0x%x (SINGLE_ISSUER|DEFER_TASKRUN|NO_SQARRAY|CQSIZE)\n",
		       "ring", p.sq_entries, p.cq_entries, p.flags);
		printf("  %-24s %s\n", "ring globals", geo);
		printf("  %-24s %d%s%s\n", "enter", ret,
		       ret < 0 ? ": " : " (the program returned STOP)",
		       ret < 0 ? strerror(-ret) : "");
		printf("  %-24s %d\n", "enter_calls", calls);
		printf("  %-24s %u\n", "cqes_left", left);
		printf("  %-24s %lld\n", "elapsed_us", elapsed);
		globals_after(h, NULL);
		if (timed_out)
			printf("%s: no STOP within %lld s: the timeout's SIGALRM ended the wait (--timeout S)\n",
			       path, timeout_s);
		else
			printf("%s: io_uring_enter() %s\n", path,
			       ret >= 0 ? "returned after the program stopped" :
			       "failed");
	}
	goto out;
fail:
	status = report_error("run", &err);
out:
	if (ring.fd >= 0)
		ring_exit(&ring);
	iouring_bpf_close(h);
	return status;
}
