#!/bin/bash
# kernel/build --print-key: the key changes when a patch's content, the
# order of the series or the flavour changes, and not otherwise; a series
# naming a missing patch is an error that names it. kernel/build prints the
# same source path whether it runs from a shell or below another make
# (whose variables make an inner make print "Entering directory" lines).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$ROOT/kernel/build
TARBALL=${IOURING_BPF_KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
if [ ! -f "$TARBALL" ]; then
	echo "no kernel source tarball ($TARBALL): apt-get install linux-source-6.12"
	exit 77
fi
T=$(mktemp -d "${TEST_TMPDIR:-/tmp}/key.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/p"
key() { IOURING_BPF_SERIES=$T/p/series "$BUILD" --print-key "$@"; }
fail=0
check() {	# check DESCRIPTION KEY1 OP KEY2
	if [ "$3" = "!=" ] && [ "$2" = "$4" ]; then echo "FAIL: $1: key did not change"; fail=1
	elif [ "$3" = "==" ] && [ "$2" != "$4" ]; then echo "FAIL: $1: key changed"; fail=1
	else echo "ok: $1"; fi
}

printf 'diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1 +1 @@\n-x\n+y\n' >"$T/p/0001-a.patch"
printf 'diff --git a/b b/b\n--- a/b\n+++ b/b\n@@ -1 +1 @@\n-x\n+z\n' >"$T/p/0002-b.patch"
printf '# comment\n0001-a.patch\n\n0002-b.patch  # trailing comment\n' >"$T/p/series"
k1=$(key)
[[ "$k1" =~ ^[0-9a-f]{64}$ ]] || { echo "FAIL: key is not a sha256: '$k1'"; exit 1; }
check "same input, same key" "$k1" == "$(key)"
check "debug flavour" "$k1" != "$(key --debug)"

printf '0001-a.patch\n0002-b.patch\n' >"$T/p/series"
check "comments and blank lines do not count" "$k1" == "$(key)"

printf '0002-b.patch\n0001-a.patch\n' >"$T/p/series"
check "series order" "$k1" != "$(key)"

printf '0001-a.patch\n0002-b.patch\n' >"$T/p/series"
echo "+more" >>"$T/p/0002-b.patch"
check "patch content" "$k1" != "$(key)"

: >"$T/p/series"
k0=$(key)
check "empty series = no series" "$k0" == "$(IOURING_BPF_SERIES=/dev/null "$BUILD" --print-key)"
check "empty series = --no-patches" "$k0" == "$("$BUILD" --no-patches --print-key)"
check "a patch vs none" "$k0" != "$k1"

printf '0001-a.patch\n0009-missing.patch\n' >"$T/p/series"
rc=0; err=$(key 2>&1) || rc=$?
if [ $rc = 0 ] || ! grep -q "0009-missing.patch" <<<"$err"; then
	echo "FAIL: a missing patch must fail and be named (rc=$rc): $err"; fail=1
else
	echo "ok: missing patch named: $err"
fi

rc=0; "$BUILD" -j nope --print-key 2>/dev/null || rc=$?
[ $rc = 2 ] && echo "ok: bad -j is a usage error" || { echo "FAIL: bad -j: exit $rc, expected 2"; fail=1; }
rc=0; "$BUILD" --bogus 2>/dev/null || rc=$?
[ $rc = 2 ] && echo "ok: unknown option is a usage error" || { echo "FAIL: --bogus: exit $rc"; fail=1; }
# --print-src unpacks the source if needed and checks its version (the
# step `make test` met below its own make): from a shell, and from a
# recipe of a make that is itself a sub-make (MAKELEVEL 1, -w).
direct=$(env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS "$BUILD" --print-src 2>"$T/err") ||
	{ echo "FAIL: --print-src from a shell: $(tail -n 3 "$T/err")"; fail=1; }
printf 'all:\n\t@$(MAKE) -w -f %s/inner.mk\n' "$T" >"$T/outer.mk"
printf 'all:\n\t@"%s" --print-src >"%s/nested.out"\n' "$BUILD" "$T" >"$T/inner.mk"
if ! env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s -f "$T/outer.mk" >"$T/make.out" 2>&1; then
	echo "FAIL: --print-src below two makes:"; sed 's/^/    /' "$T/make.out"; fail=1
elif [ "$(cat "$T/nested.out")" != "$direct" ] || [ ! -f "$direct/Makefile" ]; then
	echo "FAIL: --print-src below two makes printed '$(cat "$T/nested.out")', from a shell '$direct'"; fail=1
else
	echo "ok: --print-src prints $direct from a shell and below two makes"
fi
exit $fail
