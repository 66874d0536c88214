#!/bin/bash
# `iouring-bpf run` of every loop program but copy (test_run_copy), with
# its checks.
source "$(dirname "$0")/lib.sh"
feature_or_skip

run_ok nop-chain --count 20000 --depth 1
run_ok nop-chain --count 20000 --depth 16
run_ok nop-chain --count 0
run_ok batch-wait
run_ok batch-wait --count 40 --set batch=8 --set max_wait_us=20000
run_ok batch-wait --count 10 --set batch=1
run_ok hybrid-poll --count 40
run_ok hybrid-poll --count 20 --set spin_us=5000
run_ok cq-stats --count 256
run_ok cq-stats --count 1000

out=$("$CLI" run --json nop-chain --count 100) || fail "run --json nop-chain: exit $?"
checks=$((checks + 1))
python3 -c 'import json,sys; d=json.loads(sys.argv[1]); r=d["results"]; assert d["ok"] and r["completed"] == 100 and r["exit"].startswith("done"), d' "$out" ||
	fail "run --json nop-chain: $out"
finish
