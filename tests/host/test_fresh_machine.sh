#!/bin/bash
# test-timeout: 3000
# The README's two commands, run the way a new user runs them on a bare
# Debian 12: one `make test` and one `make demo`, each a single make
# invocation in a fresh copy of the repository, from a state where
#   - the Debian packages are not installed (dpkg-query says so until
#     apt-get "installs" them: both are shims on PATH; the shim apt-get
#     records the install, and for linux-source-6.12 puts the real tarball
#     where the package would; every other apt-get call is passed on),
#   - the kernel source tarball does not exist yet (a scratch path),
#   - the cache has no tools and no unpacked source (a scratch cache),
#   - the build directory is empty (a fresh copy of the tree).
# Only the kernels are shared with the real cache (they take 10-25 minutes
# to build; their keys do not depend on where the tarball lies), and the
# stock kernel download, if the real cache has it.
#
# It catches parse-time and install-order faults: the tools' key needs the
# tarball, so a make that reads TOOLS_DIR before `make deps` has run compiles
# with -I/include and fails (seen on a bare machine before the fix).
#
# `make demo` boots the release kernel when it is cached; otherwise it is run
# with KERNEL_FLAVOUR=debug (the kernel `make test` has built) so that this
# check costs no second kernel build; the output says which.
# Each command runs in one of two ways, since a user types it in a shell
# and CI (like this test under `make test`) runs it below another make,
# whose variables change what inner makes print: "direct" clears them,
# "nested" runs the command from a recipe of an outer make. By default
# `make demo` runs direct on the bare machine and then `make test` nested
# on the machine it left, in the README's order (a second bare machine
# would cost a second libbpf/bpftool build, about 6 minutes); one command
# given alone starts bare. host/test_build_key checks kernel/build both
# ways, in seconds.
# Needs root (`make deps` refuses otherwise) and the real tarball.
# Usage: test_fresh_machine.sh [test|demo [direct|nested]]
#        (default: make demo direct, then make test nested)
set -euo pipefail
case "${1:-}" in
'') PLAN="demo:direct test:nested" ;;
test|demo) PLAN="$1:${2:-direct}" ;;
*) echo "usage: test_fresh_machine.sh [test|demo [direct|nested]]" >&2; exit 2 ;;
esac
case "$PLAN" in *:direct|*:nested) ;; *) echo "usage: the way is direct or nested, not '${2:-}'" >&2; exit 2 ;; esac
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
REAL_CACHE=${IOURING_BPF_CACHE:-/var/cache/iouring-bpf}
REAL_TARBALL=${IOURING_BPF_KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}

if [ "$(id -u)" != 0 ]; then
	echo "needs root: make deps installs packages"
	exit 77
fi
if [ ! -f "$REAL_TARBALL" ]; then
	echo "FAIL: $REAL_TARBALL missing: run make deps first"
	exit 1
fi

S=$(mktemp -d "${TEST_TMPDIR:-/tmp}/fresh.XXXXXX")
trap 'rm -rf "$S"' EXIT
SHIM=$S/bin
FAKE_TARBALL=$S/usr/src/linux-source-6.12.tar.xz
mkdir -p "$SHIM"

# dpkg-query -W -f=FORMAT PKG...: "installed" only once the shim apt-get
# has installed PKG.
cat >"$SHIM/dpkg-query" <<'EOF'
#!/bin/bash
fmt='${Status}\n'
pkgs=()
for a in "$@"; do
	case "$a" in
	-W|--show) ;;
	-f=*|--showformat=*) fmt=${a#*=} ;;
	-*) exec /usr/bin/dpkg-query "$@" ;;
	*) pkgs+=("$a") ;;
	esac
done
rc=0
for p in "${pkgs[@]}"; do
	if grep -qxF "$p" "$FRESH_STATE/installed" 2>/dev/null; then
		out=${fmt//'${Status}'/install ok installed}
		out=${out//'${Package}'/$p}
		printf '%b' "$out"
	else
		echo "dpkg-query: no packages found matching $p" >&2
		rc=1
	fi
done
exit $rc
EOF
# apt-get install PKG...: record PKG (the real packages are on this
# machine); linux-source-6.12 also "unpacks" its tarball. Everything else
# (update, download with a private state, ...) goes to the real apt-get.
cat >"$SHIM/apt-get" <<'EOF'
#!/bin/bash
install=0
for a in "$@"; do [ "$a" = install ] && install=1; done
[ $install = 1 ] || exec /usr/bin/apt-get "$@"
echo "apt-get $*" >>"$FRESH_STATE/apt.log"
for a in "$@"; do
	case "$a" in
	-*|install) ;;
	linux-source-6.12)
		mkdir -p "$(dirname "$FRESH_TARBALL")"
		ln -sf "$FRESH_REAL_TARBALL" "$FRESH_TARBALL"
		echo "$a" >>"$FRESH_STATE/installed" ;;
	*) echo "$a" >>"$FRESH_STATE/installed" ;;
	esac
done
EOF
chmod +x "$SHIM/dpkg-query" "$SHIM/apt-get"

# A bare machine: no packages, no tarball, a cache holding only kernels.
bare() {
	rm -rf "$S/state" "$S/usr" "$S/cache" "$S/src"
	mkdir -p "$S/state" "$S/cache" "$S/src"
	local d
	for d in kernel stock; do
		[ -d "$REAL_CACHE/$d" ] && ln -s "$REAL_CACHE/$d" "$S/cache/$d"
	done
	# The tree as it is now (committed or not), without build products.
	(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 cp -a --parents -t "$S/src" 2>/dev/null) || {
		echo "FAIL: could not copy the tree"
		exit 1
	}
}

fail=0
# user_make LOG direct|nested ARGS...: one make, as a new user types it
# (direct) or as a script below its own make runs it (nested).
user_make() {
	local log=$1 how=$2 t0=$SECONDS rc=0 cmd
	shift 2
	echo "---- make $* ($how; $machine)"
	machine="the machine the previous command left"
	if [ "$how" = nested ]; then
		printf 'all:\n\t$(MAKE) -C %q %s\n' "$S/src" "$(printf '%q ' "$@")" >"$S/outer.mk"
		cmd=(make -f "$S/outer.mk")
	else
		cmd=(make "$@")
	fi
	(cd "$S/src" && env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS PATH="$SHIM:$PATH" \
		FRESH_STATE="$S/state" \
		FRESH_TARBALL="$FAKE_TARBALL" FRESH_REAL_TARBALL="$REAL_TARBALL" \
		IOURING_BPF_CACHE="$S/cache" IOURING_BPF_KERNEL_TARBALL="$FAKE_TARBALL" \
		"${cmd[@]}") </dev/null >"$log" 2>&1 || rc=$?
	echo "     exit $rc after $((SECONDS - t0)) s; packages installed by it:" \
		"$(wc -l <"$S/state/installed" 2>/dev/null || echo 0)"
	if [ $rc != 0 ]; then
		echo "FAIL: make $* exited $rc; last lines:"
		tail -n 25 "$log" | sed 's/^/    /'
		fail=1
		return 1
	fi
}

# The first command starts from a bare machine, the next from where it left.
bare
machine="bare: no packages, no tarball, no tools, empty build/"
for part in $PLAN; do
how=${part#*:}
case $part in
# make test (a filter keeps it to one VM test and off this test).
test:*)
if user_make "$S/test.log" "$how" test TESTS_ARGS="-t kernel/test_vm_boot"; then
	if grep -qE '^Summary: [1-9][0-9]* passed, 0 failed' "$S/test.log"; then
		echo "ok: make test from bare: $(grep '^Summary' "$S/test.log")"
	else
		echo "FAIL: make test did not run its one test: $(grep '^Summary' "$S/test.log" || echo no summary)"
		fail=1
	fi
fi
;;

# make demo.
demo:*)
flavour=()
rkey=$(IOURING_BPF_CACHE=$REAL_CACHE "$ROOT/kernel/build" --print-key 2>/dev/null || true)
if [ -z "$rkey" ] || [ ! -f "$REAL_CACHE/kernel/release-${rkey:0:12}/bzImage" ]; then
	flavour=(KERNEL_FLAVOUR=debug)
	echo "(the release kernel is not cached: make demo boots the debug kernel)"
fi
if user_make "$S/demo.log" "$how" demo "${flavour[@]}"; then
	if grep -q '^tour: every step passed' "$S/demo.log"; then
		echo "ok: make demo from bare: the tour passed"
	else
		echo "FAIL: make demo exited 0 without the tour's last line"
		fail=1
	fi
fi
;;
esac
done
exit $fail
