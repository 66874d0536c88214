// SPDX-License-Identifier: GPL-2.0
/*
 * runring.c - the ring `run` makes: --ring-flags, --sq-entries and
 * --cq-entries checked against the kernel, and the ring made from them
 * (raw io_uring_setup(): the flags are exactly the ones chosen, where the
 * library's iouring_bpf_ring_setup() adds the ones it needs).
 */
#include <errno.h>
#include <string.h>
#include "cli.h"
#include "../workloads/ring.h"

/*
 * SQ_REWIND came in Linux 7.0, the mainline loop hook in 7.1: a kernel
 * with the hook has the flag. Bit 20 is IORING_SETUP_BPF on the
 * project's 6.12 kernel (struct uring_bpf_ops in its BTF): never ask for
 * it there.
 */
int run_kernel_has_sq_rewind(void)
{
	enum iouring_bpf_loop_api api = iouring_bpf_kernel_loop_api();

	if (api != IOURING_BPF_LOOP_71 && api != IOURING_BPF_LOOP_72)
		return 0;
	return iouring_bpf_kernel_has_type("uring_bpf_ops") != 1;
}

int run_ring_resolve(const char *cmd, const struct ring_opts *ro,
		     struct ring_choice *rc)
{
	char bad[128];
	unsigned int flags;
	int ret;

	if (ro->flags) {
		ret = ring_flags_parse(ro->flags, rc->flags, &flags, bad,
				       sizeof(bad));
		if (ret == -2)
			return cli_fail(EXIT_USAGE, cmd, "--ring-flags '%s' mixes NAME with +NAME/-NAME: give the whole set (NAME,NAME,...) or changes to the default (+NAME,-NAME,...)",
					cli_arg(bad));
		if (ret && !bad[0])
			return cli_fail(EXIT_USAGE, cmd, "--ring-flags '%s': an empty name; the names: %s",
					cli_arg(ro->flags), ring_flag_list());
		if (ret)
			return cli_fail(EXIT_USAGE, cmd, "--ring-flags: no ring flag '%s'; the names: %s",
					cli_arg(bad), ring_flag_list());
		rc->flags = flags;
		rc->explicit_flags = 1;
	}
	if (ro->sq)
		rc->sq = ro->sq;
	if (ro->cq) {
		rc->cq = ro->cq;
		rc->flags |= IORING_SETUP_CQSIZE;
	} else if (!(rc->flags & IORING_SETUP_CQSIZE)) {
		rc->cq = 0;		/* the kernel's: twice the SQ */
	}
	if ((rc->flags & IORING_SETUP_SQ_REWIND) &&
	    !(rc->flags & IORING_SETUP_NO_SQARRAY))
		return cli_fail(EXIT_USAGE, cmd, "--ring-flags: sq-rewind needs no-sqarray (the kernel refuses it with an SQ array): add no-sqarray");
	if (rc->cq && rc->cq < rc->sq)
		return cli_fail(EXIT_USAGE, cmd, "--cq-entries %u is smaller than --sq-entries %u: the kernel wants at least as many CQ entries",
				rc->cq, rc->sq);
	if ((rc->flags & IORING_SETUP_SQ_REWIND) && !run_kernel_has_sq_rewind())
		return cli_fail(EXIT_NOFEATURE, cmd, "--ring-flags sq-rewind: this kernel has no IORING_SETUP_SQ_REWIND (Linux 7.0+, with the mainline loop hook; on the project's 6.12 kernel bit 20 is IORING_SETUP_BPF): drop sq-rewind, or run on Linux 7.1+");
	return EXIT_OK;
}

int run_ring_make(const struct ring_choice *rc, struct ring *r, int *fd,
		  struct io_uring_params *p, struct iouring_bpf_error *err)
{
	char names[256];
	int ret;

	p->flags = rc->flags;
	p->cq_entries = rc->cq;
	*fd = io_uring_setup_raw(rc->sq, p);
	if (*fd < 0) {
		ret = *fd;
		ring_flags_str(rc->flags, names, sizeof(names));
		return iouring_bpf_errorf(err, ret == -EPERM ? EXIT_PERM :
					  ret == -EINVAL ? EXIT_USAGE : EXIT_FAIL,
					  -ret, "the kernel refused the ring (%s; %u SQ, %u CQ entries): %s; %s",
					  names, rc->sq, rc->cq, strerror(-ret),
					  ret == -EINVAL ? "a flag this kernel lacks, a combination it refuses, or a size out of range: see --help for the names, or drop --ring-flags for the default" :
					  "see io_uring_setup(2)");
	}
	ret = ring_init_fd(r, *fd, p);
	if (ret)
		return iouring_bpf_errorf(err, EXIT_FAIL, -ret,
					  "cannot map the ring: %s",
					  strerror(-ret));
	return 0;
}
