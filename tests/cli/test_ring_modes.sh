#!/bin/bash
# test-timeout: 900
# Every built-in loop program through libiouring-bpf on the three SQ modes
# of a ring: an SQ array, NO_SQARRAY, and SQ_REWIND (Linux 7.0+; not on
# the project's 6.12 kernel, where bit 20 is IORING_SETUP_BPF: that mode
# is then left out, and said so). nop-chain and copy with checked results
# (counters, SQ/CQ heads, an identical copy); the programs that submit the
# application's SQEs (batch-wait, cq-stats, hybrid-poll) serve two rounds
# of them on every mode (on SQ_REWIND the application stores the count in
# the SQ tail, the program zeroes it), an SQ_REWIND tail above sq_entries
# stops cq-stats with an error, and an object built before that protocol
# (iou_app_sqes 1) is refused on SQ_REWIND; io_uring_params that claim
# SQ_REWIND for a ring without it stop nop-chain with an error; an object
# that fills SQEs at the SQ tail without knowing SQ_REWIND is refused on
# it. See ring_modes.c (built on the host by tests/Makefile).
# Then the CLI: `iouring-bpf run PROG --ring-flags ...` for every built-in
# loop program (`list --json`) on the three modes, its workload checking
# its results. On a kernel without SQ_REWIND (ours) only sq-rewind's
# refusal (exit 3, naming the flag) for each: under the emulator the
# debug kernel's runs take minutes (cq-stats' alone several), and run's
# default ring is cli/test_run_loops' and cli/test_run_polls'.
# kernels: ours stock
source "$(dirname "$0")/lib.sh"
loop_feature_or_skip
need_helper ring_modes
# an object that fills SQEs at the SQ tail (liburing's style, no
# iou_sq_rewind): runs on NO_SQARRAY, refused on SQ_REWIND
OBJ=$ROOT/examples/mainline_nops.bpf.o
[ -f "$OBJ" ] || { echo "FAIL: $OBJ not built (make -C examples)"; exit 1; }
APP=$ROOT/build/progs/cq_stats.bpf.o
[ -f "$APP" ] || { echo "FAIL: $APP not built (make -C loader)"; exit 1; }
rc=0
TMPDIR=$TMP RING_MODES_TAIL_OBJ=$OBJ RING_MODES_APP_OBJ=$APP "$HELPERS/ring_modes" || rc=$?
[ $rc = 0 ] || fail "ring_modes exited $rc"

# the CLI: each built-in loop program's workload on each SQ mode
"$CLI" list --json >"$TMP/list.json" || fail "list --json"
LOOPS=$(python3 -c 'import json,sys; print(" ".join(p["name"] for p in json.load(open(sys.argv[1]))["programs"] if p["kind"] == "loop"))' "$TMP/list.json")
[ -n "$LOOPS" ] || fail "list --json names no loop program"
rewind=0 modes="+no-sqarray,+sq-rewind"
[ "$MAINLINE" = 1 ] && rewind=1 modes="-no-sqarray +no-sqarray +no-sqarray,+sq-rewind"
for p in $LOOPS; do
	for m in $modes; do
		case $m in
		-no-sqarray) want='flags 0x[0-9a-f]+ \((cqsize\|)?single-issuer\|defer-taskrun\)' ;;
		+no-sqarray) want='flags 0x[0-9a-f]+ \((cqsize\|)?single-issuer\|defer-taskrun\|no-sqarray\)' ;;
		*) want='flags 0x[0-9a-f]+ \((cqsize\|)?single-issuer\|defer-taskrun\|no-sqarray\|sq-rewind\)' ;;
		esac
		if [ $rewind = 0 ] && [ "${m#*sq-rewind}" != "$m" ]; then
			expect_exit 3 "no IORING_SETUP_SQ_REWIND" -- run "$p" --ring-flags "$m" &&
				echo "ok: [$p $m] refused: $(grep -m1 -o 'no IORING_SETUP_SQ_REWIND.*' <<<"$LAST_OUT" | cut -c1-100)"
			continue
		fi
		expect_exit 0 "$want" -- run "$p" --ring-flags "$m" &&
			echo "ok: [$p $m] $(grep -m1 -oE "flags 0x[0-9a-f]+ \([a-z|-]+\)" <<<"$LAST_OUT"); $(tail -1 <<<"$LAST_OUT")"
	done
done
echo "$checks CLI runs, $fails failed; SQ_REWIND $([ $rewind = 1 ] && echo run || echo refused, as the kernel has none)"
[ $fails = 0 ]
