#!/bin/bash
# `iouring-bpf load` of an op program: it stays registered after the CLI
# exits, a separate process uses the op id, `show` lists it, a second
# program cannot take the same id, `unload` (by name or by op id) restores
# the previous behaviour (-EOPNOTSUPP: nothing registered). A user's own
# .bpf.o loads the same way.
source "$(dirname "$0")/lib.sh"
feature_or_skip
need_helper opclient
trap cleanup_pins EXIT
cleanup_pins

client() {	# OPID COUNT -> the distinct results, "res=0" etc., one line
	"$HELPERS/opclient" "$1" "$2" | sort -u | tr '\n' ' ' | sed 's/ $//'
}
expect_client() {	# OPID COUNT WANT WHY
	local got
	checks=$((checks + 1))
	got=$(client "$1" "$2")
	if [ "$got" != "$3" ]; then
		fail "$4: op $1 gave '$got', want '$3'"
	else
		echo "ok: $4: op $1 -> $got"
	fi
}

expect_client 9 2 "res=-95" "before load"
expect_exit 0 "op id 9 .*pinned at /sys/fs/bpf/iouring-bpf/nop" -- load nop --id 9
expect_client 9 5 "res=0" "nop loaded"
expect_exit 0 "\"name\": \"nop\".*\"op_id\": 9" -- show --json
expect_exit 0 "^nop +[0-9]+ +[0-9]+ .*uring_bpf_ops +- +9$" -- show
expect_exit 1 "op id 9 is taken" -- load errinject --id 9 --name other
expect_exit 1 "already loaded" -- load nop --id 10
expect_exit 0 "unloaded nop" -- unload nop
expect_client 9 2 "res=-95" "after unload by name"

expect_exit 0 "op id 9" -- load errinject --id 9 --set mode=0 --set err=28
expect_client 9 3 "res=-28" "errinject loaded with err=28"
expect_exit 0 "unloaded errinject" -- unload 9
expect_client 9 2 "res=-95" "after unload by op id"
expect_exit 1 "nothing loaded as '9'" -- unload 9

# a user's own object file: the same path as the catalogue's
expect_exit 0 "loaded nop: IORING_OP_BPF op id 11" -- load "$ROOT/build/progs/nop.bpf.o" --id 11 --name mynop
expect_client 11 2 "res=0" "a .bpf.o loaded by path"
expect_exit 0 "unloaded mynop" -- unload all
expect_client 11 1 "res=-95" "after unload all"
expect_exit 0 "nothing attached" -- show
finish
