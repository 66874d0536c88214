#!/bin/bash
# A .bpf.o the verifier refuses: `iouring-bpf load` exits 5, names the
# refused program and the verifier's reason on its first line, says which op
# of the object was not registered, and prints the end of the verifier's log
# with the failing instruction; -v prints libbpf's whole log; nothing stays
# registered.
source "$(dirname "$0")/lib.sh"
feature_or_skip
trap cleanup_pins EXIT
vars=$(make -s --no-print-directory -f "$ROOT/mk/tools.mk" -f - print <<'MK' 2>/dev/null
print:
	@echo "$(LIBBPF_INCLUDE) $(VMLINUX_H)"
MK
)
read -r LIBBPF_INCLUDE VMLINUX_H <<<"$vars"
[ -f "$LIBBPF_INCLUDE/bpf/bpf_helpers.h" ] || skip "no libbpf headers ($LIBBPF_INCLUDE; make tools)"
clang -g -O2 -target bpf -D__TARGET_ARCH_x86 -I"$(dirname "$VMLINUX_H")" \
	-I"$LIBBPF_INCLUDE" -I"$ROOT/progs" -c "$ROOT/tests/cli/broken.bpf.c" \
	-o "$TMP/broken.bpf.o" || skip "clang cannot build broken.bpf.c"

expect_exit 5 "the verifier rejected program" -- load "$TMP/broken.bpf.o"
grep -qE "access beyond struct uring_bpf_data" <<<"$LAST_OUT" ||
	fail "the verifier's reason is not shown"
first=$(grep -m1 "^iouring-bpf load:" <<<"$LAST_OUT")
grep -qF "rejected program 'broken_issue' (SEC(\"struct_ops/issue_fn\"))" <<<"$first" ||
	fail "the first line does not name the refused program: $first"
grep -qE "\)\): access beyond struct uring_bpf_data" <<<"$first" ||
	fail "the first line does not give the verifier's reason: $first"
grep -qF "op 'broken_ops' (id 30) was not registered" <<<"$first" ||
	fail "the first line does not say which op was not registered: $first"
grep -qE "^[0-9]+: \([0-9a-f]{2}\)" <<<"$LAST_OUT" ||
	fail "no instruction of the program is shown"
grep -q "run with -v" <<<"$LAST_OUT" || fail "no hint about -v"
echo "$LAST_OUT" | tail -5 | sed 's/^/    /'
expect_exit 5 "BEGIN PROG LOAD LOG" -- -v load "$TMP/broken.bpf.o"
expect_exit 0 "nothing attached" -- show
finish
