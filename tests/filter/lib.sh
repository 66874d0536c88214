# tests/filter/lib.sh - sourced by the VM tests of io_uring filters.
# filters_or_skip: on a kernel without filters (our 6.12), check that the
# CLI says so (exit 3) and SKIP with the reason; never pass there.
# as_user CMD...: run CMD as uid/gid 65534 (setpriv). check NAME CMD...:
# run CMD, count a failure if it exits non-zero, show its output (only
# when it fails, with QUIET=1).
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CLI=${IOURING_BPF_CLI:-$ROOT/build/iouring-bpf}
REQ=$ROOT/build/tests/filter/filter_req
TMP=${TEST_TMPDIR:-$(mktemp -d)}
fails=0 checks=0

skip() {
	echo "$*"
	exit 77
}

[ -x "$CLI" ] || skip "build/iouring-bpf is not built (make -C loader)"
[ -x "$REQ" ] || skip "build/tests/filter/filter_req is not built (make -C tests filter)"
# a directory uid 65534 can write too
chmod 1777 "$TMP"
export TEST_TMPDIR=$TMP

# stage_for_user FILE...: copy FILEs into $TMP/bin (mode 0755) and print
# the copy of the last one. uid 65534 runs the CLI and the helpers from
# there: the clone may live where that user cannot reach (root's home is
# mode 0700 on Debian), and $TMP is on a path every user can walk. $TMP
# goes away with the test, so the copies do too.
stage_for_user() {
	local f
	mkdir -p "$TMP/bin"
	chmod 755 "$TMP/bin"
	for f; do
		install -m 755 "$f" "$TMP/bin/" || { echo "FAIL: cannot stage $f in $TMP/bin" >&2; exit 1; }
	done
	echo "$TMP/bin/$(basename "$f")"
}
CLI=$(stage_for_user "$CLI") || exit 1
REQ=$(stage_for_user "$REQ") || exit 1

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

filters_or_skip() {
	local rc=0 out
	out=$("$CLI" filter probe 2>&1) || rc=$?
	if [ "$rc" = 3 ]; then
		# the feature is absent: the CLI must refuse, not run unfiltered
		rc=0
		"$CLI" sandbox --policy no-network -- true >"$TMP/sb.out" 2>&1 || rc=$?
		[ "$rc" = 3 ] || { echo "FAIL: sandbox exited $rc without filters, want 3"; cat "$TMP/sb.out"; exit 1; }
		skip "this kernel has no io_uring filters (IORING_REGISTER_BPF_FILTER, Linux 7.2+ with CONFIG_IO_URING_BPF=y): $(uname -r)"
	fi
	[ "$rc" = 0 ] || { echo "FAIL: filter probe exited $rc: $out"; exit 1; }
	echo "$out"
}

as_user() {
	setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
}

check() {
	local name=$1 out rc=0
	shift
	checks=$((checks + 1))
	out=$("$@" 2>&1) || rc=$?
	if [ "$rc" != 0 ]; then
		fail "$name: exit $rc"
		echo "$out" | sed 's/^/    /'
		return 1
	fi
	[ "${QUIET:-0}" = 1 ] || echo "$out" | sed "s/^/[$name] /"
}

finish() {
	echo "$checks checks, $fails failed"
	[ "$fails" = 0 ]
}
