/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * setarg.h - the --set language (setarg.c): "NAME=VALUE" given to a
 * program's globals, and the files and buffers its values make, which the
 * caller owns in a struct setarg_res. The CLI's run, load and run FILE
 * use it; the project's tests link it from the internal archive.
 *
 *	struct setarg_res res = {};
 *
 *	setarg_apply(h, &res, "fd_in=@in.txt", &err);	// each --set
 *	...check the kernel, bind the ring, load...
 *	setarg_attach(h, &res, &err);	// attach, @>PATH files made
 *	...
 *	iouring_bpf_close(h);
 *	setarg_free(&res);		// after close: nothing uses them
 */
#ifndef __IOURING_BPF_SETARG_H
#define __IOURING_BPF_SETARG_H

#include "engine.h"

#define SETARG_MAX_RES	8

/*
 * What the values made. @>PATH outputs: the fd stored in the global is
 * reserved at set time (the file if it exists, opened without O_TRUNC;
 * else a placeholder) and becomes PATH, created or truncated, only when
 * the program is attached (setarg_attach()): a refused start changes no
 * file. Zero-initialised: nothing made.
 */
struct setarg_res {
	int	fds[SETARG_MAX_RES];	/* every fd, outputs' included */
	int	nfds;
	struct {
		void	*addr;
		size_t	len;
	}	bufs[SETARG_MAX_RES];
	int	nbufs;
	struct setarg_output {
		int	fd;		/* the number the global holds */
		int	exists;		/* PATH existed at set time: fd is it */
		int	created;	/* the commit created PATH */
		char	*path;
	}	outs[SETARG_MAX_RES];
	int	nouts;
	int	outs_done;		/* committed */
};

/*
 * One "NAME=VALUE" (the syntax: setarg.c). A built-in program accepts
 * only its listed parameters, as numbers. 0, or a negative errno with err
 * filled (USAGE naming the global, its section and type).
 */
int setarg_apply(struct iouring_bpf *h, struct setarg_res *res,
		 const char *kv, struct iouring_bpf_error *err);
/*
 * iouring_bpf_attach_link() with the @>PATH outputs made around it: an
 * op's before (any ring may call it once registered), a loop program's
 * after; a failure detaches and removes the files the commit created
 */
int setarg_attach(struct iouring_bpf *h, struct setarg_res *res,
		  struct iouring_bpf_error *err);
/* close the fds, unmap the buffers; res is empty again */
void setarg_free(struct setarg_res *res);

#endif /* __IOURING_BPF_SETARG_H */
