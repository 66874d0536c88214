// SPDX-License-Identifier: GPL-2.0
/*
 * unload.c - `iouring-bpf unload NAME|OPID|all`: remove pins made by
 * `load`. Removing the last reference to a struct_ops link detaches it:
 * the op id is free again, the ring's io_uring_enter() is normal again.
 * `unload --broker PID` ends the holder process of a `load --broker`
 * (broker.c): its connection closes and iouring-bpfd detaches.
 */
#include <argp.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

struct unload_args {
	const char	*what;
	int		broker;		/* --broker: what is a holder's pid */
};

#define OPT_UNLOAD_BROKER	0x100

static const struct argp_option options[] = {
	{ "broker", OPT_UNLOAD_BROKER, NULL, 0,
	  "The argument is the pid of the holder that `load --broker` started: end it, and iouring-bpfd detaches the program",
	  0 },
	{ 0 },
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct unload_args *a = state->input;

	if (key == OPT_UNLOAD_BROKER) {
		a->broker = 1;
		return 0;
	}
	return cli_one_arg(state, key, arg, &a->what,
			   "unload takes one argument",
			   "what to unload? a name (see `iouring-bpf show`), an op id, or all; or --broker HOLDER");
}

static const struct argp argp = {
	options, parse_opt, "NAME|OPID|all\n--broker HOLDER",
	"Unload what `iouring-bpf load` pinned: by its name, by the op id an "
	"IORING_OP_BPF program registered, or everything; with --broker, what "
	"`load --broker` attached, by the pid of its holder process. With "
	"--json: {\"unloaded\": [names], \"failed\": [{name, message}]} "
	"(docs/json/unload.schema.json; --broker: the holder's pid as the "
	"name).", cli_common, NULL, NULL,
};

/* what was removed and what could not be, for --json */
struct unloaded {
	struct json	j;
	int		n;
	char		failed[8][1024];
	int		nfailed;
};

static int remove_pin(const char *name, struct unloaded *u)
{
	char path[512];
	int status;

	snprintf(path, sizeof(path), PIN_DIR "/%s", name);
	if (unlink(path)) {
		status = errno == EPERM || errno == EACCES ? EXIT_PERM :
			 EXIT_FAIL;
		if (u->nfailed < 8)
			snprintf(u->failed[u->nfailed++], sizeof(u->failed[0]),
				 "%s\tcannot remove %s: %s", name, path,
				 strerror(errno));
		if (!cli_json)
			return cli_fail(status, "unload", "cannot remove %s: %s",
					path, strerror(errno));
		fprintf(stderr, "iouring-bpf unload: cannot remove %s: %s\n",
			path, strerror(errno));
		return status;
	}
	pin_owner_forget(name);
	if (!cli_json)
		printf("unloaded %s\n", name);
	else
		json_str(&u->j, NULL, name);
	u->n++;
	return EXIT_OK;
}

static void json_open(struct unloaded *u)
{
	json_start(&u->j, stdout);
	json_obj(&u->j, NULL);
	json_arr(&u->j, "unloaded");
}

static void json_close(struct unloaded *u)
{
	int i;

	json_end(&u->j, NULL);
	json_arr(&u->j, "failed");
	for (i = 0; i < u->nfailed; i++) {
		char *tab = strchr(u->failed[i], '\t');

		*tab = '\0';
		json_obj(&u->j, NULL);
		json_str(&u->j, "name", u->failed[i]);
		json_str(&u->j, "message", tab + 1);
		json_end(&u->j, NULL);
	}
	json_end(&u->j, NULL);
	json_end(&u->j, NULL);
	putchar('\n');
}

/* --broker PID: end the holder; the daemon detaches */
static int unload_broker(const char *pid)
{
	struct iouring_bpf_error err;
	struct unloaded u = { .n = 0 };
	int status;

	if (!cli_broker_unhold(pid, &err)) {
		if (!cli_json) {
			printf("unloaded the program of holder %s (iouring-bpfd detached it)\n",
			       pid);
			return EXIT_OK;
		}
		json_open(&u);
		json_str(&u.j, NULL, pid);
		json_close(&u);
		return EXIT_OK;
	}
	if (!cli_json || err.status == IOURING_BPF_USAGE)
		return report_error("unload", &err);
	status = cli_exit_code(err.status);
	fprintf(stderr, "iouring-bpf unload: %s\n", err.msg);
	snprintf(u.failed[u.nfailed++], sizeof(u.failed[0]), "%.20s\t%.990s", pid,
		 err.msg);
	json_open(&u);
	json_close(&u);
	return status;
}

int cmd_unload(int argc, char **argv)
{
	struct unload_args a = { 0 };
	const char *what;
	struct link_desc *pins = NULL;
	int n = 0, i, ret = EXIT_OK, found = 0, r, opid;
	struct unloaded u = { .n = 0 };
	char path[512];

	cli_parse(&argp, argc, argv, 0, &a);
	what = a.what;
	if (a.broker)
		return unload_broker(what);
	if (strchr(what, '/') || !strcmp(what, "..") || !strcmp(what, "."))
		return cli_fail(EXIT_USAGE, "unload", "'%s' is not a name",
				cli_arg(what));
	if (strlen(what) > 255)
		return cli_fail(EXIT_USAGE, "unload", "nothing loaded as '%s': names are at most 255 bytes",
				cli_arg(what));
	snprintf(path, sizeof(path), PIN_DIR "/%s", what);
	if (strcmp(what, "all") && !access(path, F_OK)) {
		if (cli_json)
			json_open(&u);
		ret = remove_pin(what, &u);
		if (cli_json)
			json_close(&u);
		return ret;
	}

	r = pins_list(&pins, &n);
	if (r == -EACCES || r == -EPERM)
		return cli_fail(EXIT_PERM, "unload", "cannot read %s: %s; run as root",
				PIN_DIR, strerror(-r));
	/* digits only: an op id */
	opid = *what && !what[strspn(what, "0123456789")] ? atoi(what) : -1;
	for (i = 0; i < n; i++) {
		if (strcmp(what, "all") && (opid < 0 || pins[i].op_id != opid))
			continue;
		if (!found++ && cli_json)
			json_open(&u);
		r = remove_pin(pins[i].pin, &u);
		if (r)
			ret = r;
	}
	free(pins);
	if (!found && strcmp(what, "all"))
		return cli_fail(EXIT_FAIL, "unload", "nothing loaded as '%s' (`iouring-bpf show` lists what is attached; only what `load` pinned can be unloaded)",
				cli_arg(what));
	if (!found && cli_json)
		json_open(&u);
	if (cli_json)
		json_close(&u);
	else if (!found)
		printf("nothing to unload\n");
	return ret;
}
