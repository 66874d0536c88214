#!/bin/bash
# The filter compiler's built-in layout of struct io_uring_bpf_ctx (used
# when a kernel has no BTF for it) against the BTF of Debian's stock
# 7.2.13 (kernel/fetch-stock; SKIP unless fetched, nothing is downloaded):
# every shipped policy compiles to the same instructions from either; the
# uapi structs the library declares have the kernel's sizes; the opcode
# names are the kernel's enum io_uring_op.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CLI=$ROOT/build/iouring-bpf
[ -x "$CLI" ] || { echo "build/iouring-bpf is not built (make -C loader)"; exit 77; }
STOCK=$("$ROOT/kernel/fetch-stock" --print-dir --no-fetch 2>/dev/null) ||
	{ echo "the stock kernel is not fetched (make stock-kernel)"; exit 77; }
BTF=$STOCK/vmlinux.btf
[ -f "$BTF" ] || { echo "no $BTF"; exit 77; }
T=$(mktemp -d "${TEST_TMPDIR:-/tmp}/filterlay.XXXXXX")
trap 'rm -rf "$T"' EXIT
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

printf 'default allow\n' >"$T/p.policy"
"$CLI" filter check "$T/p.policy" --btf "$BTF" | grep -q "layout: $BTF" ||
	bad "the stock BTF is not read as a layout"
for f in "$ROOT"/policies/*.policy; do
	name=$(basename "$f" .policy)
	"$CLI" filter compile "$name" --btf "$BTF" | grep -v 'layout:' >"$T/btf.c"
	# the host kernel: its BTF has no io_uring_bpf_ctx (else it is a 7.2+)
	IOURING_BPF_NO_KERNEL_BTF=1 "$CLI" filter compile "$name" | grep -v 'layout:' >"$T/table.c"
	if cmp -s "$T/btf.c" "$T/table.c"; then
		echo "ok: $name: the same $(grep -c '^	{ 0x' "$T/btf.c") instructions from the stock BTF and from the built-in table"
	else
		bad "$name compiles differently from the stock BTF and the table:"
		diff "$T/table.c" "$T/btf.c" | head -20
	fi
done

BPFTOOL=${IOURING_BPF_BPFTOOL:-$("$ROOT/tools/build-bpftools" --print-dir 2>/dev/null)/bin/bpftool}
if [ -x "$BPFTOOL" ]; then
	"$BPFTOOL" btf dump file "$BTF" format raw >"$T/raw"
	for s in "io_uring_bpf size=72" "io_uring_bpf_filter size=64" "io_uring_bpf_ctx size=40"; do
		grep -q "STRUCT '${s% *}' ${s#* }" "$T/raw" && echo "ok: struct $s in the stock BTF" ||
			bad "struct ${s% *} is not ${s#* } bytes in the stock BTF"
	done
	grep -q "'IORING_REGISTER_BPF_FILTER' val=37" "$T/raw" && echo "ok: IORING_REGISTER_BPF_FILTER = 37" ||
		bad "IORING_REGISTER_BPF_FILTER is not 37 in the stock BTF"
	grep -q "'IO_URING_BPF_FILTER_SZ_STRICT' val=2" "$T/raw" && grep -q "'IO_URING_BPF_FILTER_DENY_REST' val=1" "$T/raw" &&
		echo "ok: DENY_REST 1, SZ_STRICT 2" || bad "the filter flags differ"
else
	echo "note: no bpftool: the uapi sizes were not checked"
fi
"$CLI" filter ops --btf "$BTF" | awk 'NR > 1 {print $2}' >"$T/ops-btf"
IOURING_BPF_NO_KERNEL_BTF=1 "$CLI" filter ops | awk 'NR > 1 {print $2}' >"$T/ops-table"
cmp -s "$T/ops-btf" "$T/ops-table" && echo "ok: $(wc -l <"$T/ops-btf") opcode names, the same in the BTF and the table" ||
	bad "opcode names differ between the stock BTF and the table"
[ "$fails" = 0 ] && echo "all passed" || { echo "$fails failed"; exit 1; }
