#!/bin/bash
# examples/template/myloop.bpf.o, built out of examples/ as a user builds
# it (tests/Makefile: the installed headers through pkg-config), runs
# through `iouring-bpf run FILE --set count=100` with nothing else: it
# carries both loop maps (IOU_LOOP_OPS()), so it runs on v3's hook (our
# kernel) and on mainline's (stock 7.2): 100 NOPs in one enter, the exit
# info says done, the ring globals (iou_*) were filled. The template's
# application (myloop.c: its skeleton and libiouring-bpf 2, built with
# pkg-config) runs the same 100 NOPs and says done.
# kernels: ours stock
source "$(dirname "$0")/lib.sh"
loop_feature_or_skip
OBJ=$FOBJ/template/myloop.bpf.o
[ -f "$OBJ" ] || { echo "FAIL: no $OBJ: make -C tests (make test-prep)"; exit 1; }

J=$TMP/myloop.json
if run_json "$J" run "$OBJ" --set count=100; then
	got=$(jget "$J" '(d["binding"], d["enter_ret"], d["cqes_left"], d["globals"]["done"], d["globals"]["failed"], d["globals"]["exit"]["kind"], d["globals"]["iou_sq_entries"])')
	want="('$LOOP_API', 0, 0, 100, 0, 'done', 64)"
	[ "$got" = "$want" ] && echo "ok: the template ran 100 NOPs: $got" ||
		fail "run myloop: (binding, enter_ret, cqes_left, done, failed, exit, iou_sq_entries) = $got, want $want"
fi
expect_exit 0 "exit +done code=0 value=100" -- run "$OBJ" --set count=100
checks=$((checks + 1))
out=$("$FOBJ/template/myloop" 100 2>&1); rc=$?
case "$rc:$out" in
"0:enter 0: done 100, failed 0; exit done: all NOPs completed")
	echo "ok: the template's application (skeleton, libiouring-bpf 2): $out" ;;
*)	fail "the template's application: exit $rc: $out" ;;
esac
finish
