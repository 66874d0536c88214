#!/bin/bash
# lib.sh - what the conformance scripts share (sourced, not a test).
# The objects and the driver are built on the host by tests/Makefile into
# build/tests/conformance/.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=$ROOT/build/tests/conformance
OBJ=$OUT/conf_op.bpf.o
DRIVER=$OUT/conf_driver
CLI=$ROOT/build/iouring-bpf
TMP=${TEST_TMPDIR:-$(mktemp -d)}

skip() {
	echo "$*"
	exit 77
}

fail() {
	echo "FAIL: $*"
	exit 1
}

# the posted series' op type in the running kernel's BTF, root, the build
op_feature_or_skip() {
	[ "$(id -u)" = 0 ] || skip "not root (registering struct_ops needs CAP_BPF)"
	grep -qa uring_bpf_ops /sys/kernel/btf/vmlinux 2>/dev/null ||
		skip "kernel BTF has no struct uring_bpf_ops (no IORING_OP_BPF)"
	[ -f "$OBJ" ] && [ -x "$DRIVER" ] ||
		fail "no $OBJ or $DRIVER: build them with make -C tests"
}
