#!/bin/bash
# tests/stress/test_stress: the short iou-stress run of `make test` (the
# full one is `make stress`): op id races for 6 s, 25 waits ended from
# outside, 80 attach/detach cycles (about 45 s on the debug kernel). The
# VM runner's console scan fails the run on any kernel report.
BIN=build/tests/stress/iou-stress
if [ ! -x "$BIN" ]; then
	echo "$BIN is not built (make -C tests stress)"
	exit 77
fi
exec "$BIN" --race 6 --loop 10 --loop-max 25 --cycles 80 --seed "${STRESS_SEED:-1}"
