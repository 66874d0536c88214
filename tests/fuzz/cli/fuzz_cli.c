// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_cli - libFuzzer target for the iouring-bpf CLI's parsers, on the
 * host (no kernel features needed). The first input byte picks a parser,
 * the rest is its input:
 *
 *   0  parse_ll(): an integer argument; bytes 1-2 pick the bounds
 *   1  parse_ring_arg(): --ring PID:FD
 *   2  setarg_apply(): --set KEY=VALUE on a built-in program
 *      (byte 1 picks it), then iouring_bpf_set_op_id() with byte 2
 *   3  iouring_bpf_open(): a program name or path, as `load NAME` takes it
 *   4  iouring_bpf_open() of a file holding the input: an object file
 *
 * Built by `make -C tests fuzz-cli` (clang -fsanitize=fuzzer,address,
 * undefined, with the loader's sources); run by tests/fuzz/run for a
 * bounded time, and over the saved inputs in regressions/ by
 * tests/host/test_cli_fuzz.sh.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

int cli_verbose;

static char tmpl[] = "/tmp/fuzz_cli.XXXXXX";
static char obj_path[64];
static struct iouring_bpf *progs[16];

static char *cstr(const uint8_t *d, size_t n)
{
	char *s = malloc(n + 1);

	memcpy(s, d, n);
	s[n] = '\0';
	return s;
}

static struct iouring_bpf *catalog_handle(unsigned int i)
{
	const struct iouring_bpf_prog *p = iouring_bpf_prog_next(NULL);
	struct iouring_bpf_error err;
	unsigned int n = 0, k;

	while (p && n < 16) {
		n++;
		p = iouring_bpf_prog_next(p);
	}
	i %= n;
	if (!progs[i]) {
		for (k = 0, p = iouring_bpf_prog_next(NULL); k < i; k++)
			p = iouring_bpf_prog_next(p);
		progs[i] = iouring_bpf_open_prog(p, &err);
	}
	return progs[i];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct setarg_res res = { 0 };
	struct iouring_bpf_error err;
	struct iouring_bpf *h;
	long long a, b;
	char *s;
	int fd;

	if (size < 3)
		return 0;
	switch (data[0] % 5) {
	case 0:
		s = cstr(data + 3, size - 3);
		parse_ll("fuzz", "N", s, -(1LL << (data[1] % 63)),
			 (1LL << (data[2] % 63)), &a);
		free(s);
		break;
	case 1:
		s = cstr(data + 1, size - 1);
		parse_ring_arg("fuzz", s, &a, &b);
		free(s);
		break;
	case 2:
		h = catalog_handle(data[1]);
		if (!h)
			abort();	/* an embedded program must open */
		s = cstr(data + 3, size - 3);
		setarg_apply(h, &res, s, &err);
		iouring_bpf_set_op_id(h, (int8_t)data[2] * 3, &err);
		setarg_free(&res);	/* a built-in's values make nothing */
		free(s);
		break;
	case 3:
		s = cstr(data + 1, size - 1);
		/* names, not paths: no /dev/zero or FIFOs (case 4 does files) */
		if (strchr(s, '/')) {
			free(s);
			break;
		}
		h = iouring_bpf_open(s, &err);
		iouring_bpf_close(h);
		free(s);
		break;
	case 4:
		fd = open(obj_path, O_WRONLY | O_TRUNC | O_CREAT, 0600);
		if (fd < 0)
			abort();
		if (write(fd, data + 1, size - 1) != (ssize_t)(size - 1))
			abort();
		close(fd);
		h = iouring_bpf_open(obj_path, &err);
		iouring_bpf_close(h);
		break;
	}
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	if (!mkdtemp(tmpl))
		abort();
	snprintf(obj_path, sizeof(obj_path), "%s/input.bpf.o", tmpl);
	return 0;
}
