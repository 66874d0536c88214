#!/bin/bash
# A loop program written for mainline's hook elsewhere (examples/
# mainline_nops.bpf.c: its own `struct io_uring_bpf_ops` with a sleepable
# loop_step, no project header) loads unchanged with `iouring-bpf load
# FILE.bpf.o --ring PID:FD`. On a mainline kernel (7.1+) the app's next
# io_uring_enter() runs its NOPs; on our kernel (v3 io_uring_ops only)
# load refuses it with exit 3 and says why.
# kernels: ours stock
source "$(dirname "$0")/lib.sh"
loop_feature_or_skip
need_helper ringapp
OBJ=$ROOT/examples/mainline_nops.bpf.o
[ -f "$OBJ" ] || { echo "FAIL: no $OBJ: make -C examples (make test-prep)"; exit 1; }
APP=$TMP/app
mkdir -p "$APP"
pid=
cleanup() {
	cleanup_pins
	echo exit >"$APP/cmd-99"
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	wait 2>/dev/null
}
trap cleanup EXIT
cleanup_pins

"$HELPERS/ringapp" defer "$APP" >"$APP/log" 2>&1 &
pid=$!
for _ in $(seq 500); do [ -f "$APP/ring" ] && break; sleep 0.01; done
read -r apid afd <"$APP/ring" || skip "ringapp did not start: $(cat "$APP/log")"
n=0
app_enter() {	# sets GOT to the app's "ret=.. sq_head=.. cq_ready=.."
	n=$((n + 1))
	echo enter >"$APP/cmd-$n"
	for _ in $(seq 1000); do [ -f "$APP/out-$n" ] && break; sleep 0.01; done
	GOT=$(cat "$APP/out-$n" 2>/dev/null || echo "no answer")
}

if [ "$MAINLINE" = 0 ]; then
	expect_exit 3 "written for mainline's struct io_uring_bpf_ops .*has v3's struct io_uring_ops" -- load "$OBJ" --ring "$apid:$afd"
	checks=$((checks + 1))
	[ "$(grep -c . <<<"$LAST_OUT")" = 1 ] || fail "the refusal is not one line: $LAST_OUT"
	expect_exit 0 "nothing attached" -- show
	finish
	exit
fi

expect_exit 0 "loaded mainline_nops: attached to the ring fd $afd of process $apid" -- load "$OBJ" --ring "$apid:$afd" --set nr=5
checks=$((checks + 1))
grep -q "binding: mainline struct io_uring_bpf_ops" <<<"$LAST_OUT" || fail "load does not name the binding: $LAST_OUT"
expect_exit 0 "mainline_nops-$apid-$afd .*io_uring_bpf_ops +$LOOP_API" -- show
checks=$((checks + 1))
app_enter
[ "$GOT" = "ret=0 sq_head=5 cq_ready=0" ] &&
	echo "ok: 5 NOPs ran from BPF inside one enter: $GOT" ||
	fail "after load: app says '$GOT', want 'ret=0 sq_head=5 cq_ready=0'"
expect_exit 0 "state: .*completed=5" -- show
expect_exit 0 "unloaded mainline_nops-$apid-$afd" -- unload "mainline_nops-$apid-$afd"
checks=$((checks + 1))
app_enter
[ "$GOT" = "ret=0 sq_head=5 cq_ready=0" ] &&
	echo "ok: after unload, a plain enter: $GOT" ||
	fail "after unload: app says '$GOT'"
finish
