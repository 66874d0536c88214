#!/bin/bash
# test-timeout: 1200
# kernel/vm-run end to end on the cached release kernel, or the debug kernel
# that make test-prep builds when the release one is not cached (skipped
# when neither is): the command's output without boot noise, its exit
# status, cwd and environment passed in; a kernel report (a WARNING written
# to /dev/kmsg) exits 3; a hang exits 124 at --timeout.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${IOURING_BPF_CACHE:-/var/cache/iouring-bpf}
HANG_TIMEOUT=20
K=
for flavour in release debug; do
	flag=(); [ $flavour = release ] || flag=(--debug)
	key=$("$ROOT/kernel/build" "${flag[@]}" --print-key 2>/dev/null || true)
	if [ -n "$key" ] && [ -f "$CACHE/kernel/$flavour-${key:0:12}/bzImage" ]; then
		K=$CACHE/kernel/$flavour-${key:0:12}/bzImage
		break
	fi
done
if [ -z "$K" ]; then
	echo "no kernel of this series is built (make kernel, or make test-prep)"
	exit 77
fi
echo "kernel: $flavour ($K)"
# The debug kernel (KASAN) boots slower and wants vm-run --debug's memory:
# let the hang start before the end.
VMARGS=(--kernel "$K")
if [ $flavour = debug ]; then
	HANG_TIMEOUT=90
	VMARGS+=(--mem 2G --timeout 600)
fi
VMRUN=$ROOT/kernel/vm-run
T=$(mktemp -d "${TEST_TMPDIR:-/tmp}/vmrun.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# 1. Output, status, cwd, environment.
rc=0
(cd "$ROOT/tests" && IOURING_BPF_PROBE=yes OTHER_PROBE=no "$VMRUN" "${VMARGS[@]}" -- \
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
"$VMRUN" "${VMARGS[@]}" --console-log "$T/console2" -- sh -c 'echo "<4>WARNING: CPU: 0 PID: 1 at fake/test.c:1 fake_warn+0x0/0x10" >/dev/kmsg' \
	>"$T/out" 2>"$T/err" || rc=$?
[ $rc = 3 ] || bad "kernel report: exit $rc, expected 3"
grep -q "KERNEL REPORT" "$T/err" && grep -q "fake_warn" "$T/err" || bad "report not printed: $(tail -5 "$T/err")"
[ $rc = 3 ] && echo "ok: kernel report -> 3"

# 3. A hang ends at --timeout with 124.
rc=0
"$VMRUN" "${VMARGS[@]}" --console-log "$T/console3" --timeout $HANG_TIMEOUT -- sleep 600 >"$T/out" 2>"$T/err" || rc=$?
[ $rc = 124 ] || bad "hang: exit $rc, expected 124"
grep -q "TIMEOUT" "$T/err" || bad "no TIMEOUT message"
[ $rc = 124 ] && echo "ok: hang -> 124"
exit $fail
