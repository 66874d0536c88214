#!/bin/bash
# fetch_liburing.sh - liburing-dev from Debian unstable, with the kernel
# uapi headers it was configured against (linux-libc-dev: its compat.h
# includes <linux/blkdev.h>, which Debian 12's lack), unpacked into the
# cache ($IOURING_BPF_CACHE/liburing/VERSION/usr/include/...), for the
# header checks of tests/host (not a test itself). Like kernel/fetch-stock
# it uses a private apt state (lists and archives in the cache, removed
# afterwards) and never changes the system's apt configuration or
# sources. Prints the unpacked root on stdout; exit 1 with the reason on
# stderr when it cannot (no network, no such package).
#   IOURING_BPF_LIBURING_SUITE (default sid), IOURING_BPF_STOCK_MIRROR
set -euo pipefail
CACHE=${IOURING_BPF_CACHE:-/var/cache/iouring-bpf}
SUITE=${IOURING_BPF_LIBURING_SUITE:-sid}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
die() { echo "fetch_liburing: $*" >&2; exit 1; }

# a version already unpacked: the newest one
have=$(ls -d "$CACHE"/liburing/*/usr/include/liburing.h 2>/dev/null | sort -V | tail -1 || true)
if [ -n "$have" ] && [ -z "${IOURING_BPF_LIBURING_REFRESH:-}" ]; then
	echo "${have%/usr/include/liburing.h}"
	exit 0
fi
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
	die "needs apt-get and dpkg-deb (a Debian system)"
[ -r "$KEYRING" ] || die "no Debian archive keyring ($KEYRING)"
MIRROR=${IOURING_BPF_STOCK_MIRROR:-}
if [ -z "$MIRROR" ]; then
	MIRROR=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
		awk '/^URIs:/ && $2 ~ /debian/ && $2 !~ /security/ { print $2; exit }')
fi
if [ -z "$MIRROR" ]; then
	MIRROR=$(grep -hE '^[[:space:]]*deb[[:space:]]' /etc/apt/sources.list 2>/dev/null |
		sed 's/\[[^]]*\]//' | awk '$2 ~ /debian/ && $2 !~ /security/ { print $2; exit }')
fi
[ -n "$MIRROR" ] || die "no Debian archive in the apt sources; set IOURING_BPF_STOCK_MIRROR"
mkdir -p "$CACHE/liburing" 2>/dev/null || die "cannot create $CACHE/liburing"
exec 9>"$CACHE/liburing/.lock"
flock 9
A=$(mktemp -d "$CACHE/liburing/.apt.XXXXXX")
trap 'rm -rf "$A"' EXIT
mkdir -p "$A/sources" "$A/lists/partial" "$A/cache/archives/partial" "$A/debs"
printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
	"$MIRROR" "$SUITE" "$KEYRING" >"$A/sources/l.sources"
: >"$A/empty.list"
APT=(-o "Dir::Etc::SourceList=$A/empty.list" -o "Dir::Etc::SourceParts=$A/sources"
     -o "Dir::State::Lists=$A/lists" -o "Dir::Cache=$A/cache"
     -o "Dir::State::status=/dev/null" -o "APT::Sandbox::User=$(id -un)" -q)
if ! apt-get "${APT[@]}" update >"$A/update.log" 2>&1 ||
   grep -qE '^(E|W): (Failed to fetch|Some index files failed)' "$A/update.log"; then
	die "cannot read the $SUITE index of $MIRROR: $(grep -E '^(E|W):' "$A/update.log" | head -1)"
fi
(cd "$A/debs" && apt-get "${APT[@]}" download liburing-dev linux-libc-dev >"$A/dl.log" 2>&1) ||
	die "apt-get download liburing-dev linux-libc-dev from $SUITE failed: $(grep -E '^E:' "$A/dl.log" | head -1)"
deb=$(ls "$A"/debs/liburing-dev_*.deb | head -1)
ver=$(dpkg-deb -f "$deb" Version)
out=$CACHE/liburing/$ver
rm -rf "$out.tmp"
dpkg-deb -x "$deb" "$out.tmp"
dpkg-deb -x "$(ls "$A"/debs/linux-libc-dev_*.deb | head -1)" "$out.tmp"
rm -rf "$out"
mv "$out.tmp" "$out"
echo "$out"
