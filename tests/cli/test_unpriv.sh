#!/bin/bash
# An unprivileged user (nobody, no capabilities) gets a clean refusal with
# exit 4 and what to do, from probe, run, load and show; list still works.
source "$(dirname "$0")/lib.sh"
feature_or_skip
command -v setpriv >/dev/null || skip "no setpriv"
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all)
"${NOBODY[@]}" true || skip "setpriv cannot drop to nobody here"
# nobody runs a copy of the CLI: the clone may live where that user cannot
# reach (root's home is mode 0700 on Debian)
chmod 755 "$TMP"
install -D -m 755 "$CLI" "$TMP/bin/iouring-bpf" || { echo "FAIL: cannot stage the CLI"; exit 1; }
CLI=$TMP/bin/iouring-bpf

nobody_expect() {	# CODE PATTERN -- ARGS
	local want=$1 pattern=$2 out rc=0
	shift 3
	checks=$((checks + 1))
	out=$(cd / && "${NOBODY[@]}" "$CLI" "$@" 2>&1) || rc=$?
	if [ "$rc" != "$want" ] || ! grep -qE -- "$pattern" <<<"$out"; then
		fail "as nobody: iouring-bpf $*: exit $rc (want $want), output:"
		echo "$out" | sed 's/^/    /' | head -20
	else
		echo "ok: as nobody: iouring-bpf $* -> $rc"
	fi
}

nobody_expect 4 "may not load BPF: run as root" -- probe
nobody_expect 4 "not permitted to load BPF.*CAP_BPF" -- run nop --count 3
nobody_expect 4 "not permitted to load BPF" -- run nop-chain --count 3
nobody_expect 4 "not permitted to load BPF" -- load nop --id 9
nobody_expect 4 "needs CAP_SYS_ADMIN" -- show
nobody_expect 0 "nop-chain" -- list
finish
