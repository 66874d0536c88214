/* SPDX-License-Identifier: GPL-2.0 */
/*
 * t_stock.h - is this Debian's stock kernel, the one kernel/fetch-stock
 * fetches? Tests that reproduce a bug named on that kernel report XFAIL
 * there and FAIL anywhere else.
 */
#ifndef TESTS_KERNEL_T_STOCK_H
#define TESTS_KERNEL_T_STOCK_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T_STOCK_RELEASE	"7.2.13+deb14-amd64"

/* booted by kernel/vm-run --stock and its release is T_STOCK_RELEASE */
static inline bool t_on_stock_kernel(void)
{
	const char *k = getenv("IOURING_BPF_VM_KERNEL");
	char rel[65] = "";
	FILE *f;

	if (!k || strcmp(k, "stock"))
		return false;
	f = fopen("/proc/sys/kernel/osrelease", "r");
	if (!f)
		return false;
	if (!fgets(rel, sizeof(rel), f))
		rel[0] = 0;
	fclose(f);
	rel[strcspn(rel, "\n")] = 0;
	return !strcmp(rel, T_STOCK_RELEASE);
}

#endif /* TESTS_KERNEL_T_STOCK_H */
