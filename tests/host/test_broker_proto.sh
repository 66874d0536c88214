#!/bin/bash
# The broker's message decoder (loader/lib/broker_proto.h) under ASan and
# UBSan: its table of malformed messages, then 200,000 random and mutated
# ones (tests/broker/proto_fuzz.c). The daemon's handling of the same
# messages over its socket is tests/broker/test_hostile.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
F=$ROOT/build/tests/broker/proto_fuzz
[ -x "$F" ] || { echo "build/tests/broker/proto_fuzz is not built (make -C tests broker)"; exit 77; }
exec "$F" "${BROKER_FUZZ_SEED:-1}" 200000
