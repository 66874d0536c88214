# tests/foreign/lib.sh - sourced by the tests of programs written
# elsewhere: tests/cli/lib.sh (the CLI, expect_exit, the loop hook check)
# and where the objects are. They are mainline-only, as liburing's are:
# on v3's hook (our kernel) `run`/`load` refuse them with exit 3, and the
# test checks that refusal and skips the rest.
source "$(dirname "$0")/../cli/lib.sh"
FOBJ=$ROOT/build/tests/foreign
for o in nops cp sized cp0 cp0_exit; do
	[ -f "$FOBJ/$o.bpf.o" ] ||
		{ echo "FAIL: no $FOBJ/$o.bpf.o: make -C tests (make test-prep)"; exit 1; }
done

# on v3: exit 3 naming mainline, then SKIP
mainline_or_skip() {
	[ "$MAINLINE" = 1 ] && return
	expect_exit 3 "written for mainline's struct io_uring_bpf_ops" -- "$@"
	[ "$fails" = 0 ] || { finish; exit 1; }
	skip "mainline-only objects (liburing's style): refused with exit 3 on the $LOOP_API hook, as they should be"
}

# jget FILE EXPR: a value of the JSON document in FILE (python expression
# over d)
jget() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# run_json FILE ARGS...: `iouring-bpf ARGS --json` into FILE; true when it
# exited 0 and FILE matches docs/json/run-file.schema.json (each a check;
# a failure says which and with what).
run_json() {
	local out=$1 rc=0
	shift
	checks=$((checks + 1))
	"$CLI" "$@" --json >"$out" 2>"$TMP/err" || rc=$?
	if [ "$rc" != 0 ]; then
		fail "$*: exit $rc: $(cat "$TMP/err" "$out")"
		return 1
	fi
	checks=$((checks + 1))
	python3 "$ROOT/tests/host/json_check.py" "$ROOT/docs/json/run-file.schema.json" "$out" ||
		{ fail "run FILE --json does not match docs/json/run-file.schema.json"; return 1; }
}
