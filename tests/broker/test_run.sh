#!/bin/bash
# kernels: ours stock
# test-timeout: 1200
#
# iouring-bpfd as uid 65534 with no capability: `iouring-bpf run --broker
# nop-chain` gives the results of root's direct run (the same checks
# pass, the same counters); a liburing application on the library's
# broker call (bclient app) the same as the direct attach; the copy
# program works through the broker with the client's files and buffer;
# uid 65534 without the broker is refused (exit 4); the policy's refusal
# is exit 4 with the daemon's message; nothing stays attached.
. "$(dirname "$0")/lib.sh"
loop_or_skip
base=$(links)

start_daemon 'program nop-chain\n\tusers *\n\tparam nr 0..100000\n\tparam depth 1..64\nprogram copy\n\tusers *\n\tparam block 1..1048576\n\tparam stream_in 0..1\n\tparam fd_in 0..4095\n\tparam fd_out 0..4095\n\tparam buf 4096..0x7fffffffffff\n'

# the CLI: the same results, as JSON, but the times
keys='import json,sys
d=json.load(open(sys.argv[1]))
r=d["results"]
for k in ("elapsed_us","ns_per_nop"): r.pop(k, None)
print(d["program"], d["ok"], d["failed_checks"], json.dumps(r, sort_keys=True))'
rc=0
"$CLI" run nop-chain --count 500 --depth 8 --json >"$TMP/direct.json" 2>"$TMP/direct.err" || rc=$?
[ "$rc" = 0 ] || { fail "root's direct run exited $rc"; cat "$TMP/direct.err"; }
rc=0
as_user "$CLI" run --broker "$SOCK" nop-chain --count 500 --depth 8 --json \
	>"$TMP/broker.json" 2>"$TMP/broker.err" || rc=$?
[ "$rc" = 0 ] || { fail "uid 65534's run --broker exited $rc"; cat "$TMP/broker.err" "$TMP/broker.json"; }
a=$(python3 -c "$keys" "$TMP/direct.json")
b=$(python3 -c "$keys" "$TMP/broker.json")
if [ -n "$a" ] && [ "$a" = "$b" ]; then
	ok "run --broker nop-chain as uid 65534 = root's direct run: $b"
else
	fail "run --broker differs from the direct run:"
	echo "  direct: $a"
	echo "  broker: $b"
fi
logged "allow pid=" && logged "uid=65534 program=nop-chain params=\"nr=500 depth=8\"" &&
	ok "the daemon logged the attach with uid, pid, program and parameters" ||
	fail "no log line of the attach: $(cat "$LOG")"

# the text output too: the same lines but the times
"$CLI" run nop-chain --count 100 2>&1 | grep -v -e elapsed_us -e ns_per_nop >"$TMP/d.txt"
as_user "$CLI" run --broker="$SOCK" nop-chain --count 100 2>&1 |
	grep -v -e elapsed_us -e ns_per_nop >"$TMP/b.txt"
if cmp -s "$TMP/d.txt" "$TMP/b.txt"; then
	ok "the text output is the direct run's ($(tail -1 "$TMP/b.txt"))"
else
	fail "the text output differs:"; diff "$TMP/d.txt" "$TMP/b.txt"
fi

# a liburing application on the library's call, and the direct attach
d=$("$BC" - direct nop-chain nr=300 depth=4 2>&1)
u=$(as_user "$BC" "$SOCK" app nop-chain nr=300 depth=4 2>&1)
if [ "$d" = "$u" ] && [ "$u" = "completed=300 errors=0 exit=done code=0" ]; then
	ok "liburing app through the broker as uid 65534 = direct: $u"
else
	fail "the application: direct '$d', through the broker '$u'"
fi

# copy: the program reads and writes the client's own files
rc=0
as_user env TMPDIR="$TMP" "$CLI" run --broker "$SOCK" copy >"$TMP/copy.out" 2>&1 || rc=$?
if [ "$rc" = 0 ] && grep -q "copy: ok, all checks passed" "$TMP/copy.out"; then
	ok "copy through the broker, the client's files: $(grep bytes_written "$TMP/copy.out" | tr -s ' ')"
else
	fail "copy through the broker exited $rc"; cat "$TMP/copy.out"
fi
rc=0
as_user env TMPDIR="$TMP" "$CLI" run --broker "$SOCK" copy --set stream_in=1 >"$TMP/copy2.out" 2>&1 || rc=$?
[ "$rc" = 0 ] && ok "copy from a pipe through the broker" ||
	{ fail "copy --set stream_in=1 through the broker exited $rc"; cat "$TMP/copy2.out"; }

# without the broker uid 65534 is refused, as before
rc=0
as_user "$CLI" run nop-chain --count 10 >"$TMP/nob.out" 2>&1 || rc=$?
[ "$rc" = 4 ] && ok "uid 65534 without --broker: exit 4" ||
	{ fail "uid 65534 without --broker exited $rc, want 4"; cat "$TMP/nob.out"; }

# the policy's refusals, with the CLI's exit codes
rc=0
as_user "$CLI" run --broker "$SOCK" batch-wait >"$TMP/deny.out" 2>&1 || rc=$?
[ "$rc" = 4 ] && grep -q "not in the policy" "$TMP/deny.out" &&
	ok "a program the policy does not list: exit 4: $(head -1 "$TMP/deny.out")" ||
	{ fail "batch-wait (not in the policy) exited $rc, want 4"; cat "$TMP/deny.out"; }
rc=0
as_user "$CLI" run --broker "$SOCK" nop-chain --count 200000 >"$TMP/big.out" 2>&1 || rc=$?
[ "$rc" = 4 ] && grep -q "outside the policy's bounds" "$TMP/big.out" &&
	ok "a parameter over the policy's bound: exit 4" ||
	{ fail "--count 200000 exited $rc, want 4"; cat "$TMP/big.out"; }
rc=0
as_user "$CLI" run --broker="$TMP/none.sock" nop-chain >"$TMP/nosock.out" 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q "is iouring-bpfd running" "$TMP/nosock.out" &&
	ok "no daemon: exit 1, with how to start it" ||
	{ fail "no daemon: exit $rc"; cat "$TMP/nosock.out"; }

sleep 0.5
n=$(links)
[ "$n" = "$base" ] && ok "nothing left attached ($n links, as before)" ||
	fail "$n io_uring links attached after the runs, $base before"
alive && ok "the daemon runs" || fail "the daemon died: $(tail -5 "$LOG")"
stop_daemon
grep -q "stopped; nothing left attached" "$LOG" || fail "the daemon did not stop cleanly"
finish
