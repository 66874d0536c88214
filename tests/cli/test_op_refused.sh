#!/bin/bash
# On a kernel with the loop hook but without IORING_OP_BPF (a stock 7.1+
# kernel), the op programs are refused by `run` and `load` with exit 3
# and one clear line; the loop programs still run. On our kernel, which
# has both, this test skips.
# kernels: ours stock
source "$(dirname "$0")/lib.sh"
loop_feature_or_skip
python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["op_bpf"] else 1)' "$TMP/probe.json" &&
	skip "this kernel has IORING_OP_BPF: nothing to refuse"
trap cleanup_pins EXIT

one_line_refusal() {	# ARGS...: exit 3, one line naming the feature
	expect_exit 3 "lacks IORING_OP_BPF .*no 'struct uring_bpf_ops'.*project's patched kernel" -- "$@" || return
	checks=$((checks + 1))
	[ "$(grep -c . <<<"$LAST_OUT")" = 1 ] && echo "ok: $*: $LAST_OUT" ||
		fail "iouring-bpf $*: more than one line: $LAST_OUT"
}
one_line_refusal run nop --count 3
one_line_refusal run memcpy
one_line_refusal run errinject --count 10
one_line_refusal run chain
one_line_refusal load nop --id 9
one_line_refusal load "$ROOT/build/progs/nop.bpf.o" --id 9
expect_exit 3 "loop hook: +available: mainline" -- probe
expect_exit 3 "the loop programs run on this kernel" -- probe
expect_exit 0 "nothing attached" -- show
run_ok nop-chain --count 100
finish
