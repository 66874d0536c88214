#!/bin/bash
# `make install` into a DESTDIR as a packager would use it, then `make
# uninstall`:
# - the CLI runs and says its version, the man page renders;
# - libiouring-bpf.so.X.Y.Z with soname libiouring-bpf.so.X (readelf -d),
#   the .so.X and .so links, the .a; `nm -D --defined-only` of the .so
#   and the .a's global symbols are iouring_bpf_* only, and every call of
#   the public header (include/iouring-bpf/iouring-bpf.h) is there;
# - the .pc is relocatable (prefix from ${pcfiledir}: no
#   --define-variable), its Version is the header's macros and
#   iouring_bpf_version()'s answer, in a program linked with
#   `pkg-config --libs iouring-bpf` against the shared library and in one
#   linked statically; a static program that defines the library's
#   internal names (iouring_bpf_int_put, objvar_ptr, ...) still links; libbpf's
#   headers come with the .pc's Cflags (the API returns struct bpf_object *);
# - examples/attach_loop.c, attach_own.c and attach_liburing.c (with the
#   installed header-only iouring-bpf/liburing.h) build the same way;
# - uninstall leaves only the directories that were there before;
# - IOURING_BPF_TOOLS=system without a system libbpf is a clear error.
source "$(dirname "$0")/cli_lib.sh"
D=$TMP/destdir
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# the directories a system has before anything is installed
mkdir -p "$D"/usr/{bin,include,lib/pkgconfig,share/man/man1,share/man/man3,share/bash-completion/completions}
before=$(cd "$D" && find . | sort)

out=$(make -C "$ROOT" install DESTDIR="$D" PREFIX=/usr 2>&1) ||
	{ echo "FAIL: make install exited $?"; echo "$out" | tail -20; exit 1; }
echo "$out" | grep -E "^  using|^installed" | sed 's/^ *//'

L=$D/usr/lib
export PKG_CONFIG_PATH=$L/pkgconfig
checks=$((checks + 1))
ver=$(pkg-config --modversion iouring-bpf) || { fail "pkg-config iouring-bpf"; ver=0.0.0; }
major=${ver%%.*}
for f in usr/bin/iouring-bpf usr/lib/libiouring-bpf.a usr/lib/libiouring-bpf.so.$ver \
	 usr/include/iouring-bpf/iouring-bpf.h usr/include/iouring-bpf/liburing.h \
	 usr/include/iouring-bpf/broker.h \
	 usr/include/iouring-bpf/iou_opflags.h usr/include/iouring-bpf/iou_exit_info.h \
	 usr/lib/pkgconfig/iouring-bpf.pc usr/share/man/man1/iouring-bpf.1; do
	checks=$((checks + 1))
	[ -f "$D/$f" ] || fail "$f not installed"
done
checks=$((checks + 2))
[ "$(readlink "$L/libiouring-bpf.so.$major")" = "libiouring-bpf.so.$ver" ] ||
	fail "libiouring-bpf.so.$major does not point to libiouring-bpf.so.$ver"
[ "$(readlink "$L/libiouring-bpf.so")" = "libiouring-bpf.so.$major" ] ||
	fail "libiouring-bpf.so does not point to libiouring-bpf.so.$major"

# the soname, and what the two libraries let out
checks=$((checks + 1))
soname=$(readelf -d "$L/libiouring-bpf.so.$ver" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libiouring-bpf.so.$major" ] || fail "soname '$soname', want libiouring-bpf.so.$major"
dyn=$(nm -D --defined-only "$L/libiouring-bpf.so.$ver" | awk '$2 != "A" {print $NF}' | sed 's/@@.*//' | sort -u)
glob=$(nm -g --defined-only "$L/libiouring-bpf.a" | awk 'NF == 3 {print $3}' | sort -u)
# (iouring-bpf/liburing.h is header-only: static inline, nothing to export)
decl=$(sed 's,/\*.*\*/,,' "$D"/usr/include/iouring-bpf/iouring-bpf.h \
	"$D"/usr/include/iouring-bpf/broker.h |
	grep -ohE '\biouring_bpf_[a-z0-9_]+\(' | tr -d '(' | sort -u)
checks=$((checks + 4))
other=$(grep -v '^iouring_bpf_' <<<"$dyn")
[ -z "$other" ] || fail "the .so exports more than iouring_bpf_*: $(head -5 <<<"$other" | tr '\n' ' ')"
other=$(grep -v '^iouring_bpf_' <<<"$glob")
[ -z "$other" ] || fail "the .a has global symbols other than iouring_bpf_*: $(head -5 <<<"$other" | tr '\n' ' ')"
missing=$(comm -23 <(echo "$decl") <(echo "$dyn"))
[ -z "$missing" ] || fail "declared in the headers, not exported by the .so: $missing"
missing=$(comm -23 <(echo "$decl") <(echo "$glob"))
[ -z "$missing" ] || fail "declared in the headers, not global in the .a: $missing"
# the version nodes: 2.0's calls, and 2.1's broker call
nodes=$(nm -D --defined-only "$L/libiouring-bpf.so.$ver" | awk '$2 == "T" {print $NF}' |
	sed -n 's/^\(iouring_bpf_[a-z0-9_]*\)@@\(IOURING_BPF_2\.[0-9]*\)$/\2 \1/p' | sort)
want="IOURING_BPF_2.0 iouring_bpf_builtin_next
IOURING_BPF_2.0 iouring_bpf_builtin_open
IOURING_BPF_2.0 iouring_bpf_filter_install
IOURING_BPF_2.0 iouring_bpf_kernel_probe
IOURING_BPF_2.0 iouring_bpf_obj_attach
IOURING_BPF_2.0 iouring_bpf_obj_bind_ring
IOURING_BPF_2.0 iouring_bpf_obj_exit_info
IOURING_BPF_2.0 iouring_bpf_obj_get_global
IOURING_BPF_2.0 iouring_bpf_obj_info
IOURING_BPF_2.0 iouring_bpf_obj_load
IOURING_BPF_2.0 iouring_bpf_obj_set_global
IOURING_BPF_2.0 iouring_bpf_obj_set_op_id
IOURING_BPF_2.0 iouring_bpf_ring_setup
IOURING_BPF_2.0 iouring_bpf_set_print
IOURING_BPF_2.0 iouring_bpf_version
IOURING_BPF_2.1 iouring_bpf_broker_attach"
checks=$((checks + 1))
[ "$nodes" = "$want" ] || fail "the exported calls and their version nodes differ from the expected list: $(diff <(echo "$want") <(echo "$nodes") | grep '^[<>]' | tr '\n' ' ')"
echo "soname $soname; nm -D: $(wc -l <<<"$dyn") symbols, all iouring_bpf_* ($(wc -l <<<"$decl") calls in the headers)"

checks=$((checks + 2))
grep -q '^prefix=${pcfiledir}/' "$L/pkgconfig/iouring-bpf.pc" || fail "the .pc is not relocatable"
cflags=$(pkg-config --cflags iouring-bpf) && libs=$(pkg-config --libs iouring-bpf) ||
	fail "pkg-config --cflags --libs iouring-bpf"
[ "$(realpath -m "$(pkg-config --variable=libdir iouring-bpf)")" = "$L" ] ||
	fail "the .pc's libdir is not the DESTDIR's: $(pkg-config --variable=libdir iouring-bpf)"
slibs=$(pkg-config --static --libs iouring-bpf | sed 's/-liouring-bpf\b/-l:libiouring-bpf.a/')
echo "pkg-config: $cflags $libs; Version $ver"
grep -E '^Requires|^Libs' "$L/pkgconfig/iouring-bpf.pc"

checks=$((checks + 1))
v=$("$D/usr/bin/iouring-bpf" --version) || fail "--version exited $?"
grep -qE "^iouring-bpf [0-9]+\.[0-9]+" <<<"$v" && grep -qE "^libbpf 1\.([5-9]|[1-9][0-9])" <<<"$v" ||
	fail "--version says: $v"
echo "--version: $(tr '\n' ' ' <<<"$v")"

checks=$((checks + 1))
if command -v man >/dev/null; then
	page=$(MANWIDTH=80 man -l "$D/usr/share/man/man1/iouring-bpf.1" 2>&1)
	grep -q "io_uring_bpf_ops" <<<"$page" && grep -q "EXIT STATUS" <<<"$page" ||
		fail "the man page does not render: $(head -5 <<<"$page")"
fi

# an application built against the installed files only: the header's
# version, the library's, the kernel's loop hook
cat >"$TMP/app.c" <<'C'
#include <stdio.h>
#include <iouring-bpf/iouring-bpf.h>

int main(void)
{
	IOURING_BPF_OPTS(iouring_bpf_kernel, k);
	static const char *const api[] = { "none", "v3", "mainline-7.1",
					   "mainline-7.2" };

	printf("header %d.%d.%d library %s\n", IOURING_BPF_VERSION_MAJOR,
	       IOURING_BPF_VERSION_MINOR, IOURING_BPF_VERSION_PATCH,
	       iouring_bpf_version());
	if (iouring_bpf_kernel_probe(&k))
		k.loop_api = IOURING_BPF_LOOP_NONE;
	printf("loop hook: %s\n", api[k.loop_api + 1]);
	return 0;
}
C
# and one that uses libbpf on the library's handle and has names of its
# own that the library uses inside (they must not collide)
cat >"$TMP/app_bpf.c" <<'C'
#include <stdio.h>
#include <bpf/libbpf.h>
#include <iouring-bpf/iouring-bpf.h>

int iouring_bpf_int_put(void) { return 1; }
int objvar_ptr, iou_kernel_has, iou_vlog_open, iouf_parse;
int iouring_bpf_open, iouring_bpf_set, iouring_bpf_start_opts;

int main(void)
{
	struct bpf_object *obj = iouring_bpf_builtin_open("nop", NULL);

	if (!obj)
		return 1;
	printf("object %s, library %s\n", bpf_object__name(obj),
	       iouring_bpf_version());
	bpf_object__close(obj);
	return iouring_bpf_int_put() - 1 + objvar_ptr + iou_kernel_has + iou_vlog_open +
	       iouf_parse + iouring_bpf_open + iouring_bpf_set +
	       iouring_bpf_start_opts;
}
C
want="header ${ver//./\.} library ${ver//./\.}"
checks=$((checks + 1))
if cc -Wall -Werror -o "$TMP/app" "$TMP/app.c" $cflags $libs 2>"$TMP/cc.err"; then
	a=$(LD_LIBRARY_PATH=$L "$TMP/app") && grep -qE "^$want$" <<<"$a" &&
		grep -qE "^loop hook: (v3|mainline-7\.[12]|none)$" <<<"$a" &&
		readelf -d "$TMP/app" | grep -q "NEEDED.*\[libiouring-bpf.so.$major\]" &&
		echo "shared: $(head -1 <<<"$a") (needs libiouring-bpf.so.$major), $(tail -1 <<<"$a")" ||
		fail "the app linked to the .so says: $a"
else
	fail "cannot build an app with $cflags $libs:"; head -5 "$TMP/cc.err"
fi
checks=$((checks + 1))
if cc -Wall -Werror -o "$TMP/app_static" "$TMP/app.c" $cflags $slibs 2>"$TMP/cc.err"; then
	a=$("$TMP/app_static") && grep -qE "^$want$" <<<"$a" &&
		! readelf -d "$TMP/app_static" | grep -q "NEEDED.*libiouring-bpf" &&
		echo "static ($slibs): $(head -1 <<<"$a")" ||
		fail "the app linked to the .a says: $a"
else
	fail "cannot link an app statically with $cflags $slibs:"; head -5 "$TMP/cc.err"
fi
checks=$((checks + 1))
if cc -Wall -o "$TMP/app_bpf" "$TMP/app_bpf.c" $cflags $slibs 2>"$TMP/cc.err"; then
	a=$("$TMP/app_bpf") && grep -qE "^object nop, library ${ver//./\.}$" <<<"$a" &&
		echo "static, libbpf on the object, own iouring_bpf_int_put/objvar_ptr/iou_* and 1.x's iouring_bpf_open/_set/_start_opts: $a" ||
		fail "app_bpf says: $a"
else
	fail "an app with its own iouring_bpf_int_put, objvar_ptr, iou_*, iouring_bpf_open, ... does not link with the .a:"
	head -5 "$TMP/cc.err"
fi

# the examples' two applications build the same way (they run in the VM:
# tests/examples/test_apps.sh)
for app in attach_loop attach_own attach_liburing; do
	checks=$((checks + 1))
	extra=; [ $app != attach_loop ] && extra=-luring
	cc -Wall -Werror -o "$TMP/$app" "$ROOT/examples/$app.c" $cflags $libs $extra \
		2>"$TMP/cc.err" && echo "examples/$app.c built with pkg-config" ||
		{ fail "examples/$app.c does not build:"; head -5 "$TMP/cc.err"; }
done

# uninstall: back to the directories there were
checks=$((checks + 1))
out=$(make -C "$ROOT" uninstall DESTDIR="$D" PREFIX=/usr 2>&1) ||
	{ fail "make uninstall exited $?"; tail -5 <<<"$out"; }
after=$(cd "$D" && find . | sort)
if [ "$after" = "$before" ]; then
	echo "uninstall: nothing left ($(wc -l <<<"$before") directories as before)"
else
	fail "left after uninstall: $(comm -13 <(echo "$before") <(echo "$after") | tr '\n' ' ')"
fi

# a forced system libbpf that is not there: one clear error, no build
if ! pkg-config --exists libbpf 2>/dev/null; then
	checks=$((checks + 1))
	out=$(make -C "$ROOT/loader" -n IOURING_BPF_TOOLS=system 2>&1) &&
		fail "IOURING_BPF_TOOLS=system without libbpf: make -n exited 0" ||
		grep -q "IOURING_BPF_TOOLS=system, but pkg-config finds no libbpf" <<<"$out" ||
		fail "IOURING_BPF_TOOLS=system without libbpf says: $(tail -2 <<<"$out")"
	echo "IOURING_BPF_TOOLS=system: $(grep -o 'IOURING_BPF_TOOLS=system, but [^:]*' <<<"$out")"
fi
finish
