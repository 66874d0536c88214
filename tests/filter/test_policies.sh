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

. "$(dirname "$0")/cases.sh"

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
