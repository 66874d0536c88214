// SPDX-License-Identifier: GPL-2.0
/* out.c - error and JSON printing shared by the subcommands */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

int report_error(const char *cmd, const struct iouring_bpf_error *err)
{
	fprintf(stderr, "iouring-bpf %s: %s\n", cmd, err->msg);
	if (err->detail[0]) {
		fputs(err->detail, stderr);
		if (err->detail[strlen(err->detail) - 1] != '\n')
			fputc('\n', stderr);
		if (err->status == IOURING_BPF_REJECTED && !cli_verbose)
			fprintf(stderr, "iouring-bpf %s: run with -v for libbpf's full log\n",
				cmd);
	}
	return err->status ? err->status : EXIT_FAIL;
}

int parse_ll(const char *cmd, const char *what, const char *s,
	     long long min, long long max, long long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "iouring-bpf %s: %s must be an integer in %lld..%lld, got '%s'\n",
			cmd, what, min, max, s);
		return -1;
	}
	*out = v;
	return 0;
}
