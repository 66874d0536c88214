#!/bin/bash
# Unit test of the bpf_op_flags encoding and of ring_prep_bpf(): builds
# tests/host/cli_opflags.c with loader/workloads/ring.c and runs it.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TMP=${TEST_TMPDIR:-$(mktemp -d)}
cc -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter \
	-I"$ROOT/loader/workloads" -o "$TMP/cli_opflags" \
	"$ROOT/tests/host/cli_opflags.c" "$ROOT/loader/workloads/ring.c"
"$TMP/cli_opflags"
