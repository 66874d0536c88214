// SPDX-License-Identifier: GPL-2.0
/*
 * globals.c - a program's globals as text or JSON, through its BTF: the
 * one printer of `run FILE` (the object's own sections after the run) and
 * `show` (the maps of a program that `load` left attached). Integers of
 * every size (signed or not, enums, bools, pointers in hex), char arrays
 * as strings, other arrays as lists, the project's exit info (iou_exit)
 * as an object; a struct is shown by its size only.
 */
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include "cli.h"

#define ARRAY_SHOWN	16	/* elements of an array shown at most */

static const struct btf_type *resolve(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_typedef(t) || btf_is_mod(t)))
		t = btf__type_by_id(btf, t->type);
	return t;
}

/* an integer-like value; -1 if the type is not one */
static int scalar(const struct btf_type *t, const void *p, long long *v,
		  int *is_ptr)
{
	int sign = 0;
	size_t size;

	*is_ptr = 0;
	if (btf_is_int(t)) {
		sign = btf_int_encoding(t) & BTF_INT_SIGNED;
		size = t->size;
	} else if (btf_is_any_enum(t)) {
		sign = btf_is_enum(t) || btf_kflag(t);
		size = t->size;
	} else if (btf_is_ptr(t)) {
		*is_ptr = 1;
		size = 8;
	} else {
		return -1;
	}
	return iouring_bpf_int_get(p, size, sign, v) ? -1 : 0;
}

static int is_unsigned64(const struct btf_type *t)
{
	return btf_is_int(t) && t->size == 8 &&
	       !(btf_int_encoding(t) & BTF_INT_SIGNED);
}

static void json_scalar(struct json *j, const char *key,
			const struct btf_type *t, long long v, int is_ptr)
{
	char num[32];

	if (is_ptr || is_unsigned64(t)) {
		snprintf(num, sizeof(num), "%llu", (unsigned long long)v);
		json_num_text(j, key, num);
	} else {
		json_int(j, key, v);
	}
}

static void text_scalar(char *out, size_t len, const struct btf_type *t,
			long long v, int is_ptr)
{
	if (is_ptr)
		snprintf(out, len, "0x%llx", (unsigned long long)v);
	else if (is_unsigned64(t))
		snprintf(out, len, "%llu", (unsigned long long)v);
	else
		snprintf(out, len, "%lld", v);
}

/* one global: text into out, or a JSON member of j */
static void one(const struct btf *btf, const char *name, __u32 type,
		const void *p, size_t size, struct json *j, char *out,
		size_t len)
{
	const struct btf_type *t = resolve(btf, type), *et;
	struct iou_exit_info ei;
	long long v;
	int is_ptr;

	if (!t)
		return;
	if (!strcmp(name, IOU_EXIT_VAR) &&
	    iou_exit_info_read(p, size, &ei) >= 0) {
		if (ei.kind == IOU_EXIT_KIND_NONE)
			return;
		if (j) {
			json_obj(j, "exit");
			json_str(j, "kind", iou_exit_kind_name(ei.kind));
			json_int(j, "code", ei.code);
			json_int(j, "value", ei.value);
			json_str(j, "msg", ei.msg);
			json_end(j, NULL);
		} else {
			snprintf(out, len, "%s code=%d value=%lld (%s)",
				 iou_exit_kind_name(ei.kind), ei.code,
				 ei.value, ei.msg);
		}
		return;
	}
	if (!scalar(t, p, &v, &is_ptr)) {
		if (j)
			json_scalar(j, name, t, v, is_ptr);
		else
			text_scalar(out, len, t, v, is_ptr);
		return;
	}
	if (btf_is_array(t)) {
		__u32 n = btf_array(t)->nelems, i;
		__s64 esz = btf__resolve_size(btf, btf_array(t)->type);
		size_t used = 0;

		et = resolve(btf, btf_array(t)->type);
		if (esz == 1 && btf_is_int(et)) {	/* a string */
			char s[256];

			snprintf(s, sizeof(s), "%.*s", (int)(n < 255 ? n : 255),
				 (const char *)p);
			if (j)
				json_str(j, name, s);
			else
				snprintf(out, len, "\"%s\"", s);
			return;
		}
		if (esz > 0 && !scalar(et, p, &v, &is_ptr)) {
			if (j)
				json_arr(j, name);
			else
				used = snprintf(out, len, "[");
			for (i = 0; i < n && i < ARRAY_SHOWN; i++) {
				scalar(et, (const char *)p + i * esz, &v, &is_ptr);
				if (j) {
					json_scalar(j, NULL, et, v, is_ptr);
				} else if (used < len) {
					if (i)
						used += snprintf(out + used,
								 len - used, ", ");
					if (used < len)
						text_scalar(out + used, len - used,
							    et, v, is_ptr);
					used = strlen(out);
				}
			}
			if (j)
				json_end(j, NULL);
			else if (used < len)
				snprintf(out + used, len - used, "%s]",
					 n > ARRAY_SHOWN ? ", ..." : "");
			return;
		}
	}
	/* a struct, or an array of them: its size only */
	if (j) {
		json_obj(j, name);
		json_int(j, "bytes", size);
		json_end(j, NULL);
	} else {
		snprintf(out, len, "(%zu bytes)", size);
	}
}

void print_globals(const struct btf *btf, const struct btf_type *sec,
		   const char *sec_name, const void *data, size_t size,
		   struct json *j, int inline_text)
{
	const struct btf_var_secinfo *vs = btf_var_secinfos(sec);
	char val[512];
	int i;

	for (i = 0; i < btf_vlen(sec); i++, vs++) {
		const struct btf_type *var = btf__type_by_id(btf, vs->type);
		const char *name = btf__name_by_offset(btf, var->name_off);

		if (vs->offset + vs->size > size || !btf_is_var(var))
			continue;
		val[0] = '\0';
		one(btf, name, var->type, (const char *)data + vs->offset,
		    vs->size, j, val, sizeof(val));
		if (j || !val[0])
			continue;
		if (!strcmp(name, IOU_EXIT_VAR))
			name = "exit";
		if (inline_text)
			printf(" %s=%s", name, val);
		else
			printf("  %-24s %-40s %s\n", name, val, sec_name);
	}
}
