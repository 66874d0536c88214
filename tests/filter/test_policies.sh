#!/bin/bash
# kernels: ours stock
#
# Every shipped policy (policies/*.policy) against requests it must allow
# and deny: applied to the ring with the library (iouring_bpf_filter_apply
# on the ring fd, no privilege needed) and to the task with `iouring-bpf
# sandbox` (no_new_privs + fd -1), each as root and as uid 65534. "allow"
# means the request ran (any result but -EACCES), "deny" that it failed
# with -EACCES. On a kernel without filters (our 6.12): SKIP.
. "$(dirname "$0")/lib.sh"
filters_or_skip

declare -A CASES
CASES[no-network]="nop=allow read=allow write=allow openat:/etc/hostname:rdonly=allow
	socket:inet:stream=deny socket:unix:stream=deny connect:127.0.0.1:80=deny
	accept=deny send=deny recv=deny bind=deny listen=deny"
CASES[read-only]="openat:/etc/hostname:rdonly=allow openat2:/etc/hostname:rdonly=allow
	read=allow write=allow nop=allow socket:unix:stream=allow
	openat:ro-a:wronly|creat=deny openat:/etc/hostname:rdwr=deny
	openat:/etc/hostname:rdonly|trunc=deny openat:ro-b:rdonly|creat=deny
	openat2:ro-c:wronly|creat=deny openat2:/etc/hostname:rdonly|append=deny
	mkdirat:ro-d=deny unlinkat:ro-e=deny"
CASES[deny-ipv6]="socket:inet:stream=allow socket:inet:dgram=allow socket:unix:stream=allow
	connect:127.0.0.1:9=allow nop=allow
	socket:inet6:stream=deny socket:inet6:dgram=deny connect:[::1]:9=deny"
CASES[web-client]="socket:inet:stream=allow socket:inet6:stream=allow
	connect:127.0.0.1:80=allow connect:127.0.0.1:443=allow connect:[::1]:443=allow
	openat:/etc/hostname:rdonly=allow nop=allow
	connect:127.0.0.1:22=deny connect:127.0.0.1:8080=deny connect:[::1]:22=deny
	connect:unix=deny socket:inet:dgram=deny socket:unix:stream=deny
	bind=deny listen=deny accept=deny"
CASES[loopback-only]="connect:127.0.0.1:9=allow connect:127.1.2.3:9=allow
	connect:[::1]:9=allow connect:unix=allow socket:inet:stream=allow nop=allow
	connect:192.0.2.1:80=deny connect:10.0.0.1:443=deny connect:[2001:db8::1]:80=deny
	connect:[::2]:9=deny"
CASES[server]="nop=allow read=allow write=allow accept=allow send=allow recv=allow
	socket:inet:stream=deny connect:127.0.0.1:80=deny openat:/etc/hostname:rdonly=deny
	openat2:/etc/hostname:rdonly=deny mkdirat:srv-d=deny unlinkat:srv-e=deny
	bind=deny listen=deny"

shipped=$("$CLI" filter list | awk 'NF && $1 !~ /^\(/ {print $1}')
for p in $shipped; do
	[ -n "${CASES[$p]}" ] || fail "shipped policy $p has no test cases here"
done
for p in "${!CASES[@]}"; do
	grep -qx "$p" <<<"$shipped" || fail "test cases for $p, which is not shipped"
	# shellcheck disable=SC2086
	set -- ${CASES[$p]}
	check "$p ring root" "$REQ" --ring-policy "$p" "$@"
	check "$p ring 65534" as_user "$REQ" --ring-policy "$p" "$@"
	check "$p task root" "$CLI" sandbox --policy "$p" -- "$REQ" "$@"
	check "$p task 65534" as_user "$CLI" sandbox --policy "$p" -- "$REQ" "$@"
done
finish
