#!/bin/bash
# The kernel config fragments are well formed and ask for what the project
# needs: only CONFIG_ lines and comments, no symbol twice, the io_uring BPF
# options, BTF, JIT, MODULES (struct_ops), and a debug fragment whose KASAN
# is not blocked by SLUB_TINY.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
fail=0
for f in "$ROOT/kernel/config" "$ROOT/kernel/config.debug"; do
	bad=$(grep -nvE '^(#.*|CONFIG_[A-Z0-9_]+=([ynm]|[0-9]+|0x[0-9a-fA-F]+|".*")|[[:space:]]*)$' "$f" || true)
	[ -z "$bad" ] || { echo "FAIL: $f has malformed lines:"; echo "$bad"; fail=1; }
	dup=$(sed -nE 's/^(CONFIG_[A-Z0-9_]+)=.*/\1/p' "$f" | sort | uniq -d)
	[ -z "$dup" ] || { echo "FAIL: $f sets twice: $dup"; fail=1; }
done
need() {	# need FILE LINE
	grep -qx "$2" "$1" && echo "ok: $(basename "$1"): $2" || { echo "FAIL: $1 lacks $2"; fail=1; }
}
for l in CONFIG_IO_URING=y CONFIG_IO_URING_BPF_OP=y CONFIG_IO_URING_BPF_LOOP=y \
	 CONFIG_BPF_SYSCALL=y CONFIG_BPF_JIT=y CONFIG_DEBUG_INFO_BTF=y CONFIG_MODULES=y \
	 CONFIG_BUG=y CONFIG_PRINTK_TIME=y CONFIG_VIRTIO_MENU=y CONFIG_VIRTIO_PCI=y \
	 CONFIG_NET_9P_VIRTIO=y CONFIG_9P_FS=y CONFIG_SERIAL_8250_CONSOLE=y \
	 CONFIG_DEBUG_FS=y CONFIG_TMPFS=y CONFIG_DEVTMPFS=y; do
	need "$ROOT/kernel/config" "$l"
done
for l in CONFIG_SLUB_TINY=n CONFIG_KASAN=y CONFIG_PROVE_LOCKING=y \
	 CONFIG_DEBUG_ATOMIC_SLEEP=y CONFIG_DEBUG_KMEMLEAK=y CONFIG_DEBUG_KMEMLEAK_AUTO_SCAN=n; do
	need "$ROOT/kernel/config.debug" "$l"
done
exit $fail
