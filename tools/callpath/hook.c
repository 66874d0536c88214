// SPDX-License-Identifier: GPL-2.0
/*
 * hook.c - the -finstrument-functions hooks for tools/callpath: every
 * entry of an instrumented function as "E FN SITE DEPTH" (and exits as
 * "X ...") into the file $IOU_TRACE names; nothing without it.
 */
#include <stdio.h>
#include <stdlib.h>

static FILE *out;
static int depth;

__attribute__((no_instrument_function))
void __cyg_profile_func_enter(void *fn, void *site)
{
	if (!out) {
		const char *p = getenv("IOU_TRACE");

		if (!p)
			return;
		out = fopen(p, "w");
		if (!out)
			return;
	}
	fprintf(out, "E %p %p %d\n", fn, site, depth++);
}

__attribute__((no_instrument_function))
void __cyg_profile_func_exit(void *fn, void *site)
{
	if (out) {
		fprintf(out, "X %p %p %d\n", fn, site, --depth);
		fflush(out);
	}
}
