#!/bin/bash
# `iouring-bpf run` of nop-chain and batch-wait (hybrid-poll and cq-stats:
# test_run_polls, copy: test_run_copy; each file stays well within the
# 300 s a test may take on the debug kernel under emulation), with their
# checks, with the binding of the kernel's hook (named in the output).
# kernels: ours stock
source "$(dirname "$0")/lib.sh"
loop_feature_or_skip

run_ok nop-chain --count 20000 --depth 1
run_ok nop-chain --count 20000 --depth 16
run_ok nop-chain --count 0
run_ok batch-wait
run_ok batch-wait --count 40 --set batch=8 --set max_wait_us=20000 &&
	BW_OUT=$RUN_OUT
run_ok batch-wait --count 10 --set batch=1

out=$("$CLI" run --json nop-chain --count 100) || fail "run --json nop-chain: exit $?"
checks=$((checks + 1))
python3 -c 'import json,sys; d=json.loads(sys.argv[1]); r=d["results"]; assert d["ok"] and r["completed"] == 100 and r["exit"].startswith("done"), d; assert r["binding"] == sys.argv[2], (r["binding"], sys.argv[2]); assert d["struct_ops"] == ("io_uring_ops" if sys.argv[2] == "v3" else "io_uring_bpf_ops"), d' "$out" "$LOOP_API" ||
	fail "run --json nop-chain: binding or results wrong for $LOOP_API: $out"
# its shape is the one docs/json/run.schema.json describes
checks=$((checks + 1))
python3 "$ROOT/tests/host/json_check.py" "$ROOT/docs/json/run.schema.json" <<<"$out" ||
	fail "run --json nop-chain does not match docs/json/run.schema.json"
# the text of a run above says the binding, and on mainline what differs
checks=$((checks + 1))
grep -q "^  binding  *$LOOP_API\$" <<<"${BW_OUT:-}" || fail "run batch-wait does not name binding $LOOP_API: ${BW_OUT:-}"
if [ "$MAINLINE" = 1 ]; then
	grep -q "^  on_mainline  *no timeout in the hook" <<<"${BW_OUT:-}" ||
		fail "run batch-wait on mainline does not say what differs: ${BW_OUT:-}"
fi
finish
