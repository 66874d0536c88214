#!/bin/bash
# An SQ_REWIND ring made by liburing 2.15 (io_uring_queue_init_params()
# with NO_SQARRAY | SQ_REWIND), served by libiouring-bpf through
# iouring-bpf/liburing.h: nop-chain fills its own SQEs from index 0 (1000
# NOPs, counters, SQ head and tail 0, liburing's own NOP after detach);
# cq-stats submits the application's SQEs, which liburing queues from
# index 0 and the application counts in the SQ tail with
# iouring_bpf_liburing_publish() (each request once, in order, with its
# result; the tail zeroed; the program's counts equal the application's).
# SQ_REWIND is Linux 7.0+: the stock kernel only (bit 20 is
# IORING_SETUP_BPF on ours, where test_ring_modes checks the refusal).
# See liburing_rewind.c (built on the host by tests/Makefile against the
# liburing tests/host/fetch_liburing.sh unpacks).
# kernels: stock
source "$(dirname "$0")/lib.sh"
loop_feature_or_skip
[ -x "$HELPERS/liburing_rewind" ] ||
	skip "no $HELPERS/liburing_rewind: make -C tests builds it when tests/host/fetch_liburing.sh can fetch liburing 2.14+ (see its output)"
rc=0
"$HELPERS/liburing_rewind" || rc=$?
[ $rc = 77 ] && skip "the kernel has no SQ_REWIND"
[ $rc = 0 ]
