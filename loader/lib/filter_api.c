// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * filter_api.c - the library's filter calls: compile a policy (text, a
 * file, or a policy shipped in the library), and read what it compiled to.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "filter_internal.h"
#include "internal.h"

/* filter_policies.c, generated from the .policy files of policies/ */
struct iouf_shipped {
	const char *name;
	const char *text;
};
extern const struct iouf_shipped iouf_shipped[];

const char *const *iouring_bpf_filter_policies(void)
{
	static const char *names[64];
	int i;

	for (i = 0; iouf_shipped[i].name && i < 63; i++)
		names[i] = iouf_shipped[i].name;
	names[i] = NULL;
	return names;
}

const char *iouring_bpf_filter_policy_text(const char *name)
{
	int i;

	for (i = 0; iouf_shipped[i].name; i++)
		if (!strcmp(iouf_shipped[i].name, name))
			return iouf_shipped[i].text;
	return NULL;
}

struct iouring_bpf_filter *
iouring_bpf_filter_compile(const char *text, const char *name,
			   const char *btf, struct iouring_bpf_error *err)
{
	struct iouring_bpf_filter *f = calloc(1, sizeof(*f));

	if (!f) {
		iou_fail(err, IOURING_BPF_FAIL, ENOMEM, "out of memory");
		return NULL;
	}
	snprintf(f->pol.name, sizeof(f->pol.name), "%s", name ? name : "policy");
	f->text = strdup(text);
	if (!f->text || iouf_layout_load(&f->lay, btf, err) ||
	    iouf_parse(&f->pol, &f->lay, text, err) || iouf_compile(f, err)) {
		if (!f->text)
			iou_fail(err, IOURING_BPF_FAIL, ENOMEM, "out of memory");
		iouring_bpf_filter_free(f);
		return NULL;
	}
	return f;
}

static char *read_file(const char *path, struct iouring_bpf_error *err)
{
	struct stat st;
	char *buf = NULL;
	FILE *fp = fopen(path, "r");
	size_t n;

	if (!fp) {
		iou_fail_see(err, IOURING_BPF_SEE_POLICIES, IOURING_BPF_USAGE, errno,
			     "cannot open policy %s: %s (give a file, or a shipped policy's name)",
			 path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(fp), &st) || !S_ISREG(st.st_mode) ||
	    st.st_size > IOUF_MAX_TEXT) {
		iou_fail(err, IOURING_BPF_USAGE, EINVAL,
			 "policy %s is not a regular file of at most %d bytes",
			 path, IOUF_MAX_TEXT);
		fclose(fp);
		return NULL;
	}
	buf = malloc(st.st_size + 1);
	if (!buf) {
		iou_fail(err, IOURING_BPF_FAIL, ENOMEM, "out of memory");
		fclose(fp);
		return NULL;
	}
	n = fread(buf, 1, st.st_size, fp);
	buf[n] = 0;
	fclose(fp);
	if (strlen(buf) != n) {
		iou_fail(err, IOURING_BPF_FAIL, EINVAL,
			 "policy %s has a NUL byte: it is not text", path);
		free(buf);
		return NULL;
	}
	return buf;
}

struct iouring_bpf_filter *
iouring_bpf_filter_load(const char *policy, const char *btf,
			struct iouring_bpf_error *err)
{
	const char *shipped = iouring_bpf_filter_policy_text(policy);
	struct iouring_bpf_filter *f;
	char *text;

	if (shipped && !strchr(policy, '/'))
		return iouring_bpf_filter_compile(shipped, policy, btf, err);
	text = read_file(policy, err);
	if (!text)
		return NULL;
	f = iouring_bpf_filter_compile(text, policy, btf, err);
	free(text);
	return f;
}

void iouring_bpf_filter_free(struct iouring_bpf_filter *f)
{
	int i;

	if (!f)
		return;
	for (i = 0; i < f->nprogs; i++) {
		free(f->progs[i].insns);
		free(f->progs[i].lines);
	}
	iouf_policy_free(&f->pol);
	free(f->text);
	free(f);
}

int iouring_bpf_filter_count(const struct iouring_bpf_filter *f)
{
	return f->nprogs;
}

int iouring_bpf_filter_prog(const struct iouring_bpf_filter *f, int i,
			    struct iouring_bpf_filter_prog *out)
{
	const struct iouf_prog *p;

	if (i < 0 || i >= f->nprogs)
		return -1;
	p = &f->progs[i];
	out->opcode = p->opcode;
	out->opname = f->lay.opname[p->opcode];
	out->flags = p->flags;
	out->pdu_size = p->pdu_size;
	out->len = p->len;
	out->insns = p->insns;
	return 0;
}

int iouring_bpf_filter_default_allow(const struct iouring_bpf_filter *f)
{
	return f->pol.default_allow;
}

const char *iouring_bpf_filter_layout(const struct iouring_bpf_filter *f)
{
	return f->lay.source;
}
