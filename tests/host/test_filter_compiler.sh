#!/bin/bash
# test-timeout: 900
# The io_uring filter policy compiler on the host (no kernel needed):
#  - every shipped policy (policies/*.policy) passes `filter check`, opens
#    with a comment that says how to try it, and `show`/`compile` work;
#  - every malformed policy of data/filter_malformed.txt, and the hostile
#    ones below (huge, too many values or rules, a NUL byte, a missing
#    BTF file), is refused with exit 1 (2 for a usage error) and exactly
#    one line on stderr naming the problem, as FILE:LINE:COL: (the column
#    of the word at fault, or the end of the line if something is missing);
#  - build/tests/filter/filter_fuzz: 2000 random policies compiled and
#    their programs run against the rules' reference evaluator on random
#    contexts, plus 2000 mutated policies (refused with one line, or
#    compiled and checked the same way).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CLI=$ROOT/build/iouring-bpf
FUZZ=$ROOT/build/tests/filter/filter_fuzz
T=$(mktemp -d "${TEST_TMPDIR:-/tmp}/filtercomp.XXXXXX")
trap 'rm -rf "$T"' EXIT
fails=0 n=0

[ -x "$CLI" ] || { echo "build/iouring-bpf is not built (make -C loader)"; exit 77; }
[ -x "$FUZZ" ] || { echo "build/tests/filter/filter_fuzz is not built (make -C tests filter)"; exit 77; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# refused FILE WANT_EXIT PATTERN: one line on stderr, nothing on stdout
refused() {
	local f=$1 want=$2 pat=$3 rc=0
	n=$((n + 1))
	"$CLI" filter check "$f" >"$T/out" 2>"$T/err" || rc=$?
	if [ "$rc" != "$want" ]; then
		bad "$(head -c 60 "$f" | tr '\n' '|'): exit $rc, want $want; stderr: $(cat "$T/err")"
	elif [ "$(wc -l <"$T/err")" != 1 ] || [ -s "$T/out" ]; then
		bad "$(head -c 60 "$f" | tr '\n' '|'): not one line on stderr: $(cat "$T/err" "$T/out")"
	elif ! grep -qE -- "$pat" "$T/err"; then
		bad "$(head -c 60 "$f" | tr '\n' '|'): message does not match /$pat/: $(cat "$T/err")"
	fi
}

# the shipped policies
for f in "$ROOT"/policies/*.policy; do
	name=$(basename "$f" .policy)
	n=$((n + 1))
	out=$("$CLI" filter check "$name" 2>&1) || bad "check $name: $out"
	out2=$("$CLI" filter check "$f" 2>&1) || bad "check $f: $out2"
	[ "${out#*: ok}" = "${out2#*: ok}" ] || bad "$name: the embedded copy differs from $f (rebuild: make -C loader)"
	head -1 "$f" | grep -q "^# $name: " || bad "$f does not open with '# $name: WHAT IT ALLOWS'"
	grep -q '^# Try it:' "$f" || bad "$f has no 'Try it:' in its opening comment"
	"$CLI" filter show "$name" >"$T/show" 2>&1 && grep -q "^policy $name: " "$T/show" || bad "show $name"
	"$CLI" filter compile "$name" >"$T/c.c" 2>&1 && grep -q 'struct sock_filter iouf_' "$T/c.c" || bad "compile $name"
	echo "ok: $out"
done
# the C export compiles
gcc -fsyntax-only -Wall -Wno-unused-variable "$T/c.c" || bad "compile's C output does not compile"

# the malformed table
while IFS=$'\t' read -r pat text; do
	[[ "$pat" = \#* || -z "$pat$text" ]] && continue
	printf '%b' "$text" >"$T/p.policy"
	refused "$T/p.policy" 1 "$pat"
done <"$ROOT/tests/host/data/filter_malformed.txt"

# hostile: huge, too many of something, not text, bad arguments
{ echo "default allow"; for i in $(seq 600); do echo "deny socket if protocol == $i"; done; } >"$T/rules.policy"
refused "$T/rules.policy" 1 "rules.policy:514:1: more than 512 rules"
{ echo "default allow"; printf 'deny connect if port in 1'; for i in $(seq 2 70); do printf ', %d' "$i"; done; echo; } >"$T/vals.policy"
refused "$T/vals.policy" 1 "vals.policy:2:272: more than 64 values in one test"
{ echo "default allow"; printf 'deny socket if family == inet'; for i in $(seq 9); do printf ' and type == stream'; done; echo; } >"$T/tests.policy"
refused "$T/tests.policy" 1 "tests.policy:2:164: more than 8 tests in one rule"
{ echo "default deny"; for r in $(seq 40); do printf 'allow connect if addr in ::%x' "$r"; for i in $(seq 2 64); do printf ', 2001:db8::%x:%x/%d' "$r" "$i" $((64 + i)); done; echo; done; } >"$T/big.policy"
refused "$T/big.policy" 1 "big.policy:13:18: the rules for opcode connect are too large to compile \\(more than 4096 instructions by this rule\\)"
# more than 4096 instructions after jumps are resolved: 17 a rule, the
# 241st (line 242) passes the limit
{ echo "default allow"; for r in $(seq 300); do printf 'deny socket if family == %d' "$r"; for i in $(seq 2 8); do printf ' and protocol == %d' $((r + i)); done; echo; done; } >"$T/mid.policy"
refused "$T/mid.policy" 1 "mid.policy:242:1: the rules for opcode socket compile to 5101 instructions, more than the kernel's 4096 \\(this rule passes the limit\\)"
printf 'default allow\ndeny socket\0 if family == inet\n' >"$T/nul.policy"
refused "$T/nul.policy" 1 "has a NUL byte"
head -c 2000000 /dev/zero | tr '\0' '#' >"$T/huge.policy"
refused "$T/huge.policy" 2 "not a regular file of at most 1048576 bytes"
refused "$T/nosuch.policy" 2 "cannot open policy .*nosuch.policy"
refused "no-such-shipped-policy" 2 "cannot open policy no-such-shipped-policy"
n=$((n + 1)); rc=0
"$CLI" filter check no-network --btf "$T/nosuch.btf" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q 'cannot read BTF from' "$T/err" || bad "--btf missing file: exit $rc: $(cat "$T/err")"
n=$((n + 1)); rc=0
"$CLI" filter frobnicate no-network >/dev/null 2>"$T/err" || rc=$?
[ "$rc" = 2 ] || bad "unknown action: exit $rc, want 2"
# contradictory: the later rule is never reached, the first one decides
printf 'default deny\nallow socket\ndeny socket\n' >"$T/contra.policy"
n=$((n + 1))
"$CLI" filter show "$T/contra.policy" | grep -A2 '^socket' | grep -q 'ret #1' || bad "contradictory rules: the first rule must decide"

# CO-RE for classic BPF: the offsets come from the BTF given, and a
# layout the programs cannot read is refused, never read at a guess
if command -v clang >/dev/null; then
	for l in 1 2 3; do
		clang -g -O2 -target bpf -DLAYOUT=$l -c "$ROOT/tests/host/data/filter_ctx_layouts.c" \
			-o "$T/layout$l.o" || bad "clang layout $l"
	done
	n=$((n + 1))
	out=$("$CLI" filter show web-client --btf "$T/layout1.o" 2>&1)
	# connect.family at 24, connect.port at 28 instead of 16 and 20
	if grep -q '^   0: ld \[24\] .*connect.family' <<<"$out" &&
	   grep -q 'ld \[28\] .*connect.port' <<<"$out" && ! grep -q 'ld \[16\]' <<<"$out"; then
		echo "ok: a layout whose payload moved by 8 bytes: web-client reads 24 and 28"
	else
		bad "layout 1: web-client does not follow the moved payload:"; echo "$out" | head -20
	fi
	n=$((n + 1)); rc=0
	out=$("$CLI" filter check web-client --btf "$T/layout2.o" 2>&1) || rc=$?
	[ "$rc" = 1 ] && grep -q "^iouring-bpf filter: web-client:17:18: connect.family is not in struct io_uring_bpf_ctx of this layout" <<<"$out" &&
		echo "ok: no connect payload: refused ($out)" || bad "layout 2: exit $rc: $out"
	"$CLI" filter check no-network --btf "$T/layout2.o" >/dev/null 2>&1 || bad "layout 2: no-network reads no payload and must compile"
	n=$((n + 1)); rc=0
	out=$("$CLI" filter check web-client --btf "$T/layout3.o" 2>&1) || rc=$?
	[ "$rc" = 1 ] && grep -q "web-client:17:44: connect.port is 2 bytes at offset 23 .*not readable with aligned 32-bit loads" <<<"$out" &&
		echo "ok: a port across two words: refused ($out)" || bad "layout 3: exit $rc: $out"
else
	echo "note: no clang: the made-up layouts were not tried"
fi

echo "$n checks of the CLI"
out=$("$FUZZ" --seed 1 --iterations 2000) || bad "filter_fuzz: $out"
echo "$out"
out=$("$FUZZ" --seed "$RANDOM" --iterations 500) || bad "filter_fuzz: $out"
echo "$out"
[ "$fails" = 0 ] && echo "all passed" || { echo "$fails failed"; exit 1; }
