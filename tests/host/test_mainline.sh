#!/bin/bash
# kernel/mainline without a build: usage errors (exit 2); fetch-source
# --no-fetch on an empty cache exits 1 and creates nothing; the fix in
# kernel/mainline/patches is in git format-patch form with the tags a
# maintainer needs and no machine path; with the source fetched, the build
# key is stable and follows the patch's diff, not its commit message.
# (kernel/mainline/build applies the patches: a patch that does not apply
# stops the build, naming it.)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
ML=$ROOT/kernel/mainline
T=$(mktemp -d "${TEST_TMPDIR:-/tmp}/mainline.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

for cmd in "fetch-source --bogus" "build --bogus" "build -j x"; do
	rc=0
	# shellcheck disable=SC2086
	"$ML"/$cmd >/dev/null 2>"$T/err" || rc=$?
	[ $rc = 2 ] && grep -q usage: "$T/err" && ok "$cmd -> usage error" ||
		bad "$cmd: exit $rc, expected 2 with usage"
done

rc=0; out=$(IOURING_BPF_CACHE=$T/empty "$ML/fetch-source" --print-dir --no-fetch) || rc=$?
[ $rc = 1 ] && [ -z "$out" ] && [ ! -e "$T/empty" ] &&
	ok "fetch-source --no-fetch on an empty cache: exit 1, nothing created" ||
	bad "fetch-source --no-fetch on an empty cache: exit $rc, '$out'"

n=0
while IFS= read -r p || [ -n "$p" ]; do
	f=$ML/patches/$p
	n=$((n + 1))
	[ -f "$f" ] || { bad "series names $p, which does not exist"; continue; }
	head -1 "$f" | grep -qE '^From [0-9a-f]{40} ' || bad "$p: not git format-patch output"
	for tag in '^Subject: \[PATCH\]' '^Signed-off-by: ' '^Fixes: [0-9a-f]{12} \(".*"\)$' \
		   '^Cc: .*peterz@infradead.org' '^Cc: .*axboe@kernel.dk' '^diff --git a/kernel/fork.c'; do
		grep -qE "$tag" "$f" || bad "$p: no line matching $tag"
	done
	if grep -nE '/wor[k]/|shared/|farm-[s]tudio|iouring-bpf/|QEMU|TCG|icount' "$f"; then
		bad "$p names a project path or emulator detail (above)"
	fi
done <"$ML/patches/series"
[ $n -ge 1 ] && ok "$n patch(es) in kernel/mainline/patches/series, in postable form" ||
	bad "kernel/mainline/patches/series is empty"

if ! "$ML/fetch-source" --print-dir --no-fetch >/dev/null; then
	echo "note: the 7.2 source is not fetched (kernel/mainline/fetch-source): key and apply checks not run"
	exit $fail
fi
k1=$("$ML/build" --print-key)
k2=$("$ML/build" --print-key)
[ "$k1" = "$k2" ] && ok "build key stable (${k1:0:12})" || bad "build key changes between runs"
# A copy of kernel/mainline with the message reworded, then the code.
mkdir -p "$T/root/kernel" && cp -a "$ML" "$T/root/kernel/mainline"
P=$(head -1 "$ML/patches/series")
sed -i '0,/^Subject:/s/^Subject: .*/Subject: [PATCH] reworded/' "$T/root/kernel/mainline/patches/$P"
k3=$("$T/root/kernel/mainline/build" --print-key)
[ "$k3" = "$k1" ] && ok "a reworded commit message keeps the key" || bad "a reworded message changed the key"
sed -i 's/^+\ttsk->migration_disabled = 0;$/+\ttsk->migration_disabled = 0; \/* changed *\//' "$T/root/kernel/mainline/patches/$P"
k4=$("$T/root/kernel/mainline/build" --print-key)
[ "$k4" != "$k1" ] && ok "a changed diff changes the key" || bad "a changed diff kept the key"

exit $fail
