#!/bin/bash
# tests/broker/measure.sh - the figures of docs/broker.md, in a VM:
#	kernel/vm-run --stock --timeout 3600 -- tests/broker/measure.sh [N]
# The time from connect to attached through iouring-bpfd (median, p99
# over N attaches of nop-chain, default 1000) against root's direct
# attach (iouring_bpf_builtin_open(), _obj_bind_ring() with the layout
# read from the kernel, _obj_load(), _obj_attach(): the daemon's calls),
# and
# the daemon's resident memory idle and with 100 clients attached.
N=${1:-1000}
# not the scratch share (9p): a UNIX socket needs a real file system
[ -n "$TEST_TMPDIR" ] || export TEST_TMPDIR=$(mktemp -d /run/broker-measure.XXXXXX)
. "$(dirname "$0")/lib.sh"
loop_or_skip
start_daemon 'limit connections 200\nlimit attached 200\nprogram nop-chain\n\tusers *\n'
echo "kernel $(uname -r), $(nproc) CPUs"
"$BC" - benchdirect "$N" nop-chain
as_user "$BC" "$SOCK" bench "$N" nop-chain | sed 's/^bench broker/bench broker (uid 65534)/'
rss() { awk '/VmRSS/ { print $2 " kB" }' "/proc/$DPID/status"; }
echo "daemon RSS idle: $(rss)"
"$BC" "$SOCK" many 100 nop-chain >"$TMP/many" 2>&1 &
M=$!
for i in $(seq 600); do grep -q "attached 100" "$TMP/many" && break; sleep 0.2; done
cat "$TMP/many"
echo "daemon RSS with 100 clients attached: $(rss); links: $(links)"
kill $M; wait $M 2>/dev/null
sleep 1
echo "daemon RSS after they left: $(rss); links: $(links)"
stop_daemon
