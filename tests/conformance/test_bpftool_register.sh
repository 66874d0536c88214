#!/bin/bash
# The posted-style op (conf_op.bpf.c) registered as the posting's users
# do it, with `bpftool struct_ops register OBJ LINKDIR` (bpftool 7.5, from
# $IOURING_BPF_BPFTOOL), driven by the liburing application conf_driver:
# every buffer combination in both directions, inline and IOSQE_ASYNC;
# then, with a ring alive, unregistered (the pinned link removed) and
# registered again.
source "$(dirname "$0")/lib.sh"
op_feature_or_skip
BPFTOOL=${IOURING_BPF_BPFTOOL:-}
[ -n "$BPFTOOL" ] && [ -x "$BPFTOOL" ] ||
	skip "no bpftool: IOURING_BPF_BPFTOOL is not set to an executable (make tools)"
"$BPFTOOL" version | grep -q '^bpftool v7\.5\.' ||
	skip "not bpftool 7.5: $("$BPFTOOL" version | head -1)"

DIR=/sys/fs/bpf/conformance-$$
mkdir -p "$DIR"
trap 'rm -rf "$DIR"' EXIT

"$BPFTOOL" struct_ops register "$OBJ" "$DIR" ||
	fail "bpftool struct_ops register $OBJ $DIR"
[ -e "$DIR/conf_op" ] || fail "bpftool pinned no link at $DIR/conf_op"
"$BPFTOOL" struct_ops show name conf_op | grep -q conf_op ||
	fail "bpftool struct_ops show does not list conf_op"
echo "ok registered with bpftool (link pinned at $DIR/conf_op)"

rc=0
"$DRIVER" matrix 60 || rc=1
"$DRIVER" cycle 60 "rm $DIR/conf_op" \
	"$BPFTOOL struct_ops register $OBJ $DIR >/dev/null" || rc=1
rm -f "$DIR/conf_op"
exit $rc
