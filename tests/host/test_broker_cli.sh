#!/bin/bash
# `iouring-bpf load --broker`: refused (exit 2) with a message saying why
# (the broker attaches to the connecting process's own ring, while it
# stays connected; load pins on another process's ring and exits) and
# what to use instead, as text and as --json, before anything is loaded
# or any socket is reached. Needs no kernel feature.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CLI=$ROOT/build/iouring-bpf
TMP=${TEST_TMPDIR:-$(mktemp -d)}
fails=0 checks=0
check() {	# DESCRIPTION COMMAND...
	local what=$1
	shift
	checks=$((checks + 1))
	if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}
[ -x "$CLI" ] || { echo "build/iouring-bpf is not built (make -C loader)"; exit 77; }

for form in "--broker" "--broker=$TMP/no.sock"; do
	rc=0
	"$CLI" load $form nop-chain >"$TMP/out" 2>"$TMP/err" || rc=$?
	check "load $form nop-chain: exit 2 (got $rc)" test "$rc" = 2
	check "load $form: the message says why" \
		grep -q "attaches to a ring of the connecting process only" "$TMP/err"
	check "load $form: and what to use" \
		grep -q "iouring_bpf_broker_attach().*run --broker PROG" "$TMP/err"
done
rc=0
"$CLI" --json load --broker nop-chain >"$TMP/json" 2>/dev/null || rc=$?
check "--json load --broker: exit 2, one error object naming load" \
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["error"]; sys.exit(not (d["command"] == "load" and d["exit_code"] == 2 and "broker" in d["message"]))' "$TMP/json"
check "--json load --broker: exit $rc" test "$rc" = 2
# a bare --broker does not swallow the program's name
rc=0
"$CLI" load --broker --ring 1:3 nop-chain >/dev/null 2>"$TMP/err" || rc=$?
check "load --broker --ring 1:3 nop-chain: the same refusal (exit $rc)" \
	bash -c "[ $rc = 2 ] && grep -q 'connecting process only' '$TMP/err'"
ls /sys/fs/bpf/iouring-bpf 2>/dev/null | grep -q . &&
	check "nothing pinned" false
echo "$checks checks, $fails failed"
[ "$fails" = 0 ]
