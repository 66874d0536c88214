#!/bin/bash
# kernel/scan-console-log finds kernel reports in console logs, and only them:
# clean logs (including a test printing "WARNING:" itself) pass, each kind of
# report is found and its section printed. A known report named with
# --expect (stock 7.2.13's set_task_cpu() WARNING, recorded from a stock
# boot) is exit 3 only in its exact form and alone: changed in any way, cut
# short, with another report inside it or beside it, or without --expect,
# it is a report (exit 1).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SCAN=$ROOT/kernel/scan-console-log
DATA=$ROOT/tests/host/data/console
fail=0

expect() {	# expect FILE RC [TEXT that must be in the report]
	local f=$1 want=$2 text=${3:-} out rc=0
	out=$("$SCAN" "${SCAN_ARGS[@]}" "$DATA/$f") || rc=$?
	if [ "$rc" != "$want" ]; then
		echo "FAIL: $f: exit $rc, expected $want"; echo "$out"; fail=1; return
	fi
	if [ -n "$text" ] && ! grep -qF -- "$text" <<<"$out"; then
		echo "FAIL: $f: report lacks '$text':"; echo "$out"; fail=1; return
	fi
	echo "ok: $f${SCAN_ARGS[*]:+ (${SCAN_ARGS[*]})} -> $rc"
}
SCAN_ARGS=()

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

# The known report of the stock kernel: exactly that, and only with --expect.
KNOWN=stock-7.2.13-set-task-cpu-migration-disabled
expect stock-set-task-cpu.log 1 "WARNING: kernel/sched/core.c:3397 at set_task_cpu+0x4c/0x250"
SCAN_ARGS=(--expect "$KNOWN")
expect stock-set-task-cpu.log 3 "expected kernel report $KNOWN at console line 7"
expect stock-set-task-cpu-otherline.log 1 "--- 1 kernel report line(s) found ---"
expect stock-set-task-cpu-otherkernel.log 1 "--- 1 kernel report line(s) found ---"
expect stock-set-task-cpu-cut.log 1 "--- 1 kernel report line(s) found ---"
expect stock-set-task-cpu-inner.log 1 "--- 2 kernel report line(s) found ---"
expect stock-set-task-cpu-and-warn.log 1 "WARNING: CPU: 1 PID: 77 at io_uring/bpf.c:42"
expect warn.log 1 "--- 1 kernel report line(s) found ---"
expect clean.log 0
SCAN_ARGS=()
rc=0; "$SCAN" --expect no-such-report "$DATA/clean.log" 2>/dev/null || rc=$?
[ $rc = 2 ] || { echo "FAIL: --expect of an unknown report: exit $rc, expected 2"; fail=1; }
[ "$("$SCAN" --list-known)" = "$KNOWN" ] || { echo "FAIL: --list-known"; fail=1; }

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
