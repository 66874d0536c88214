#!/bin/bash
# kernels: ours stock
# test-timeout: 1200
#
# Hostile clients of iouring-bpfd, each as an unprivileged user would try
# it (uid 65534 unless said): a fd that is not a ring, a ring of another
# user (root's, inherited by a child that became uid 65534), a ring
# without DEFER_TASKRUN, an unknown program, one the policy does not
# list, path and control characters in the name, parameters out of the
# policy's bounds, fds in SCM_RIGHTS, malformed, truncated and fuzzed
# messages (test_lifecycle: limits, 1,000 connections, a killed client,
# the daemon killed and restarted). Each: the refusal (the CLI's status),
# a log line, the daemon alive, nothing left attached.
. "$(dirname "$0")/lib.sh"
loop_or_skip
base=$(links)
POL='limit connections 16\nlimit attached 3\nlimit total 1024\nprogram nop-chain\n\tusers *\n\tparam nr 0..1000\n\tparam depth 1..64\nprogram cq-stats\n\tusers 0\n'
start_daemon "$POL"
dbase=$(dlinks)

refused not-a-ring 2 "is not an io_uring (it is pipe:" as_user "$BC" "$SOCK" app nop-chain --ring pipe
refused no-such-fd 2 "has no fd 999" as_user "$BC" "$SOCK" raw nosuchfd
refused scm-rights 2 "the daemon takes none" as_user "$BC" "$SOCK" raw twofds
refused other-users-ring 4 "the ring belongs to uid 0, not to the client (uid 65534)" "$BC" "$SOCK" confed nop-chain
refused no-defer-taskrun 2 "lacks IORING_SETUP_DEFER_TASKRUN" as_user "$BC" "$SOCK" app nop-chain --ring no-defer
refused no-single-issuer 2 "lacks IORING_SETUP_" as_user "$BC" "$SOCK" app nop-chain --ring no-single
refused unknown-program 4 "no such program" as_user "$BC" "$SOCK" app nop-chainz
refused unlisted-program 4 "copy is not in the policy" as_user "$BC" "$SOCK" app copy
refused other-users-rule 4 "uid 65534 may not attach cq-stats" as_user "$BC" "$SOCK" app cq-stats
refused path-name 2 "'../../../tmp/evil.bpf.o' is not a program name" as_user "$BC" "$SOCK" raw path
refused slash-name 2 "'/tmp/evil.bpf.o' is not a program name" as_user "$BC" "$SOCK" raw slash
refused control-chars 2 "control or non-ASCII byte" as_user "$BC" "$SOCK" raw ctrl
refused param-over 4 "nr=5000 is outside the policy's bounds for nop-chain (0..1000)" as_user "$BC" "$SOCK" app nop-chain nr=5000
refused param-cli 4 "depth=65 is outside the policy's bounds" as_user "$CLI" run --broker "$SOCK" nop-chain --depth 65
for k in truncated header-only badmagic badversion badtype longlen reply nul oversize unknown-key badring noring; do
	refused "malformed-$k" 2 "deny pid=" as_user "$BC" "$SOCK" raw $k
done
rc=0
out=$(as_user "$BC" "$SOCK" raw scm 2>&1) || rc=$?
grep -q "send: Invalid argument" <<<"$out" &&
	ok "a ring in SCM_RIGHTS: the kernel refuses to send it (EINVAL): the protocol names the fd instead" ||
	fail "a ring in SCM_RIGHTS: $out"
# 400 fuzzed messages (100 on the debug kernel, where each costs more)
nfuzz=400
[ "${IOURING_BPF_VM_KERNEL:-}" = ours ] && nfuzz=100
refused fuzz 0 "deny pid=" as_user "$BC" "$SOCK" fuzz 29 $nfuzz
n=$(links)
[ "$n" = "$base" ] && ok "after the refusals: no io_uring link in the system ($n)" ||
	fail "after the refusals: $n io_uring links, $base before"

alive && ok "the daemon runs ($(grep -c '' "$LOG") log lines)" || fail "the daemon died"
finish
