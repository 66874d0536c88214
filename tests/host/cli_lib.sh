# cli_lib.sh - sourced by tests/host/test_cli_*.sh (not a test itself).
# Finds build/iouring-bpf (skips with 77 if it is not built) and gives
# expect_exit CODE PATTERN -- ARGS...: run the CLI, check the exit code and
# that stdout+stderr match the extended regex PATTERN.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CLI=${IOURING_BPF_CLI:-$ROOT/build/iouring-bpf}
if [ ! -x "$CLI" ]; then
	echo "build/iouring-bpf is not built (make -C loader)"
	exit 77
fi
TMP=${TEST_TMPDIR:-$(mktemp -d)}
fails=0 checks=0

expect_exit() {
	local want=$1 pattern=$2 out rc
	shift 3	# CODE PATTERN --
	checks=$((checks + 1))
	out=$("$CLI" "$@" 2>&1) && rc=0 || rc=$?
	if [ "$rc" != "$want" ]; then
		echo "FAIL: iouring-bpf $*: exit $rc, want $want"
		echo "$out" | sed 's/^/    /' | head -20
		fails=$((fails + 1))
		return 1
	fi
	if [ -n "$pattern" ] && ! grep -qE -- "$pattern" <<<"$out"; then
		echo "FAIL: iouring-bpf $*: output does not match /$pattern/"
		echo "$out" | sed 's/^/    /' | head -20
		fails=$((fails + 1))
		return 1
	fi
	return 0
}

finish() {
	echo "$checks checks, $fails failed"
	[ "$fails" = 0 ]
}

# does the running kernel have our features? (BTF type names)
host_has_features() {
	"$CLI" probe >/dev/null 2>&1
	[ $? != 3 ]
}
