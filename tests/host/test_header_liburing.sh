#!/bin/bash
# One meaning per bit: an application that includes liburing 2.15's
# headers (Debian unstable's liburing-dev, with the Linux 7.x uapi headers
# it was configured against) and ours compiles without a warning
# (-Wall -Wextra -Werror), in either order and with <iouring-bpf/liburing.h>;
# there IORING_SETUP_SQ_REWIND is bit 20, and our headers define no
# IORING_SETUP_BPF (the old name of the same bit), only IOU_SETUP_BPF_OP
# and iouring_bpf_kernel_probe()'s op_setup_flag. With this system's older
# headers (no SQ_REWIND) 2.0 does not define IORING_SETUP_BPF either (1.1
# kept it, deprecated; 2.0 removed it): an application that still writes
# it fails to compile instead of making an SQ_REWIND ring on Linux 7.x.
# liburing 2.15 is fetched into the cache (tests/host/fetch_liburing.sh);
# if it cannot be, the test skips and says why.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TMP=${TEST_TMPDIR:-$(mktemp -d)}
fails=0 checks=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

LIBBPF_INCLUDE=$(make -s --no-print-directory -f "$ROOT/mk/tools.mk" -f - print <<'MK'
print:
	@echo "$(LIBBPF_INCLUDE)"
MK
)
[ -d "$LIBBPF_INCLUDE" ] || { echo "libbpf headers are not built ($LIBBPF_INCLUDE; make tools)"; exit 77; }

if ! R=$("$ROOT/tests/host/fetch_liburing.sh" 2>"$TMP/fetch.err"); then
	echo "liburing 2.15 could not be fetched: $(tail -1 "$TMP/fetch.err")"
	exit 77
fi
SID=$R/usr/include
minor=$(sed -n 's/^#define IO_URING_VERSION_MINOR[[:space:]]*//p' "$SID/liburing/io_uring_version.h")
echo "liburing 2.$minor headers from $R"
[ "${minor:-0}" -ge 15 ] || { echo "FAIL: the cache has liburing 2.$minor, not 2.15+"; exit 1; }
OURS=(-I"$ROOT/loader/lib" -I"$LIBBPF_INCLUDE")	# <iouring-bpf/...> as installed
SIDINC=(-I"$SID" -I"$SID/x86_64-linux-gnu")

compile() {	# NAME CFLAGS... < SOURCE: 0 if it compiles; messages in $TMP/NAME.log
	local name=$1
	shift
	cat >"$TMP/$name.c"
	cc -std=gnu11 -c -o "$TMP/$name.o" "$@" "$TMP/$name.c" >"$TMP/$name.log" 2>&1
}

clean() {	# DESCRIPTION NAME CFLAGS... < SOURCE: compiles, no warning at all
	local what=$1 name=$2
	shift 2
	checks=$((checks + 1))
	if compile "$name" -Wall -Wextra -Werror "$@" && [ ! -s "$TMP/$name.log" ]; then
		echo "ok: $what"
	else
		fail "$what:"
		sed 's/^/    /' "$TMP/$name.log" | head -20
	fi
}

BODY='
#ifdef IORING_SETUP_BPF
#error "IORING_SETUP_BPF is defined next to IORING_SETUP_SQ_REWIND"
#endif
_Static_assert(IORING_SETUP_SQ_REWIND == (1U << 20), "SQ_REWIND is bit 20");
_Static_assert(IOU_SETUP_BPF_OP == (1U << 20), "our name for the project kernel bit");
_Static_assert(IORING_OP_BPF == 65, "opcode");
unsigned int ring_flags(void);
unsigned int ring_flags(void)
{
	IOURING_BPF_OPTS(iouring_bpf_kernel, k);

	iouring_bpf_kernel_probe(&k);
	return IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
	       IORING_SETUP_NO_SQARRAY | k.op_setup_flag;
}'

for order in liburing_first ours_first; do
	if [ $order = liburing_first ]; then
		inc='#include <liburing.h>
#include <iouring-bpf/iouring-bpf.h>
#include <iouring-bpf/liburing.h>'
	else
		inc='#include <iouring-bpf/iouring-bpf.h>
#include <liburing.h>
#include <iouring-bpf/liburing.h>'
	fi
	clean "$(echo "$inc" | sed 's/#include //' | paste -sd' '): no warning, SQ_REWIND is bit 20, no IORING_SETUP_BPF" \
		$order "${SIDINC[@]}" "${OURS[@]}" <<<"$inc
$BODY"
done

# this system's headers (Debian 12: Linux 6.1 uapi, no SQ_REWIND)
if grep -q IORING_SETUP_SQ_REWIND /usr/include/linux/io_uring.h 2>/dev/null; then
	echo "this system's <linux/io_uring.h> has SQ_REWIND: the old-headers cases do not apply"
else
	checks=$((checks + 1))
	if ! compile old_name -Wall -Wextra "${OURS[@]}" <<<'#include <iouring-bpf/iouring-bpf.h>
unsigned int flags(void);
unsigned int flags(void) { return IORING_SETUP_BPF; }' &&
	   grep -q "IORING_SETUP_BPF.*undeclared" "$TMP/old_name.log"; then
		echo "ok: old headers: IORING_SETUP_BPF (removed in 2.0) does not compile"
	else
		fail "old headers: IORING_SETUP_BPF still compiles:"
		sed 's/^/    /' "$TMP/old_name.log" | head -10
	fi
	clean "old headers: an application that does not write IORING_SETUP_BPF has no warning" old_clean "${OURS[@]}" <<<'#include <iouring-bpf/iouring-bpf.h>
unsigned int flags(void);
unsigned int flags(void) { return IOU_SETUP_BPF_OP | IORING_SETUP_SINGLE_ISSUER; }'
fi
echo "$checks checks, $fails failed"
[ "$fails" = 0 ]
