// SPDX-License-Identifier: GPL-2.0
/*
 * load.c - `bench load`: what it costs to put each catalogue program
 * in place and take it out again, as libiouring-bpf does it:
 *
 *   open    iouring_bpf_open(): libbpf opens the embedded object (ELF, BTF)
 *   load    iouring_bpf_load(): CO-RE against the kernel's BTF (libbpf reads
 *           /sys/kernel/btf/vmlinux), the verifier, the struct_ops map
 *   attach  iouring_bpf_attach_link(): struct_ops link; the op id is
 *           registered, or the loop program installed on the ring
 *   detach  iouring_bpf_detach_link(): the link destroyed (unregistered)
 *   close   iouring_bpf_close(): programs and maps released
 *
 * Loop programs attach to one SINGLE_ISSUER | DEFER_TASKRUN | NO_SQARRAY
 * ring, op programs take a free op id from 200 up. Runs interleave the
 * programs: p1 p2 ... p9 p1 p2 ...
 */
#include <errno.h>
#include <string.h>
#include "bench.h"

static const char *const steps[] = { "open", "load", "attach", "detach",
				     "close", "total" };

int bench_load(struct bench_scn *s)
{
	const struct iouring_bpf_prog *prog;
	struct iouring_bpf_error err;
	struct iouring_bpf *h = NULL;
	struct ring r;
	int ret, status = 0, nprogs = 0;

	ret = ring_init(&r, BENCH_SQ, BENCH_CQ, BENCH_LOOP_FLAGS);
	if (ret) {
		bench_fail(s, "io_uring_setup: %s", strerror(-ret));
		return EXIT_FAIL;
	}
	for (prog = iouring_bpf_prog_next(NULL); prog;
	     prog = iouring_bpf_prog_next(prog))
		nprogs++;
	bench_param(s, "programs", "the %d of the catalogue (iouring-bpf list), each loaded and removed %d times",
		    nprogs, s->runs);
	bench_param(s, "ring", "loop programs: %s, 64 SQ / 256 CQ; op programs: op id %d..",
		    bench_ring_flags(BENCH_LOOP_FLAGS), bench_free_op_id());
	bench_param(s, "order", "every program once per run, %d runs (no warm-up)",
		    s->runs);

	for (int run = 0; run < s->runs; run++) {
		for (prog = iouring_bpf_prog_next(NULL); prog;
		     prog = iouring_bpf_prog_next(prog)) {
			long long t[6];

			bench_mark(s, "program %s run %d", prog->name, run);
			t[0] = now_ns();
			h = iouring_bpf_open_prog(prog, &err);
			if (!h)
				goto fail;
			ret = iouring_bpf_kind(h) == IOURING_BPF_KIND_OP ?
			      iouring_bpf_set_op_id(h, bench_free_op_id(), &err) :
			      iouring_bpf_set_ring(h, r.fd, &r.p, &err);
			t[1] = now_ns();
			if (!ret)
				ret = iouring_bpf_load(h, &err);
			t[2] = now_ns();
			if (!ret)
				ret = iouring_bpf_attach_link(h, &err);
			t[3] = now_ns();
			if (ret)
				goto fail;
			iouring_bpf_detach_link(h);
			t[4] = now_ns();
			iouring_bpf_close(h);
			t[5] = now_ns();
			for (int i = 0; i < 5; i++)
				bench_add(s, prog->name, prog->name, steps[i],
					  "ms", -1, (t[i + 1] - t[i]) / 1e6);
			bench_add(s, prog->name, prog->name, steps[5], "ms",
				  -1, (t[5] - t[0]) / 1e6);
		}
	}
out:
	ring_exit(&r);
	if (status)
		return status;
	return s->failed ? EXIT_FAIL : 0;
fail:
	status = report_error("bench", &err);
	iouring_bpf_close(h);
	goto out;
}
