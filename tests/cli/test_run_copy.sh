#!/bin/bash
# `iouring-bpf run copy`: a file copy driven from BPF, checked byte for
# byte, with several block sizes (1000: odd blocks, short reads at EOF) and
# from a pipe (stream_in=1: short reads everywhere). The files live in
# $TMPDIR, in the VM the 9p share: slow, and reads go through io-wq.
# kernels: ours stock
source "$(dirname "$0")/lib.sh"
loop_feature_or_skip

run_ok copy
run_ok copy --set block=4096
run_ok copy --set block=1000
run_ok copy --set stream_in=1
finish
