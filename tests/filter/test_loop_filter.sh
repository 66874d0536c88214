#!/bin/bash
# kernels: ours stock
#
# A ring filter and a loop program on the same ring (loop_filter.c): the
# filter also judges the requests the program submits from inside
# io_uring_enter(). Needs filters and the loop hook: stock 7.2 has both;
# our 6.12 has no filters (SKIP).
. "$(dirname "$0")/lib.sh"
filters_or_skip
H=$ROOT/build/tests/filter/loop_filter
[ -x "$H" ] || skip "build/tests/filter/loop_filter is not built (make -C tests filter)"
exec "$H"
