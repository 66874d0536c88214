// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * filter_kernel.c - give compiled filters to the kernel, and ask it what
 * it has: IORING_REGISTER_BPF_FILTER (37, Linux 7.2+ with
 * CONFIG_IO_URING_BPF) on a ring, or with fd -1 on the calling task. The
 * uapi structs are declared here: the build host's headers may predate
 * them (their layout is checked against the kernel's BTF by the tests).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/btf.h>
#include "filter_internal.h"
#include "internal.h"

#define IOUF_REGISTER_BPF_FILTER	37
#define IOUF_CMD_FILTER			1
#define IOUF_DENY_REST			1
#define IOUF_SZ_STRICT			2

struct iouf_uapi_filter {	/* struct io_uring_bpf_filter */
	__u32	opcode;
	__u32	flags;
	__u32	filter_len;
	__u8	pdu_size;
	__u8	resv[3];
	__u64	filter_ptr;
	__u64	resv2[5];
};

struct iouf_uapi_bpf {		/* struct io_uring_bpf */
	__u16	cmd_type;
	__u16	cmd_flags;
	__u32	resv;
	struct iouf_uapi_filter filter;
};

_Static_assert(sizeof(struct iouf_uapi_bpf) == 72, "struct io_uring_bpf");

static int reg(int fd, unsigned int op, unsigned int flags,
	       unsigned int pdu_size, const struct sock_filter *insns,
	       unsigned int len, unsigned int *kernel_pdu)
{
	struct iouf_uapi_bpf b;
	long ret;

	memset(&b, 0, sizeof(b));
	b.cmd_type = IOUF_CMD_FILTER;
	b.filter.opcode = op;
	b.filter.flags = flags;
	b.filter.filter_len = len;
	b.filter.pdu_size = pdu_size;
	b.filter.filter_ptr = (__u64)(uintptr_t)insns;
	ret = syscall(__NR_io_uring_register, fd, IOUF_REGISTER_BPF_FILTER,
		      &b, 1);
	if (kernel_pdu)
		*kernel_pdu = b.filter.pdu_size;
	return ret < 0 ? -errno : 0;
}

static int scratch_ring(void)
{
	struct io_uring_params p;
	long fd;

	memset(&p, 0, sizeof(p));
	fd = syscall(__NR_io_uring_setup, 2, &p);
	return fd < 0 ? -errno : (int)fd;
}

/* 1 the kernel's BTF has filters, 0 it has not, -1 no BTF to ask */
static int btf_says(void)
{
	int r = iou_kernel_has(IOU_KTYPE_FILTER);

	return r < 0 ? -1 : r;
}

static const char NOFEAT[] =
	"this kernel has no io_uring filters (IORING_REGISTER_BPF_FILTER, Linux 7.2+ with CONFIG_IO_URING_BPF=y): boot such a kernel (Debian's 7.2 has it)";

int iouring_bpf_filter_probe(struct iouring_bpf_filter_kinfo *ki)
{
	static const struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, 1);
	struct iouf_layout lay;
	unsigned int kp;
	int fd, op, ret;

	memset(ki, 0, sizeof(*ki));
	if (btf_says() == 0) {
		snprintf(ki->why, sizeof(ki->why), "%s", NOFEAT);
		return 0;
	}
	fd = scratch_ring();
	if (fd < 0) {
		snprintf(ki->why, sizeof(ki->why), "io_uring_setup: %s",
			 strerror(-fd));
		return fd;
	}
	ret = reg(fd, 0, 0, 0, &allow, 1, NULL);
	if (ret) {
		snprintf(ki->why, sizeof(ki->why), "%s (registering on a ring: %s)",
			 NOFEAT, strerror(-ret));
		close(fd);
		return 0;
	}
	ki->available = 1;
	iouf_layout_load(&lay, NULL, NULL);
	ki->nr_ops = lay.nr_ops;
	for (op = 0; op < lay.nr_ops; op++) {
		size_t n = strlen(ki->payloads);

		memcpy(ki->opname[op], lay.opname[op], sizeof(ki->opname[op]));
		kp = 0;
		ret = reg(fd, op, IOUF_SZ_STRICT, 0, &allow, 1, &kp);
		ki->pdu_size[op] = ret == -EMSGSIZE ? kp : 0;
		if (ki->pdu_size[op])
			snprintf(ki->payloads + n, sizeof(ki->payloads) - n,
				 "%s%s %u", n ? ", " : "", lay.opname[op],
				 ki->pdu_size[op]);
	}
	close(fd);
	return 0;
}

static int reg_all(const struct iouring_bpf_filter *f, int fd, int *done,
		   struct iouring_bpf_error *err, int scratch)
{
	int i, ret;
	unsigned int kp;

	for (i = 0; i < f->nprogs; i++) {
		const struct iouf_prog *p = &f->progs[i];
		const char *on = f->lay.opname[p->opcode];

		kp = 0;
		ret = reg(fd, p->opcode, p->flags, p->pdu_size, p->insns, p->len,
			  &kp);
		if (!ret) {
			(*done)++;
			continue;
		}
		if (ret == -EMSGSIZE)
			return iou_fail(err, IOURING_BPF_REJECTED, -ret,
					"the kernel gives %u bytes of payload for %s, the policy reads %u (layout: %s): it would read fields the kernel does not fill; compile against this kernel's BTF or drop those tests",
					kp, on, p->pdu_size, f->lay.source);
		if ((ret == -EPERM || ret == -EACCES) && fd == -1)
			return iou_fail_see(err, IOURING_BPF_SEE_SANDBOX,
					IOURING_BPF_PERM, -ret,
					"the kernel refused task filters (%s): set no_new_privs first (prctl(PR_SET_NO_NEW_PRIVS, 1)) or have CAP_SYS_ADMIN",
					strerror(-ret));
		if ((ret == -EBADF || ret == -EOPNOTSUPP || ret == -ENXIO) && !scratch)
			return iou_fail(err, IOURING_BPF_USAGE, -ret,
					"fd %d is not an io_uring (%s)", fd,
					strerror(-ret));
		if (ret == -EEXIST)
			return iou_fail(err, IOURING_BPF_FAIL, -ret,
					"the ring is SINGLE_ISSUER and belongs to another task (EEXIST): register from the task that submits");
		if (ret == -EINVAL && scratch && !i && btf_says() != 1)
			return iou_fail(err, IOURING_BPF_NOFEATURE, -ret, "%s",
					NOFEAT);
		return iou_fail(err, IOURING_BPF_REJECTED, -ret,
				"the kernel refused the program for %s (%u instructions): %s",
				on, p->len, strerror(-ret));
	}
	return 0;
}

int iouring_bpf_filter_apply(const struct iouring_bpf_filter *f, int ring_fd,
			     struct iouring_bpf_error *err)
{
	int fd, ret, done = 0;

	if (btf_says() == 0)
		return iou_fail(err, IOURING_BPF_NOFEATURE, EOPNOTSUPP, "%s",
				NOFEAT);
	if (ring_fd < -1)
		return iou_fail(err, IOURING_BPF_USAGE, EBADF,
				"ring fd %d: give a ring's fd, or -1 for the calling task",
				ring_fd);
	/* first on a scratch ring: refusals change nothing that matters */
	fd = scratch_ring();
	if (fd < 0)
		return iou_fail(err, fd == -EPERM ? IOURING_BPF_PERM :
				IOURING_BPF_FAIL, fd,
				"io_uring_setup failed (%s): check sysctl kernel.io_uring_disabled",
				strerror(-fd));
	ret = reg_all(f, fd, &done, err, 1);
	close(fd);
	if (ret)
		return ret;
	done = 0;
	ret = reg_all(f, ring_fd, &done, err, 0);
	if (ret && done && err) {
		size_t n = strlen(err->msg);

		snprintf(err->msg + n, sizeof(err->msg) - n,
			 " (%d of %d programs were registered and stay: discard %s)",
			 done, f->nprogs, ring_fd == -1 ? "this process" :
			 "the ring");
	}
	return ret;
}
