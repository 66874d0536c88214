// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * objvar.c - a program's globals and struct_ops members by name, through
 * the object's BTF. Before load the pointers are libbpf's initial images
 * (writable); after load they are the live maps (.rodata read-only).
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

/* is BTF type id (through typedefs/const/volatile) a signed integer? */
static int btf_signed(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_typedef(t) || btf_is_const(t) ||
		     btf_is_volatile(t) || btf_is_restrict(t)))
		t = btf__type_by_id(btf, t->type);
	if (t && btf_is_enum(t))
		return 1;
	return t && btf_is_int(t) && (btf_int_encoding(t) & BTF_INT_SIGNED);
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

int objvar_find(struct bpf_object *obj, const char *name, struct objvar *out)
{
	struct btf *btf = bpf_object__btf(obj);
	size_t i;

	if (!btf)
		return -ENOENT;
	for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
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
	struct objvar v;

	if (objvar_find(obj, name, &v))
		return NULL;
	if (size)
		*size = v.size;
	if (secp)
		*secp = v.sec;
	if (is_signed)
		*is_signed = btf_signed(v.btf, v.type_id);
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
int int_put(void *p, size_t size, int is_signed, long long v)
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
	case 1: *(__u8 *)p = v; break;
	case 2: *(__u16 *)p = v; break;
	case 4: *(__u32 *)p = v; break;
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
