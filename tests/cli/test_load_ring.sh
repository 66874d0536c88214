#!/bin/bash
# test-timeout: 600
# `iouring-bpf load PROG --ring PID:FD` attaches a loop program to another
# process's ring (pidfd_getfd): nop-chain then runs inside that process's
# io_uring_enter() (its SQ head moves, the CQEs are consumed by BPF);
# `unload` restores the plain io_uring_enter(). Also: one program per ring,
# a ring without DEFER_TASKRUN, an fd that is not a ring, no such process.
# On mainline's hook io_uring_enter() returns 0 after the program's STOP
# (not the count submitted), and cq-stats submits the app's SQEs itself.
# kernels: ours stock
source "$(dirname "$0")/lib.sh"
loop_feature_or_skip
need_helper ringapp
APP=$TMP/app PLAIN=$TMP/plain ARR=$TMP/array
mkdir -p "$APP" "$PLAIN" "$ARR"
pids=()
cleanup() {
	cleanup_pins
	for d in "$APP" "$PLAIN" "$ARR"; do echo exit >"$d/cmd-99"; done
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
}
trap cleanup EXIT
cleanup_pins

start_app() {	# MODE DIR; then DIR/ring holds "PID FD" (not in a $(...):
		# the subshell would wait for the app's stdout to close)
	"$HELPERS/ringapp" "$1" "$2" >"$2/log" 2>&1 &
	pids+=($!)
	for _ in $(seq 500); do [ -f "$2/ring" ] && break; sleep 0.01; done
}
n=0
app_enter() {	# [CMD [DIR]] sets GOT to the app's "ret=.. sq_head=.. cq_ready=.."
	local dir=${2:-$APP}	# (not in a $(...) subshell: n must count)
	n=$((n + 1))
	echo "${1:-enter}" >"$dir/cmd-$n"
	for _ in $(seq 1000); do [ -f "$dir/out-$n" ] && break; sleep 0.01; done
	GOT=$(cat "$dir/out-$n" 2>/dev/null || echo "no answer")
}
check_app() {	# WANT WHY [CMD [DIR]]
	checks=$((checks + 1))
	app_enter "${3:-}" "${4:-}"
	[ "$GOT" = "$1" ] && echo "ok: $2: $GOT" || fail "$2: app says '$GOT', want '$1'"
}

start_app defer "$APP"
read -r pid fd <"$APP/ring" || skip "ringapp did not start: $(cat "$APP/log")"
check_app "ret=0 sq_head=0 cq_ready=0" "before load"
expect_exit 0 "attached to the ring fd $fd of process $pid" -- load nop-chain --ring "$pid:$fd" --set nr=5
checks=$((checks + 1))
case "$LOOP_API:$LAST_OUT" in
v3:*"binding: v3 struct io_uring_ops"*|mainline*:*"binding: mainline struct io_uring_bpf_ops"*) ;;
*) fail "load does not name the binding for $LOOP_API: $LAST_OUT" ;;
esac
expect_exit 0 "nop-chain-$pid-$fd .*io_uring_(bpf_)?ops +$LOOP_API " -- show
check_app "ret=0 sq_head=5 cq_ready=0" "nop-chain attached: 5 NOPs ran inside one enter"
expect_exit 1 "already has a loop program attached" -- load cq-stats --ring "$pid:$fd"
expect_exit 0 "unloaded nop-chain-$pid-$fd" -- unload "nop-chain-$pid-$fd"
check_app "ret=0 sq_head=5 cq_ready=0" "after unload: a plain enter again"
expect_exit 0 "attached" -- load cq-stats --ring "$pid:$fd" --name stats
check_app "ret=0 sq_head=5 cq_ready=0" "cq-stats attached: changes nothing"
if [ "$MAINLINE" = 1 ]; then nops_ret=0; else nops_ret=3; fi
check_app "ret=$nops_ret sq_head=8 cq_ready=3" "cq-stats attached: the app still gets its 3 CQEs" nops
expect_exit 0 "" -- show --json
checks=$((checks + 1))
python3 - "$LAST_OUT" "$LOOP_API" <<'PY' || fail "show --json does not report cq-stats' counts: $LAST_OUT"
import json, sys
links = json.loads(sys.argv[1])["links"]
st = [l["state"] for l in links if l["name"] == "stats"][0]
assert st["nr_cqes"] == 3 and st["nr_zero"] == 3 and st["nr_neg"] == 0, st
b = [l["binding"] for l in links if l["name"] == "stats"][0]
assert b == sys.argv[2], (b, sys.argv[2])
print("ok: show --json: cq-stats counted", st["nr_cqes"], "CQEs, binding", b)
PY
expect_exit 0 "state: .*nr_cqes=3" -- show
expect_exit 0 "unloaded stats" -- unload stats

# -j: load and unload print one document each (docs/json/load, unload);
# a failure in JSON mode is one error document on stdout
json_doc() {	# SCHEMA WHY ARGS...: the CLI's stdout must match the schema
	local schema=$1 why=$2 out
	shift 2
	checks=$((checks + 1))
	"$CLI" "$@" >"$TMP/doc.json" 2>"$TMP/doc.err"
	if out=$(python3 "$ROOT/tests/host/json_check.py" "$ROOT/docs/json/$schema.schema.json" "$TMP/doc.json"); then
		echo "ok: $why: $(head -c 160 "$TMP/doc.json")"
	else
		fail "$why: not a $schema document: $out $(head -c 300 "$TMP/doc.json")"
	fi
}
json_doc load "load -j of a loop program" load cq-stats --ring "$pid:$fd" --name js -j
checks=$((checks + 1))
python3 - "$TMP/doc.json" "$pid" "$fd" "$LOOP_API" <<'PY' || fail "load -j: wrong content: $(cat "$TMP/doc.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["name"] == "js" and d["kind"] == "loop" and d["binding"] == sys.argv[4], d
assert d["ring"]["pid"] == int(sys.argv[2]) and d["ring"]["fd"] == int(sys.argv[3]), d
assert d["unload"] == "iouring-bpf unload js", d
print("ok: load -j names the pin, the ring and the binding")
PY
json_doc error "-j load on a ring that has a program: an error document" -j load nop-chain --ring "$pid:$fd"
expect_exit 1 "already has a loop program attached" -- -j load nop-chain --ring "$pid:$fd"
json_doc unload "-p unload" -p unload js
expect_exit 0 '^\{"unloaded": \[\], "failed": \[\]\}$' -- unload all --json

# a ring with an SQ array: the loader reads another process's ring's
# layout from the kernel, so nop-chain fills the SQ array's slots
start_app array "$ARR"
read -r apid afd <"$ARR/ring" || fail "the array ringapp did not start"
n=0
expect_exit 0 "ring: 8 SQ / 16 CQ entries, flags 0x[0-9a-f]+, an SQ array" -- load nop-chain --ring "$apid:$afd" --set nr=5 --name arr
check_app "ret=0 sq_head=5 cq_ready=0" "nop-chain on a ring with an SQ array: 5 NOPs" enter "$ARR"
expect_exit 0 "iou_sq_array=[1-9][0-9]* .*exit=done code=0 value=5" -- show
expect_exit 0 "unloaded arr" -- unload arr

start_app plain "$PLAIN"
read -r ppid pfd <"$PLAIN/ring" || fail "the plain ringapp did not start"
expect_exit 1 "must be an io_uring created with IORING_SETUP_SINGLE_ISSUER.IORING_SETUP_DEFER_TASKRUN" -- load nop-chain --ring "$ppid:$pfd"
# the plain app, started last, is surely alive (an app gives up after
# minutes without a command; the first one's last was long ago)
expect_exit 2 "fd 0 of process $ppid is not an io_uring" -- load nop-chain --ring "$ppid:0"
expect_exit 2 "process $ppid has no fd 999" -- load nop-chain --ring "$ppid:999"
expect_exit 2 "there is no process" -- load nop-chain --ring 999999:3
finish
