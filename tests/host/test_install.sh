#!/bin/bash
# `make install` into a DESTDIR: the CLI runs and says its version, the
# man page renders, and a program using only the installed header, library
# and `pkg-config --cflags --libs iouring-bpf` builds and runs;
# examples/attach_loop.c, attach_own.c and attach_liburing.c (with the
# installed iouring-bpf-liburing.h) build the same way.
source "$(dirname "$0")/cli_lib.sh"
D=$TMP/destdir
out=$(make -C "$ROOT" install DESTDIR="$D" PREFIX=/usr 2>&1) ||
	{ echo "FAIL: make install exited $?"; echo "$out" | tail -20; exit 1; }
echo "$out" | grep -E "^  using|^installed" | sed 's/^ *//'

for f in usr/bin/iouring-bpf usr/lib/libiouring-bpf.a usr/include/iouring-bpf.h \
	 usr/include/iouring-bpf-liburing.h usr/lib/pkgconfig/iouring-bpf.pc usr/share/man/man1/iouring-bpf.1; do
	checks=$((checks + 1))
	[ -f "$D/$f" ] || { echo "FAIL: $f not installed"; fails=$((fails + 1)); }
done

checks=$((checks + 1))
v=$("$D/usr/bin/iouring-bpf" --version) || { echo "FAIL: --version exited $?"; fails=$((fails + 1)); }
grep -qE "^iouring-bpf [0-9]+\.[0-9]+" <<<"$v" && grep -qE "^libbpf 1\.([5-9]|[1-9][0-9])" <<<"$v" ||
	{ echo "FAIL: --version says: $v"; fails=$((fails + 1)); }
echo "--version: $(tr '\n' ' ' <<<"$v")"

checks=$((checks + 1))
if command -v man >/dev/null; then
	page=$(MANWIDTH=80 man -l "$D/usr/share/man/man1/iouring-bpf.1" 2>&1)
	grep -q "io_uring_bpf_ops" <<<"$page" && grep -q "EXIT STATUS" <<<"$page" ||
		{ echo "FAIL: the man page does not render: $page" | head -5; fails=$((fails + 1)); }
fi

# an application built against the installed files only
cat >"$TMP/app.c" <<'C'
#include <stdio.h>
#include <iouring-bpf.h>

int main(void)
{
	enum iouring_bpf_loop_api api = iouring_bpf_kernel_loop_api();

	printf("loop hook: %s\n", iouring_bpf_loop_api_key(api));
	return 0;
}
C
checks=$((checks + 1))
PC="pkg-config --define-variable=prefix=$D/usr --define-variable=libdir=$D/usr/lib --define-variable=includedir=$D/usr/include"
export PKG_CONFIG_PATH=$D/usr/lib/pkgconfig
flags=$($PC --cflags --libs iouring-bpf) || { echo "FAIL: pkg-config iouring-bpf"; fails=$((fails + 1)); }
if cc -o "$TMP/app" "$TMP/app.c" $flags 2>"$TMP/cc.err"; then
	a=$("$TMP/app") && grep -qE "^loop hook: (v3|mainline-7\.[12]|none)$" <<<"$a" &&
		echo "app built with pkg-config ($flags): $a" ||
		{ echo "FAIL: the app says: $a"; fails=$((fails + 1)); }
else
	echo "FAIL: cannot build an app with $flags:"; head -5 "$TMP/cc.err"; fails=$((fails + 1))
fi
# the examples' two applications build the same way (they run in the VM:
# tests/examples/test_apps.sh)
for app in attach_loop attach_own attach_liburing; do
	checks=$((checks + 1))
	extra=; [ $app != attach_loop ] && extra=-luring
	cc -Wall -Werror -o "$TMP/$app" "$ROOT/examples/$app.c" $flags $extra \
		2>"$TMP/cc.err" && echo "examples/$app.c built with pkg-config" ||
		{ echo "FAIL: examples/$app.c does not build:"; head -5 "$TMP/cc.err"; fails=$((fails + 1)); }
done
finish
