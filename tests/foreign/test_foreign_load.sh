#!/bin/bash
# `iouring-bpf load FILE --ring PID:FD --set reqs_to_run=1000`, with a NOP
# loop written as liburing's tests write theirs (nops.bpf.c), onto the
# ring of another process (tests/cli/ringapp.c): its next io_uring_enter()
# runs the 1000 NOPs. Twice: on a ring without an SQ array (NO_SQARRAY)
# and on one with it, whose layout the loader must read from the kernel
# (the program writes the SQ array's slots at sq_array_offset: a wrong
# layout leaves the kernel without SQEs). `show` prints its globals;
# resources (@PATH) are refused, they would belong to the CLI.
# kernels: ours stock
source "$(dirname "$0")/lib.sh"
loop_feature_or_skip
need_helper ringapp

APP=$TMP/app
pid=
cleanup() {
	cleanup_pins
	[ -n "$pid" ] && { echo exit >"$APP/cmd-99"; kill "$pid" 2>/dev/null; }
	wait 2>/dev/null
}
trap cleanup EXIT
cleanup_pins

start_app() {	# MODE: a fresh ringapp; sets apid afd
	[ -n "$pid" ] && { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; }
	rm -rf "$APP"
	mkdir -p "$APP"
	"$HELPERS/ringapp" "$1" "$APP" >"$APP/log" 2>&1 &
	pid=$!
	n=0
	for _ in $(seq 500); do [ -f "$APP/ring" ] && break; sleep 0.01; done
	read -r apid afd <"$APP/ring" || skip "ringapp did not start: $(cat "$APP/log")"
}
app_enter() {	# sets GOT to the app's "ret=.. sq_head=.. cq_ready=.."
	n=$((n + 1))
	echo enter >"$APP/cmd-$n"
	for _ in $(seq 3000); do [ -f "$APP/out-$n" ] && break; sleep 0.01; done
	GOT=$(cat "$APP/out-$n" 2>/dev/null || echo "no answer")
}

start_app defer
mainline_or_skip load "$FOBJ/nops.bpf.o" --ring "$apid:$afd" --set reqs_to_run=1000

expect_exit 2 "resources .* are made in this process" -- load "$FOBJ/cp.bpf.o" --ring "$apid:$afd" --set input_fd=@/etc/hostname
for mode in defer array; do
	start_app "$mode"
	want_layout="no SQ array"
	[ "$mode" = array ] && want_layout="an SQ array"
	expect_exit 0 "loaded nops: attached to the ring fd $afd of process $apid" -- load "$FOBJ/nops.bpf.o" --ring "$apid:$afd" --set reqs_to_run=1000
	checks=$((checks + 1))
	grep -q "ring: 8 SQ / 16 CQ entries, flags 0x[0-9a-f]*, $want_layout" <<<"$LAST_OUT" ||
		fail "$mode: load does not report the ring's layout ($want_layout): $LAST_OUT"
	app_enter
	checks=$((checks + 1))
	[ "$GOT" = "ret=0 sq_head=1000 cq_ready=0" ] &&
		echo "ok: $mode ring: 1000 NOPs from BPF inside the app's enter: $GOT" ||
		fail "$mode ring: app says '$GOT', want 'ret=0 sq_head=1000 cq_ready=0'"
	expect_exit 0 "state: .*reqs_to_run=1000 .*reqs_done=1000 reqs_failed=0" -- show
	expect_exit 0 "unloaded nops-$apid-$afd" -- unload "nops-$apid-$afd"
done
finish
