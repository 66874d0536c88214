// SPDX-License-Identifier: GPL-2.0
/*
 * unload.c - `iouring-bpf unload NAME|OPID|all`: remove pins made by
 * `load`. Removing the last reference to a struct_ops link detaches it:
 * the op id is free again, the ring's io_uring_enter() is normal again.
 */
#include <argp.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	return cli_one_arg(state, key, arg, state->input,
			   "unload takes one argument",
			   "what to unload? a name (see `iouring-bpf show`), an op id, or all");
}

static const struct argp argp = {
	NULL, parse_opt, "NAME|OPID|all",
	"Unload what `iouring-bpf load` pinned: by its name, by the op id an "
	"IORING_OP_BPF program registered, or everything.", NULL, NULL, NULL,
};

static int remove_pin(const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), PIN_DIR "/%s", name);
	if (unlink(path))
		return cli_fail(errno == EPERM || errno == EACCES ? EXIT_PERM :
				EXIT_FAIL, "unload", "cannot remove %s: %s",
				path, strerror(errno));
	printf("unloaded %s\n", name);
	return EXIT_OK;
}

int cmd_unload(int argc, char **argv)
{
	const char *what = NULL;
	struct link_desc *pins = NULL;
	int n = 0, i, ret = EXIT_OK, found = 0, r, opid;
	char path[512];

	argp_parse(&argp, argc, argv, 0, NULL, &what);
	if (strchr(what, '/') || !strcmp(what, ".."))
		return cli_fail(EXIT_USAGE, "unload", "'%s' is not a name",
				what);
	snprintf(path, sizeof(path), PIN_DIR "/%s", what);
	if (strcmp(what, "all") && !access(path, F_OK))
		return remove_pin(what);

	r = pins_list(&pins, &n);
	if (r == -EACCES || r == -EPERM)
		return cli_fail(EXIT_PERM, "unload", "cannot read %s: %s; run as root",
				PIN_DIR, strerror(-r));
	/* digits only: an op id */
	opid = *what && !what[strspn(what, "0123456789")] ? atoi(what) : -1;
	for (i = 0; i < n; i++) {
		if (strcmp(what, "all") && (opid < 0 || pins[i].op_id != opid))
			continue;
		found++;
		r = remove_pin(pins[i].pin);
		if (r)
			ret = r;
	}
	free(pins);
	if (!found && strcmp(what, "all"))
		return cli_fail(EXIT_FAIL, "unload", "nothing loaded as '%s' (`iouring-bpf show` lists what is attached; only what `load` pinned can be unloaded)",
				what);
	if (!found)
		printf("nothing to unload\n");
	return ret;
}
