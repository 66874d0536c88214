#!/bin/bash
# kernels: ours stock
# `show` says when the ring of a loop program `load` pinned is gone: while
# the ring's owner runs, show names the ring (PID:FD) and --json has
# "ring": {"gone": false}; after the owner exits, the pin is still there
# but show says GONE and "gone": true (the program runs no more: the
# kernel freed the ring); unload then removes the pin and the record.
source "$(dirname "$0")/lib.sh"
loop_feature_or_skip
need_helper ringapp
APP=$TMP/app
mkdir -p "$APP"
app=
cleanup() {
	cleanup_pins
	[ -n "$app" ] && kill "$app" 2>/dev/null
	wait 2>/dev/null
}
trap cleanup EXIT
cleanup_pins

"$HELPERS/ringapp" defer "$APP" >"$APP/log" 2>&1 &
app=$!
for _ in $(seq 500); do [ -f "$APP/ring" ] && break; sleep 0.01; done
read -r pid fd <"$APP/ring" || skip "ringapp did not start: $(cat "$APP/log")"

gone_is() {	# WANT(true|false) WHY: show --json's ring of the pin
	checks=$((checks + 1))
	"$CLI" show --json >"$TMP/show.json" 2>&1 || true
	if python3 - "$TMP/show.json" "$pin" "$pid" "$fd" "$1" <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
pin, pid, fd, want = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "true"
l = [x for x in d["links"] if x["name"] == pin]
assert l, "no link %s in %s" % (pin, d)
r = l[0].get("ring")
assert r == {"pid": pid, "fd": fd, "gone": want}, r
PY
		echo "ok: $2: show --json ring gone=$1"
	else
		fail "$2: show --json does not say gone=$1"
	fi
}

pin=cq-stats-$pid-$fd
expect_exit 0 "attached" -- load cq-stats --ring "$pid:$fd"
expect_exit 0 "ring: fd $fd of process $pid\$" -- show
gone_is false "owner running"
echo exit >"$APP/cmd-1"
wait "$app" 2>/dev/null
app=
expect_exit 0 "ring: fd $fd of process $pid: GONE \(its owner exited" -- show
expect_exit 0 "^$pin " -- show
gone_is true "owner exited"
expect_exit 0 "unloaded $pin" -- unload "$pin"
checks=$((checks + 1))
[ ! -e "/run/iouring-bpf/rings/$pin" ] && echo "ok: unload removed the ring record" ||
	fail "unload left /run/iouring-bpf/rings/$pin"
finish
