#!/bin/bash
# iouring-bpfd check POLICY: the shipped teaching policy is valid, and
# each malformed policy below is refused (exit 1) with one line
# FILE:LINE:COL naming the problem, checked to the column.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
D=$ROOT/build/iouring-bpfd
TMP=${TEST_TMPDIR:-$(mktemp -d)}
fails=0 n=0
[ -x "$D" ] || { echo "build/iouring-bpfd is not built (make -C loader)"; exit 77; }

out=$("$D" check "$ROOT/loader/daemon/iouring-bpfd.policy" 2>&1) ||
	{ echo "FAIL: the teaching policy is refused: $out"; fails=$((fails + 1)); }
echo "$out"

OBJ=$TMP/obj.bpf.o
printf 'not really ELF, but a file with a digest\n' >"$OBJ"
SUM=$(sha256sum "$OBJ" | cut -d' ' -f1)
BAD=$(printf '%064d' 0)

# case NAME, LINE:COL, message pattern, policy text
bad() {
	local name=$1 at=$2 pat=$3 text=$4 rc=0
	n=$((n + 1))
	printf '%b' "$text" >"$TMP/p.policy"
	out=$("$D" check "$TMP/p.policy" 2>&1) || rc=$?
	if [ "$rc" != 1 ] || ! grep -qE "^iouring-bpfd check: $TMP/p.policy:$at: .*$pat" <<<"$out"; then
		echo "FAIL $name: exit $rc, want 1 and p.policy:$at: ...$pat"
		echo "    $out"
		fails=$((fails + 1))
	else
		echo "ok $name: ${out#*p.policy:}"
	fi
}

bad unknown-prog 1:9 "no built-in program 'nosuch'" 'program nosuch\n\tusers *\n'
bad op-prog 1:9 "IORING_OP_BPF op" 'program nop\n\tusers *\n'
bad path-name 1:9 "is not a program name" 'program ../x\n\tusers *\n'
bad param-unknown 3:8 "has no parameter 'bogus'" 'program nop-chain\n\tusers *\n\tparam bogus 1..2\n'
bad param-wide 3:14 "wider than nop-chain's own range for depth" 'program nop-chain\n\tusers *\n\tparam depth 0..10\n'
bad param-syntax 3:14 "the bounds are MIN..MAX" 'program nop-chain\n\tusers *\n\tparam depth 5\n'
bad param-order 3:14 "MIN 9 is above MAX 2" 'program nop-chain\n\tusers *\n\tparam depth 9..2\n'
bad param-nan 3:17 "'x' is not a number" 'program nop-chain\n\tusers *\n\tparam depth 1..x\n'
bad outside 2:2 "an indented line outside a block" '# c\n\tusers *\n'
bad setting 3:2 "no setting 'colour'" 'program nop-chain\n\tusers *\n\tcolour red\n'
bad nobody 1:1 "says nobody may attach it" 'program nop-chain\n\tparam nr 1..2\n'
bad no-user 2:16 "no user 'no-such-user-xyz'" 'program nop-chain\n\tusers nobody, no-such-user-xyz\n'
bad no-group 2:9 "no group 'no-such-group-xyz'" 'program nop-chain\n\tgroups no-such-group-xyz\n'
bad opcode 3:15 "opcodes: .*bogus" 'program nop-chain\n\tusers *\n\topcodes nop, bogus\n'
bad object-sum 1:$((${#OBJ} + 18)) "does not have this SHA-256" "object o $OBJ sha256 $BAD\n\tusers *\n"
bad object-rel 1:10 "must be absolute" "object o obj.bpf.o sha256 $SUM\n\tusers *\n"
bad object-hex 1:$((${#OBJ} + 18)) "not a hex digit" "object o $OBJ sha256 zz${SUM:2}\n\tusers *\n"
bad object-syntax 1:$((${#OBJ} + 11)) "object NAME PATH sha256 HEX" "object o $OBJ md5 $SUM\n\tusers *\n"
bad limit 1:16 "not a number in 1..4096" 'limit attached 0\n'
bad limit-kind 1:7 "no limit 'speed'" 'limit speed 3\n'
bad control 2:8 "a control character" 'program nop-chain\n\tusers \001*\n'
bad twice 3:9 "already has a block" 'program nop-chain\n\tusers *\nprogram nop-chain\n\tusers *\n'
bad top-word 1:1 "at the start of a line" 'users *\n'
bad max-attached 3:15 "one number in 1..4096" 'program nop-chain\n\tusers *\n\tmax-attached lots\n'

# and good ones: an object with its digest, ids as numbers, opcodes
n=$((n + 1))
printf 'object o %s sha256 %s\n\tusers 0, 65534\n\tgroups 0\n\tparam nr 1..9\nprogram nop-chain\n\tusers *\n\topcodes nop, read, @network\n' \
	"$OBJ" "$SUM" >"$TMP/good.policy"
out=$("$D" check "$TMP/good.policy" 2>&1) || { echo "FAIL good: $out"; fails=$((fails + 1)); }
# no file, a usage error
rc=0; "$D" check "$TMP/none.policy" >/dev/null 2>&1 || rc=$?
[ "$rc" = 1 ] || { echo "FAIL: a missing policy exited $rc, want 1"; fails=$((fails + 1)); }
rc=0; "$D" check >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || { echo "FAIL: check without POLICY exited $rc, want 2"; fails=$((fails + 1)); }
echo "$n policies, $fails failed"
[ "$fails" = 0 ]
