#!/bin/bash
# The kernel's BTF has the loop hook of its kind, with the members and
# kfuncs our programs use: on our kernel v3's `struct io_uring_ops` (loop,
# ring_fd, priv) and `struct iou_loop_state`; on the stock kernel mainline's
# `struct io_uring_bpf_ops` (loop_step, ring_fd, priv) and
# `struct iou_loop_params`; on both, the struct_ops is registered
# (bpf_struct_ops_<name>) and the kfuncs bpf_io_uring_submit_sqes and
# bpf_io_uring_get_region exist. A kernel without the hook: SKIP.
# kernels: ours stock
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

if [ "${IOURING_BPF_IN_VM:-}" != 1 ]; then
	echo "not in a kernel/vm-run guest"
	exit 77
fi
BPFTOOL=${IOURING_BPF_BPFTOOL:-}
if [ -z "$BPFTOOL" ]; then
	d=$("$ROOT/tools/build-bpftools" --print-dir --no-build 2>/dev/null || true)
	BPFTOOL=$d/bin/bpftool
fi
if [ ! -x "$BPFTOOL" ]; then
	echo "no cached bpftool (make tools)"
	exit 77
fi
if [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "the kernel has no BTF (/sys/kernel/btf/vmlinux)"
	exit 77
fi

case "${IOURING_BPF_VM_KERNEL:-ours}" in
stock|mainline) ops=io_uring_bpf_ops members="loop_step ring_fd priv" params=iou_loop_params ;;
*) ops=io_uring_ops members="loop ring_fd priv" params=iou_loop_state ;;
esac
echo "kernel $(uname -r) (${IOURING_BPF_VM_KERNEL:-ours}): expecting struct $ops"

BTF=${TEST_TMPDIR:-/tmp}/btf.raw
"$BPFTOOL" btf dump file /sys/kernel/btf/vmlinux format raw >"$BTF"
if ! grep -q "^\[[0-9]*\] STRUCT '$ops' " "$BTF"; then
	echo "this kernel's BTF has no struct $ops (no loop hook)"
	exit 77
fi

fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

# The member names of STRUCT $1, one a line.
members_of() {
	awk -v s="$1" '
		/^\[[0-9]+\] / { on = ($2 == "STRUCT" && $3 == "\047" s "\047"); next }
		on && /^\t\047/ { n = $1; gsub(/\047/, "", n); print n }' "$BTF"
}
got=$(members_of "$ops" | tr '\n' ' ')
[ "$got" = "$members " ] && ok "struct $ops { $got}" ||
	bad "struct $ops has members '$got', expected '$members '"
grep -q "^\[[0-9]*\] STRUCT '$params' " "$BTF" && ok "struct $params" ||
	bad "no struct $params"
grep -q "^\[[0-9]*\] STRUCT 'bpf_struct_ops_$ops' " "$BTF" && ok "$ops is a registered struct_ops" ||
	bad "no bpf_struct_ops_$ops: the struct_ops is not registered"
for f in bpf_io_uring_submit_sqes bpf_io_uring_get_region; do
	grep -q "^\[[0-9]*\] FUNC '$f' " "$BTF" && ok "kfunc $f" || bad "no kfunc $f"
done
exit $fail
