#!/bin/bash
# kernels: ours stock
# probe --hook answers for one hook with an exit code a script can branch
# on: on Debian's stock 7.2 (mainline loop hook, filters, no IORING_OP_BPF)
# --hook loop and --hook filters exit 0 and --hook op 3, so `probe --hook
# loop && run nop-chain` works there; on our kernel (v3 loop hook,
# IORING_OP_BPF, no filters) loop and op exit 0, filters 3. probe without
# --hook keeps its codes (3 on stock). --json "hooks" agrees with the
# exit codes; as uid 65534, loop and op are 4 (not privileged) and
# filters stay what they are (they need no privilege).
source "$(dirname "$0")/lib.sh"
loop_feature_or_skip

case $LOOP_API in
v3)		want_loop=0 want_op=0 want_filters=3 want_plain=0 ;;
mainline-7.2)	want_loop=0 want_op=3 want_filters=0 want_plain=3 ;;
*)		skip "loop API $LOOP_API: no expectations written for it" ;;
esac

probe_rc() {	# ARGS: the exit status of probe ARGS
	local rc=0
	"$CLI" probe "$@" >"$TMP/probe.out" 2>&1 || rc=$?
	echo "$rc"
}

for h in loop op filters; do
	want=want_$h
	checks=$((checks + 1))
	rc=$(probe_rc --hook "$h")
	if [ "$rc" = "${!want}" ]; then
		echo "ok: probe --hook $h -> $rc"
	else
		fail "probe --hook $h: exit $rc, want ${!want} ($LOOP_API):"
		sed 's/^/    /' "$TMP/probe.out" | tail -5
	fi
	rc=$(probe_rc --json --hook "$h")
	checks=$((checks + 1))
	if python3 - "$TMP/probe.out" "$h" "$rc" <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
h, rc = sys.argv[2], int(sys.argv[3])
assert d["hook"] == h and d["status"] == rc, (d.get("hook"), d["status"], rc)
assert d["hooks"][h]["status"] == rc, d["hooks"]
assert d["hooks"][h]["available"] == (rc != 3), d["hooks"]
PY
		echo "ok: probe --json --hook $h: status and hooks.$h.status are $rc"
	else
		fail "probe --json --hook $h disagrees with its exit $rc"
	fi
done

checks=$((checks + 1))
rc=$(probe_rc)
if [ "$rc" = "$want_plain" ]; then
	echo "ok: probe (no --hook) -> $rc as before"
else
	fail "probe: exit $rc, want $want_plain"
fi

checks=$((checks + 1))
rc=0
out=$("$CLI" probe --hook loop >/dev/null 2>&1 && "$CLI" run nop-chain --count 100 2>&1) || rc=$?
if [ "$rc" = 0 ]; then
	echo "ok: probe --hook loop && run nop-chain --count 100"
else
	fail "probe --hook loop && run nop-chain: exit $rc: $out"
fi

checks=$((checks + 1))
rc=$(probe_rc --hook loop,op)
want=$((want_loop == 3 || want_op == 3 ? 3 : 0))
[ "$rc" = "$want" ] && echo "ok: probe --hook loop,op -> $rc" ||
	fail "probe --hook loop,op: exit $rc, want $want"

if command -v setpriv >/dev/null &&
   setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all true; then
	for h in loop op filters; do
		want=want_$h
		want=${!want}
		[ "$h" != filters ] && [ "$want" = 0 ] && want=4
		checks=$((checks + 1))
		rc=0
		(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups \
			--inh-caps=-all "$CLI" probe --hook "$h") >/dev/null 2>&1 || rc=$?
		[ "$rc" = "$want" ] && echo "ok: as nobody: probe --hook $h -> $rc" ||
			fail "as nobody: probe --hook $h: exit $rc, want $want"
	done
fi
finish
