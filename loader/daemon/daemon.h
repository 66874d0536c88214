/* SPDX-License-Identifier: GPL-2.0 */
/*
 * daemon.h - what the files of iouring-bpfd share. The daemon is in
 * small parts: main.c (socket, connections, limits), policy.c (the
 * policy file and `iouring-bpfd check`), ring.c (the client's ring:
 * owner and flags, read from the kernel), attach.c (every call into
 * libiouring-bpf: programs, parameters, filters, attach), log.c (one
 * line per decision), sha256.c. docs/broker.md is the user's map.
 */
#ifndef __IOURING_BPFD_H
#define __IOURING_BPFD_H

#include <stddef.h>
#include <sys/types.h>

#define POL_MAX_RULES		64
#define POL_MAX_IDS		16
#define POL_MAX_PARAMS		16
#define POL_NAME_MAX		64

/* a parameter's bounds in a rule */
struct pol_param {
	char		name[POL_NAME_MAX];
	long long	min, max;
};

/* one "program NAME" or "object NAME PATH sha256 HEX" block */
struct pol_rule {
	char		name[POL_NAME_MAX];
	int		is_object;
	char		path[256];		/* objects: the installed file */
	unsigned char	sha256[32];
	int		all_users;		/* users * */
	uid_t		uids[POL_MAX_IDS];
	int		nuids;
	gid_t		gids[POL_MAX_IDS];
	int		ngids;
	struct pol_param params[POL_MAX_PARAMS];
	int		nparams;
	int		max_attached;		/* per user, this program; 0: none */
	char		opcodes[512];		/* "nop, read", or "" */
	int		line;			/* where the block starts */
};

struct policy {
	char		file[256];
	struct pol_rule	rules[POL_MAX_RULES];
	int		nrules;
	/* per-user limits (the "limits" block) */
	int		user_connections;	/* default 16 */
	int		user_attached;		/* default 8 */
	int		max_connections;	/* all users; default 1024 */
};

/*
 * Parse the policy file path into pol. 0, or -1 with msg one line
 * "FILE:LINE:COL: problem; what to write instead". Program names are
 * checked against the built-ins, objects' files against their SHA-256,
 * opcode lists by compiling them (attach.c).
 */
int policy_load(const char *path, struct policy *pol, char *msg, size_t len);
const struct pol_rule *policy_find(const struct policy *pol, const char *name);
/* may uid (with groups) use rule r? */
int policy_user_ok(const struct pol_rule *r, uid_t uid, gid_t gid,
		   const gid_t *groups, int ngroups);
const struct pol_param *policy_param(const struct pol_rule *r,
				     const char *name);
/* a name as the protocol and the policy take them: [A-Za-z0-9_.-], 1..63 */
int policy_name_ok(const char *s);

/* sha256.c */
void sha256(const void *data, size_t len, unsigned char out[32]);
/* the file's digest: 0, or -errno */
int sha256_file(const char *path, unsigned char out[32]);

/* ring.c: what the kernel says of a ring fd the daemon holds */
struct ring_facts {
	int		is_ring;
	unsigned int	flags;		/* its setup flags */
	unsigned int	creator_uid;	/* the user whose ring it is */
	int		submitter_tgid;	/* 0: none yet (R_DISABLED) */
};
int ring_init(char *msg, size_t len);
int ring_facts(int fd, struct ring_facts *rf, char *msg, size_t len);

/* attach.c: every call into libiouring-bpf (its public calls only) */
struct attached;
struct attach_req {
	const struct pol_rule	*rule;
	const char		*params[POL_MAX_PARAMS + 1];	/* KEY=VALUE */
	int			nparams;
	int			ring_fd;
	int			ring_disabled;	/* R_DISABLED: filters allowed */
};
struct attach_out {
	int	status;			/* enum iob_status */
	int	err;
	int	fix;
	char	msg[1024];
	char	binding[32];
	char	limit[32];		/* how the opcodes are limited, or "" */
	int	nfds;			/* read-only map fds, the caller's */
	int	fds[4];
	char	sections[4][16];
};
/* is name a built-in program: 1, 0 */
int attach_is_builtin(const char *name);
/*
 * lo..hi within the built-in prog's own range for param: 0, -ENOENT (no
 * such program or parameter), or -ERANGE with the library's msg
 */
int attach_param_check(const char *prog, const char *param, long long lo,
		       long long hi, char *msg, size_t len);
/*
 * an opcode list ("read, write"): each an opcode of the running kernel
 * (its BTF), as the filter language names them. 0, or -1 with msg and
 * *col the offset of the word in list
 */
int attach_check_opcodes(const char *list, char *msg, size_t len, int *col);
struct attached *attach_program(const struct attach_req *req,
				struct attach_out *out);
void attach_release(struct attached *a);
void attach_init(int verbose);

/* log.c: one line per decision, to stderr (the journal under systemd) */
extern int log_json;
void log_decision(const char *what, pid_t pid, uid_t uid, const char *prog,
		  const char *params, int status, const char *reason);

#endif /* __IOURING_BPFD_H */
