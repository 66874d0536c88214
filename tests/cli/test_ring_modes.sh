#!/bin/bash
# Every built-in loop program through libiouring-bpf on the three SQ modes
# of a ring: an SQ array, NO_SQARRAY, and SQ_REWIND (Linux 7.0+; not on
# the project's 6.12 kernel, where bit 20 is IORING_SETUP_BPF: that mode
# is then left out, and said so). nop-chain and copy with checked results
# (counters, SQ/CQ heads, an identical copy); the programs that submit the
# application's SQEs (batch-wait, cq-stats, hybrid-poll) serve them on the
# first two modes and are refused at attach on SQ_REWIND; io_uring_params
# that claim SQ_REWIND for a ring without it stop nop-chain with an error;
# an object that fills SQEs at the SQ tail without knowing SQ_REWIND is
# refused on it.
# See ring_modes.c (built on the host by tests/Makefile).
# kernels: ours stock
source "$(dirname "$0")/lib.sh"
loop_feature_or_skip
need_helper ring_modes
# an object that fills SQEs at the SQ tail (liburing's style, no
# iou_sq_rewind): runs on NO_SQARRAY, refused on SQ_REWIND
OBJ=$ROOT/examples/mainline_nops.bpf.o
[ -f "$OBJ" ] || { echo "FAIL: $OBJ not built (make -C examples)"; exit 1; }
TMPDIR=$TMP RING_MODES_TAIL_OBJ=$OBJ "$HELPERS/ring_modes"
