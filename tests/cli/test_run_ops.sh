#!/bin/bash
# `iouring-bpf run` of every IORING_OP_BPF program, with its checks (data
# compared, counts exact), over a spread of parameters.
source "$(dirname "$0")/lib.sh"
feature_or_skip

run_ok nop --count 2000
run_ok nop --count 10 --id 200
run_ok memcpy --count 72
run_ok memcpy --count 36 --set reverse=1
run_ok memcpy --count 36 --set max_len=1000
run_ok errinject --count 100
run_ok errinject --count 100 --set mode=1 --set nth=7
run_ok errinject --count 300 --set mode=2 --set prob_pct=25
run_ok errinject --count 60 --set mode=3 --set err=22
run_ok chain --count 64
run_ok chain --count 16 --set max_len=100

out=$("$CLI" run --json nop --count 5) || fail "run --json nop: exit $?"
checks=$((checks + 1))
python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["ok"] and d["results"]["requests"] == 5, d' "$out" ||
	fail "run --json nop: $out"
finish
