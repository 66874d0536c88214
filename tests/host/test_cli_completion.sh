#!/bin/bash
# The bash completion (loader/cli/completion.bash, installed as
# bash-completion/completions/iouring-bpf): sourced in a plain bash
# (without the bash-completion package), it completes commands, each
# command's options, the built-in programs that `iouring-bpf list`
# prints, bench scenarios, filter actions and shipped policies.
source "$(dirname "$0")/cli_lib.sh"
COMP=$ROOT/loader/cli/completion.bash

complete_line() {	# WORDS...: COMPREPLY for the last word, one line
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_iouring_bpf; echo "${COMPREPLY[*]}"' _ "$COMP" "$CLI" "$@"
}

expect_completion() {	# WANT -- WORDS...: WANT is the exact list, sorted
	local want=$1 got
	shift 2
	checks=$((checks + 1))
	got=$(complete_line "$@" | tr ' ' '\n' | sed '/^$/d' | sort -u | tr '\n' ' ' | sed 's/ $//')
	if [ "$got" != "$want" ]; then
		echo "FAIL: iouring-bpf $* <TAB>: got '$got', want '$want'"
		fails=$((fails + 1))
	else
		echo "ok: iouring-bpf $* <TAB>: $want"
	fi
}

checks=$((checks + 1))
if ! bash -n "$COMP" || ! bash -c 'source "$1" && complete -p iouring-bpf' _ "$COMP" | grep -q -- '-F _iouring_bpf iouring-bpf'; then
	echo "FAIL: $COMP does not source or does not register _iouring_bpf"
	fails=$((fails + 1))
fi

expect_completion "list load" -- l
expect_completion "probe" -- pr
expect_completion "help" -- -j he
expect_completion "sandbox show" -- s
expect_completion "--json" -- --js
expect_completion "--pretty" -- list --pr
expect_completion "--count" -- -j run --co
expect_completion "--depth" -- run nop-chain --d
expect_completion "--ring" -- load batch-wait --ri
expect_completion "--runs" -- bench nops --ru
expect_completion "--output" -- bench nops --ou
expect_completion "--policy" -- sandbox --po
expect_completion "op-overhead" -- bench op
expect_completion "check compile" -- filter c
expect_completion "run" -- help ru
# programs: exactly the names `list` prints (asked, not a copy)
names=$("$CLI" list --json | python3 -c 'import json,sys; print(" ".join(sorted(p["name"] for p in json.load(sys.stdin)["programs"] if p["name"].startswith("nop"))))')
expect_completion "$names" -- run nop
expect_completion "$names" -- load nop
expect_completion "$names" -- bench nops --prog nop
# shipped policies
pol=$("$CLI" filter list | awk '/^no/ { print $1 }' | sort | tr '\n' ' ')
expect_completion "${pol% }" -- filter check no
expect_completion "${pol% }" -- sandbox -P no
# a value that is a number, or a second program: nothing
expect_completion "" -- run nop --count 1
expect_completion "" -- run nop n
# files: a .bpf.o beside directories, not other files
mkdir -p "$TMP/comp/sub"
touch "$TMP/comp/a.bpf.o" "$TMP/comp/b.txt"
expect_completion "$TMP/comp/a.bpf.o $TMP/comp/sub" -- run "$TMP/comp/"
finish
