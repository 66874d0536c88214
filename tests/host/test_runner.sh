#!/bin/bash
# test-timeout: 600
# tests/run on a fake test tree: one line per test, SKIP with its reason,
# failing output shown, -t filters, --list, the exact summary line, exit 1
# on failure and 0 without; the "kernels:" marker of VM tests (stock:
# names, --kernel), and a stock kernel that cannot be fetched is FAIL
# stock/boot; an expected failure (exit 78) is a FAIL outside the stock
# kernel. With the stock kernel fetched, one boot of it runs the fake
# tree's stock tests: there exit 78 is XFAIL, and so is the stock kernel's
# known report (written to /dev/kmsg in its exact form).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d "${TEST_TMPDIR:-/tmp}/runner.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/host" "$T/kernel" "$T/data"
mk() { printf '#!/bin/bash\n%s\n' "$2" >"$T/$1"; chmod +x "$T/$1"; }
mk host/test_ok.sh 'echo fine; exit 0'
mk host/test_bad.sh 'echo "the reason it broke"; exit 1'
mk host/test_skip.sh 'echo noise; echo "no widget here"; exit 77'
mk host/test_cwd.sh '[ -x tests/run ] || { echo "cwd is $PWD"; exit 1; }; [ -d "$TEST_TMPDIR" ]'
mk host/helper.sh 'exit 1'                # not test_*: not a test
printf 'echo not executable\n' >"$T/host/test_noexec.sh"
mk kernel/test_in_vm.sh 'exit 0'
mk kernel/test_both.sh '# kernels: ours stock
echo "on $IOURING_BPF_VM_KERNEL"; [ -n "$IOURING_BPF_VM_KERNEL" ]'
mk kernel/test_stockonly.sh '  # kernels: stock
[ "$IOURING_BPF_VM_KERNEL" = stock ]'
mk kernel/test_odd.sh '# kernels: ours mars'
mk kernel/test_bin '# kernels: stock (not read: a compiled test is described by test_bin.c)'
printf '/* kernels: ours stock */\n' >"$T/kernel/test_bin.c"
mk data/test_data.sh 'exit 0'              # a VM "suite" too, by convention
fail=0
run() { IOURING_BPF_TESTS_DIR=$T "$ROOT/tests/run" "$@"; }

rc=0; out=$(run --host-only) || rc=$?
echo "$out"
expect() { grep -qxF -- "$1" <<<"$out" || { echo "FAIL: missing line: $1"; fail=1; }; }
expect "PASS host/test_ok"
expect "FAIL host/test_bad"
expect "    the reason it broke"
expect "SKIP host/test_skip: no widget here"
expect "PASS host/test_cwd"
expect "Summary: 2 passed, 1 failed, 1 skipped"
[ "$(tail -n 1 <<<"$out")" = "Summary: 2 passed, 1 failed, 1 skipped" ] || { echo "FAIL: summary is not the last line"; fail=1; }
# every test's wall time, slowest first, on the line before the summary
grep -Eq '^Slowest: host/[a-z_]+ [0-9]+ s(, host/[a-z_]+ [0-9]+ s){3}$' <<<"$out" || { echo "FAIL: no Slowest: line of the 4 tests"; fail=1; }
grep -q "fine" <<<"$out" && { echo "FAIL: passing test output shown without -v"; fail=1; }
grep -q "helper\|noexec" <<<"$out" && { echo "FAIL: non-tests were run"; fail=1; }
[ $rc = 1 ] || { echo "FAIL: exit $rc with a failure, expected 1"; fail=1; }

rc=0; out=$(run --host-only -t ok,skip) || rc=$?
[ "$(tail -n 1 <<<"$out")" = "Summary: 1 passed, 0 failed, 1 skipped" ] || { echo "FAIL: -t ok,skip: $out"; fail=1; }
[ $rc = 0 ] || { echo "FAIL: -t ok,skip exit $rc"; fail=1; }

rc=0; out=$(run --host-only -v -t 'host/test_o*') || rc=$?
grep -qx "fine" <<<"$out" || { echo "FAIL: -v does not show output: $out"; fail=1; }

# by default: ours, stock, and mainline only if its kernel is built (an
# empty cache here, the real one below)
out=$(IOURING_BPF_CACHE=$T/cache run --list 2>"$T/list.err")
want=$(printf 'host/test_bad\nhost/test_cwd\nhost/test_ok\nhost/test_skip\ndata/test_data\nkernel/test_bin\nkernel/test_both\nkernel/test_in_vm\nkernel/test_odd\nstock:kernel/test_bin\nstock:kernel/test_both\nstock:kernel/test_stockonly')
[ "$out" = "$want" ] || { echo "FAIL: --list:"; echo "$out"; fail=1; }
if "$ROOT/kernel/mainline/build" --print-dir --no-build >/dev/null 2>&1; then
	out=$(run --list 2>/dev/null)
	[ "$out" = "$want"$'\n'"$(printf 'mainline:kernel/test_bin\nmainline:kernel/test_both\nmainline:kernel/test_stockonly')" ] ||
		{ echo "FAIL: --list with the mainline kernel built:"; echo "$out"; fail=1; }
else
	echo "note: the mainline kernel is not built: its default run is not checked"
fi
grep -q "test_odd.sh: unknown kernel 'mars'" "$T/list.err" || { echo "FAIL: no warning for kernels: mars"; fail=1; }
out=$(run --vm-only --list --kernel ours 2>/dev/null)
[ "$out" = "$(printf 'data/test_data\nkernel/test_bin\nkernel/test_both\nkernel/test_in_vm\nkernel/test_odd')" ] ||
	{ echo "FAIL: --vm-only --list --kernel ours: $out"; fail=1; }
out=$(run --list --kernel stock -t 'kernel/test_b*')
[ "$out" = "$(printf 'stock:kernel/test_bin\nstock:kernel/test_both')" ] ||
	{ echo "FAIL: --kernel stock, a glob without stock: must match stock: names: $out"; fail=1; }
out=$(run --list -t stock:)
[ "$out" = "$(printf 'stock:kernel/test_bin\nstock:kernel/test_both\nstock:kernel/test_stockonly')" ] ||
	{ echo "FAIL: -t stock: $out"; fail=1; }
rc=0; run --kernel mars --list >/dev/null 2>&1 || rc=$?
[ $rc = 2 ] || { echo "FAIL: --kernel mars exit $rc, expected 2"; fail=1; }

# A stock kernel that cannot be fetched (an empty cache, a mirror that
# refuses connections) is one FAIL stock/boot saying so.
rc=0
out=$(IOURING_BPF_CACHE=$T/cache IOURING_BPF_STOCK_MIRROR=http://127.0.0.1:9/debian \
	run --vm-only --kernel stock 2>/dev/null) || rc=$?
echo "$out" | head -3
grep -qx "FAIL stock/boot" <<<"$out" && grep -q "could not be fetched" <<<"$out" &&
	grep -q "cannot read the sid index" <<<"$out" ||
	{ echo "FAIL: unfetchable stock kernel:"; echo "$out"; fail=1; }
[ "$(tail -n 1 <<<"$out")" = "Summary: 0 passed, 1 failed, 0 skipped" ] && [ $rc = 1 ] ||
	{ echo "FAIL: unfetchable stock kernel: exit $rc, $(tail -n 1 <<<"$out")"; fail=1; }

# One boot of the stock kernel, if fetched: the marked tests, named stock:.
if "$ROOT/kernel/fetch-stock" --print-dir --no-fetch >/dev/null; then
	rm "$T/kernel/test_odd.sh"	# its warning would be in the output
	# the stock kernel's known report, as the kernel prints it
	mk kernel/test_xfail.sh '# kernels: stock
k() { echo "<4>$1" >/dev/kmsg; }
k "------------[ cut here ]------------"
k "WARNING: kernel/sched/core.c:3397 at set_task_cpu+0x4c/0x250, CPU#1: rcu_preempt/15"
k "CPU: 1 UID: 0 PID: 15 Comm: rcu_preempt Not tainted 7.2.13+deb14-amd64 #1 PREEMPT(lazy)  Debian 7.2.13-1 "
k "RIP: 0010:set_task_cpu+0x4c/0x250"
k "---[ end trace 0000000000000000 ]---"
echo "the fake known bug"; exit 78'
	rc=0; out=$(run --vm-only --kernel stock 2>/dev/null) || rc=$?
	echo "$out"
	want=$(printf 'PASS stock:kernel/test_bin\nPASS stock:kernel/test_both\nPASS stock:kernel/test_stockonly\nXFAIL stock:kernel/test_xfail: the fake known bug\nXFAIL stock/kernel-report: known bug of the stock kernel: stock-7.2.13-set-task-cpu-migration-disabled (kernel/scan-console-log --list-known; the fix: kernel/mainline/patches)\nSlowest: *\nSummary: 3 passed, 0 failed, 0 skipped, 2 expected failures')
	# shellcheck disable=SC2053
	[[ "$(grep -v '^    ' <<<"$out")" == $want ]] && grep -q '^Slowest: .*stock:kernel/test_xfail [0-9]* s' <<<"$out" && [ $rc = 0 ] || { echo "FAIL: stock boot of the fake tree (exit $rc)"; fail=1; }
else
	echo "note: the stock kernel is not fetched (make stock-kernel): its boot is not tried"
fi

# The mainline kernel not built: one SKIP saying how, unless -t chose tests.
rc=0
mkdir -p "$T/host-only/host"
out=$(IOURING_BPF_CACHE=$T/cache IOURING_BPF_TESTS_DIR=$T/host-only "$ROOT/tests/run" --vm-only 2>/dev/null) || rc=$?
grep -q '^SKIP mainline/boot: .*kernel/mainline/build builds it' <<<"$out" &&
	[ "$(tail -n 1 <<<"$out")" = "Summary: 0 passed, 0 failed, 1 skipped" ] && [ $rc = 0 ] ||
	{ echo "FAIL: unbuilt mainline kernel (exit $rc):"; echo "$out"; fail=1; }

# Exit 78 (an expected failure) outside the stock kernel: a FAIL.
mkdir -p "$T/x/host"
printf '#!/bin/bash\necho "a bug of some kernel"; exit 78\n' >"$T/x/host/test_xfail.sh"
chmod +x "$T/x/host/test_xfail.sh"
rc=0; out=$(IOURING_BPF_TESTS_DIR=$T/x "$ROOT/tests/run" --host-only) || rc=$?
grep -qx "FAIL host/test_xfail" <<<"$out" && grep -q "allowed on the stock kernel only" <<<"$out" &&
	[ "$(tail -n 1 <<<"$out")" = "Summary: 0 passed, 1 failed, 0 skipped" ] && [ $rc = 1 ] ||
	{ echo "FAIL: exit 78 on the host (exit $rc):"; echo "$out"; fail=1; }

rc=0; out=$(run --host-only -t nothing-matches) || rc=$?
[ "$out" = "Summary: 0 passed, 0 failed, 0 skipped" ] && [ $rc = 0 ] || { echo "FAIL: empty run: $rc $out"; fail=1; }

rc=0; run --bogus >/dev/null 2>&1 || rc=$?
[ $rc = 2 ] || { echo "FAIL: bad option exit $rc"; fail=1; }
exit $fail
