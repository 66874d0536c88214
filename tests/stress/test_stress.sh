#!/bin/bash
# tests/stress/test_stress: the short iou-stress run of `make test` (the
# full one is `make stress`): op id races for 8 s, 30 waits ended from
# outside, 100 attach/detach cycles. The VM runner's console scan fails the
# run on any kernel report.
BIN=build/tests/stress/iou-stress
if [ ! -x "$BIN" ]; then
	echo "$BIN is not built (make -C tests stress)"
	exit 77
fi
exec "$BIN" --race 8 --loop 15 --loop-max 30 --cycles 100 --seed "${STRESS_SEED:-1}"
