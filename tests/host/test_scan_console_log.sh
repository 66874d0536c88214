#!/bin/bash
# kernel/scan-console-log finds kernel reports in console logs, and only them:
# clean logs (including a test printing "WARNING:" itself) pass, each kind of
# report is found and its section printed.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SCAN=$ROOT/kernel/scan-console-log
DATA=$ROOT/tests/host/data/console
fail=0

expect() {	# expect FILE RC [TEXT that must be in the report]
	local f=$1 want=$2 text=${3:-} out rc=0
	out=$("$SCAN" "$DATA/$f") || rc=$?
	if [ "$rc" != "$want" ]; then
		echo "FAIL: $f: exit $rc, expected $want"; echo "$out"; fail=1; return
	fi
	if [ -n "$text" ] && ! grep -qF -- "$text" <<<"$out"; then
		echo "FAIL: $f: report lacks '$text':"; echo "$out"; fail=1; return
	fi
	echo "ok: $f -> $rc"
}

expect clean.log 0
expect clean-crlf.log 0
expect warn.log 1 "---[ end trace"
expect warn.log 1 "[ cut here ]"
expect warn-crlf.log 1 "WARNING: CPU: 0 PID: 1"
expect kasan.log 1 "BUG: KASAN: slab-use-after-free"
expect lockdep.log 1 "possible circular locking dependency"
expect inconsistent.log 1 "inconsistent lock state"
expect wait-context.log 1 "[ BUG: Invalid wait context ]"
expect sleep.log 1 "BUG: sleeping function called from invalid context"
expect kmemleak.log 1 "io_bpf_alloc"
expect oops.log 1 "Kernel panic - not syncing"
expect rcu-stall.log 1 "detected stalls"
expect softlockup.log 1 "soft lockup"
expect hung.log 1 "blocked for more than"
# A kernel without PRINTK_TIME: keywords at line starts.
expect warn-notime.log 1 "---[ end trace"
expect kasan-notime.log 1 "BUG: KASAN"

# The KASAN section stops at its closing rule, not 120 lines later.
out=$("$SCAN" "$DATA/kasan.log" || true)
if grep -q "Disabling lock debugging" <<<"$out"; then
	echo "FAIL: the KASAN section ran past its end"; fail=1
fi
# Standard input, and usage errors.
rc=0; "$SCAN" <"$DATA/warn.log" >/dev/null || rc=$?
[ $rc = 1 ] || { echo "FAIL: stdin: exit $rc"; fail=1; }
rc=0; "$SCAN" --bogus 2>/dev/null || rc=$?
[ $rc = 2 ] || { echo "FAIL: bad option: exit $rc, expected 2"; fail=1; }
rc=0; "$SCAN" /nonexistent/log 2>/dev/null || rc=$?
[ $rc = 2 ] || { echo "FAIL: missing file: exit $rc, expected 2"; fail=1; }
exit $fail
