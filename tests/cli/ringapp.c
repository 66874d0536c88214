// SPDX-License-Identifier: GPL-2.0
/*
 * ringapp.c - an application with its own ring, for `iouring-bpf load
 * PROG --ring PID:FD`. Creates the ring (MODE defer: SINGLE_ISSUER |
 * DEFER_TASKRUN | NO_SQARRAY, array: the same with an SQ array, or plain:
 * no flags), writes "PID FD" to
 * DIR/ring, then obeys DIR/cmd-1, DIR/cmd-2, ... as they appear:
 *   enter  io_uring_enter(fd, 0, 0, GETEVENTS) with a 5 s timeout; writes
 *          "ret=R sq_head=H cq_ready=N" to DIR/out-K
 *   nops   submit 3 NOPs and wait for them (min_complete 3), same report,
 *          then reap the CQEs
 *   exit   leave
 * Usage: ringapp defer|array|plain DIR   (gives up after 600 s without a
 * command: a test on the debug kernel under emulation may take minutes
 * between two; the test kills it at its end)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ring.h"

static int wait_cmd(const char *dir, int k, char *cmd, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cmd-%d", dir, k);
	for (int i = 0; i < 60000; i++) {
		f = fopen(path, "r");
		if (f) {
			if (fgets(cmd, len, f)) {
				fclose(f);
				cmd[strcspn(cmd, "\n")] = '\0';
				return 0;
			}
			fclose(f);
		}
		usleep(10000);
	}
	return -1;
}

int main(int argc, char **argv)
{
	char path[512], tmp[512], cmd[64];
	unsigned int flags = 0;
	struct ring r;
	FILE *f;
	int ret;

	if (argc != 3) {
		fprintf(stderr, "usage: ringapp defer|array|plain DIR\n");
		return 2;
	}
	if (!strcmp(argv[1], "defer"))
		flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
			IORING_SETUP_NO_SQARRAY;
	else if (!strcmp(argv[1], "array"))
		flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	ret = ring_init(&r, 8, 16, flags);
	if (ret) {
		fprintf(stderr, "ringapp: io_uring_setup: %s\n", strerror(-ret));
		return 1;
	}
	snprintf(tmp, sizeof(tmp), "%s/ring.tmp", argv[2]);
	snprintf(path, sizeof(path), "%s/ring", argv[2]);
	f = fopen(tmp, "w");
	if (!f)
		return 1;
	fprintf(f, "%d %d\n", getpid(), r.fd);
	fclose(f);
	rename(tmp, path);

	for (int k = 1; !wait_cmd(argv[2], k, cmd, sizeof(cmd)); k++) {
		if (!strcmp(cmd, "exit"))
			break;
		if (!strcmp(cmd, "nops")) {
			/* a loop program may have moved the SQ tail: resync */
			r.sqe_tail = *r.sq_tail;
			for (int i = 0; i < 3; i++)
				ring_prep_nop(ring_get_sqe(&r), i);
			ret = ring_submit_and_wait(&r, 3);
		} else {
			ret = ring_wait(&r, 0, 5000000000LL);
		}
		snprintf(tmp, sizeof(tmp), "%s/out-%d.tmp", argv[2], k);
		snprintf(path, sizeof(path), "%s/out-%d", argv[2], k);
		f = fopen(tmp, "w");
		if (!f)
			return 1;
		fprintf(f, "ret=%d sq_head=%u cq_ready=%u\n", ret, *r.sq_head,
			ring_cq_ready(&r));
		fclose(f);
		rename(tmp, path);
		ring_cq_advance(&r, ring_cq_ready(&r));
	}
	ring_exit(&r);
	return 0;
}
