#!/bin/bash
# kernels: stock
#
# BPF tokens (docs/broker.md, "BPF tokens"): uid 65534, with no
# capability, in a user namespace of its own with a bpffs whose
# delegation root set (tests/broker/bpftoken.c), runs
# `iouring-bpf run nop-chain` itself: with LIBBPF_BPF_TOKEN_PATH naming
# that bpffs, libbpf makes a token for the objects the CLI opens, and the
# results are root's; without it, exit 4. The delegation documented as
# the smallest, delegate_cmds=map_create:prog_load:btf_load,
# delegate_maps=struct_ops:array,
# delegate_progs=struct_ops:tracepoint:socket_filter, delegate_attachs=0x1,
# is checked to be enough, and each of its parts to be needed (the run
# fails without it; socket_filter and array are what libbpf's feature
# probes load, and it refuses the object when they fail). The attach type of a
# struct_ops program is the index of its member: bit 0 is the loop op of
# struct io_uring_bpf_ops; tracepoint is the program type of libbpf's
# probe for bpf_probe_read_kernel(), without which libbpf rewrites that
# helper to bpf_probe_read(), which the verifier refuses in struct_ops. run makes its own ring and passes its io_uring_params to
# the library, so the ring's layout needs no BPF iterator (which the
# token does not admit).
. "$(dirname "$0")/lib.sh"
loop_or_skip
TOK=$ROOT/build/tests/broker/bpftoken
[ -x "$TOK" ] || skip "build/tests/broker/bpftoken is not built (make -C tests broker)"
# a delegated bpffs lives in a user namespace: none without CONFIG_USER_NS
# (the mainline kernel of kernel/mainline/config has none: EINVAL)
ns_err=$(unshare --user --mount true 2>&1) ||
	skip "cannot make a user namespace here, which a delegated bpffs needs: $ns_err"
mkdir -p "$TMP/bpffs" && chmod 755 "$TMP/bpffs"

keys='import json,sys
d=json.load(open(sys.argv[1]))
r=d["results"]
for k in ("elapsed_us","ns_per_nop"): r.pop(k, None)
print(d["program"], d["ok"], d["failed_checks"], json.dumps(r, sort_keys=True))'
CMDS=map_create:prog_load:btf_load
MAPS=struct_ops:array
PROGS=struct_ops:tracepoint:socket_filter
ATT=0x1

# token CMDS MAPS PROGS ATTACHS OUT [env...]: run nop-chain as uid 65534
# in its user namespace with that delegation; its exit status
token() {
	local c=$1 m=$2 p=$3 a=$4 out=$5 rc=0
	shift 5
	(cd / && "$TOK" 65534 "$TMP/bpffs" "$c" "$m" "$p" "$a" -- \
		env "$@" "$CLI" run nop-chain --count 200 --depth 4 --json) \
		>"$out" 2>"$out.err" || rc=$?
	return $rc
}

rc=0
"$CLI" run nop-chain --count 200 --depth 4 --json >"$TMP/root.json" 2>"$TMP/root.err" || rc=$?
[ "$rc" = 0 ] || { fail "root's run exited $rc"; cat "$TMP/root.err"; }
a=$(python3 -c "$keys" "$TMP/root.json")

rc=0
token "$CMDS" "$MAPS" "$PROGS" "$ATT" "$TMP/tok.json" LIBBPF_BPF_TOKEN_PATH="$TMP/bpffs" || rc=$?
b=$(python3 -c "$keys" "$TMP/tok.json" 2>/dev/null)
if [ "$rc" = 0 ] && [ -n "$a" ] && [ "$a" = "$b" ]; then
	ok "uid 65534 in its user namespace, token from the delegated bpffs: run nop-chain = root's: $b"
else
	fail "with the token: exit $rc"; echo "  root:  $a"; echo "  token: $b"
	cat "$TMP/tok.json.err"
fi

rc=0
token "$CMDS" "$MAPS" "$PROGS" "$ATT" "$TMP/notok.json" -u LIBBPF_BPF_TOKEN_PATH || rc=$?
[ "$rc" = 4 ] && ok "the same without LIBBPF_BPF_TOKEN_PATH: exit 4 ($(head -c 150 "$TMP/notok.json.err"))" ||
	{ fail "without the token: exit $rc, want 4"; cat "$TMP/notok.json.err"; }

# each part of the delegation is needed: the run fails without it
need() {	# WHAT CMDS MAPS PROGS ATTACHS
	local rc=0
	token "$2" "$3" "$4" "$5" "$TMP/need.json" LIBBPF_BPF_TOKEN_PATH="$TMP/bpffs" || rc=$?
	# the CLI's refusal, not bpftoken's own failure to set up
	if grep -q '^bpftoken:' "$TMP/need.json.err"; then
		fail "without $1: the namespace was not set up: $(grep -m1 '^bpftoken:' "$TMP/need.json.err")"
	elif [ "$rc" != 0 ]; then
		ok "without $1: exit $rc ($(tail -1 "$TMP/need.json.err" | head -c 120))"
	else
		fail "without $1: exit 0, the delegation would be smaller"
	fi
}
need "delegate_cmds btf_load" map_create:prog_load "$MAPS" "$PROGS" "$ATT"
need "delegate_cmds prog_load" map_create:btf_load "$MAPS" "$PROGS" "$ATT"
need "delegate_maps struct_ops" "$CMDS" array "$PROGS" "$ATT"
need "delegate_maps array" "$CMDS" struct_ops "$PROGS" "$ATT"
need "delegate_progs struct_ops" "$CMDS" "$MAPS" tracepoint:socket_filter "$ATT"
need "delegate_progs tracepoint" "$CMDS" "$MAPS" struct_ops:socket_filter "$ATT"
need "delegate_attachs bit 0" "$CMDS" "$MAPS" "$PROGS" -
need "delegate_progs socket_filter" "$CMDS" "$MAPS" struct_ops:tracepoint "$ATT"
finish
