// SPDX-License-Identifier: GPL-2.0
/*
 * load.c - `iouring-bpf load`: load a program, attach it and pin the link
 * under /sys/fs/bpf/iouring-bpf/<name>, so it stays after the CLI exits.
 *
 * Op programs register under an op id (--id N, default the program's) for
 * every IORING_SETUP_BPF ring. Loop programs attach to one ring of another
 * process: --ring PID:FD takes a copy of that fd (pidfd_open +
 * pidfd_getfd, needs ptrace rights over PID), which is the ring_fd the
 * kernel resolves while attaching.
 *
 * --broker: no privilege, no pin; the ring taken the same way goes to a
 * holder process that has iouring-bpfd attach the program and stays
 * connected until the ring's owner exits (broker.c, cli_broker_hold()).
 */
#include <argp.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include "cli.h"

struct load_args {
	const char	*prog;
	struct prog_args pa;		/* --set, --id */
	long long	ring_pid, ring_fd;
	const char	*name;
	const char	*broker;	/* --broker: its SOCKET, or "" */
	int		ring;		/* our copy of the ring fd, or -1 */
	int		pidfd;		/* --broker: the ring owner's, or -1 */
	struct setarg_res set;		/* what --set made: fds, buffers */
};

/* --broker: long only */
#define OPT_LOAD_BROKER	0x100

static const struct argp_option options[] = {
	{ "id", 'i', "N", 0, "Op programs: register as op id N (0..255)", 0 },
	{ "ring", 'r', "PID:FD", 0, "Loop programs: attach to fd FD of process PID", 0 },
	{ "set", 's', "KEY=VALUE", 0, "Set a parameter (repeatable)", 0 },
	{ "name", 'n', "NAME", 0, "Pin name (default: the program's, plus -PID-FD for loop programs)", 0 },
	{ "broker", OPT_LOAD_BROKER, "SOCKET", OPTION_ARG_OPTIONAL,
	  "Without privilege: iouring-bpfd attaches the loop program to --ring PID:FD (a process of yours), and a holder process keeps it attached until PID exits or `unload --broker HOLDER` (SOCKET: default $IOURING_BPF_BROKER_SOCKET or " IOURING_BPF_BROKER_SOCKET "); nothing is pinned",
	  0 },
	{ 0 },
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct load_args *a = state->input;

	switch (key) {
	case 'r':
		if (parse_ring_arg("load", arg, &a->ring_pid, &a->ring_fd))
			exit(EXIT_USAGE);
		break;
	case 'n':
		if (!*arg || strchr(arg, '/') || strchr(arg, '.'))
			cli_usage(state, "--name must be a plain name without '/' or '.'");
		a->name = arg;
		break;
	case OPT_LOAD_BROKER:
		a->broker = arg ? arg : "";
		break;
	case ARGP_KEY_ARG:
		if (cli_broker_arg(&a->broker, &a->prog, arg))
			break;
		/* fallthrough */
	case ARGP_KEY_END:
		return cli_one_arg(state, key, arg, &a->prog, "load takes one program",
				   "which program? a name from `iouring-bpf list` or a .bpf.o file");
	case 's':
	case 'i':
		return prog_args_opt(&a->pa, "load", key, arg, state);
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp argp = {
	options, parse_opt, "PROG|FILE.bpf.o",
	"Load a program, attach it and pin it under " PIN_DIR "/NAME so that "
	"it stays attached after this command exits; `iouring-bpf unload NAME` "
	"removes it. An op program (struct uring_bpf_ops) registers an "
	"IORING_OP_BPF op id for every ring created with IORING_SETUP_BPF. A "
	"loop program needs --ring PID:FD: an io_uring of a running process, "
	"created with IORING_SETUP_SINGLE_ISSUER|IORING_SETUP_DEFER_TASKRUN. "
	"The binding follows the kernel's BTF: v3's struct io_uring_ops (the "
	"project's kernel) or mainline's struct io_uring_bpf_ops (Linux 7.1+); "
	"a FILE.bpf.o may carry either map or both, and only the kernel's is "
	"created. The ring's layout (entries, offsets, SQ array or not) is read "
	"from the kernel and fills the ring globals the program declares "
	"(sq_entries, cq_entries, cq_head_offset, cq_tail_offset, cqes_offset, "
	"... and iou_*). --set reaches every global (.rodata, .data, .bss; "
	"NAME[I]=V for arrays, strings for char arrays); resources (@PATH, "
	"@buf:N) only with `run`, since they would belong to this process. "
	"With --json: what was loaded and where, as one object "
	"(docs/json/load.schema.json). With --broker: attached by "
	"iouring-bpfd for as long as process PID lives, without privilege "
	"or pin (docs/broker.md).",
	cli_common, NULL, NULL,
};

/* a copy of fd `fd` of process `pid` in this process, or -errno */
static int grab_fd(int pid, int fd, int *pidfd_out,
		   struct iouring_bpf_error *err)
{
	char path[64], target[128] = "";
	int pidfd, ret, e;
	struct stat st;
	ssize_t n;

	pidfd = syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0 && errno == ESRCH)
		return iouring_bpf_errorf(err, IOURING_BPF_USAGE, errno,
					  "--ring %d:%d: there is no process %d",
					  pid, fd, pid);
	if (pidfd < 0)
		return iouring_bpf_errorf(err, IOURING_BPF_FAIL, errno,
					  "pidfd_open(%d): %s", pid,
					  strerror(errno));
	ret = syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	e = errno;
	if (ret < 0 || !pidfd_out)
		close(pidfd);
	else
		*pidfd_out = pidfd;
	if (ret < 0 && e == EBADF)
		return iouring_bpf_errorf(err, IOURING_BPF_USAGE, e,
					  "--ring %d:%d: process %d has no fd %d",
					  pid, fd, pid, fd);
	snprintf(path, sizeof(path), "/proc/%d", pid);
	if (ret < 0 && e == EPERM && !stat(path, &st) && st.st_uid != getuid())
		return iouring_bpf_errorf(err, IOURING_BPF_PERM, e,
					  "--ring %d:%d: process %d is not yours (/proc/%d belongs to uid %u, you are uid %u%s): taking its fd (pidfd_getfd()) needs ptrace rights over it; run this as the user who runs it, or as root",
					  pid, fd, pid, pid, (unsigned int)st.st_uid,
					  (unsigned int)getuid(), st.st_uid ? "" :
					  ", or it is not dumpable: setuid, or PR_SET_DUMPABLE 0");
	if (ret < 0 && e == EPERM)
		return iouring_bpf_errorf(err, IOURING_BPF_PERM, e,
					  "--ring %d:%d: not allowed to take the fd: pidfd_getfd() needs ptrace rights over process %d, and kernel.yama.ptrace_scope (1: only a parent may trace) or an LSM keeps them from you; run this as root, or let the application allow it (prctl(PR_SET_PTRACER)), or set kernel.yama.ptrace_scope=0",
					  pid, fd, pid);
	if (ret < 0)
		return iouring_bpf_errorf(err, IOURING_BPF_FAIL, e,
					  "pidfd_getfd(%d, %d): %s", pid, fd,
					  strerror(e));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", ret);
	n = readlink(path, target, sizeof(target) - 1);
	if (n > 0)
		target[n] = '\0';
	if (!strcmp(target, "anon_inode:[io_uring]"))
		return ret;
	close(ret);
	if (pidfd_out) {
		close(*pidfd_out);
		*pidfd_out = -1;
	}
	return iouring_bpf_errorf(err, IOURING_BPF_USAGE, EBADF,
				  "--ring %d:%d: fd %d of process %d is not an io_uring (it is %s)",
				  pid, fd, fd, pid, target);
}

/*
 * The start, in a straight line: --set and --id, the kernel check, then
 * (loop programs) the ring of the other process, taken after the check so
 * that "the kernel lacks it" comes before poking at other processes, and
 * bound; load, attach, pin. 0, or a negative errno with err filled.
 */
static int load_start(struct iouring_bpf *h, struct load_args *a,
		      const char *path, struct iouring_bpf_error *err)
{
	int i, ret = 0;

	for (i = 0; i < a->pa.nsets && !ret; i++)
		ret = setarg_apply(h, &a->set, a->pa.sets[i], err);
	if (!ret && a->pa.have_id)
		ret = iouring_bpf_set_op_id(h, a->pa.id, err);
	if (!ret)
		ret = iouring_bpf_check_kernel(h, err);
	if (!ret && iouring_bpf_kind(h) == IOURING_BPF_KIND_LOOP) {
		a->ring = grab_fd(a->ring_pid, a->ring_fd, NULL, err);
		ret = a->ring < 0 ? a->ring :
		      iouring_bpf_set_ring(h, a->ring, NULL, err);
	}
	if (!ret)
		ret = iouring_bpf_load(h, err);
	if (!ret)
		ret = setarg_attach(h, &a->set, err);
	if (!ret)
		ret = iouring_bpf_pin(h, path, err);
	return ret;
}

static void print_loop_loaded(struct iouring_bpf *h, const struct load_args *a,
			      const char *path)
{
	const struct io_uring_params *p = iouring_bpf_ring_params(h);

	printf("loaded %s: attached to the ring fd %lld of process %lld; pinned at %s\nbinding: %s\n",
	       iouring_bpf_name(h), a->ring_fd, a->ring_pid, path,
	       iouring_bpf_loop_api_desc(iouring_bpf_loop_binding(h)));
	printf("ring: %u SQ / %u CQ entries, flags 0x%x, %s\n",
	       p->sq_entries, p->cq_entries, p->flags,
	       p->flags & IORING_SETUP_NO_SQARRAY ? "no SQ array" :
	       "an SQ array");
}

/* the fields every --json answer of load starts with */
static void json_load_head(struct json *j, struct iouring_bpf *h)
{
	json_start(j, stdout);
	json_obj(j, NULL);
	json_str(j, "loaded", iouring_bpf_name(h));
	json_str(j, "kind", iouring_bpf_kind_name(iouring_bpf_kind(h)));
	json_str(j, "struct_ops", iouring_bpf_ops_type(h));
}

/* --json: one object (docs/json/load.schema.json) */
static void json_loaded(struct iouring_bpf *h, const struct load_args *a,
			const char *pin, const char *path, int loop)
{
	const struct io_uring_params *p;
	char unload[300];
	struct json j;

	json_load_head(&j, h);
	json_str(&j, "name", pin);
	json_str(&j, "pinned_at", path);
	if (!loop) {
		json_int(&j, "op_id", iouring_bpf_op_id(h));
	} else {
		p = iouring_bpf_ring_params(h);
		json_str(&j, "binding",
			 iouring_bpf_loop_api_key(iouring_bpf_loop_binding(h)));
		json_obj(&j, "ring");
		json_int(&j, "pid", a->ring_pid);
		json_int(&j, "fd", a->ring_fd);
		json_int(&j, "sq_entries", p->sq_entries);
		json_int(&j, "cq_entries", p->cq_entries);
		json_int(&j, "flags", p->flags);
		json_bool(&j, "sq_array", !(p->flags & IORING_SETUP_NO_SQARRAY));
		json_end(&j, NULL);
	}
	snprintf(unload, sizeof(unload), "iouring-bpf unload %s", pin);
	json_str(&j, "unload", unload);
	json_end(&j, NULL);
	putchar('\n');
}

/*
 * --broker: the same start up to the ring (--set, the kernel check), the
 * ring taken with the owner's pidfd, then a holder attaches it through
 * the daemon. The holder's pid, or a negative errno with err filled.
 */
static int broker_start(struct iouring_bpf *h, struct load_args *a,
			struct iouring_bpf_error *err)
{
	int i, ret;

	ret = cli_broker_check(h, err);
	for (i = 0; i < a->pa.nsets && !ret; i++)
		ret = setarg_apply(h, &a->set, a->pa.sets[i], err);
	if (!ret)
		ret = iouring_bpf_check_kernel(h, err);
	if (ret)
		return ret;
	a->ring = grab_fd(a->ring_pid, a->ring_fd, &a->pidfd, err);
	if (a->ring < 0)
		return a->ring;
	return cli_broker_hold(h, a->broker, a->ring, a->pidfd, err);
}

static const char *broker_socket(const char *socket)
{
	const char *env = getenv("IOURING_BPF_BROKER_SOCKET");

	return *socket ? socket : env && *env ? env :
	       IOURING_BPF_BROKER_SOCKET;
}

static void print_broker_loaded(struct iouring_bpf *h,
				const struct load_args *a, int holder)
{
	printf("loaded %s: attached to the ring fd %lld of process %lld by iouring-bpfd (%s); held by process %d until process %lld exits; nothing pinned\nbinding: %s\n",
	       iouring_bpf_name(h), a->ring_fd, a->ring_pid,
	       broker_socket(a->broker), holder, a->ring_pid,
	       iouring_bpf_loop_api_desc(iouring_bpf_loop_binding(h)));
	printf("unload with: iouring-bpf unload --broker %d\n", holder);
}

/* --json: the object of a pinned load with holder and broker for the pin */
static void json_broker_loaded(struct iouring_bpf *h, const struct load_args *a,
			       int holder)
{
	char unload[64];
	struct json j;

	json_load_head(&j, h);
	json_str(&j, "broker", broker_socket(a->broker));
	json_int(&j, "holder", holder);
	json_str(&j, "binding",
		 iouring_bpf_loop_api_key(iouring_bpf_loop_binding(h)));
	json_obj(&j, "ring");
	json_int(&j, "pid", a->ring_pid);
	json_int(&j, "fd", a->ring_fd);
	json_end(&j, NULL);
	snprintf(unload, sizeof(unload), "iouring-bpf unload --broker %d",
		 holder);
	json_str(&j, "unload", unload);
	json_end(&j, NULL);
	putchar('\n');
}

int cmd_load(int argc, char **argv)
{
	struct load_args a = { 0 };
	struct iouring_bpf_error err;
	struct iouring_bpf *h;
	char pin[256], path[512];
	int ret = EXIT_OK, loop, i;

	a.ring = -1;
	a.pidfd = -1;
	cli_parse(&argp, argc, argv, 0, &a);
	if (cli_check_prog("load", a.prog))
		return EXIT_USAGE;
	h = iouring_bpf_open(a.prog, &err);
	if (!h)
		return report_error("load", &err);
	loop = iouring_bpf_kind(h) == IOURING_BPF_KIND_LOOP;
	if (!loop && a.ring_pid) {
		ret = cli_fail(EXIT_USAGE, "load", "%s is an IORING_OP_BPF op: it serves every IORING_SETUP_BPF ring; --ring is for loop programs (use --id N)",
			       iouring_bpf_name(h));
		goto out;
	}
	if (loop && a.pa.have_id) {
		ret = cli_fail(EXIT_USAGE, "load", "%s is a loop program: --id is for IORING_OP_BPF ops",
			       iouring_bpf_name(h));
		goto out;
	}
	if (loop && !a.ring_pid) {
		ret = cli_fail(EXIT_USAGE, "load", "%s is a loop program: it attaches to one ring; say which with --ring PID:FD (or try it with `iouring-bpf run %s`)",
			       iouring_bpf_name(h), iouring_bpf_name(h));
		goto out;
	}
	for (i = 0; i < a.pa.nsets; i++) {
		const char *eq = strchr(a.pa.sets[i], '=');

		if (eq && eq[1] == '@') {
			ret = cli_fail(EXIT_USAGE, "load", "--set %s: resources (@PATH, @>PATH, @buf:N) are made in this process and end with it; a loaded program runs in %s, where they mean nothing: give that process's own fd or address as a number, or try the program with `iouring-bpf run FILE`",
				       cli_arg(a.pa.sets[i]), loop ?
				       "the io_uring_enter() of process PID" :
				       "the requests of other processes");
			goto out;
		}
	}
	if (a.broker && !loop) {
		ret = cli_fail(EXIT_USAGE, "load", "--broker: %s is an IORING_OP_BPF op: it serves every ring of the system, so the broker does not attach it; --broker is for loop programs",
			       iouring_bpf_name(h));
		goto out;
	}
	if (a.broker && a.name) {
		ret = cli_fail(EXIT_USAGE, "load", "--name names a pin, and --broker pins nothing: the program stays attached while process %lld lives, or until `iouring-bpf unload --broker HOLDER`; drop --name",
			       a.ring_pid);
		goto out;
	}
	if (a.broker) {
		ret = broker_start(h, &a, &err);
		if (ret < 0)
			goto fail;
		if (cli_json)
			json_broker_loaded(h, &a, ret);
		else
			print_broker_loaded(h, &a, ret);
		ret = EXIT_OK;
		goto out;
	}
	if (loop && !a.name)
		snprintf(pin, sizeof(pin), "%s-%lld-%lld", iouring_bpf_name(h),
			 a.ring_pid, a.ring_fd);
	else
		snprintf(pin, sizeof(pin), "%s",
			 a.name ? a.name : iouring_bpf_name(h));
	snprintf(path, sizeof(path), PIN_DIR "/%s", pin);
	if (!access(path, F_OK)) {
		ret = cli_fail(EXIT_FAIL, "load", "%s is already loaded (%s); unload it first (iouring-bpf unload %s) or pick another --name",
			       pin, path, pin);
		goto out;
	}
	if (load_start(h, &a, path, &err))
		goto fail;
	if (loop)
		pin_owner_save(pin, a.ring_pid, a.ring_fd);

	if (cli_json) {
		json_loaded(h, &a, pin, path, loop);
		goto out;
	}
	if (!loop)
		printf("loaded %s: IORING_OP_BPF op id %d for every IORING_SETUP_BPF ring; pinned at %s\n",
		       iouring_bpf_name(h), iouring_bpf_op_id(h), path);
	else
		print_loop_loaded(h, &a, path);
	printf("unload with: iouring-bpf unload %s\n", pin);
	goto out;
fail:
	ret = report_error("load", &err);
out:
	if (a.ring >= 0)
		close(a.ring);
	if (a.pidfd >= 0)
		close(a.pidfd);
	iouring_bpf_close(h);	/* the pin keeps the link */
	setarg_free(&a.set);
	return ret;
}
