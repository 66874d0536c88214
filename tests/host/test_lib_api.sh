#!/bin/bash
# libiouring-bpf 2.0 as an application sees it: built against a staged
# `make install` with pkg-config alone (tests/host/lib_api.c: every public
# call with NULL and out-of-range arguments, zeroed options, options with
# an unknown tail, calls out of order), and the ABI of the installed .so:
# its soname, at most 25 exported symbols, each in the version node
# IOURING_BPF_2.0 or (iouring_bpf_broker_attach, <iouring-bpf/broker.h>)
# IOURING_BPF_2.1, nothing but iouring_bpf_*.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TMP=${TEST_TMPDIR:-$(mktemp -d)}
STAGE=$TMP/stage
fails=0 checks=0
check() {	# DESCRIPTION COMMAND...
	local what=$1
	shift
	checks=$((checks + 1))
	if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}
[ -x "$ROOT/build/iouring-bpf" ] || { echo "build/iouring-bpf is not built (make -C loader)"; exit 77; }
if ! make -s -C "$ROOT/loader" install PREFIX="$STAGE" >"$TMP/install.log" 2>&1; then
	echo "FAIL: make install"; tail -5 "$TMP/install.log"; exit 1
fi
export PKG_CONFIG_PATH=$STAGE/lib/pkgconfig
so=$(ls "$STAGE"/lib/libiouring-bpf.so.*.*.* 2>/dev/null | head -1)
major=$(sed -n 's/^#define IOURING_BPF_VERSION_MAJOR[[:space:]]*//p' \
	"$STAGE/include/iouring-bpf/iouring-bpf.h")
check "the header is installed as include/iouring-bpf/iouring-bpf.h (major $major)" test -n "$major"
check "soname libiouring-bpf.so.$major" \
	bash -c "readelf -d '$so' | grep -q 'SONAME.*\[libiouring-bpf.so.$major\]'"
syms=$(nm -D --defined-only "$so" | awk '$2 == "T" { print $3 }')
n=$(wc -l <<<"$syms")
check "$n exported functions, at most 25" test "$n" -le 25 -a "$n" -gt 0
bad=$(grep -v '^iouring_bpf_[a-z0-9_]*@@IOURING_BPF_2\.0$' <<<"$syms" |
	grep -vx 'iouring_bpf_broker_attach@@IOURING_BPF_2\.1')
check "each is iouring_bpf_* in the version node IOURING_BPF_2.0 (broker_attach: 2.1)${bad:+; not: $(echo $bad)}" test -z "$bad"
check "iouring_bpf_broker_attach is in IOURING_BPF_2.1" \
	grep -qx 'iouring_bpf_broker_attach@@IOURING_BPF_2\.1' <<<"$syms"
declared=$(sed 's,/\*.*\*/,,' "$STAGE/include/iouring-bpf/iouring-bpf.h" \
	"$STAGE/include/iouring-bpf/broker.h" |
	grep -oE '\biouring_bpf_[a-z0-9_]+\(' | tr -d '(' | sort -u)
exported=$(sed 's/@@.*//' <<<"$syms" | sort -u)
check "the header declares exactly the exported calls" test "$declared" = "$exported"
static=$(nm -g --defined-only "$STAGE/lib/libiouring-bpf.a" | awk '$2 == "T" { print $3 }' | sort -u)
check "the .a's global functions are the same" test "$static" = "$exported"

# the application: pkg-config alone, no path of the source tree
if cc -std=gnu11 -Wall -Werror -o "$TMP/lib_api" "$ROOT/tests/host/lib_api.c" \
	$(pkg-config --cflags --libs iouring-bpf) -Wl,-rpath,"$STAGE/lib" 2>"$TMP/cc.log"; then
	check "lib_api builds with pkg-config --cflags --libs iouring-bpf" true
	"$TMP/lib_api" >"$TMP/out" 2>"$TMP/err"; rc=$?
	sed 's/^/    /' "$TMP/out"
	check "lib_api: every check held (exit $rc)" test "$rc" = 0
	check "lib_api: nothing on stderr (the messages went to its callback)$( [ -s "$TMP/err" ] && echo ": $(head -3 "$TMP/err")")" test ! -s "$TMP/err"
	check "lib_api ran against the staged .so" \
		bash -c "ldd '$TMP/lib_api' | grep -q '$STAGE/lib/libiouring-bpf.so.$major'"
else
	check "lib_api builds with pkg-config: $(head -5 "$TMP/cc.log")" false
fi
echo "$checks checks, $fails failed"
[ "$fails" = 0 ]
