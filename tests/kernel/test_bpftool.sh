#!/bin/bash
# The cached bpftool 7.5 works against our kernel: it reads the kernel's BTF
# (which describes io_uring), lists programs, and the JIT is on. The same on
# the stock kernel.
# kernels: ours stock
set -euo pipefail
BPFTOOL=${IOURING_BPF_BPFTOOL:-}
if [ -z "$BPFTOOL" ] || [ ! -x "$BPFTOOL" ]; then
	echo "no cached bpftool (make tools)"
	exit 77
fi
fail=0
v=$("$BPFTOOL" version)
echo "$v"
grep -q '^bpftool v7\.5\.' <<<"$v" || { echo "FAIL: not bpftool 7.5"; fail=1; }
"$BPFTOOL" btf dump file /sys/kernel/btf/vmlinux format raw >"$TEST_TMPDIR/btf"
for t in "STRUCT 'io_ring_ctx'" "STRUCT 'io_kiocb'" "STRUCT 'bpf_struct_ops'"; do
	grep -q "$t" "$TEST_TMPDIR/btf" && echo "ok: BTF has $t" || { echo "FAIL: BTF lacks $t"; fail=1; }
done
"$BPFTOOL" prog list >/dev/null && echo "ok: bpftool prog list" || { echo "FAIL: bpftool prog list"; fail=1; }
jit=$(cat /proc/sys/net/core/bpf_jit_enable 2>/dev/null || echo missing)
[ "$jit" = 1 ] && echo "ok: JIT on" || { echo "FAIL: bpf_jit_enable = $jit"; fail=1; }
exit $fail
