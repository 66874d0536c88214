#!/bin/bash
# kernels: ours stock
# test-timeout: 1200
#
# Hostile clients of iouring-bpfd over time, as uid 65534: a user over
# its limits, the daemon SIGKILLed with programs attached (the kernel
# detaches them; a restarted daemon serves) and stopped with SIGTERM (it
# detaches them), a client killed mid-request, 1,000 connections at once.
# Each: the refusal or the detach, a log line, the daemon alive, nothing
# left attached. The requests themselves: test_hostile.
. "$(dirname "$0")/lib.sh"
loop_or_skip
base=$(links)
POL='limit connections 16\nlimit attached 3\nlimit total 1024\nprogram nop-chain\n\tusers *\n\tparam nr 0..1000\n\tparam depth 1..64\nprogram cq-stats\n\tusers 0\n'
start_daemon "$POL"
dbase=$(dlinks)

# hold N: N clients attached and waiting to be killed (their pids: HOLD)
HOLD=
hold() {
	local i k
	for i in $(seq "$1"); do
		k=$((${#HOLD} + i))
		as_user "$BC" "$SOCK" app nop-chain nr=5 --hold >"$TMP/hold.$k" 2>&1 &
		HOLD="$HOLD $!"
	done
}
unhold() {
	[ -n "$HOLD" ] || return 0
	kill $HOLD 2>/dev/null
	wait $HOLD 2>/dev/null
	HOLD=
	rm -f "$TMP"/hold.*
}
trap 'unhold; stop_daemon' EXIT
held() {
	cat "$TMP"/hold.* 2>/dev/null | grep -c attached
}

# a user over its limits: 3 attached (limit attached 3), the 4th refused
hold 3
for i in $(seq 300); do
	[ "$(held)" = 3 ] && break
	sleep 0.1
done
[ "$(held)" = 3 ] && ok "three clients attached and holding" ||
	fail "the holders: $(cat "$TMP"/hold.*)"
base3=$(links)
[ "$base3" = $((base + 3)) ] || fail "$base3 links with 3 holders, want $((base + 3))"
rc=0
out=$(as_user "$BC" "$SOCK" app nop-chain nr=5 2>&1) || rc=$?
[ "$rc" = 4 ] && logged "(limit attached 3)" &&
	ok "a 4th attach over the limit: $out" || fail "over the limit: exit $rc: $out"

# the daemon killed while 3 programs are attached: nothing is left, and
# a restarted daemon serves again
kill -9 "$DPID"
wait "$DPID" 2>/dev/null
DPID=
sleep 0.5
n=$(links)
[ "$n" = "$base" ] && ok "daemon SIGKILLed with 3 attached: the kernel detached them ($n links)" ||
	fail "daemon SIGKILLed: $n links left, $base before"
unhold
start_daemon "$POL"
out=$(as_user "$BC" "$SOCK" app nop-chain nr=7 2>&1)
[ "$out" = "completed=7 errors=0 exit=done code=0" ] &&
	ok "restarted daemon: an attach works: $out" || fail "after the restart: $out"
# and with SIGTERM: the daemon detaches and says so
hold 1
for i in $(seq 300); do [ "$(held)" = 1 ] && break; sleep 0.1; done
stop_daemon
unhold
grep -q "detach pid=.*the daemon stops" "$LOG" && [ "$(links)" = "$base" ] &&
	ok "daemon stopped with SIGTERM: it detached the holder, nothing left" ||
	fail "SIGTERM: $(tail -3 "$LOG"); $(links) links"
start_daemon "$POL"

# a client killed mid-request
refused killed-client 0 "program=nop-chain" "$BC" "$SOCK" killmid nop-chain
sleep 0.5
[ "$(links)" = "$base" ] || fail "after the killed client: $(links) links"

# 1,000 connections at once (one user: 16 kept, the rest refused), then
# the daemon still serves
rc=0
out=$(as_user "$BC" "$SOCK" conns 1000 2>&1) || rc=$?
[ "$rc" = 0 ] && logged "(limit connections 16)" && alive &&
	ok "$out" || fail "1000 connections: exit $rc: $out"
sleep 0.5
out=$(as_user "$BC" "$SOCK" app nop-chain nr=3 2>&1)
[ "$out" = "completed=3 errors=0 exit=done code=0" ] &&
	ok "after 1000 connections: an attach works" || fail "after the flood: $out"
n=$(links)
[ "$n" = "$base" ] && ok "nothing left attached" || fail "$n links at the end, $base before"
alive && ok "the daemon runs ($(grep -c '' "$LOG") log lines)" || fail "the daemon died"
finish
