#!/bin/bash
# tests/run on a fake test tree: one line per test, SKIP with its reason,
# failing output shown, -t filters, --list, the exact summary line, exit 1
# on failure and 0 without.
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
grep -q "fine" <<<"$out" && { echo "FAIL: passing test output shown without -v"; fail=1; }
grep -q "helper\|noexec" <<<"$out" && { echo "FAIL: non-tests were run"; fail=1; }
[ $rc = 1 ] || { echo "FAIL: exit $rc with a failure, expected 1"; fail=1; }

rc=0; out=$(run --host-only -t ok,skip) || rc=$?
[ "$(tail -n 1 <<<"$out")" = "Summary: 1 passed, 0 failed, 1 skipped" ] || { echo "FAIL: -t ok,skip: $out"; fail=1; }
[ $rc = 0 ] || { echo "FAIL: -t ok,skip exit $rc"; fail=1; }

rc=0; out=$(run --host-only -v -t 'host/test_o*') || rc=$?
grep -qx "fine" <<<"$out" || { echo "FAIL: -v does not show output: $out"; fail=1; }

out=$(run --list)
want=$(printf 'host/test_bad\nhost/test_cwd\nhost/test_ok\nhost/test_skip\ndata/test_data\nkernel/test_in_vm')
[ "$out" = "$want" ] || { echo "FAIL: --list:"; echo "$out"; fail=1; }
out=$(run --vm-only --list)
[ "$out" = "$(printf 'data/test_data\nkernel/test_in_vm')" ] || { echo "FAIL: --vm-only --list: $out"; fail=1; }

rc=0; out=$(run --host-only -t nothing-matches) || rc=$?
[ "$out" = "Summary: 0 passed, 0 failed, 0 skipped" ] && [ $rc = 0 ] || { echo "FAIL: empty run: $rc $out"; fail=1; }

rc=0; run --bogus >/dev/null 2>&1 || rc=$?
[ $rc = 2 ] || { echo "FAIL: bad option exit $rc"; fail=1; }
exit $fail
