#!/bin/bash
# The CLI's engine (loader/lib/engine.h, in the internal archive
# build/loader/libiouring-bpf-internal.a) links into a program with
# libbpf.a, -lelf -lz and reports errors with the same statuses as the
# CLI's exit codes. Builds tests/host/cli_lib_app.c.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TMP=${TEST_TMPDIR:-$(mktemp -d)}
LIB=$ROOT/build/loader/libiouring-bpf-internal.a
if [ ! -f "$LIB" ]; then
	echo "build/loader/libiouring-bpf-internal.a is not built (make -C loader)"
	exit 77
fi
vars=$(make -s --no-print-directory -f "$ROOT/mk/tools.mk" -f - print <<'MK'
print:
	@echo "$(LIBBPF_A) $(LIBBPF_INCLUDE) $(LIBBPF_LDLIBS)"
MK
)
read -r LIBBPF_A LIBBPF_INCLUDE LIBBPF_LDLIBS <<<"$vars"
if [ ! -f "$LIBBPF_A" ]; then
	echo "libbpf.a is not built ($LIBBPF_A; make tools)"
	exit 77
fi
cc -std=gnu11 -Wall -Werror -I"$ROOT/loader/lib" -I"$ROOT/loader/cli" \
	-I"$ROOT/loader/bench" -I"$LIBBPF_INCLUDE" \
	-o "$TMP/cli_lib_app" "$ROOT/tests/host/cli_lib_app.c" "$LIB" \
	"$LIBBPF_A" $LIBBPF_LDLIBS
# an object with 16-byte CQEs, for the CQE32 refusal (make -C examples)
obj=$ROOT/examples/mainline_nops.bpf.o
[ -f "$obj" ] || obj=
"$TMP/cli_lib_app" $obj
