#!/bin/bash
# kernels: ours stock
#
# A rule's opcodes become a limit the daemon registers on the client's
# ring before attaching: a ring filter (default deny, the listed opcodes
# allowed) where the kernel has filters (7.2), else io_uring's
# restrictions (IORING_REGISTER_RESTRICTIONS: the listed SQE opcodes; our
# 6.12), in force once the client enables the ring. With `opcodes nop`, nop-chain completes its NOPs and, once
# detached, a READ the application submits on that ring fails with
# -EACCES (the limit stays with the ring). With `opcodes read`, the NOPs
# the program itself submits (bpf_io_uring_submit_sqes() on mainline, the
# v3 hook's submit on ours) are refused: its first NOP completes with
# -EACCES and it stops on it. A ring made without IORING_SETUP_R_DISABLED
# cannot take the limit from the daemon (a SINGLE_ISSUER ring refuses
# another task's registration; restrictions need a disabled ring): it is
# refused with a message saying so.
. "$(dirname "$0")/lib.sh"
loop_or_skip
base=$(links)

start_daemon 'program nop-chain\n\tusers *\n\tparam nr 0..1000\n\tparam depth 1..64\n\topcodes nop\n'

rc=0
out=$(as_user "$BC" "$SOCK" app nop-chain nr=10 --read-after 2>&1) || rc=$?
if [ "$rc" = 0 ] && grep -q "^completed=10 errors=0 exit=done" <<<"$out" &&
   grep -q "^read=-13$" <<<"$out"; then
	ok "opcodes nop: 10 NOPs done; then the application's READ on the ring: -EACCES"
else
	fail "opcodes nop: exit $rc:"; echo "$out"
fi
if "$CLI" probe --json 2>/dev/null | grep -q '"filters": *true'; then
	how="ring filter"
else
	how="io_uring restrictions"
fi
logged "$how: only nop" && ok "the log names the limit ($how)" ||
	fail "the log does not name the limit ($how): $(tail -3 "$LOG")"

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
