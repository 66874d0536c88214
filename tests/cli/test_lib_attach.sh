#!/bin/bash
# libiouring-bpf.a in an application: attach a loop program to its own
# ring, an op program from a .bpf.o path, detach; see lib_app.c.
source "$(dirname "$0")/lib.sh"
feature_or_skip
LIB=$ROOT/build/libiouring-bpf.a
[ -f "$LIB" ] || skip "build/libiouring-bpf.a is not built"
vars=$(make -s --no-print-directory -f "$ROOT/mk/tools.mk" -f - print <<'MK' 2>/dev/null
print:
	@echo "$(LIBBPF_A) $(LIBBPF_INCLUDE) $(LIBBPF_LDLIBS)"
MK
)
read -r LIBBPF_A LIBBPF_INCLUDE LIBBPF_LDLIBS <<<"$vars"
[ -f "$LIBBPF_A" ] || skip "no libbpf.a ($LIBBPF_A)"
cc -std=gnu11 -O2 -Wall -I"$ROOT/loader" -I"$ROOT/loader/lib" \
	-I"$LIBBPF_INCLUDE" -o "$TMP/lib_app" "$ROOT/tests/cli/lib_app.c" \
	"$ROOT/loader/ring.c" "$LIB" "$LIBBPF_A" $LIBBPF_LDLIBS ||
	skip "cannot build lib_app.c"
"$TMP/lib_app" "$ROOT/build/progs/nop.bpf.o"
