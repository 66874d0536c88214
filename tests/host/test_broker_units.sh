#!/bin/bash
# The systemd units of iouring-bpfd (loader/daemon/*.in) as `make install`
# writes them: `systemd-analyze verify` accepts them (SKIP where there is
# no systemd-analyze), the socket is a SOCK_SEQPACKET one every user may
# connect to, the service runs the installed daemon with the installed
# policy, checked first; and `make install` puts the daemon, the units,
# the teaching policy and the man page where it says (DESTDIR).
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TMP=${TEST_TMPDIR:-$(mktemp -d)}
fails=0
[ -x "$ROOT/build/iouring-bpfd" ] || { echo "build/iouring-bpfd is not built (make -C loader)"; exit 77; }

D=$TMP/dest
make -s -C "$ROOT/loader" install DESTDIR="$D" PREFIX=/usr >"$TMP/install.log" 2>&1 ||
	{ echo "FAIL: make install"; cat "$TMP/install.log"; exit 1; }
for f in usr/sbin/iouring-bpfd usr/lib/systemd/system/iouring-bpfd.service \
	 usr/lib/systemd/system/iouring-bpfd.socket etc/iouring-bpf/iouring-bpfd.policy \
	 usr/share/man/man8/iouring-bpfd.8 usr/include/iouring-bpf/broker.h; do
	[ -e "$D/$f" ] || { echo "FAIL: make install did not install /$f"; fails=$((fails + 1)); }
done
U=$D/usr/lib/systemd/system
grep -q '^ExecStart=/usr/sbin/iouring-bpfd --policy /etc/iouring-bpf/iouring-bpfd.policy$' "$U/iouring-bpfd.service" ||
	{ echo "FAIL: ExecStart: $(grep ExecStart= "$U/iouring-bpfd.service")"; fails=$((fails + 1)); }
grep -q '^ExecStartPre=/usr/sbin/iouring-bpfd check /etc/iouring-bpf/iouring-bpfd.policy$' "$U/iouring-bpfd.service" ||
	{ echo "FAIL: no policy check before the start"; fails=$((fails + 1)); }
grep -q '^ListenSequentialPacket=/run/iouring-bpfd.sock$' "$U/iouring-bpfd.socket" &&
	grep -q '^SocketMode=0666$' "$U/iouring-bpfd.socket" ||
	{ echo "FAIL: the socket unit"; fails=$((fails + 1)); }
"$D/usr/sbin/iouring-bpfd" check "$D/etc/iouring-bpf/iouring-bpfd.policy" ||
	{ echo "FAIL: the installed policy"; fails=$((fails + 1)); }
# a second install keeps the administrator's policy
echo "# mine" >>"$D/etc/iouring-bpf/iouring-bpfd.policy"
make -s -C "$ROOT/loader" install DESTDIR="$D" PREFIX=/usr >/dev/null 2>&1
grep -q "^# mine" "$D/etc/iouring-bpf/iouring-bpfd.policy" ||
	{ echo "FAIL: make install overwrote the policy"; fails=$((fails + 1)); }

if command -v systemd-analyze >/dev/null; then
	# verify resolves ExecStart: point it at the built daemon
	mkdir -p "$TMP/units"
	for u in iouring-bpfd.service iouring-bpfd.socket; do
		sed "s|/usr/sbin/iouring-bpfd|$ROOT/build/iouring-bpfd|g" "$U/$u" >"$TMP/units/$u"
	done
	out=$(cd "$TMP/units" && SYSTEMD_LOG_LEVEL=warning systemd-analyze verify \
		--man=no ./iouring-bpfd.socket ./iouring-bpfd.service 2>&1)
	# messages about this machine's other units are not ours
	bad=$(grep -i "iouring-bpfd" <<<"$out")
	if [ -n "$bad" ]; then
		echo "FAIL: systemd-analyze verify:"; echo "$out"; fails=$((fails + 1))
	else
		echo "ok: systemd-analyze verify: the units pass"
	fi
else
	echo "no systemd-analyze: the units are not verified"
	[ "$fails" = 0 ] && { echo "no systemd-analyze here (the units' contents were checked)"; exit 77; }
fi
echo "$fails failed"
[ "$fails" = 0 ]
