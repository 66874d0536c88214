#!/bin/bash
# `iouring-bpf run` of every loop program but copy (test_run_copy), with
# its checks, with the binding of the kernel's hook (named in the output).
# kernels: ours stock
source "$(dirname "$0")/lib.sh"
loop_feature_or_skip

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
python3 -c 'import json,sys; d=json.loads(sys.argv[1]); r=d["results"]; assert d["ok"] and r["completed"] == 100 and r["exit"].startswith("done"), d; assert r["binding"] == sys.argv[2], (r["binding"], sys.argv[2]); assert d["struct_ops"] == ("io_uring_ops" if sys.argv[2] == "v3" else "io_uring_bpf_ops"), d' "$out" "$LOOP_API" ||
	fail "run --json nop-chain: binding or results wrong for $LOOP_API: $out"
# the text says the binding, and on mainline what differs
checks=$((checks + 1))
out=$("$CLI" run batch-wait --count 8 2>&1) || fail "run batch-wait: exit $?"
grep -q "^  binding  *$LOOP_API\$" <<<"$out" || fail "run batch-wait does not name binding $LOOP_API: $out"
if [ "$MAINLINE" = 1 ]; then
	grep -q "^  on_mainline  *no timeout in the hook" <<<"$out" ||
		fail "run batch-wait on mainline does not say what differs: $out"
fi
finish
