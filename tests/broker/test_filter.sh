#!/bin/bash
# kernels: ours stock
#
# A rule's opcodes become a ring filter the daemon registers on the
# client's ring before attaching (default deny, the listed opcodes
# allowed). With `opcodes nop`, nop-chain completes its NOPs and, once
# detached, a READ the application submits on that ring fails with
# -EACCES (the filter stays with the ring). With `opcodes read`, the NOPs
# the program itself submits (bpf_io_uring_submit_sqes() on mainline) are
# refused: its first NOP completes with -EACCES and it stops on it. A ring
# made without IORING_SETUP_R_DISABLED cannot take the filter from the
# daemon (a SINGLE_ISSUER ring refuses another task's registration): it
# is refused with a message saying so. On a kernel without filters (our
# 6.12) such a rule is refused at attach (exit 3), then SKIP.
. "$(dirname "$0")/lib.sh"
loop_or_skip
base=$(links)

start_daemon 'program nop-chain\n\tusers *\n\tparam nr 0..1000\n\tparam depth 1..64\n\topcodes nop\n'

rc=0
out=$(as_user "$BC" "$SOCK" app nop-chain nr=10 --read-after 2>&1) || rc=$?
if [ "$rc" = 3 ] && grep -q "filter" <<<"$out"; then
	logged "status=3" || fail "the refusal was not logged"
	echo "$out"
	n=$(links)
	[ "$n" = "$base" ] || fail "$n links after a refused attach, $base before"
	alive || fail "the daemon died"
	[ "$fails" = 0 ] || exit 1
	skip "this kernel has no io_uring filters: a rule with opcodes is refused at attach (exit 3, checked); $(uname -r)"
fi
if [ "$rc" = 0 ] && grep -q "^completed=10 errors=0 exit=done" <<<"$out" &&
   grep -q "^read=-13$" <<<"$out"; then
	ok "opcodes nop: 10 NOPs done; then the application's READ on the ring: -EACCES"
else
	fail "opcodes nop: exit $rc:"; echo "$out"
fi
logged "ring filter: only nop" && ok "the log names the filter" ||
	fail "the log does not name the filter: $(tail -3 "$LOG")"

rc=0
out=$(as_user "$BC" "$SOCK" app nop-chain nr=10 --ring enabled 2>&1) || rc=$?
[ "$rc" = 2 ] && grep -q "IORING_SETUP_R_DISABLED" <<<"$out" &&
	ok "an enabled ring is refused for a rule with opcodes: $out" ||
	fail "an enabled ring with opcodes: exit $rc: $out"
stop_daemon

start_daemon 'program nop-chain\n\tusers *\n\tparam nr 0..1000\n\tparam depth 1..64\n\topcodes read\n'
rc=0
out=$(as_user "$BC" "$SOCK" app nop-chain nr=10 2>&1) || rc=$?
if [ "$rc" = 0 ] && grep -q "^completed=0 errors=[0-9]* exit=error code=-13" <<<"$out"; then
	ok "opcodes read: the program's own first NOP fails with -EACCES and it stops: $out"
else
	fail "opcodes read: exit $rc: $out"
fi
sleep 0.5
n=$(links)
[ "$n" = "$base" ] && ok "nothing left attached" || fail "$n links, $base before"
alive && ok "the daemon runs" || fail "the daemon died"
finish
