#!/bin/bash
# A refused run changes no file: `--set NAME=@>PATH` creates or truncates
# PATH only once the start is admitted (every value valid, the kernel and
# privilege checked, the program loaded, attached). Every refusal this
# host can produce -- an unknown global, a bad value, a value that does
# not fit, a bad buffer, a missing directory, and (on a kernel without
# the loop hook, like most build hosts) the kernel check -- leaves an
# existing file as it was and creates none, for `run FILE` (`load FILE`
# takes no resources). The admitted side and uid 65534 need a kernel with
# the hook: tests/cli/test_run_nolost.
source "$(dirname "$0")/cli_lib.sh"
OBJ=$ROOT/build/progs/copy.bpf.o
[ -f "$OBJ" ] || { echo "build/progs/copy.bpf.o is not built (make -C loader)"; exit 77; }

D=$TMP/nolost
mkdir -p "$D"
echo keep >"$D/keep"
echo input >"$D/in"
listing() { (cd "$D" && ls -la --time-style=+%s.%N | sed 1d | sort); }
before=$(listing)

# CODE PATTERN -- ARGS: the refusal, then: keep intact, nothing new in $D
refused() {
	local want=$1 pattern=$2
	expect_exit "$@"
	checks=$((checks + 1))
	if [ "$(cat "$D/keep")" != keep ]; then
		echo "FAIL: iouring-bpf ${*:4}: $D/keep is now '$(head -c 40 "$D/keep")'"
		fails=$((fails + 1))
		echo keep >"$D/keep"
	elif [ "$(listing)" != "$before" ]; then
		echo "FAIL: iouring-bpf ${*:4}: $D changed:"
		diff <(echo "$before") <(listing) | sed 's/^/    /'
		fails=$((fails + 1))
	else
		echo "ok: exit $want, $D unchanged: ${*:4}"
	fi
}

for cmd in run; do
	set -- "$cmd" "$OBJ"
	refused 2 "no global 'nosuch'" -- "$@" --set "fd_out=@>$D/keep" --set nosuch=1
	refused 2 "no global 'nosuch'" -- "$@" --set "fd_out=@>$D/new" --set nosuch=1
	refused 2 "bad value 'lots' for block" -- "$@" --set "fd_out=@>$D/keep" --set block=lots
	refused 2 "block=99999999999 does not fit" -- "$@" --set "fd_out=@>$D/new" --set block=99999999999
	refused 2 "wants a size" -- "$@" --set "fd_out=@>$D/keep" --set buf=@buf:0
	refused 2 "cannot open $D/missing for reading" -- "$@" --set "fd_out=@>$D/new" --set "fd_in=@$D/missing"
	refused 2 "cannot create $D/no/such/dir/out: No such file or directory" -- \
		"$@" --set "fd_out=@>$D/no/such/dir/out"
	# two outputs, the second refused: the first is not created either
	refused 2 "no global 'nosuch'" -- "$@" --set "fd_out=@>$D/new" --set "nosuch=@>$D/new2"
done

# the kernel check: on a kernel without the loop hook (this host's, usually)
loop=$("$CLI" probe --json 2>/dev/null |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["loop_hook"])')
if [ "$loop" = False ]; then
	refused 3 "lacks the io_uring loop hook" -- run "$OBJ" --set "fd_out=@>$D/keep" --set "fd_in=@$D/in" --set buf,block=@buf:4096
	refused 3 "lacks the io_uring loop hook" -- run "$OBJ" --set "fd_out=@>$D/new" --set "fd_in=@$D/in" --set buf,block=@buf:4096
else
	echo "this kernel has a loop hook ($loop): the refusal at the kernel check is not tested here"
fi
finish
