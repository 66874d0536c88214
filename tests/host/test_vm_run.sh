#!/bin/bash
# kernel/vm-run end to end on the cached release kernel (skipped when it is
# not built: make kernel): the command's output without boot noise, its exit
# status, cwd and environment passed in; a kernel report (a WARNING written
# to /dev/kmsg) exits 3; a hang exits 124 at --timeout.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${IOURING_BPF_CACHE:-/var/cache/iouring-bpf}
key=$("$ROOT/kernel/build" --print-key 2>/dev/null || true)
K=$CACHE/kernel/release-${key:0:12}/bzImage
if [ -z "$key" ] || [ ! -f "$K" ]; then
	echo "the release kernel is not built (make kernel)"
	exit 77
fi
VMRUN=$ROOT/kernel/vm-run
T=$(mktemp -d "${TEST_TMPDIR:-/tmp}/vmrun.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# 1. Output, status, cwd, environment.
rc=0
(cd "$ROOT/tests" && IOURING_BPF_PROBE=yes OTHER_PROBE=no "$VMRUN" --kernel "$K" -- \
	sh -c 'echo "out pwd=$PWD probe=$IOURING_BPF_PROBE other=${OTHER_PROBE:-unset} vm=$IOURING_BPF_IN_VM"; echo err >&2; exit 7') \
	>"$T/out" 2>"$T/err" || rc=$?
cat "$T/out"
[ $rc = 7 ] || bad "exit status $rc, expected 7"
grep -qx "out pwd=$ROOT/tests probe=yes other=unset vm=1" "$T/out" || bad "unexpected output: $(cat "$T/out")"
grep -qx "err" "$T/out" || bad "stderr of the command missing"
grep -qE '@@vm-run|^\[ *[0-9]+\.[0-9]+\]' "$T/out" && bad "boot noise or markers in the output"
[ "$(wc -l <"$T/out")" = 2 ] || bad "expected exactly 2 lines of output"

# 2. A kernel report fails the run although the command succeeded.
rc=0
"$VMRUN" --kernel "$K" --console-log "$T/console2" -- sh -c 'echo "<4>WARNING: CPU: 0 PID: 1 at fake/test.c:1 fake_warn+0x0/0x10" >/dev/kmsg' \
	>"$T/out" 2>"$T/err" || rc=$?
[ $rc = 3 ] || bad "kernel report: exit $rc, expected 3"
grep -q "KERNEL REPORT" "$T/err" && grep -q "fake_warn" "$T/err" || bad "report not printed: $(tail -5 "$T/err")"
[ $rc = 3 ] && echo "ok: kernel report -> 3"

# 3. A hang ends at --timeout with 124.
rc=0
"$VMRUN" --kernel "$K" --console-log "$T/console3" --timeout 20 -- sleep 600 >"$T/out" 2>"$T/err" || rc=$?
[ $rc = 124 ] || bad "hang: exit $rc, expected 124"
grep -q "TIMEOUT" "$T/err" || bad "no TIMEOUT message"
[ $rc = 124 ] && echo "ok: hang -> 124"
exit $fail
