#!/bin/bash
# `iouring-bpf run FILE` makes the ring a program was written for and
# never calls a run that did nothing, or whose program failed, a success.
# cp0.bpf.o is a copy written as liburing's tests of the merged hook write
# theirs for an SQ_REWIND ring (each SQE at index 0, two files given as
# fds, a buffer by address and size, results in .bss): it copies 1 MiB
# identically (cmp) with run's default ring and with the ring given by
# --ring-flags, --sq-entries and --cq-entries; on a ring without SQ_REWIND
# its submit takes nothing and run exits 6 naming the ring mode and the
# fix; with its globals unset, exit 6 naming them; cp0_exit.bpf.o's
# IOU_EXIT_ERROR exits 1; each --expect and --expect-cqes that does not
# hold exits 7, and holds when it should. The report (--json) says what
# the kernel saw. On the project's kernel bit 20 is IORING_SETUP_BPF, not
# SQ_REWIND: an explicit sq-rewind is refused with exit 3 there, the
# --expect and no-progress checks run with the template (both hooks), and
# the mainline-only objects are checked refused, then the test skips.
# kernels: ours stock
source "$(dirname "$0")/lib.sh"
loop_feature_or_skip
OBJ=$FOBJ/cp0.bpf.o
XOBJ=$FOBJ/cp0_exit.bpf.o
TPL=$FOBJ/template/myloop.bpf.o
[ -f "$TPL" ] || { echo "FAIL: no $TPL: make -C tests (make test-prep)"; exit 1; }

# --- on every hook: the template (100 NOPs), --expect, nothing done ---
J=$TMP/tpl.json
if run_json "$J" run "$TPL" --set count=100 --expect done=100 --expect exit=done --expect-cqes 100; then
	got=$(jget "$J" '(d["status"], d["stopped"], d["kernel"]["cqes_posted"], d["kernel"]["cqes_left"], d["exit"]["kind"], [e["held"] for e in d["expects"]], d["no_progress"])')
	want="(0, 'program-stop', 100, 0, 'done', [True, True, True], None)"
	[ "$got" = "$want" ] && echo "ok: 100 NOPs, every expectation held: $got" ||
		fail "run myloop --expect: $got, want $want"
fi
expect_exit 7 "expect done=99: DID NOT HOLD \(got 100\)" -- run "$TPL" --set count=100 --expect done=99
expect_exit 7 "expect exit=error: DID NOT HOLD \(got done\)" -- run "$TPL" --set count=100 --expect exit=error
expect_exit 7 "expect cqes=5: DID NOT HOLD \(got 100\)" -- run "$TPL" --set count=100 --expect-cqes 5
expect_exit 2 "no global 'nosuch'" -- run "$TPL" --set count=1 --expect nosuch=1
expect_exit 2 "'ten' is not an integer" -- run "$TPL" --set count=1 --expect done=ten
# count=0: the program stops at once ("done") having done nothing
expect_exit 6 "nothing done: the program stopped, the kernel consumed no SQE and posted no CQE" -- run "$TPL" --set count=0
expect_exit 0 "nothing done: as --expect-cqes 0 says" -- run "$TPL" --set count=0 --expect-cqes 0
checks=$((checks + 1))
rc=0
"$CLI" run "$TPL" --set count=0 --json >"$J" 2>"$TMP/err" || rc=$?
got=$(jget "$J" '(d["ok"], d["status"], d["kernel"]["cqes_posted"], d["no_progress"] is not None and "fix" in d["no_progress"])' 2>&1)
[ "$rc/$got" = "6/(False, 6, 0, True)" ] && echo "ok: --json carries nothing done: $got" ||
	fail "run myloop count=0 --json: exit $rc, $got"

# built-in loop programs take the ring options too: an SQ-array ring,
# other sizes (their own checks decide)
expect_exit 0 "ring +64 SQ / 256 CQ entries, flags 0x[0-9a-f]+ \(cqsize\|single-issuer\|defer-taskrun\)$" -- run nop-chain --count 100 --ring-flags -no-sqarray
grep -q "nop-chain: ok, all checks passed" <<<"$LAST_OUT" && echo "ok: nop-chain on an SQ-array ring" ||
	{ checks=$((checks + 1)); fail "nop-chain on an SQ-array ring: $LAST_OUT"; }
expect_exit 0 "nop-chain: ok, all checks passed" -- run nop-chain --count 100 --sq-entries 16 --cq-entries 64

if [ "$MAINLINE" != 1 ]; then
	# the project's kernel: bit 20 is IORING_SETUP_BPF; never ask for it
	expect_exit 3 "no IORING_SETUP_SQ_REWIND" -- run nop-chain --count 10 --ring-flags +sq-rewind
	expect_exit 3 "no IORING_SETUP_SQ_REWIND.*bit 20 is IORING_SETUP_BPF" -- run "$TPL" --set count=10 --ring-flags +sq-rewind
	expect_exit 3 "no IORING_SETUP_SQ_REWIND" -- run "$OBJ" --ring-flags single-issuer,defer-taskrun,no-sqarray,sq-rewind
	mainline_or_skip run "$OBJ"
fi

# --- mainline: the liburing-style copy ---
head -c 1048576 /dev/urandom >"$TMP/in"
SETS=(--set input_fd=@"$TMP/in" --set output_fd=@">$TMP/out" --set buf_addr,buf_size=@buf:64K)
# 16 reads and 16 writes of 64 KiB, and the read at the end of the input
CQES=33

# the default ring: SQ_REWIND, chosen because cp0 declares no SQ position
J=$TMP/cp0.json
if run_json "$J" run "$OBJ" "${SETS[@]}"; then
	got=$(jget "$J" '("sq-rewind" in d["ring"]["flag_names"].split("|"), d["ring"]["chosen_by"], d["status"], d["globals"]["cp_result"], d["globals"]["bytes_copied"], d["kernel"]["sqes_consumed"], d["kernel"]["cqes_posted"], d["kernel"]["cqes_left"], d["no_progress"])')
	want="(True, 'default', 0, 0, 1048576, None, $CQES, 0, None)"
	[ "$got" = "$want" ] && echo "ok: the default ring is SQ_REWIND and the copy ran: $got" ||
		fail "run cp0 (default ring): $got, want $want"
	calls=$(jget "$J" 'd["program_calls"]')
	checks=$((checks + 1))
	[ "$calls" != None ] && [ "$calls" -ge "$CQES" ] && echo "ok: the program ran $calls times (>= one per CQE)" ||
		fail "program_calls $calls, want >= $CQES"
	checks=$((checks + 1))
	cmp "$TMP/in" "$TMP/out" && echo "ok: the copy is identical (default ring)" ||
		fail "the copy differs from its input (default ring)"
fi
expect_exit 0 "ring chosen by +default: SQ_REWIND: the object declares no SQ position global" -- run "$OBJ" "${SETS[@]}"

# the ring given explicitly, every flag named, small sizes; the expectations hold
rm -f "$TMP/out"
J=$TMP/cp0x.json
if run_json "$J" run "$OBJ" "${SETS[@]}" --ring-flags single-issuer,defer-taskrun,no-sqarray,cqsize,sq-rewind \
	--sq-entries 8 --cq-entries 16 --expect cp_result=0 --expect bytes_copied=1048576 --expect-cqes $CQES; then
	got=$(jget "$J" '(d["ring"]["sq_entries"], d["ring"]["cq_entries"], d["ring"]["flag_names"], d["ring"]["chosen_by"], [e["held"] for e in d["expects"]], d["status"])')
	want="(8, 16, 'cqsize|single-issuer|defer-taskrun|no-sqarray|sq-rewind', '--ring-flags', [True, True, True], 0)"
	[ "$got" = "$want" ] && echo "ok: the given ring, expectations held: $got" ||
		fail "run cp0 --ring-flags ...: $got, want $want"
	checks=$((checks + 1))
	cmp "$TMP/in" "$TMP/out" && echo "ok: the copy is identical (given ring)" ||
		fail "the copy differs from its input (given ring)"
fi
# +/- changes to the default: coop-taskrun added
rm -f "$TMP/out"
expect_exit 0 "flags 0x[0-9a-f]+ \(cqsize\|coop-taskrun\|single-issuer\|defer-taskrun\|no-sqarray\|sq-rewind\)" -- \
	run "$OBJ" "${SETS[@]}" --ring-flags +coop-taskrun --expect bytes_copied=1048576
checks=$((checks + 1))
cmp "$TMP/in" "$TMP/out" && echo "ok: the copy is identical (+coop-taskrun)" || fail "the copy differs (+coop-taskrun)"

# each expectation fails when it should: exit 7, the copy itself done
expect_exit 7 "expect bytes_copied=1: DID NOT HOLD \(got 1048576\)" -- run "$OBJ" "${SETS[@]}" --expect bytes_copied=1
expect_exit 7 "expect cqes=32: DID NOT HOLD \(got $CQES\)" -- run "$OBJ" "${SETS[@]}" --expect-cqes 32
expect_exit 7 "1 expectation did not hold \(exit 7\)" -- run "$OBJ" "${SETS[@]}" --expect cp_result=0 --expect cp_result=-11

# a ring without SQ_REWIND: the SQE at index 0 is never taken; exit 6 names
# the ring mode and the fix, and nothing reaches the output
rm -f "$TMP/out"
expect_exit 6 "likely cause: ring mode: .*this ring has no SQ_REWIND" -- run "$OBJ" "${SETS[@]}" --ring-flags -sq-rewind
grep -q "fix: run it with --ring-flags +sq-rewind" <<<"$LAST_OUT" && echo "ok: the fix is named" ||
	{ checks=$((checks + 1)); fail "no fix named: $LAST_OUT"; }
checks=$((checks + 1))
[ ! -s "$TMP/out" ] && echo "ok: nothing was written, and run said so" || fail "$TMP/out is not empty"
J=$TMP/noprog.json
checks=$((checks + 1))
rc=0
"$CLI" run "$OBJ" "${SETS[@]}" --ring-flags -sq-rewind --json >"$J" 2>"$TMP/err" || rc=$?
got=$(jget "$J" '(d["ok"], d["status"], d["kernel"]["sqes_consumed"], d["kernel"]["cqes_posted"], d["globals"]["cp_result"], d["no_progress"]["cause"].startswith("ring mode"))' 2>&1)
[ "$rc/$got" = "6/(False, 6, 0, 0, -11, True)" ] && echo "ok: --json says nothing done and why: $got" ||
	fail "run cp0 -sq-rewind --json: exit $rc, $got"
python3 "$ROOT/tests/host/json_check.py" "$ROOT/docs/json/run-file.schema.json" "$J" >/dev/null ||
	{ checks=$((checks + 1)); fail "the no-progress document does not match run-file.schema.json"; }
expect_exit 2 "sq-rewind needs no-sqarray" -- run "$OBJ" "${SETS[@]}" --ring-flags single-issuer,defer-taskrun,sq-rewind

# globals unset: the program stops at once; exit 6 names them
expect_exit 6 "unset globals: not given with --set and unchanged by the run: .*input_fd.*buf_addr" -- run "$OBJ"
grep -q "fix: give the program its inputs with --set NAME=VALUE" <<<"$LAST_OUT" && echo "ok: the fix is named" ||
	{ checks=$((checks + 1)); fail "no --set fix named: $LAST_OUT"; }

# the program's own exit info decides: IOU_EXIT_ERROR is a failure (1)
expect_exit 1 "the program stopped with an error: code=-22 .*input_fd, output_fd, buf_addr, buf_size unset" -- run "$XOBJ"
J=$TMP/err.json
checks=$((checks + 1))
rc=0
"$CLI" run "$XOBJ" --json >"$J" 2>"$TMP/err" || rc=$?
got=$(jget "$J" '(d["ok"], d["status"], d["enter_ret"], d["exit"]["kind"], d["exit"]["code"])' 2>&1)
[ "$rc/$got" = "1/(False, 1, 0, 'error', -22)" ] && echo "ok: enter returned 0, the exit info says error: exit 1: $got" ||
	fail "run cp0_exit (unset) --json: exit $rc, $got"
rm -f "$TMP/out"
expect_exit 0 "exit info +done code=0 value=1048576: copy complete" -- run "$XOBJ" "${SETS[@]}" --expect exit=done
checks=$((checks + 1))
cmp "$TMP/in" "$TMP/out" && echo "ok: the copy is identical (cp0_exit)" || fail "the copy differs (cp0_exit)"

# an object that finds the SQ through sq_tail_offset keeps a tail ring,
# and is refused an SQ_REWIND one (its SQEs past index 0 would never be
# taken: a wrong copy, not a run)
expect_exit 0 "ring chosen by +default: no SQ_REWIND: the object declares sq_head_offset" -- run "$FOBJ/nops.bpf.o" --set reqs_to_run=10
rm -f "$TMP/out"
expect_exit 2 "cp.bpf.o cannot use an SQ_REWIND ring: it finds the SQ through sq_head_offset" -- run "$FOBJ/cp.bpf.o" "${SETS[@]}" --ring-flags +sq-rewind
checks=$((checks + 1))
[ ! -s "$TMP/out" ] && echo "ok: refused before anything ran" || fail "$TMP/out was written by a refused run"
finish
