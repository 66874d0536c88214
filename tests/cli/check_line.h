/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check_line.h - CHECK(cond, fmt, ...) for the C helpers of tests/cli:
 * one line per check, "ok: ..." or "FAIL file:line: ...", counted in the
 * including file's `fails`.
 */
#ifndef TESTS_CLI_CHECK_LINE_H
#define TESTS_CLI_CHECK_LINE_H

#include <stdio.h>

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		fails++;						\
		printf("FAIL %s:%d: ", __FILE__, __LINE__);		\
	} else {							\
		printf("ok: ");						\
	}								\
	printf(__VA_ARGS__);						\
	printf("\n");							\
} while (0)

#endif /* TESTS_CLI_CHECK_LINE_H */
