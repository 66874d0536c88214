#!/bin/bash
# Programs users write build against their own kernel: the BPF-side header
# (progs/iouring_bpf.h, through a loop program of progs/) and
# examples/mainline_nops.bpf.c compile against our vmlinux.h and against a
# vmlinux.h generated from the stock 7.2 kernel's BTF (no redefinitions);
# `make install` installs the BPF-side headers, and examples/template,
# copied out of the tree, builds with the installed headers and
# pkg-config, its vmlinux.h generated from the stock kernel's BTF, and
# against our vmlinux.h. Each object carries both loop maps (v3 and
# mainline). SKIP if the stock kernel is not fetched (make stock-kernel).
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TMP=${TEST_TMPDIR:-$(mktemp -d)}
fails=0 checks=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

TOOLS=$("$ROOT/tools/build-bpftools" --print-dir 2>/dev/null) ||
	{ echo "no libbpf/bpftool built (make tools)"; exit 77; }
BPFTOOL=$TOOLS/bin/bpftool
STOCK=$("$ROOT/kernel/fetch-stock" --print-dir --no-fetch 2>/dev/null) ||
	{ echo "the stock kernel is not fetched (make stock-kernel)"; exit 77; }
command -v clang >/dev/null || { echo "no clang"; exit 77; }

mkdir -p "$TMP/stock"
"$BPFTOOL" btf dump file "$STOCK/vmlinux.btf" format c >"$TMP/stock/vmlinux.h" ||
	{ echo "FAIL: bpftool btf dump of $STOCK/vmlinux.btf"; exit 1; }
grep -q "^struct io_uring_bpf_ops {" "$TMP/stock/vmlinux.h" ||
	fail "the stock vmlinux.h has no struct io_uring_bpf_ops: not the kernel this test is about"

# the stock vmlinux.h itself makes clang say "declaration does not
# declare anything": that one warning is not ours
CFLAGS="-g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror -Wno-missing-declarations -I$TOOLS/include"
build() {	# NAME VMLINUX_DIR SOURCE [FLAGS...]
	local name=$1 dir=$2 src=$3
	shift 3
	checks=$((checks + 1))
	if clang $CFLAGS -I"$dir" "$@" -c "$src" -o "$TMP/$name.o" 2>"$TMP/$name.err"; then
		echo "ok: $name"
	else
		fail "$name: $(grep -m3 error "$TMP/$name.err")"
	fi
}
both_maps() {	# OBJ: carries v3's and mainline's loop map
	local btf
	checks=$((checks + 1))
	btf=$("$BPFTOOL" btf dump file "$1" 2>&1)
	grep -q "STRUCT 'io_uring_ops___v3'" <<<"$btf" &&
		grep -q "STRUCT 'io_uring_bpf_ops___mainline'" <<<"$btf" ||
		fail "$1 lacks a loop map for one of the hooks"
}

for k in ours stock; do
	dir=$ROOT/vmlinux
	[ "$k" = stock ] && dir=$TMP/stock
	build "mainline_nops-$k" "$dir" "$ROOT/examples/mainline_nops.bpf.c"
	build "nop_chain-$k" "$dir" "$ROOT/progs/nop_chain/prog.bpf.c" -I"$ROOT/progs"
	build "copy-$k" "$dir" "$ROOT/progs/copy/prog.bpf.c" -I"$ROOT/progs"
	[ -f "$TMP/nop_chain-$k.o" ] && both_maps "$TMP/nop_chain-$k.o"
done

# make install, then the template out of the tree
D=$TMP/destdir
out=$(make -C "$ROOT" install DESTDIR="$D" PREFIX=/usr 2>&1) ||
	{ echo "FAIL: make install exited $?"; echo "$out" | tail -20; exit 1; }
for f in iouring_bpf.h iou_opflags.h iou_exit_info.h; do
	checks=$((checks + 1))
	[ -f "$D/usr/include/iouring-bpf/bpf/$f" ] || fail "$f not installed"
done
PC="pkg-config --define-variable=includedir=$D/usr/include"
export PKG_CONFIG_PATH=$D/usr/lib/pkgconfig
checks=$((checks + 1))
[ "$($PC --variable=bpfincludedir iouring-bpf)" = "$D/usr/include/iouring-bpf/bpf" ] ||
	fail "iouring-bpf.pc has no bpfincludedir"

P=$TMP/elsewhere/myproject
mkdir -p "$(dirname "$P")"
cp -r "$ROOT/examples/template" "$P"
for k in stock ours; do
	checks=$((checks + 1))
	make -C "$P" clean >/dev/null
	if [ "$k" = stock ]; then
		args=(VMLINUX_BTF="$STOCK/vmlinux.btf")
	else
		args=(VMLINUX_H="$ROOT/vmlinux/vmlinux.h")
	fi
	if make -C "$P" PKG_CONFIG="$PC" BPFTOOL="$BPFTOOL" "${args[@]}" >"$TMP/tpl-$k.log" 2>&1; then
		echo "ok: the template built out of tree against $k"
		both_maps "$P/myloop.bpf.o"
	else
		fail "the template against $k: $(tail -5 "$TMP/tpl-$k.log")"
	fi
done
checks=$((checks + 1))
[ "$k" = ours ] && ! grep -q "btf dump" "$TMP/tpl-ours.log" && grep -q "btf dump" "$TMP/tpl-stock.log" ||
	fail "the template generated vmlinux.h when given one, or not from the BTF"
echo "$checks checks, $fails failed"
[ "$fails" = 0 ]
