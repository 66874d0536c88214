#!/bin/bash
# The VM that kernel/vm-run boots is what the other tests expect: our kernel
# (or the pinned stock kernel with --stock, Linux 7.2.13 + our fix with
# --mainline), bpffs, debugfs and tracefs
# mounted, vmlinux BTF present, io_uring enabled, a writable
# $VM_SCRATCH/$TMPDIR, a read-only root.
# kernels: ours stock
set -euo pipefail
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

if [ "${IOURING_BPF_IN_VM:-}" != 1 ]; then
	echo "not in a kernel/vm-run guest"
	exit 77
fi
uname -a
if [ "${IOURING_BPF_VM_KERNEL:-}" = stock ]; then
	want=$(kernel/fetch-stock --print-release)
	[ "$(uname -r)" = "$want" ] && ok "stock kernel $(uname -r)" ||
		bad "kernel $(uname -r), expected the stock $want (kernel/fetch-stock)"
elif [ "${IOURING_BPF_VM_KERNEL:-}" = mainline ]; then
	case "$(uname -r)" in
	7.2.13*) ok "mainline kernel $(uname -r) (kernel/mainline/build)" ;;
	*) bad "kernel $(uname -r), expected 7.2.13 (kernel/mainline/build)" ;;
	esac
else
	case "$(uname -r)" in
	6.12.*) ok "kernel $(uname -r)" ;;
	*) bad "kernel $(uname -r), expected 6.12.x" ;;
	esac
fi

fstype() { awk -v d="$1" '$2 == d { t = $3 } END { print t }' /proc/mounts; }
for m in /sys/fs/bpf:bpf /sys/kernel/debug:debugfs /sys/kernel/tracing:tracefs \
	 /proc:proc /sys:sysfs /dev:devtmpfs /run:tmpfs /dev/shm:tmpfs /:9p \
	 /run/vm-scratch:9p; do
	d=${m%%:*} want=${m#*:}
	t=$(fstype "$d")
	[ "$t" = "$want" ] && ok "$d is $want" || bad "$d is '${t:-not mounted}', expected $want"
done

[ -r /sys/kernel/btf/vmlinux ] && ok "/sys/kernel/btf/vmlinux ($(stat -c %s /sys/kernel/btf/vmlinux) bytes)" ||
	bad "/sys/kernel/btf/vmlinux is missing"
v=$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo missing)
[ "$v" = 0 ] && ok "io_uring enabled" || bad "kernel.io_uring_disabled = $v"

[ "$TMPDIR" = "$VM_SCRATCH/tmp" ] && ok "TMPDIR=$TMPDIR" || bad "TMPDIR=$TMPDIR"
echo hello >"$VM_SCRATCH/.boot-test" && [ "$(cat "$VM_SCRATCH/.boot-test")" = hello ] &&
	ok "VM_SCRATCH is writable" || bad "cannot write to VM_SCRATCH=$VM_SCRATCH"
rm -f "$VM_SCRATCH/.boot-test"
if touch /etc/.vm-boot-test 2>/dev/null; then
	rm -f /etc/.vm-boot-test; bad "the root file system is writable"
else
	ok "the root file system is read-only"
fi
[ "$(cat <(echo procsub))" = procsub ] && ok "/dev/fd (process substitution)" || bad "no /dev/fd"
[ "$(nproc)" -ge 2 ] && ok "$(nproc) CPUs" || echo "note: one CPU only (--cpus 1?)"
[ "$(id -u)" = 0 ] && ok "running as root" || bad "uid $(id -u)"
# The BPF file system takes pins.
if grep -qw bpf /proc/filesystems; then ok "bpffs registered"; else bad "no bpffs"; fi
exit $fail
