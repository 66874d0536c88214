#!/bin/bash
# tests/fuzz/test_sqe_fuzz: the short SQE fuzz run of `make test` (the full
# one is `make fuzz`): 20,000 random IORING_OP_BPF requests of seed 1, or
# 40 s, whichever comes first.
BIN=build/tests/fuzz/iou-sqe-fuzz
if [ ! -x "$BIN" ]; then
	echo "$BIN is not built (make -C tests fuzz)"
	exit 77
fi
exec "$BIN" --seed "${FUZZ_SEED:-1}" --requests 20000 --seconds 40
