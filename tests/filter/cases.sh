# tests/filter/cases.sh - sourced by test_policies and test_stack: for each
# shipped policy, requests of filter_req (filter_req.c says how they are
# written) and whether the policy allows or denies each. A test of a
# policy alone runs its own; test_stack runs the union of two policies'.
# shellcheck disable=SC2034
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
