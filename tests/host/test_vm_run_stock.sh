#!/bin/bash
# kernel/vm-run --stock end to end on the fetched stock kernel (skipped when
# it is not fetched: make stock-kernel): the command runs in the host's
# directory on the pinned kernel release (kernel/fetch-stock --print-release),
# whose BTF has mainline's struct io_uring_bpf_ops; IOURING_BPF_VM_KERNEL is
# "stock"; the exit status comes back; a kernel report exits 3.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
if ! "$ROOT/kernel/fetch-stock" --print-dir --no-fetch >/dev/null; then
	echo "the stock kernel is not fetched (make stock-kernel)"
	exit 77
fi
BPFTOOL=${IOURING_BPF_BPFTOOL:-$("$ROOT/tools/build-bpftools" --print-dir --no-build)/bin/bpftool}
if [ ! -x "$BPFTOOL" ]; then
	echo "no cached bpftool (make tools)"
	exit 77
fi
RELEASE=$("$ROOT/kernel/fetch-stock" --print-release)
VMRUN=$ROOT/kernel/vm-run
T=$(mktemp -d "${TEST_TMPDIR:-/tmp}/vmrunstock.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# 1. Release, BTF, cwd, environment, exit status.
rc=0
t0=$SECONDS
(cd "$ROOT/tests" && "$VMRUN" --stock -- bash -c '
	echo "release $(uname -r)"
	echo "pwd $PWD kernel $IOURING_BPF_VM_KERNEL"
	'"$(printf %q "$BPFTOOL")"' btf dump file /sys/kernel/btf/vmlinux format raw |
		grep -c "STRUCT '\''io_uring_bpf_ops'\''" | sed "s/^/io_uring_bpf_ops /"
	exit 7') >"$T/out" 2>"$T/err" || rc=$?
cat "$T/out"
echo "boot + command: $((SECONDS - t0)) s"
[ $rc = 7 ] || bad "exit status $rc, expected 7 ($(tail -3 "$T/err"))"
grep -qx "release $RELEASE" "$T/out" || bad "kernel release is not $RELEASE"
grep -qx "pwd $ROOT/tests kernel stock" "$T/out" || bad "cwd or IOURING_BPF_VM_KERNEL wrong"
grep -qx "io_uring_bpf_ops 1" "$T/out" || bad "the BTF lacks struct io_uring_bpf_ops"

# 2. A kernel report fails the run although the command succeeded.
rc=0
"$VMRUN" --stock --console-log "$T/console2" -- sh -c 'echo "<4>WARNING: CPU: 0 PID: 1 at fake/test.c:1 fake_warn+0x0/0x10" >/dev/kmsg' \
	>"$T/out" 2>"$T/err" || rc=$?
[ $rc = 3 ] || bad "kernel report: exit $rc, expected 3"
grep -q "KERNEL REPORT" "$T/err" && grep -q "fake_warn" "$T/err" || bad "report not printed: $(tail -5 "$T/err")"
[ $rc = 3 ] && echo "ok: kernel report -> 3"
exit $fail
