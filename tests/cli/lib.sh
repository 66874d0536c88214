# tests/cli/lib.sh - sourced by the VM tests of the iouring-bpf CLI.
# run_ok ARGS...: `iouring-bpf run ARGS`, must exit 0 (3, the kernel lacks
# the feature, skips the test); its output is then in RUN_OUT. expect_exit CODE PATTERN -- ARGS...: any
# subcommand, exit code and output pattern (extended regex).
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CLI=${IOURING_BPF_CLI:-$ROOT/build/iouring-bpf}
TMP=${TEST_TMPDIR:-$(mktemp -d)}
fails=0 checks=0

skip() {
	echo "$*"
	exit 77
}

[ -x "$CLI" ] || skip "build/iouring-bpf is not built (make -C loader)"

feature_or_skip() {
	local rc=0
	"$CLI" probe >"$TMP/probe.out" 2>&1 || rc=$?
	[ "$rc" = 3 ] && skip "this kernel lacks the io_uring BPF features"
	[ "$rc" = 0 ] || skip "probe exited $rc: $(tail -1 "$TMP/probe.out")"
}

# for tests that also run on the stock kernel (kernels: ours stock): skip
# unless the loop hook is there; LOOP_API is then v3, mainline-7.1 or
# mainline-7.2 (probe --json "loop_api"), MAINLINE 1 on a mainline hook
loop_feature_or_skip() {
	local rc=0
	"$CLI" probe --json >"$TMP/probe.json" 2>&1 || rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 3 ] ||
		skip "probe exited $rc: $(tail -1 "$TMP/probe.json")"
	LOOP_API=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["loop_api"] if d["loop_hook"] else "")' "$TMP/probe.json") ||
		skip "probe --json is not JSON"
	[ -n "$LOOP_API" ] || skip "this kernel lacks the io_uring loop hook"
	MAINLINE=0
	[ "$LOOP_API" = v3 ] || MAINLINE=1
	echo "loop hook: $LOOP_API"
}

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

run_ok() {
	local out rc=0
	checks=$((checks + 1))
	out=$("$CLI" run "$@" 2>&1) || rc=$?
	[ "$rc" = 3 ] && skip "this kernel lacks the feature: $out"
	if [ "$rc" != 0 ]; then
		fail "iouring-bpf run $*: exit $rc"
		echo "$out" | sed 's/^/    /'
		return 1
	fi
	echo "$out" | grep -E '^run |: ok' | sed "s/^/[$*] /"
	RUN_OUT=$out
	return 0
}

expect_exit() {
	local want=$1 pattern=$2 out rc=0
	shift 3
	checks=$((checks + 1))
	out=$("$CLI" "$@" 2>&1) || rc=$?
	LAST_OUT=$out
	if [ "$rc" != "$want" ]; then
		fail "iouring-bpf $*: exit $rc, want $want"
		echo "$out" | sed 's/^/    /' | head -30
		return 1
	fi
	if [ -n "$pattern" ] && ! grep -qE -- "$pattern" <<<"$out"; then
		fail "iouring-bpf $*: output does not match /$pattern/"
		echo "$out" | sed 's/^/    /' | head -30
		return 1
	fi
	return 0
}

# build a helper from tests/cli/NAME.c (with loader/workloads/ring.c) into $TMP
# helper programs tests/Makefile builds from tests/cli/*.c (compiling them
# in the emulated VM would take minutes)
HELPERS=$ROOT/build/tests/cli
need_helper() {
	[ -x "$HELPERS/$1" ] && return
	echo "FAIL: no $HELPERS/$1: build it with make test-prep (or make -C tests)"
	exit 1
}

# remove whatever the test pinned, whatever happened
cleanup_pins() {
	"$CLI" unload all >/dev/null 2>&1 || true
}

finish() {
	echo "$checks checks, $fails failed"
	[ "$fails" = 0 ]
}
