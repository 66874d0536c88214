#!/bin/bash
# test-timeout: 600
# `iouring-bpf run` of hybrid-poll and cq-stats, with their checks, with
# the binding of the kernel's hook (test_run_loops has nop-chain and
# batch-wait).
# kernels: ours stock
source "$(dirname "$0")/lib.sh"
loop_feature_or_skip

run_ok hybrid-poll --count 40
run_ok hybrid-poll --count 20 --set spin_us=5000
run_ok cq-stats --count 256
run_ok cq-stats --count 1000
checks=$((checks + 1))
grep -q "^  binding  *$LOOP_API\$" <<<"${RUN_OUT:-}" || fail "run cq-stats does not name binding $LOOP_API"
finish
