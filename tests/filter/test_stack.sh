#!/bin/bash
# kernels: ours stock
#
# Stacked policies only tighten, as seccomp's do: a request runs under
# policies A and B only if A allows it and B allows it, whatever their
# order and however they are stacked. For every ordered pair of shipped
# policies (policies/*.policy), the union of both policies' requests
# (cases.sh) is run four ways:
#   ring     filter_req --ring-policy A --ring-policy B (the library, twice
#            on one ring)
#   apply    `iouring-bpf filter apply A --ring PID:FD`, then B, on the ring
#            of a waiting filter_req
#   task     `iouring-bpf sandbox --policy A --policy B -- filter_req`
#   nested   `iouring-bpf sandbox --policy A -- iouring-bpf sandbox --policy B
#            -- filter_req`
# Each policy's verdict for a request comes from its cases, or, for a
# request only the other policy lists, from the kernel with that policy
# alone (and each policy alone must agree with its own cases). Before the
# stacking fix a `default deny` policy (server) stacked after one with a
# program for an opcode (web-client's socket) let that opcode through.
# Then the issue's own example, two written policies stacked, as uid 65534.
# On a kernel without filters (our 6.12): SKIP.
. "$(dirname "$0")/lib.sh"
filters_or_skip
. "$(dirname "$0")/cases.sh"

shipped=$("$CLI" filter list | awk 'NF && $1 !~ /^\(/ {print $1}')
declare -A V		# V[policy|request]: allow or deny
declare -A ALL		# every request of every policy's cases

for p in $shipped; do
	[ -n "${CASES[$p]}" ] || fail "shipped policy $p has no test cases in cases.sh"
	for c in ${CASES[$p]}; do
		ALL[${c%=*}]=1
	done
done
mkdir -p "$TMP/stack"
chmod 1777 "$TMP/stack"
export TEST_TMPDIR=$TMP/stack

# check, with the output shown only when it fails (120 runs)
qcheck() {
	QUIET=1 check "$@" || true
}

# each policy alone, on a ring, for every request: the kernel's verdict
for p in $shipped; do
	args=()
	for r in "${!ALL[@]}"; do
		args+=("$r=any")
	done
	checks=$((checks + 1))
	out=$("$REQ" --ring-policy "$p" "${args[@]}" 2>&1) || { fail "$p alone: $out"; continue; }
	while read -r req verdict; do
		V[$p|$req]=$verdict
	done < <(awk '/: verdict (allow|deny)$/ {sub(/=any$/, "", $1); print $1, $NF}' <<<"$out")
	for c in ${CASES[$p]}; do
		r=${c%=*} want=${c##*=}
		[ -z "${V[$p|$r]}" ] || [ "${V[$p|$r]}" = "$want" ] ||
			fail "$p alone: $r is ${V[$p|$r]}, its cases say $want"
	done
done

# the requests of the pair A, B with the verdict both give together
pair_args() {
	local a=$1 b=$2 c r want
	local -A seen=()
	args=()
	for c in ${CASES[$a]} ${CASES[$b]}; do
		r=${c%=*}
		[ -n "${seen[$r]}" ] && continue
		seen[$r]=1
		# a request this kernel cannot set up has no verdict: not asked
		[ -n "${V[$a|$r]}" ] && [ -n "${V[$b|$r]}" ] || continue
		want=allow
		[ "${V[$a|$r]}" = deny ] || [ "${V[$b|$r]}" = deny ] && want=deny
		args+=("$r=$want")
	done
}

# filter apply A, then B, on the ring of a waiting filter_req
apply_pair() {
	local a=$1 b=$2 d=$TMP/stack/pause rpid rfd out pid
	shift 2
	rm -rf "$d"; mkdir -p "$d"
	"$REQ" --pause "$d" "$@" >"$d/out" 2>&1 &
	pid=$!
	for _ in $(seq 600); do [ -s "$d/ring" ] && break; sleep 0.1; done
	read -r rpid rfd <"$d/ring" 2>/dev/null
	out=$("$CLI" filter apply "$a" --ring "$rpid:$rfd" 2>&1 &&
	      "$CLI" filter apply "$b" --ring "$rpid:$rfd" 2>&1) || {
		touch "$d/go"; wait "$pid"; echo "filter apply: $out"; return 1; }
	touch "$d/go"
	wait "$pid" || { cat "$d/out"; return 1; }
	cat "$d/out"
}

npairs=0
for a in $shipped; do
	for b in $shipped; do
		[ "$a" = "$b" ] && continue
		npairs=$((npairs + 1))
		pair_args "$a" "$b"
		qcheck "$a+$b ring" "$REQ" --ring-policy "$a" --ring-policy "$b" "${args[@]}"
		qcheck "$a+$b apply" apply_pair "$a" "$b" "${args[@]}"
		qcheck "$a+$b task" "$CLI" sandbox --policy "$a" --policy "$b" -- "$REQ" "${args[@]}"
		qcheck "$a+$b nested" "$CLI" sandbox --policy "$a" -- \
			"$CLI" sandbox --policy "$b" -- "$REQ" "${args[@]}"
	done
done
echo "$npairs ordered pairs of shipped policies, 4 ways each: $fails failed"

# the issue's example: Unix sockets only, then read/write only (default
# deny): the AF_UNIX socket the first allows, the second denies
printf 'default allow\nallow socket if family == unix\ndeny socket\n' >"$TMP/unix-sockets.policy"
printf 'default deny\nallow read, write, nop\n' >"$TMP/rw-only.policy"
set -- socket:unix:stream=deny socket:inet:stream=deny nop=allow read=allow openat:/etc/hostname:rdonly=deny
check "unix-sockets+rw-only 65534" as_user "$CLI" sandbox --policy "$TMP/unix-sockets.policy" \
	--policy "$TMP/rw-only.policy" -- "$REQ" "$@"
check "rw-only+unix-sockets 65534" as_user "$CLI" sandbox --policy "$TMP/rw-only.policy" \
	--policy "$TMP/unix-sockets.policy" -- "$REQ" "$@"
check "unix-sockets, nested rw-only 65534" as_user "$CLI" sandbox --policy "$TMP/unix-sockets.policy" -- \
	"$CLI" sandbox --policy "$TMP/rw-only.policy" -- "$REQ" "$@"
finish
