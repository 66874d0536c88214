#!/bin/bash
# kernels: ours stock
# test-timeout: 1200
#
# `iouring-bpf load --broker --ring PID:FD` as uid 65534 with no
# capability: the CLI takes the ring of an application of the same user
# (ringapp), a holder process attaches nop-chain to it through
# iouring-bpfd and the CLI exits; the application's own io_uring_enter()
# then runs the program (5 NOPs in one enter), the daemon holds its link.
# The owner exiting detaches it (the holder exits, the daemon logs the
# detach, no link left); `unload --broker HOLDER` detaches it before;
# the daemon's refusal (a program the policy does not list, a parameter
# out of bounds) is load's exit code with the daemon's reason and leaves
# no holder and no link; so do no daemon, another user's ring, a ring
# with no submitter (plain), a fd that is not a ring.
. "$(dirname "$0")/lib.sh"
loop_or_skip
base=$(links)
RINGAPP=$ROOT/build/tests/cli/ringapp
[ -x "$RINGAPP" ] || skip "build/tests/cli/ringapp is not built (make -C tests)"
install -m 755 "$RINGAPP" "$TMP/bin/"
RINGAPP=$TMP/bin/ringapp
HOLDER=iouring-bpf-hld

# pidfd_getfd() of another process of the same user needs ptrace rights:
# a Yama scope above 0 allows only a parent (this VM only; restored)
scope=$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo)
if [ -n "$scope" ] && [ "$scope" != 0 ]; then
	echo "kernel.yama.ptrace_scope was $scope: 0 for the test"
	echo 0 >/proc/sys/kernel/yama/ptrace_scope
fi

start_daemon 'program nop-chain\n\tusers *\n\tparam nr 0..1000\n\tparam depth 1..8\n'
dbase=$(dlinks)

apps=()
cleanup() {
	local p
	for p in "${apps[@]}"; do kill "$p" 2>/dev/null; done
	for p in $(pgrep -x "$HOLDER"); do kill "$p" 2>/dev/null; done
	[ -n "$scope" ] && [ "$scope" != 0 ] &&
		echo "$scope" >/proc/sys/kernel/yama/ptrace_scope
	stop_daemon
}
trap cleanup EXIT

# app MODE DIR [as_user|root]: ringapp in DIR, sets APID AFD
app() {
	mkdir -p "$2" && chmod 777 "$2"
	if [ "${3:-as_user}" = root ]; then
		"$RINGAPP" "$1" "$2" >"$2/log" 2>&1 &
	else
		as_user "$RINGAPP" "$1" "$2" >"$2/log" 2>&1 &
	fi
	APP_PID=$!
	apps+=($!)
	for _ in $(seq 1000); do [ -f "$2/ring" ] && break; sleep 0.01; done
	read -r APID AFD <"$2/ring" || { fail "ringapp did not start: $(cat "$2/log")"; finish; exit 1; }
	N=0
}

# app_cmd DIR CMD: the app's answer in GOT
app_cmd() {
	N=$((N + 1))
	echo "$2" >"$1/cmd-$N"
	for _ in $(seq 3000); do [ -f "$1/out-$N" ] && break; sleep 0.01; done
	GOT=$(cat "$1/out-$N" 2>/dev/null || echo "no answer")
}

# gone PID: PID exits within 10 s
gone() {
	for _ in $(seq 100); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
	return 1
}

holders() {
	pgrep -x "$HOLDER" | wc -l
}

# nolinks NAME: the daemon holds no program's link (within 10 s)
nolinks() {
	for _ in $(seq 100); do [ "$(dlinks)" = "$dbase" ] && break; sleep 0.1; done
	[ "$(dlinks)" = "$dbase" ] && ok "$1: the daemon holds no program's link" ||
		fail "$1: the daemon holds $(dlinks) links, $dbase before"
}

# 1. attached, run by the application's enter, detached when it exits
A=$TMP/app1
app defer "$A"
rc=0
out=$(as_user "$CLI" load --broker "$SOCK" nop-chain --ring "$APID:$AFD" --set nr=5 2>&1) || rc=$?
hpid=$(sed -n 's/.*held by process \([0-9]*\) .*/\1/p' <<<"$out")
if [ "$rc" = 0 ] && grep -q "loaded nop-chain: attached to the ring fd $AFD of process $APID by iouring-bpfd" <<<"$out" &&
	grep -q "unload with: iouring-bpf unload --broker $hpid" <<<"$out" && [ -n "$hpid" ]; then
	ok "load --broker as uid 65534: exit 0: $(head -1 <<<"$out")"
else
	fail "load --broker exited $rc: $out"
fi
[ "$(dlinks)" = $((dbase + 1)) ] && ok "the daemon holds the program's link" ||
	fail "the daemon holds $(dlinks) links, $dbase before the load"
logged "allow pid=$hpid uid=65534 program=nop-chain" &&
	ok "the daemon logged the attach by the holder (pid $hpid)" ||
	fail "no allow line for the holder $hpid: $(tail -2 "$LOG")"
[ "$(stat -c %u "/proc/$hpid" 2>/dev/null)" = 65534 ] &&
	[ "$(cat "/proc/$hpid/comm" 2>/dev/null)" = "$HOLDER" ] &&
	ok "the holder runs, uid 65534, as $HOLDER" || fail "no holder process $hpid"
[ "$(readlink "/proc/$hpid/fd/0")" = /dev/null ] &&
	! ls -l "/proc/$hpid/fd" | grep -q 'io_uring' &&
	ok "the holder: stdio on /dev/null, no copy of the ring" ||
	fail "the holder's fds: $(ls -l "/proc/$hpid/fd")"
app_cmd "$A" enter
[ "$GOT" = "ret=0 sq_head=5 cq_ready=0" ] &&
	ok "the application's io_uring_enter() ran nop-chain: 5 NOPs: $GOT" ||
	fail "after load --broker the app says '$GOT', want 'ret=0 sq_head=5 cq_ready=0'"
# a second load on the same ring: the daemon's EBUSY, nothing more
rc=0
out=$(as_user "$CLI" load --broker "$SOCK" nop-chain --ring "$APID:$AFD" 2>&1) || rc=$?
[ "$rc" != 0 ] && [ "$(holders)" = 1 ] && [ "$(dlinks)" = $((dbase + 1)) ] &&
	ok "a second load on that ring: exit $rc, one holder, one link: $out" ||
	fail "a second load: exit $rc, $(holders) holders, $(dlinks) links: $out"
N=$((N + 1))
echo exit >"$A/cmd-$N"	# ringapp writes no answer to exit: it ends
gone "$APP_PID" && ok "the application exited" || fail "ringapp $APP_PID did not exit"
gone "$hpid" && ok "the owner exited: the holder $hpid exited" ||
	fail "the owner exited, the holder $hpid runs on"
for _ in $(seq 100); do logged "detach pid=$hpid" && break; sleep 0.1; done
logged "detach pid=$hpid uid=65534 program=nop-chain" &&
	ok "the daemon logged the detach: $(grep "detach pid=$hpid" "$LOG")" ||
	fail "no detach line for $hpid: $(tail -2 "$LOG")"
nolinks "the owner exited"

# 2. unload --broker before the owner exits; --json both ways
A=$TMP/app2
app defer "$A"
rc=0
as_user "$CLI" --json load --broker="$SOCK" nop-chain --ring "$APID:$AFD" --set nr=3 >"$TMP/l.json" 2>"$TMP/l.err" || rc=$?
hpid=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["holder"] if d["loaded"] == "nop-chain" and d["kind"] == "loop" and d["ring"]["pid"] == int(sys.argv[2]) and d["unload"] == "iouring-bpf unload --broker %d" % d["holder"] else "")' "$TMP/l.json" "$APID" 2>/dev/null)
[ "$rc" = 0 ] && [ -n "$hpid" ] && ok "--json load --broker: $(cat "$TMP/l.json")" ||
	fail "--json load --broker: exit $rc: $(cat "$TMP/l.json" "$TMP/l.err")"
out=$(python3 "$ROOT/tests/host/json_check.py" "$ROOT/docs/json/load.schema.json" "$TMP/l.json") &&
	ok "the object matches docs/json/load.schema.json" ||
	fail "not a load document: $out"
app_cmd "$A" enter
[ "$GOT" = "ret=0 sq_head=3 cq_ready=0" ] && ok "nr=3 reached the program: $GOT" ||
	fail "the app says '$GOT', want sq_head=3"
rc=0
out=$("$CLI" unload --broker $$ 2>&1) || rc=$?
[ "$rc" = 2 ] && grep -q "is not a holder" <<<"$out" &&
	ok "unload --broker of a process that is no holder: exit 2: $out" ||
	fail "unload --broker $$ (no holder): exit $rc: $out"
rc=0
out=$(as_user "$CLI" unload --broker "$hpid" 2>&1) || rc=$?
[ "$rc" = 0 ] && grep -q "unloaded the program of holder $hpid" <<<"$out" &&
	ok "unload --broker $hpid: $out" || fail "unload --broker $hpid: exit $rc: $out"
kill -0 "$hpid" 2>/dev/null && fail "the holder $hpid runs after unload" ||
	ok "the holder exited"
for _ in $(seq 100); do logged "detach pid=$hpid" && break; sleep 0.1; done
logged "detach pid=$hpid" && ok "the daemon logged the detach" ||
	fail "no detach line for $hpid"
nolinks "unload --broker"
app_cmd "$A" enter
[ "$GOT" = "ret=0 sq_head=3 cq_ready=0" ] &&
	ok "after unload a plain enter, nothing ran: $GOT" ||
	fail "after unload --broker the app says '$GOT'"
rc=0
as_user "$CLI" --json unload --broker "$hpid" >"$TMP/u.json" 2>/dev/null || rc=$?
[ "$rc" = 1 ] && grep -q '"failed": \[{"name": "'"$hpid"'"' "$TMP/u.json" &&
	python3 "$ROOT/tests/host/json_check.py" "$ROOT/docs/json/unload.schema.json" "$TMP/u.json" &&
	ok "--json unload --broker of a holder gone: exit 1, in failed" ||
	fail "--json unload --broker again: exit $rc: $(cat "$TMP/u.json")"

# 3. refusals: load's exit codes, no holder, no link
B=$TMP/app3
app defer "$B"
refused "a program the policy does not list: exit 4" 4 "program=batch-wait" \
	as_user "$CLI" load --broker "$SOCK" batch-wait --ring "$APID:$AFD"
grep -q "not in the policy" <<<"$(as_user "$CLI" load --broker "$SOCK" batch-wait --ring "$APID:$AFD" 2>&1)" &&
	ok "the daemon's reason is printed" || fail "no reason printed for batch-wait"
refused "a parameter out of the policy's bounds: exit 4" 4 "outside the policy's bounds" \
	as_user "$CLI" load --broker "$SOCK" nop-chain --ring "$APID:$AFD" --set nr=5000
rc=0
as_user "$CLI" --json load --broker "$SOCK" nop-chain --ring "$APID:$AFD" --set nr=5000 >"$TMP/r.json" 2>/dev/null || rc=$?
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["error"]; sys.exit(not (d["command"] == "load" and d["exit_code"] == 4 and "bounds" in d["message"]))' "$TMP/r.json" &&
	[ "$rc" = 4 ] && ok "--json: the refusal as load's error object, exit 4" ||
	fail "--json refusal: exit $rc: $(cat "$TMP/r.json")"
rc=0
out=$(as_user "$CLI" load --broker="$TMP/none.sock" nop-chain --ring "$APID:$AFD" 2>&1) || rc=$?
[ "$rc" = 1 ] && grep -q "is iouring-bpfd running" <<<"$out" &&
	ok "no daemon: exit 1, with how to start one" || fail "no daemon: exit $rc: $out"
[ "$(holders)" = 0 ] && ok "no holder left after the refusals" ||
	fail "$(holders) holders left after the refusals"
nolinks "the refusals"

# the ring: another user's, one with no submitter, a fd that is no ring
R=$TMP/app4
app defer "$R" root
rc=0
out=$(as_user "$CLI" load --broker "$SOCK" nop-chain --ring "$APID:$AFD" 2>&1) || rc=$?
[ "$rc" = 4 ] && grep -q "is not yours.*uid 0.*run this as the user who runs it" <<<"$out" &&
	ok "root's ring: exit 4: $out" || fail "root's ring: exit $rc: $out"
P=$TMP/app5
app plain "$P"
rc=0
out=$(as_user "$CLI" load --broker "$SOCK" nop-chain --ring "$APID:$AFD" 2>&1) || rc=$?
[ "$rc" = 2 ] && grep -q "has no submitter task" <<<"$out" &&
	ok "a ring without SINGLE_ISSUER: exit 2: $out" || fail "a plain ring: exit $rc: $out"
rc=0
out=$(as_user "$CLI" load --broker "$SOCK" nop-chain --ring "$APID:1" 2>&1) || rc=$?
[ "$rc" = 2 ] && grep -q "is not an io_uring" <<<"$out" &&
	ok "fd 1, not a ring: exit 2: $out" || fail "fd 1: exit $rc: $out"
[ "$(holders)" = 0 ] && ok "no holder left" || fail "$(holders) holders left"
nolinks "the bad rings"

for p in "${apps[@]}"; do kill "$p" 2>/dev/null; done
wait "${apps[@]}" 2>/dev/null
sleep 0.5
n=$(links)
[ "$n" = "$base" ] && ok "nothing left attached ($n links, as before)" ||
	fail "$n io_uring links attached, $base before"
alive && ok "the daemon runs" || fail "the daemon died: $(tail -5 "$LOG")"
finish
