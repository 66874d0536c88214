// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * objvar.c - what the library reads and writes in an object, through its
 * BTF: a program's globals and struct_ops members by name, and the ring
 * it is bound to (iouring_bpf_set_ring()): the ring's fd in the struct_ops
 * map, the loop binding in iou_api, and the ring's facts a loop program
 * reads from `const volatile` globals. Before load the pointers are
 * libbpf's initial images (writable); after load they are the live maps
 * (.rodata read-only).
 *
 * The ring's facts: one table, the names liburing's tests of the merged
 * hook use, the same style for the SQ side, and the project's own iou_*
 * (progs/iouring_bpf.h). A name is filled only when the object has it in
 * .rodata as an integer; the README's "Running programs written
 * elsewhere" lists the same table.
 */
#include <errno.h>
#include <string.h>
#include <bpf/btf.h>
#include "internal.h"

static const char *const sections[] = { ".rodata", ".data", ".bss" };

static struct bpf_map *internal_map(struct bpf_object *obj, const char *sec)
{
	size_t sl = strlen(sec);
	struct bpf_map *map;

	bpf_object__for_each_map(map, obj) {
		const char *n = bpf_map__name(map);
		size_t nl = strlen(n);

		if (bpf_map__is_internal(map) && nl >= sl &&
		    !strcmp(n + nl - sl, sec))
			return map;
	}
	return NULL;
}

/* the type behind typedefs and const/volatile/restrict */
const struct btf_type *objvar_resolve(const struct btf *btf, __u32 id,
				      __u32 *idp)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_typedef(t) || btf_is_mod(t))) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (idp)
		*idp = id;
	return t;
}

int objvar_find(struct bpf_object *obj, const char *name,
		struct iouring_bpf_global *out)
{
	struct btf *btf = bpf_object__btf(obj);
	size_t i;

	if (!btf)
		return -ENOENT;
	for (i = 0; i < ARRAY_SIZE(sections); i++) {
		const struct btf_var_secinfo *vs;
		const struct btf_type *t;
		struct bpf_map *map;
		size_t msz;
		char *base;
		int id, j;

		id = btf__find_by_name_kind(btf, sections[i], BTF_KIND_DATASEC);
		if (id < 0)
			continue;
		t = btf__type_by_id(btf, id);
		vs = btf_var_secinfos(t);
		for (j = 0; j < btf_vlen(t); j++, vs++) {
			const struct btf_type *v = btf__type_by_id(btf, vs->type);

			if (strcmp(btf__name_by_offset(btf, v->name_off), name))
				continue;
			map = internal_map(obj, sections[i]);
			if (!map)
				return -ENOENT;
			base = bpf_map__initial_value(map, &msz);
			if (!base || vs->offset + vs->size > msz)
				return -ENOENT;
			out->name = btf__name_by_offset(btf, v->name_off);
			out->sec = sections[i];
			out->map = map;
			out->ptr = base + vs->offset;
			out->size = vs->size;
			out->btf = btf;
			out->type = objvar_resolve(btf, v->type, &out->type_id);
			return out->type ? 0 : -ENOENT;
		}
	}
	return -ENOENT;
}

void *objvar_ptr(struct bpf_object *obj, const char *name, size_t *size,
		 const char **secp, int *is_signed)
{
	struct iouring_bpf_global v;
	int sgn = 0, is_bool;
	size_t isz;

	if (objvar_find(obj, name, &v))
		return NULL;
	if (size)
		*size = v.size;
	if (secp)
		*secp = v.sec;
	if (is_signed)
		*is_signed = !iouring_bpf_int_type(v.type, &isz, &sgn,
						   &is_bool) && sgn;
	return v.ptr;
}

void *ops_member_ptr(struct bpf_object *obj, struct bpf_map *map,
		     const char *member, size_t *size)
{
	struct btf *btf = bpf_object__btf(obj);
	const struct btf_member *m;
	const struct btf_type *t;
	size_t vsz;
	char *data;
	int i;

	if (!btf)
		return NULL;
	t = btf__type_by_id(btf, bpf_map__btf_value_type_id(map));
	if (!t || !btf_is_struct(t))
		return NULL;
	data = bpf_map__initial_value(map, &vsz);
	if (!data)
		return NULL;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		__s64 sz;

		if (strcmp(btf__name_by_offset(btf, m->name_off), member))
			continue;
		sz = btf__resolve_size(btf, m->type);
		if (sz <= 0 || btf_member_bit_offset(t, i) % 8)
			return NULL;
		if (size)
			*size = sz;
		return data + btf_member_bit_offset(t, i) / 8;
	}
	return NULL;
}

int iouring_bpf_int_get(const void *p, size_t size, int is_signed,
			long long *v)
{
	/* both arms long long: a plain ?: would make the signed one unsigned */
	switch (size) {
	case 1:
		*v = is_signed ? (long long)*(const __s8 *)p : *(const __u8 *)p;
		return 0;
	case 2:
		*v = is_signed ? (long long)*(const __s16 *)p :
				 *(const __u16 *)p;
		return 0;
	case 4:
		*v = is_signed ? (long long)*(const __s32 *)p :
				 (long long)*(const __u32 *)p;
		return 0;
	case 8:
		*v = *(const __s64 *)p;
		return 0;
	}
	return -EINVAL;
}

/* store v if it fits a size-byte integer of that signedness */
int iouring_bpf_int_put(void *p, size_t size, int is_signed, long long v)
{
	long long lo, hi;

	if (size != 1 && size != 2 && size != 4 && size != 8)
		return -EINVAL;
	if (size == 8) {
		if (!is_signed && v < 0)
			return -ERANGE;
		*(__s64 *)p = v;
		return 0;
	}
	lo = is_signed ? -(1LL << (size * 8 - 1)) : 0;
	hi = is_signed ? (1LL << (size * 8 - 1)) - 1 : (1LL << (size * 8)) - 1;
	if (v < lo || v > hi)
		return -ERANGE;
	switch (size) {
	case 1:
		*(__u8 *)p = v;
		break;
	case 2:
		*(__u16 *)p = v;
		break;
	case 4:
		*(__u32 *)p = v;
		break;
	}
	return 0;
}

void *iouring_bpf_var(const struct iouring_bpf *h, const char *name,
		      size_t *size)
{
	return objvar_ptr(h->obj, name, size, NULL, NULL);
}

int iouring_bpf_var_int(const struct iouring_bpf *h, const char *name,
			long long *value)
{
	int is_signed = 0;
	size_t size;
	void *p = objvar_ptr(h->obj, name, &size, NULL, &is_signed);

	if (!p)
		return -ENOENT;
	return iouring_bpf_int_get(p, size, is_signed, value);
}

/* the names of h's globals ("a, b, c"; "none"), for "no global X" */
static void global_names(const struct iouring_bpf *h, char *out, size_t len)
{
	struct btf *btf = bpf_object__btf(h->obj);
	size_t used = 0, i;

	out[0] = '\0';
	for (i = 0; btf && i < ARRAY_SIZE(sections); i++) {
		const struct btf_var_secinfo *vs;
		const struct btf_type *t;
		int id = btf__find_by_name_kind(btf, sections[i],
						BTF_KIND_DATASEC);
		int j;

		if (id < 0)
			continue;
		t = btf__type_by_id(btf, id);
		vs = btf_var_secinfos(t);
		for (j = 0; j < btf_vlen(t) && used < len; j++, vs++) {
			const struct btf_type *var = btf__type_by_id(btf, vs->type);
			const char *n = btf__name_by_offset(btf, var->name_off);

			if (!strcmp(n, "iou_exit"))
				continue;
			used += snprintf(out + used, len - used, "%s%s",
					 used ? ", " : "", n);
		}
	}
	if (!out[0])
		snprintf(out, len, "none");
}

int iouring_bpf_int_type(const struct btf_type *t, size_t *size,
			 int *is_signed, int *is_bool)
{
	*is_bool = 0;
	if (btf_is_int(t)) {
		*size = t->size;
		*is_signed = !!(btf_int_encoding(t) & BTF_INT_SIGNED);
		*is_bool = !!(btf_int_encoding(t) & BTF_INT_BOOL);
		return 0;
	}
	if (btf_is_any_enum(t)) {
		*size = t->size;
		*is_signed = btf_kflag(t) || btf_is_enum(t);
		return 0;
	}
	if (btf_is_ptr(t)) {
		*size = 8;
		*is_signed = 0;
		return 0;
	}
	return -1;
}

int iouring_bpf_global_writable(const struct iouring_bpf *h, const char *name,
				struct iouring_bpf_global *out,
				struct iouring_bpf_error *err)
{
	char names[512];

	if (objvar_find(h->obj, name, out)) {
		global_names(h, names, sizeof(names));
		return iou_fail(err, IOURING_BPF_USAGE, ENOENT,
				"%s: no global '%.128s' in .rodata, .data or .bss (its globals: %s)",
				h->name, name, names);
	}
	if (h->loaded && !strcmp(out->sec, ".rodata"))
		return iou_fail(err, IOURING_BPF_USAGE, EROFS,
				"%s: %s is in .rodata (a const volatile global): it is fixed at load, set it before load",
				h->name, name);
	return 0;
}

/*
 * The one typed store of an integer global: found, writable now, an
 * integer, value fits its type, a built-in's parameter within its range;
 * only then written
 */
int iouring_bpf_set_var(struct iouring_bpf *h, const char *name,
			long long value, struct iouring_bpf_error *err)
{
	struct iouring_bpf_global v;
	int is_signed, is_bool, ret;
	unsigned char tmp[8];
	size_t size;

	ret = iouring_bpf_global_writable(h, name, &v, err);
	if (ret)
		return ret;
	if (iouring_bpf_int_type(v.type, &size, &is_signed, &is_bool) ||
	    size != v.size)
		return iou_fail(err, IOURING_BPF_USAGE, EINVAL,
				"%s: %s (%s, %zu bytes) is not an integer global",
				h->name, name, v.sec, v.size);
	ret = iouring_bpf_int_put(tmp, size, is_signed, value);
	if (!ret && is_bool && (value < 0 || value > 1))
		ret = -ERANGE;
	if (ret)
		return iou_fail(err, IOURING_BPF_USAGE, ERANGE,
				"%s: %s=%lld does not fit %s (%s, %zu-byte %s)",
				h->name, name, value, name, v.sec, size,
				is_bool ? "bool" : is_signed ? "signed" : "unsigned");
	if (h->prog) {
		ret = iou_param_check(h->prog, name, value, !is_signed, err);
		if (ret)
			return ret;
	}
	memcpy(v.ptr, tmp, size);
	return 0;
}

void *iouring_bpf_section(const struct iouring_bpf *h, const char *sec,
			  size_t *size)
{
	struct bpf_map *map = internal_map(h->obj, sec);

	return map ? bpf_map__initial_value(map, size) : NULL;
}

int iouring_bpf_exit_info(const struct iouring_bpf *h,
			  struct iou_exit_info *out)
{
	size_t size = 0;
	void *p = iouring_bpf_var(h, IOU_EXIT_VAR, &size);
	int kind = iou_exit_info_read(p, size, out);

	return kind < 0 ? -ENOENT : kind;
}

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
	struct iouring_bpf_global o;

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
	struct iouring_bpf_global v;
	int i;

	h->geo_filled = 0;
	for (i = 0; iou_geo_names[i].name; i++) {
		if (objvar_find(h->obj, iou_geo_names[i].name, &v) ||
		    strcmp(v.sec, ".rodata") ||
		    !(btf_is_int(v.type) || btf_is_any_enum(v.type)))
			continue;
		if (iouring_bpf_int_put(v.ptr, v.size, 0,
					geo_value(h, p, iou_geo_names[i].src)))
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
		struct iouring_bpf_global v;
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

/* tell a program built with progs/iouring_bpf.h its binding (iou_api) */
int iou_set_api_var(struct iouring_bpf *h, struct iouring_bpf_error *err)
{
	const char *sec;
	size_t size;
	void *p;

	/* no binding on this kernel: the load's kernel check says so */
	if (h->kind != IOURING_BPF_KIND_LOOP || h->api == IOURING_BPF_LOOP_NONE)
		return 0;
	p = objvar_ptr(h->obj, "iou_api", &size, &sec, NULL);
	if (!p || strcmp(sec, ".rodata"))
		return 0;
	if (iouring_bpf_int_put(p, size, 0, h->api))
		return iou_fail(err, IOURING_BPF_FAIL, ERANGE,
				"%s: iou_api does not fit", h->name);
	return 0;
}

int iouring_bpf_set_ring(struct iouring_bpf *h, int ring_fd,
			 const struct io_uring_params *p,
			 struct iouring_bpf_error *err)
{
	struct io_uring_params real;
	size_t sz;
	void *m;
	int ret;

	if (h->kind != IOURING_BPF_KIND_LOOP)
		return iou_fail(err, IOURING_BPF_USAGE, EINVAL,
				"%s is an op program: it serves every IORING_SETUP_BPF ring, not one ring (it is registered under an op id)",
				h->name);
	if (h->loaded)
		return iou_fail(err, IOURING_BPF_USAGE, EBUSY,
				"%s: the ring is set before load", h->name);
	/* the layout of a ring given by fd alone: read from the kernel */
	ret = p ? iou_ring_params_check(ring_fd, p, err) :
		  iou_ring_params(ring_fd, &real, err);
	if (ret)
		return ret;
	if (!p)
		p = &real;
	ret = iou_geo_fill(h, p, err) ?: iou_set_api_var(h, err);
	if (ret)
		return ret;
	h->ring = *p;
	h->have_ring = 1;
	m = ops_member_ptr(h->obj, h->ops, "ring_fd", &sz);
	if (!m || sz != 4)
		return iou_fail(err, IOURING_BPF_FAIL, EINVAL,
				"%s: its struct %s has no 32-bit ring_fd",
				h->name, iouring_bpf_ops_type(h));
	*(__u32 *)m = ring_fd;
	return 0;
}
