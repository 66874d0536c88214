#!/bin/bash
# kernels: ours stock
#
# `iouring-bpf sandbox --policy no-network -- PROGRAM`, as uid 65534 and as
# root: every io_uring socket/connect/accept/bind/listen/send/recv request
# of PROGRAM (filter_req, a program of its own that knows nothing of
# filters) fails with -EACCES, the rest runs. Then what the kernel
# promises about task filters: children inherit them, a second sandbox
# inside cannot loosen them (a policy allowing sockets does not undo
# no-network), and without no_new_privs an unprivileged task may not
# register one (exit 4). Our 6.12 has no filters: sandbox exits 3, SKIP.
. "$(dirname "$0")/lib.sh"
filters_or_skip

NET_DENY="socket:inet:stream=deny socket:inet6:dgram=deny socket:unix:stream=deny
	connect:127.0.0.1:80=deny connect:[::1]:443=deny connect:unix=deny
	accept=deny bind=deny listen=deny send=deny recv=deny"
REST="nop=allow read=allow write=allow openat:/etc/hostname:rdonly=allow
	openat:sb-file:wronly|creat=allow mkdirat:sb-dir=allow unlinkat:sb-file=allow"
# shellcheck disable=SC2086
set -- $NET_DENY $REST
check "no-network 65534" as_user "$CLI" sandbox --policy no-network -- "$REQ" "$@"
rm -rf "$TMP/sb-dir"
check "no-network root" "$CLI" sandbox --policy no-network -- "$REQ" "$@"
rm -rf "$TMP/sb-dir"
# a child of the sandboxed shell inherits the task filters
check "inherited by a child" as_user "$CLI" sandbox --policy no-network -- \
	sh -c '"$0" "$@"; exit $?' "$REQ" socket:inet:stream=deny nop=allow

# a policy that allows sockets, stacked inside, cannot undo no-network
printf 'default allow\nallow socket, connect if family in 0-4294967295\n' >"$TMP/allow-sockets.policy"
check "cannot loosen" as_user "$CLI" sandbox --policy no-network -- \
	"$CLI" sandbox --policy "$TMP/allow-sockets.policy" -- \
	"$REQ" socket:inet:stream=deny connect:127.0.0.1:80=deny nop=allow
# two policies stack: both must allow
check "stacked policies" as_user "$CLI" sandbox --policy deny-ipv6 --policy web-client -- \
	"$REQ" socket:inet:stream=allow socket:inet6:stream=deny socket:inet:dgram=deny \
	connect:127.0.0.1:443=allow connect:[::1]:443=deny

# without no_new_privs, uid 65534 may not put filters on its task
checks=$((checks + 1))
out=$(as_user "$REQ" --task-policy no-network socket:inet:stream=allow 2>&1) || fail "task policy without no_new_privs: $out"
grep -qE '^task-policy: status 4 errno (1|13)$' <<<"$out" ||
	fail "task policy without no_new_privs as 65534: want status 4 (EPERM/EACCES), got: $out"
echo "$out" | sed 's/^/[no no_new_privs] /'

# `filter apply POLICY --ring PID:FD`: onto another process's ring
checks=$((checks + 1))
mkdir -p "$TMP/pause"
"$REQ" --pause "$TMP/pause" socket:inet:stream=deny connect:127.0.0.1:80=deny nop=allow \
	>"$TMP/pause/out" 2>&1 &
pid=$!
for _ in $(seq 600); do [ -s "$TMP/pause/ring" ] && break; sleep 0.1; done
read -r rpid rfd <"$TMP/pause/ring" 2>/dev/null
out=$("$CLI" filter apply no-network --ring "$rpid:$rfd" 2>&1) || fail "filter apply --ring $rpid:$rfd: $out"
echo "[apply --ring] $out"
touch "$TMP/pause/go"
wait "$pid" || fail "filter_req after filter apply --ring: $(cat "$TMP/pause/out")"
sed 's/^/[apply --ring] /' "$TMP/pause/out"

# a policy compiled for a kernel whose socket payload is 16 bytes: this
# kernel fills 12, refuses it (-EMSGSIZE: exit 5), and the ring is unchanged
L4=$ROOT/build/tests/filter/layout4.o
if [ -f "$L4" ]; then
	checks=$((checks + 1))
	rm -rf "$TMP/pause"; mkdir -p "$TMP/pause"
	"$REQ" --pause "$TMP/pause" socket:inet6:stream=allow >"$TMP/pause/out" 2>&1 &
	pid=$!
	for _ in $(seq 600); do [ -s "$TMP/pause/ring" ] && break; sleep 0.1; done
	read -r rpid rfd <"$TMP/pause/ring" 2>/dev/null
	rc=0
	out=$("$CLI" filter apply deny-ipv6 --btf "$L4" --ring "$rpid:$rfd" 2>&1) || rc=$?
	[ "$rc" = 5 ] && grep -q 'the kernel gives 12 bytes of payload for socket, the policy reads 16' <<<"$out" ||
		fail "payload size 16 on a 12-byte kernel: exit $rc, want 5: $out"
	echo "[payload 16 bytes] exit $rc: $out"
	touch "$TMP/pause/go"
	wait "$pid" || fail "the refused policy changed the ring: $(cat "$TMP/pause/out")"
	sed 's/^/[payload 16 bytes] /' "$TMP/pause/out"
else
	echo "note: no $L4 (clang): the payload-size refusal was not tried"
fi

# the CLI's own errors: a malformed policy is one line, exit 1, nothing runs
checks=$((checks + 1))
printf 'default allow\ndeny socket if famly == inet\n' >"$TMP/bad.policy"
rc=0
out=$("$CLI" sandbox --policy "$TMP/bad.policy" -- touch "$TMP/ran" 2>&1) || rc=$?
if [ "$rc" != 1 ] || [ -e "$TMP/ran" ] || [ "$(wc -l <<<"$out")" != 1 ]; then
	fail "bad policy: exit $rc (want 1), ran: $([ -e "$TMP/ran" ] && echo yes || echo no), output: $out"
fi
echo "[bad policy] $out"
finish
