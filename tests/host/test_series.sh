#!/bin/bash
# kernel/patches/series parses: every entry names an existing patch file, no
# entry twice, each file looks like a patch; kernel/build accepts the series.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SERIES=$ROOT/kernel/patches/series
if [ ! -e "$SERIES" ]; then
	echo "kernel/patches/series does not exist yet (an empty series)"
	exit 0
fi
fail=0 n=0
declare -A seen=()
while IFS= read -r line || [ -n "$line" ]; do
	line=${line%%#*}
	line=$(echo "$line" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
	[ -n "$line" ] || continue
	name=${line%%[[:space:]]*}
	n=$((n + 1))
	if [ -n "${seen[$name]:-}" ]; then echo "FAIL: $name is listed twice"; fail=1; fi
	seen[$name]=1
	f=$ROOT/kernel/patches/$name
	if [ ! -f "$f" ]; then echo "FAIL: $name is in the series but not in kernel/patches/"; fail=1; continue; fi
	if ! grep -qE '^(diff --git |\+\+\+ )' "$f"; then echo "FAIL: $name has no diff in it"; fail=1; fi
done <"$SERIES"
echo "series: $n patch(es)"
# Patch files that the series forgets.
for f in "$ROOT"/kernel/patches/*.patch; do
	[ -e "$f" ] || continue
	b=$(basename "$f")
	[ -n "${seen[$b]:-}" ] || echo "note: $b is not in the series"
done
if [ -f /usr/src/linux-source-6.12.tar.xz ] || [ -n "${IOURING_BPF_KERNEL_TARBALL:-}" ]; then
	"$ROOT/kernel/build" --print-key >/dev/null || { echo "FAIL: kernel/build --print-key rejects the series"; fail=1; }
fi
exit $fail
