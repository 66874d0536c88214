#!/bin/bash
# kernels: ours stock
#
# A ring made before the sandbox must not escape it. Task filters reach
# only rings created after them, so an io_uring fd that COMMAND inherits
# would run what the policy denies; `iouring-bpf sandbox` refuses to run
# COMMAND then (exit 2, naming the fd: docs/filters.md, "Inherited
# rings"). The parent is filter_req --exec-ring: it makes a ring, leaves
# it open across exec and execs the sandbox, whose COMMAND is filter_req
# --inherited-ring submitting a socket on that ring. Before the fix the
# socket ran (no-network did not apply to the ring). A close-on-exec ring
# is not passed on, and the sandbox runs. As root and as uid 65534.
# On a kernel without filters (our 6.12): SKIP.
. "$(dirname "$0")/lib.sh"
filters_or_skip

# refused WHO [as_user]: the sandbox with an inherited ring runs nothing
refused() {
	local who=$1 rc=0 out
	shift
	checks=$((checks + 1))
	rm -f "$TMP/ran"
	out=$("$@" "$REQ" --exec-ring -- "$CLI" sandbox --policy no-network -- \
		sh -c 'touch "$0"; exec "$@"' "$TMP/ran" \
		"$REQ" --inherited-ring socket:inet:stream=deny connect:127.0.0.1:80=deny 2>&1) || rc=$?
	echo "$out" | sed "s/^/[inherited ring, $who] /"
	if [ "$rc" != 2 ] || [ -e "$TMP/ran" ] ||
	   ! grep -qE '^iouring-bpf sandbox: fd [0-9]+: an io_uring made before the sandbox' <<<"$out"; then
		fail "inherited ring, $who: exit $rc (want 2), COMMAND ran: $([ -e "$TMP/ran" ] && echo yes || echo no)"
	fi
}
refused root
refused 65534 as_user

# the fd named is the inherited ring's
checks=$((checks + 1))
out=$("$REQ" --exec-ring -- sh -c 'echo "ring $FILTER_REQ_RING"; exec "$0" sandbox --policy no-network -- true' \
	"$CLI" 2>&1) || true
fd=$(awk '/^ring / {print $2}' <<<"$out")
grep -q "sandbox: fd $fd: an io_uring" <<<"$out" || fail "the message does not name fd $fd: $out"
echo "[names the fd] $out"

# close-on-exec: COMMAND does not get the ring, the sandbox runs it
check "close-on-exec ring, root" "$REQ" --exec-ring --cloexec -- "$CLI" sandbox --policy no-network -- \
	"$REQ" socket:inet:stream=deny nop=allow
check "close-on-exec ring, 65534" as_user "$REQ" --exec-ring --cloexec -- "$CLI" sandbox --policy no-network -- \
	"$REQ" socket:inet:stream=deny nop=allow
# the same ring without the sandbox is not filtered: the test can tell
check "inherited ring, no sandbox" "$REQ" --exec-ring -- "$REQ" --inherited-ring socket:inet:stream=allow nop=allow
finish
