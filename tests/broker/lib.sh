# tests/broker/lib.sh - sourced by the VM tests of iouring-bpfd.
# start_daemon POLICY_TEXT: a daemon as root on $SOCK with that policy,
# its log in $LOG (DPID its pid); stop_daemon. as_user CMD: run CMD as
# uid/gid 65534 with no capability. links: the struct_ops links of the
# io_uring hooks in the system now. logged TEXT: the log has a line
# with TEXT. check/fail/finish as in tests/filter/lib.sh.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TMP=${TEST_TMPDIR:-$(mktemp -d)}
fails=0 checks=0

skip() {
	echo "$*"
	exit 77
}

for f in build/iouring-bpf build/iouring-bpfd build/tests/broker/bclient; do
	[ -x "$ROOT/$f" ] || skip "$f is not built (make -C loader; make -C tests broker)"
done
command -v setpriv >/dev/null || skip "no setpriv to drop to uid 65534"
chmod 1777 "$TMP"
export TEST_TMPDIR=$TMP
# uid 65534 runs the CLI and bclient from $TMP/bin (the clone may be where
# that user cannot reach); the daemon runs from the build
mkdir -p "$TMP/bin" && chmod 755 "$TMP/bin"
install -m 755 "$ROOT/build/iouring-bpf" "$ROOT/build/tests/broker/bclient" "$TMP/bin/"
CLI=$TMP/bin/iouring-bpf
BC=$TMP/bin/bclient
DAEMON=$ROOT/build/iouring-bpfd
SOCK=$TMP/bpfd.sock
LOG=$TMP/bpfd.log
POLICY=$TMP/test.policy
DPID=

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

ok() {
	checks=$((checks + 1))
	echo "ok: $*"
}

as_user() {
	(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all -- "$@")
}

# the loop hook, or SKIP (the CLI's probe: exit 3 without it)
loop_or_skip() {
	local rc=0
	"$CLI" probe --json >"$TMP/probe.json" 2>&1 || rc=$?
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["loop_hook"] else 1)' \
		"$TMP/probe.json" || skip "this kernel lacks the io_uring loop hook"
}

start_daemon() {
	printf '%b' "$1" >"$POLICY"
	: >"$LOG"
	"$DAEMON" --socket "$SOCK" --policy "$POLICY" 2>>"$LOG" &
	DPID=$!
	local i
	for i in $(seq 100); do
		[ -S "$SOCK" ] && grep -q listening "$LOG" && return 0
		kill -0 "$DPID" 2>/dev/null || break
		sleep 0.1
	done
	echo "FAIL: the daemon did not start:"
	cat "$LOG"
	exit 1
}

stop_daemon() {
	[ -n "$DPID" ] || return 0
	kill "$DPID" 2>/dev/null
	wait "$DPID" 2>/dev/null
	DPID=
}
trap stop_daemon EXIT

# the BPF links the daemon holds: its ring-owner iterator's, and one per
# program attached (cheaper than asking the kernel for all its links,
# which the test does at the checkpoints: on the debug kernel that takes
# seconds)
dlinks() {
	ls -l "/proc/$DPID/fd" 2>/dev/null | grep -c 'anon_inode:bpf_link'
}

# refused NAME STATUS LOGTEXT CMD...: CMD exits STATUS, the log has
# LOGTEXT (within 10 s), the daemon lives, it holds no link of a program
# (no more than $dbase, which the test sets after start_daemon)
refused() {
	local name=$1 want=$2 text=$3 rc=0 out i
	shift 3
	out=$("$@" 2>&1) || rc=$?
	# a client that died may be read after it is gone (the debug kernel)
	for i in $(seq 100); do logged "$text" && break; sleep 0.1; done
	if [ "$rc" != "$want" ]; then
		fail "$name: exit $rc, want $want: $out"
	elif ! logged "$text"; then
		fail "$name: no log line with '$text': $(tail -2 "$LOG")"
	elif ! alive; then
		fail "$name: the daemon died: $(tail -5 "$LOG")"
	elif [ "$(dlinks)" != "$dbase" ]; then
		fail "$name: the daemon holds $(dlinks) BPF links, $dbase before"
	else
		ok "$name: $(tail -1 <<<"$out")"
	fi
}

# the io_uring struct_ops links attached now
links() {
	"$CLI" show --json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(sum(1 for l in d.get("links", []) if l.get("type") != "uring_bpf_ops"))'
}

logged() {
	grep -qF -- "$1" "$LOG"
}

alive() {
	kill -0 "$DPID" 2>/dev/null
}

finish() {
	echo "$checks checks, $fails failed"
	[ "$fails" = 0 ]
}
