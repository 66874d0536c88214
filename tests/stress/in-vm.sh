#!/bin/bash
# tests/stress/in-vm.sh: what tests/stress/run runs in its one boot of the
# debug kernel: the long form of kernel/test_op_pins (what queued
# IORING_OP_BPF requests may pin and allocate, issue 21), then iou-stress
# with the arguments given (its kmemleak scan then also covers the pins).
#
#   tests/stress/in-vm.sh IOU-STRESS [iou-stress arguments]
#
# Prints "pins: ..." (the test's figures and result) before iou-stress's
# own "figures:" line. Exit: iou-stress's status, or 1 if it passed and
# test_op_pins failed.
set -u
PINS=tests/kernel/test_op_pins
pins_rc=0
if [ -x "$PINS" ]; then
	start=$SECONDS
	IOURING_BPF_PINS_LONG=1 IOURING_BPF_SUBTEST_TIMEOUT=${STRESS_PINS_TIMEOUT:-600} \
		"$PINS" -v 2>&1 | tee /run/pins.log
	pins_rc=${PIPESTATUS[0]}
	sed -n 's/^ *# figures: /pins: /p' /run/pins.log
	echo "pins: test_op_pins (long form) exit $pins_rc: $(tail -n 1 /run/pins.log), $((SECONDS - start)) s"
	case $pins_rc in 0|77) pins_rc=0 ;; *) pins_rc=1 ;; esac
else
	echo "pins: $PINS is not built (make -C tests): not run"
fi
"$@"
rc=$?
[ "$rc" -eq 0 ] && rc=$pins_rc
exit "$rc"
