// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * geometry.c - the ring's facts a loop program reads from `const volatile`
 * globals, filled in before load from the ring it is bound to. One table:
 * the names liburing's tests of the merged hook use, the same style for
 * the SQ side, and the project's own iou_* (progs/iouring_bpf.h). A name
 * is filled only when the object has it in .rodata as an integer; the
 * README's "Running programs written elsewhere" lists the same table.
 */
#include <errno.h>
#include <string.h>
#include <bpf/btf.h>
#include "internal.h"

enum geo_src {
	G_SQ_ENTRIES, G_CQ_ENTRIES, G_SQ_MASK, G_CQ_MASK,
	G_SQ_HEAD, G_SQ_TAIL, G_SQ_ARRAY, G_CQ_HEAD, G_CQ_TAIL, G_CQES,
	G_FLAGS, G_RINGS_SIZE, G_SQES_SIZE, G_SQE_SIZE, G_CQE_SIZE,
	G_SQ_REWIND,
};

const struct iou_geo_name iou_geo_names[] = {
	/* liburing's test/bpf-progs */
	{ "sq_entries",		G_SQ_ENTRIES },
	{ "cq_entries",		G_CQ_ENTRIES },
	{ "cq_head_offset",	G_CQ_HEAD },
	{ "cq_tail_offset",	G_CQ_TAIL },
	{ "cqes_offset",	G_CQES },
	/* the same style, for the SQ side and the flags */
	{ "sq_head_offset",	G_SQ_HEAD },
	{ "sq_tail_offset",	G_SQ_TAIL },
	{ "sq_array_offset",	G_SQ_ARRAY },
	{ "ring_flags",		G_FLAGS },
	/* progs/iouring_bpf.h */
	{ "iou_sq_head",	G_SQ_HEAD },
	{ "iou_sq_tail",	G_SQ_TAIL },
	{ "iou_sq_mask",	G_SQ_MASK },
	{ "iou_sq_entries",	G_SQ_ENTRIES },
	{ "iou_sq_array",	G_SQ_ARRAY },
	{ "iou_cq_head",	G_CQ_HEAD },
	{ "iou_cq_tail",	G_CQ_TAIL },
	{ "iou_cq_mask",	G_CQ_MASK },
	{ "iou_cq_entries",	G_CQ_ENTRIES },
	{ "iou_cqes",		G_CQES },
	{ "iou_rings_size",	G_RINGS_SIZE },
	{ "iou_sqes_size",	G_SQES_SIZE },
	{ "iou_sqe_size",	G_SQE_SIZE },
	{ "iou_cqe_size",	G_CQE_SIZE },
	{ "iou_sq_rewind",	G_SQ_REWIND },
	{ NULL, 0 },
};

static unsigned long long max_ull(unsigned long long a, unsigned long long b)
{
	return a > b ? a : b;
}

/* 64 or 128, 16 or 32 bytes */
static unsigned int sqe_size(const struct io_uring_params *p)
{
	return p->flags & IORING_SETUP_SQE128 ? 128 : 64;
}

static unsigned int cqe_size(const struct io_uring_params *p)
{
	return p->flags & IORING_SETUP_CQE32 ? 32 : 16;
}

/*
 * Is the ring an SQ_REWIND ring? Bit 20 means IORING_SETUP_SQ_REWIND on
 * mainline (7.0+) only: on the project's 6.12 kernel it is IORING_SETUP_BPF
 * (an IORING_OP_BPF ring, SQ head and tail as usual). So the bit counts
 * only for a mainline binding.
 */
int iou_ring_is_rewind(const struct iouring_bpf *h,
		       const struct io_uring_params *p)
{
	enum iouring_bpf_loop_api api = h->api;

	if (!(p->flags & IOU_SETUP_SQ_REWIND_ML))
		return 0;
	if (api == IOURING_BPF_LOOP_NONE)	/* not bound yet: the kernel's */
		api = iouring_bpf_kernel_loop_api();
	return api == IOURING_BPF_LOOP_71 || api == IOURING_BPF_LOOP_72;
}

static unsigned long long geo_value(const struct iouring_bpf *h,
				    const struct io_uring_params *p, int src)
{
	__u32 array = (p->flags & IORING_SETUP_NO_SQARRAY) ? 0 : p->sq_off.array;
	__u64 cq_end = p->cq_off.cqes + (__u64)p->cq_entries * cqe_size(p);
	__u64 sq_end = array ? array + (__u64)p->sq_entries * 4 :
			       p->sq_off.tail + 4;

	switch (src) {
	case G_SQ_ENTRIES:	return p->sq_entries;
	case G_CQ_ENTRIES:	return p->cq_entries;
	case G_SQ_MASK:		return p->sq_entries - 1;
	case G_CQ_MASK:		return p->cq_entries - 1;
	case G_SQ_HEAD:		return p->sq_off.head;
	case G_SQ_TAIL:		return p->sq_off.tail;
	case G_SQ_ARRAY:	return array;
	case G_CQ_HEAD:		return p->cq_off.head;
	case G_CQ_TAIL:		return p->cq_off.tail;
	case G_CQES:		return p->cq_off.cqes;
	case G_FLAGS:		return p->flags;
	case G_RINGS_SIZE:	return max_ull(cq_end, sq_end);
	case G_SQES_SIZE:	return (__u64)p->sq_entries * sqe_size(p);
	case G_SQE_SIZE:	return sqe_size(p);
	case G_CQE_SIZE:	return cqe_size(p);
	case G_SQ_REWIND:	return iou_ring_is_rewind(h, p);
	}
	return 0;
}

/* does h have (and so was given) the global that geo_value() src feeds? */
static int geo_has(const struct iouring_bpf *h, int src)
{
	int i;

	for (i = 0; iou_geo_names[i].name; i++)
		if (iou_geo_names[i].src == src && (h->geo_filled & (1ULL << i)))
			return 1;
	return 0;
}

/* the object's .rodata integer name, or -1 if it has none */
static long long rodata_int(const struct iouring_bpf *h, const char *name)
{
	unsigned long long v = 0;
	struct objvar o;

	if (objvar_find(h->obj, name, &o) || strcmp(o.sec, ".rodata") ||
	    !btf_is_int(o.type) || o.size > sizeof(v))
		return -1;
	memcpy(&v, o.ptr, o.size);	/* little endian: the low bytes */
	return v;
}

/*
 * The SQ mode (progs/iouring_bpf.h, "The three SQ modes"): a program that
 * fills SQEs at the SQ tail and does not know SQ_REWIND (no iou_sq_rewind
 * global: built with an older header) would write SQEs where the kernel
 * of an SQ_REWIND ring never looks, and move a tail that must stay 0; a
 * program that submits the application's SQEs and was built before the
 * SQ tail carried their number there (iou_app_sqes = 1; 2 and up read it)
 * cannot learn it. Both are refused here, at the bind, rather than stop
 * after a few requests or do nothing.
 */
static int geo_mode_ok(struct iouring_bpf *h, const struct io_uring_params *p,
		       struct iouring_bpf_error *err)
{
	if (!iou_ring_is_rewind(h, p))
		return 0;
	if (rodata_int(h, "iou_app_sqes") == 1)
		return iou_fail(err, IOURING_BPF_USAGE, EOPNOTSUPP,
				"%s submits the application's SQEs, and the ring has IORING_SETUP_SQ_REWIND: there only io_uring_enter()'s to_submit says how many, which the loop hook does not pass on, and the program was built with an iouring_bpf.h that does not read the count from the SQ tail; rebuild it with the current iouring_bpf.h, or create the ring without IORING_SETUP_SQ_REWIND (NO_SQARRAY alone is fine)",
				h->name);
	if ((geo_has(h, G_SQ_TAIL) || geo_has(h, G_SQES_SIZE)) &&
	    !geo_has(h, G_SQ_REWIND))
		return iou_fail(err, IOURING_BPF_USAGE, EOPNOTSUPP,
				"%s fills SQEs at the SQ tail (it has no iou_sq_rewind global), and the ring has IORING_SETUP_SQ_REWIND, where the kernel ignores the tail and takes SQEs from index 0: create the ring without IORING_SETUP_SQ_REWIND, or rebuild the program with the current iouring_bpf.h",
				h->name);
	return 0;
}

/*
 * A program that walks CQEs or fills SQEs by offset and has no size global
 * assumes 16-byte CQEs and 64-byte SQEs: on a CQE32 or SQE128 ring it
 * would read and write the wrong slots, so it is refused.
 */
static int geo_sizes_ok(struct iouring_bpf *h, const struct io_uring_params *p,
			struct iouring_bpf_error *err)
{
	if ((p->flags & IORING_SETUP_CQE32) && geo_has(h, G_CQES) &&
	    !geo_has(h, G_CQE_SIZE))
		return iou_fail(err, IOURING_BPF_USAGE, EINVAL,
				"%s reads CQEs as 16 bytes (it has no iou_cqe_size global) and the ring has IORING_SETUP_CQE32: create the ring without CQE32, or rebuild the program with the current iouring_bpf.h",
				h->name);
	if ((p->flags & IORING_SETUP_SQE128) &&
	    (geo_has(h, G_SQ_TAIL) || geo_has(h, G_SQES_SIZE)) &&
	    !geo_has(h, G_SQE_SIZE))
		return iou_fail(err, IOURING_BPF_USAGE, EINVAL,
				"%s fills SQEs as 64 bytes (it has no iou_sqe_size global) and the ring has IORING_SETUP_SQE128: create the ring without SQE128, or rebuild the program with the current iouring_bpf.h",
				h->name);
	return geo_mode_ok(h, p, err);
}

int iou_geo_fill(struct iouring_bpf *h, const struct io_uring_params *p,
		 struct iouring_bpf_error *err)
{
	struct objvar v;
	int i;

	h->geo_filled = 0;
	for (i = 0; iou_geo_names[i].name; i++) {
		if (objvar_find(h->obj, iou_geo_names[i].name, &v) ||
		    strcmp(v.sec, ".rodata") ||
		    !(btf_is_int(v.type) || btf_is_any_enum(v.type)))
			continue;
		if (int_put(v.ptr, v.size, 0, geo_value(h, p, iou_geo_names[i].src)))
			return iou_fail(err, IOURING_BPF_FAIL, ERANGE,
					"%s: the ring's %s (%llu) does not fit its %zu-byte global",
					h->name, v.name,
					geo_value(h, p, iou_geo_names[i].src),
					v.size);
		h->geo_filled |= 1ULL << i;
	}
	return geo_sizes_ok(h, p, err);
}

int iou_geo_is_filled(const struct iouring_bpf *h, const char *name)
{
	int i;

	for (i = 0; iou_geo_names[i].name; i++)
		if (!strcmp(iou_geo_names[i].name, name))
			return !!(h->geo_filled & (1ULL << i));
	return 0;
}

int iou_geo_known(const char *name)
{
	int i;

	for (i = 0; iou_geo_names[i].name; i++)
		if (!strcmp(iou_geo_names[i].name, name))
			return 1;
	return 0;
}

/*
 * The .rodata integers still 0 at load that the loader did not fill: for
 * a verifier rejection, the likely cause when a program sizes its regions
 * or loops from them. Returns how many; names into out.
 */
int iou_geo_zero_rodata(struct iouring_bpf *h, char *out, size_t len)
{
	struct btf *btf = bpf_object__btf(h->obj);
	const struct btf_var_secinfo *vs;
	const struct btf_type *t;
	size_t used = 0;
	int id, j, n = 0;

	out[0] = '\0';
	id = btf ? btf__find_by_name_kind(btf, ".rodata", BTF_KIND_DATASEC) : -1;
	if (id < 0)
		return 0;
	t = btf__type_by_id(btf, id);
	vs = btf_var_secinfos(t);
	for (j = 0; j < btf_vlen(t); j++, vs++) {
		const struct btf_type *var = btf__type_by_id(btf, vs->type);
		const char *name = btf__name_by_offset(btf, var->name_off);
		struct objvar v;
		size_t k;

		if (!strcmp(name, "iou_api") || iou_geo_is_filled(h, name) ||
		    objvar_find(h->obj, name, &v) ||
		    !(btf_is_int(v.type) || btf_is_any_enum(v.type)))
			continue;
		for (k = 0; k < v.size && !((char *)v.ptr)[k]; k++)
			;
		if (k < v.size)
			continue;
		n++;
		if (used < len)
			used += snprintf(out + used, len - used, "%s%s%s",
					 used ? ", " : "", name,
					 iou_geo_known(name) ?
					 " (a ring global: bind a ring)" : "");
	}
	return n;
}
