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
	G_FLAGS, G_RINGS_SIZE, G_SQES_SIZE,
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
	{ NULL, 0 },
};

static unsigned long long max_ull(unsigned long long a, unsigned long long b)
{
	return a > b ? a : b;
}

static unsigned long long geo_value(const struct io_uring_params *p, int src)
{
	__u32 array = (p->flags & IORING_SETUP_NO_SQARRAY) ? 0 : p->sq_off.array;
	__u64 cq_end = p->cq_off.cqes + (__u64)p->cq_entries * 16;
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
	case G_SQES_SIZE:	return (__u64)p->sq_entries * 64;
	}
	return 0;
}

int iou_geo_fill(struct iouring_bpf *h, const struct io_uring_params *p,
		 struct iouring_bpf_error *err)
{
	struct objvar v;
	int i;

	if (p->flags & (IORING_SETUP_CQE32 | IORING_SETUP_SQE128))
		return iou_fail(err, IOURING_BPF_USAGE, EINVAL,
				"rings with CQE32 or SQE128 are not supported: the geometry globals assume 16-byte CQEs and 64-byte SQEs");
	h->geo_filled = 0;
	for (i = 0; iou_geo_names[i].name; i++) {
		if (objvar_find(h->obj, iou_geo_names[i].name, &v) ||
		    strcmp(v.sec, ".rodata") ||
		    !(btf_is_int(v.type) || btf_is_any_enum(v.type)))
			continue;
		if (int_put(v.ptr, v.size, 0, geo_value(p, iou_geo_names[i].src)))
			return iou_fail(err, IOURING_BPF_FAIL, ERANGE,
					"%s: the ring's %s (%llu) does not fit its %zu-byte global",
					h->name, v.name,
					geo_value(p, iou_geo_names[i].src),
					v.size);
		h->geo_filled |= 1ULL << i;
	}
	return 0;
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
