#!/bin/bash
# `iouring-bpf load --broker` and `unload --broker`, before any daemon is
# reached: the usage errors (no --ring, --name, an IORING_OP_BPF op, a
# bad holder pid, a process that is no holder), each with exit 2 (1 for
# a holder that is gone) and a message naming the problem, as text and
# --json; with no daemon at the socket, load fails (exit 1, saying how to
# start one; exit 3 on a kernel without the loop hook, which load checks
# first) and leaves no holder process and no pin. Needs no kernel feature.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CLI=$ROOT/build/iouring-bpf
RINGAPP=$ROOT/build/tests/cli/ringapp
TMP=${TEST_TMPDIR:-$(mktemp -d)}
HOLDER=iouring-bpf-hld
fails=0 checks=0
check() {	# DESCRIPTION COMMAND...
	local what=$1
	shift
	checks=$((checks + 1))
	if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}
# expect RC TEXT ARGS...: the CLI exits RC with TEXT on stderr
expect() {
	local want=$1 text=$2 rc=0
	shift 2
	"$CLI" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
	check "$* : exit $rc (want $want): $(head -c 160 "$TMP/err")" \
		test "$rc" = "$want" -a "$(grep -c -- "$text" "$TMP/err")" -gt 0
}
[ -x "$CLI" ] || { echo "build/iouring-bpf is not built (make -C loader)"; exit 77; }
holders=$(pgrep -x "$HOLDER" | wc -l)

expect 2 "say which with --ring PID:FD" load --broker nop-chain
expect 2 "say which with --ring PID:FD" load --broker="$TMP/no.sock" nop-chain
expect 2 "pins nothing.*drop --name" load --broker --name x nop-chain --ring 1:3
expect 2 "IORING_OP_BPF op.*--broker is for loop programs" load --broker nop
expect 2 "give the holder.s pid" unload --broker abc
expect 2 "is not a holder of .load --broker." unload --broker $$
expect 1 "no holder 999999999 to unload" unload --broker 999999999
rc=0
"$CLI" --json load --broker --name x nop-chain --ring 1:3 >"$TMP/json" 2>/dev/null || rc=$?
check "--json load --broker --name: exit 2, one error object naming load" \
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["error"]; sys.exit(not (d["command"] == "load" and d["exit_code"] == 2 and "--broker" in d["message"]))' "$TMP/json"
rc=0
"$CLI" --json unload --broker 999999999 >"$TMP/json" 2>/dev/null || rc=$?
check "--json unload --broker of no holder: exit 1 (got $rc), in failed" \
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (d["unloaded"] == [] and d["failed"][0]["name"] == "999999999"))' "$TMP/json"

# no daemon: on a kernel with the loop hook, a ring of our own (ringapp)
hook=$("$CLI" probe --json 2>/dev/null | python3 -c 'import json,sys; print(int(bool(json.load(sys.stdin)["loop_hook"])))' 2>/dev/null || echo 0)
if [ "$hook" = 1 ] && [ -x "$RINGAPP" ]; then
	mkdir -p "$TMP/app"
	"$RINGAPP" defer "$TMP/app" >"$TMP/app/log" 2>&1 &
	app=$!
	for _ in $(seq 500); do [ -f "$TMP/app/ring" ] && break; sleep 0.01; done
	read -r apid afd <"$TMP/app/ring"
	expect 1 "is iouring-bpfd running" load --broker="$TMP/no.sock" nop-chain --ring "$apid:$afd"
	kill "$app"
	wait "$app" 2>/dev/null
else
	# the kernel check comes before the ring and the daemon
	expect 3 "lacks the io_uring loop hook" load --broker="$TMP/no.sock" nop-chain --ring $$:0
fi
check "no holder process left ($HOLDER: $holders before)" \
	test "$(pgrep -x "$HOLDER" | wc -l)" = "$holders"
ls /sys/fs/bpf/iouring-bpf 2>/dev/null | grep -q . &&
	check "nothing pinned" false
echo "$checks checks, $fails failed"
[ "$fails" = 0 ]
