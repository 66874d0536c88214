/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * engine-broker.h - the broker call for the CLI's engine (engine.h):
 * iouring_bpf_broker_attach() (iouring-bpf/broker.h) with the daemon's
 * outcome in a struct iouring_bpf_error (its status is the CLI's exit
 * code, its fix the daemon's hint) instead of the print callback. Not
 * installed.
 */
#ifndef __IOURING_BPF_ENGINE_BROKER_H
#define __IOURING_BPF_ENGINE_BROKER_H

#include "engine.h"
#include "iouring-bpf/broker.h"

/* the connection's fd, or a negative errno with err filled */
int iou_broker_attach(int ring_fd, const char *prog,
		      const struct iouring_bpf_broker_opts *opts,
		      struct iouring_bpf_error *err);

#endif /* __IOURING_BPF_ENGINE_BROKER_H */
