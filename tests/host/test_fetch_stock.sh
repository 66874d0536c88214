#!/bin/bash
# kernel/fetch-stock without a download: usage errors (exit 2); --no-fetch
# on an empty cache exits 1 and creates nothing; an unreachable archive is
# exit 1 with a message naming it, leaves no partial result and does not
# touch the system's apt sources. With the stock kernel fetched (make
# stock-kernel): a rerun only prints the directory, which holds what
# kernel/vm-run --stock needs (the initramfs: /init, busybox, the four 9p
# modules), the BTF file has io_uring_bpf_ops, and a changed
# kernel/stock-init rebuilds only the initramfs (on a copy of the cache).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FETCH=$ROOT/kernel/fetch-stock
T=$(mktemp -d "${TEST_TMPDIR:-/tmp}/fetchstock.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

for args in "--bogus" "--no-fetch" "--print-release extra" "-x"; do
	rc=0
	# shellcheck disable=SC2086
	"$FETCH" $args >/dev/null 2>"$T/err" || rc=$?
	[ $rc = 2 ] && grep -q usage: "$T/err" && ok "fetch-stock $args -> usage error" ||
		bad "fetch-stock $args: exit $rc, expected 2 with usage"
done
REL=$("$FETCH" --print-release)
[[ "$REL" =~ ^[0-9]+\.[0-9]+\.[0-9]+ ]] && ok "pinned release $REL" || bad "--print-release: '$REL'"

rc=0; out=$(IOURING_BPF_CACHE=$T/empty "$FETCH" --print-dir --no-fetch) || rc=$?
[ $rc = 1 ] && [ -z "$out" ] && [ ! -e "$T/empty" ] && ok "--no-fetch on an empty cache: exit 1, nothing created" ||
	bad "--no-fetch on an empty cache: exit $rc, '$out'"

sources_sum() { { cat /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null || true; } | sha256sum; }
before=$(sources_sum)
rc=0
IOURING_BPF_CACHE=$T/c1 IOURING_BPF_STOCK_MIRROR=http://127.0.0.1:9/debian \
	"$FETCH" --print-dir >"$T/out" 2>"$T/err" || rc=$?
[ $rc = 1 ] && ok "unreachable archive: exit 1" || bad "unreachable archive: exit $rc, expected 1"
grep -q "error: cannot read the sid index of http://127.0.0.1:9/debian" "$T/err" &&
	ok "the error names the archive" || bad "no clear error: $(tail -3 "$T/err")"
[ ! -s "$T/out" ] || bad "printed a directory on failure: $(cat "$T/out")"
left=$(find "$T/c1/stock" -mindepth 1 -maxdepth 1 ! -name .lock | head -3)
[ -z "$left" ] && ok "nothing left behind in the cache" || bad "left behind: $left"
[ "$(sources_sum)" = "$before" ] && ok "the system's apt sources are unchanged" ||
	bad "the system's apt sources changed"

if ! DIR=$("$FETCH" --print-dir --no-fetch); then
	echo "note: the stock kernel is not fetched (make stock-kernel): cache checks not run"
	exit $fail
fi
t0=$(date +%s%N)
again=$("$FETCH" --print-dir 2>/dev/null)
ms=$((($(date +%s%N) - t0) / 1000000))
[ "$again" = "$DIR" ] && [ $ms -lt 5000 ] && ok "rerun prints $DIR ($ms ms)" ||
	bad "rerun: '$again' in $ms ms"
for f in vmlinuz config vmlinux.btf initramfs.cpio busybox modules/netfs.ko \
	 modules/9pnet.ko modules/9pnet_virtio.ko modules/9p.ko packages; do
	[ -s "$DIR/$f" ] || bad "$DIR/$f is missing or empty"
done
[ "$(cat "$DIR/kernelrelease")" = "$REL" ] && ok "kernelrelease $REL" || bad "kernelrelease $(cat "$DIR/kernelrelease")"
grep -qx 'CONFIG_IO_URING_BPF_OPS=y' "$DIR/config" && ok "config has CONFIG_IO_URING_BPF_OPS=y" ||
	bad "config lacks CONFIG_IO_URING_BPF_OPS=y"
list=$(cpio -it --quiet <"$DIR/initramfs.cpio" | sort | tr '\n' ' ')
want=". bin bin/busybox init lib lib/modules lib/modules/9p.ko lib/modules/9pnet.ko lib/modules/9pnet_virtio.ko lib/modules/netfs.ko "
[ "$list" = "$want" ] && ok "initramfs: $list" || bad "initramfs holds '$list', expected '$want'"
BPFTOOL=${IOURING_BPF_BPFTOOL:-$("$ROOT/tools/build-bpftools" --print-dir --no-build)/bin/bpftool}
if [ -x "$BPFTOOL" ]; then
	"$BPFTOOL" btf dump file "$DIR/vmlinux.btf" format raw >"$T/btf.raw" || bad "bpftool cannot read vmlinux.btf"
	grep -q "STRUCT 'io_uring_bpf_ops' " "$T/btf.raw" &&
		ok "vmlinux.btf has struct io_uring_bpf_ops" || bad "vmlinux.btf lacks struct io_uring_bpf_ops"
else
	echo "note: no cached bpftool: vmlinux.btf not read"
fi

# A changed kernel/stock-init rebuilds the initramfs only, without apt.
mkdir -p "$T/root/kernel" "$T/c2/stock"
cp "$FETCH" "$ROOT/kernel/stock-init" "$T/root/kernel/"
cp -a "$DIR" "$T/c2/stock/"
echo "# changed by test_fetch_stock" >>"$T/root/kernel/stock-init"
rc=0
out=$(IOURING_BPF_CACHE=$T/c2 IOURING_BPF_STOCK_MIRROR=http://127.0.0.1:9/debian \
	"$T/root/kernel/fetch-stock" --print-dir 2>"$T/err") || rc=$?
[ $rc = 0 ] && grep -q "initramfs rebuilt" "$T/err" && [ "$out" = "$T/c2/stock/${DIR##*/}" ] &&
	ok "a changed stock-init rebuilds the initramfs" || bad "rebuild: exit $rc, '$out', $(cat "$T/err")"
(cd "$T" && cpio -i --quiet --to-stdout init <"$T/c2/stock/${DIR##*/}/initramfs.cpio") |
	grep -q "changed by test_fetch_stock" && ok "the new initramfs has the new /init" ||
	bad "the rebuilt initramfs has the old /init"
exit $fail
