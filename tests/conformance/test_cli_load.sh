#!/bin/bash
# The same posted-style object registered through the project's CLI under
# another op id (`iouring-bpf load FILE.bpf.o --id 61`, `iouring-bpf
# unload 61`), driven by conf_driver as in test_bpftool_register.
source "$(dirname "$0")/lib.sh"
op_feature_or_skip
[ -x "$CLI" ] || fail "no $CLI: build it with make -C loader"
trap '"$CLI" unload 61 >/dev/null 2>&1 || true' EXIT

"$CLI" load "$OBJ" --id 61 || fail "iouring-bpf load $OBJ --id 61"
rc=0
"$DRIVER" matrix 61 || rc=1
"$DRIVER" cycle 61 "$CLI unload 61" "$CLI load $OBJ --id 61" || rc=1
exit $rc
