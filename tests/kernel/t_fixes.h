/* SPDX-License-Identifier: GPL-2.0 */
/*
 * t_fixes.h - which of the kernel fixes the running kernel has,
 * found out without running anything that would oops on a kernel that
 * lacks them (an oops under uring_lock hangs the VM).
 *
 *   FIX_LOOP_REQUIRED         a loop ops map without .loop is refused
 *                             (kernel patch 0030: -EINVAL when the map is
 *                             loaded). Probed by the row itself: loading
 *                             and registering such a map is harmless, only
 *                             waiting on the ring afterwards oopses, so if
 *                             it registers, the row unregisters at once and
 *                             fails without entering the ring.
 *   FIX_MEMCPY_NON_SLEEPABLE  io_uring_bpf_req_memcpy() is safe in
 *                             non-sleepable programs (patch 0033). Probed
 *                             by loading two programs: a non-sleepable one
 *                             calling the kfunc must load (kernels built
 *                             before the series was folded, 2026-12-04,
 *                             kernel/README.md, refused it from old 0026
 *                             to old 0035, an earlier form of the fix), and
 *                             a sleepable one calling it inside
 *                             bpf_rcu_read_lock() must be refused (0033
 *                             makes the kfunc sleepable for sleepable
 *                             programs; as posted it carries no flag).
 *   FIX_PREP_OPTIONAL         an op without prep_fn runs its requests (patch
 *                             0036; before it they failed -EOPNOTSUPP).
 *                             Probed by the rows themselves: running them
 *                             is harmless either way, they just fail.
 *   FIX_MEMCPY_NULL_DESC      the memcpy kfunc refuses NULL descriptors with
 *                             -EINVAL (patch 0031). Nothing can be run to
 *                             find out: without the fix it oopses. So the
 *                             probe is FIX_MEMCPY_NON_SLEEPABLE's, which
 *                             comes after it in the series and in the old
 *                             one (old 0033 before old 0036): a kernel of
 *                             any prefix of either that passes the probe
 *                             has 0031; one that ends before it fails the
 *                             probe, and its rows are skipped.
 */
#ifndef TESTS_KERNEL_T_FIXES_H
#define TESTS_KERNEL_T_FIXES_H

#include "hostile_op.skel.h"

enum t_fix {
	FIX_NONE,
	FIX_LOOP_REQUIRED,
	FIX_MEMCPY_NULL_DESC,
	FIX_MEMCPY_NON_SLEEPABLE,
	FIX_PREP_OPTIONAL,
	FIX__NR,
};

static bool t_fix_have[FIX__NR];

static inline const char *t_fix_name(enum t_fix f)
{
	switch (f) {
	case FIX_LOOP_REQUIRED:
		return "0030 (loop ops without .loop refused)";
	case FIX_MEMCPY_NULL_DESC:
		return "0031 (memcpy: NULL descriptors give -EINVAL)";
	case FIX_MEMCPY_NON_SLEEPABLE:
		return "0033 (memcpy from non-sleepable programs)";
	case FIX_PREP_OPTIONAL:
		return "0036 (ops without prep_fn run)";
	default:
		return "none";
	}
}

/*
 * Does hostile_op's struct_ops map @name (and its programs) load? If not
 * and @why is given, was it refused with a verifier log containing @why?
 */
static inline bool t_probe_loads(const char *name, const char *why,
				 bool *refused_why)
{
	struct hostile_op *s = hostile_op__open();
	struct bpf_map *m;
	bool ok;

	if (!s)
		return false;
	bpf_object__for_each_map(m, s->obj)
		if ((bpf_map__type(m) == BPF_MAP_TYPE_STRUCT_OPS))
			bpf_map__set_autocreate(m, !strcmp(bpf_map__name(m),
							   name));
	ok = hostile_op__load(s) == 0;
	if (why)
		*refused_why = !ok && strstr(t_libbpf_log(), why);
	hostile_op__destroy(s);
	t_libbpf_log_reset();
	return ok;
}

/* refused for another reason than 0033's: not a kernel we know; no fix */
static inline bool t_probe_memcpy_non_sleepable(void)
{
	bool in_rcu_refused = false;

	if (!t_probe_loads("op_mc_nonsleepable", NULL, NULL))
		return false;
	t_probe_loads("op_mc_sleepable_in_rcu",
		      "is sleepable within rcu_read_lock region",
		      &in_rcu_refused);
	return in_rcu_refused;
}

static inline void t_fixes_probe(void)
{
	t_fix_have[FIX_NONE] = true;
	/* probed by their rows (see above) */
	t_fix_have[FIX_LOOP_REQUIRED] = true;
	t_fix_have[FIX_PREP_OPTIONAL] = true;
	t_fix_have[FIX_MEMCPY_NON_SLEEPABLE] = t_probe_memcpy_non_sleepable();
	/* the full series has both (see above) */
	t_fix_have[FIX_MEMCPY_NULL_DESC] = t_fix_have[FIX_MEMCPY_NON_SLEEPABLE];
	printf("# kernel fixes: %s: %s; %s: %s\n",
	       t_fix_name(FIX_MEMCPY_NON_SLEEPABLE),
	       t_fix_have[FIX_MEMCPY_NON_SLEEPABLE] ? "yes" : "no",
	       t_fix_name(FIX_MEMCPY_NULL_DESC),
	       t_fix_have[FIX_MEMCPY_NULL_DESC] ? "yes" : "no");
}

static inline bool t_fix_present(enum t_fix f)
{
	return f < FIX__NR && t_fix_have[f];
}

#endif
