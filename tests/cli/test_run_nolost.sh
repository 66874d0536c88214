#!/bin/bash
# kernels: ours stock
# `--set NAME=@>PATH` on a kernel with the loop hook: a run refused as uid
# 65534 (exit 4, at load) leaves an existing file intact and creates none
# in a directory it could write to; so does a run the kernel refuses at
# attach (a ring without DEFER_TASKRUN); an admitted run creates PATH, or
# truncates it, and the program writes there. A value out of a built-in
# parameter's range is refused at once (exit 2) through its option and
# --set, never run into the watchdog (nop-chain depth=0 used to wait
# 121 s). The refusals a host can produce: tests/host/test_cli_nolost.
source "$(dirname "$0")/lib.sh"
loop_feature_or_skip
OBJ=$ROOT/build/progs/copy.bpf.o
[ -f "$OBJ" ] || skip "build/progs/copy.bpf.o is not built (make -C loader)"

# a directory nobody can reach: the test's own, opened to others (it is
# 0700 from mktemp; the VM's / and /tmp are not writable)
D=$TMP/nolost
chmod 755 "$TMP"
mkdir -p "$D/pub"
chmod 1777 "$D/pub"
chmod 755 "$D"
echo keep >"$D/pub/keep"
chmod 666 "$D/pub/keep"
head -c 100000 /dev/urandom >"$D/in"
chmod 644 "$D/in"
# nobody runs copies of the CLI and the object: the clone may be where
# that user cannot reach (a root's home is 0700)
install -m 755 "$CLI" "$D/iouring-bpf"
install -m 644 "$OBJ" "$D/copy.bpf.o"
listing() { (cd "$D/pub" && ls -la --time-style=+%s.%N | sed 1d | sort); }

if ! command -v setpriv >/dev/null ||
   ! setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all true; then
	echo "no setpriv to drop to nobody here: the uid 65534 refusal is not checked"
elif ! setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	test -r "$D/in" -a -r "$D/copy.bpf.o" -a -w "$D/pub" -a -x "$D/iouring-bpf"; then
	fail "nobody cannot reach $D (a parent directory is closed): the uid 65534 refusal is not checked"
else
	before=$(listing)
	for out in keep new; do
		checks=$((checks + 1))
		rc=0
		o=$(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups \
			--inh-caps=-all "$D/iouring-bpf" run "$D/copy.bpf.o" --set "fd_in=@$D/in" \
			--set "fd_out=@>$D/pub/$out" --set buf,block=@buf:65536 2>&1) || rc=$?
		if [ "$rc" != 4 ]; then
			fail "as nobody, fd_out=@>$out: exit $rc, want 4 (not permitted):"
			echo "$o" | sed 's/^/    /' | head -5
		elif [ "$(cat "$D/pub/keep")" != keep ] || [ "$(listing)" != "$before" ]; then
			fail "as nobody, fd_out=@>$out: refused, but $D/pub changed:"
			diff <(echo "$before") <(listing) | sed 's/^/    /'
		else
			echo "ok: as nobody, fd_out=@>$out: exit 4, nothing changed"
		fi
	done
fi

# admitted: PATH truncated (an existing file) or created, then written
for out in keep new; do
	checks=$((checks + 1))
	rc=0
	o=$("$CLI" run "$OBJ" --set "fd_in=@$D/in" --set "fd_out=@>$D/pub/$out" \
		--set buf,block=@buf:65536 2>&1) || rc=$?
	if [ ! -f "$D/pub/$out" ]; then
		fail "run fd_out=@>$out (exit $rc): $out was not created"
	elif [ "$(head -c 5 "$D/pub/$out")" = keep ]; then
		fail "run fd_out=@>$out (exit $rc): $out was not truncated"
	elif [ "$rc" = 0 ] && ! cmp -s "$D/in" "$D/pub/$out"; then
		fail "run fd_out=@>$out: exit 0 but $out is not a copy of the input"
	else
		echo "ok: run fd_out=@>$out: exit $rc, $out $(stat -c %s "$D/pub/$out") bytes$([ "$rc" = 0 ] && echo ", a copy")"
	fi
	[ "$rc" = 0 ] || echo "$o" | sed 's/^/    /' | tail -5
done

# refused by the kernel at attach (a ring without DEFER_TASKRUN cannot take
# a loop program): an existing file keeps its bytes, no file is created
echo keep >"$D/pub/keep2"
before=$(listing)
for out in keep2 new2; do
	checks=$((checks + 1))
	rc=0
	o=$("$CLI" run "$OBJ" --set "fd_in=@$D/in" --set "fd_out=@>$D/pub/$out" \
		--set buf,block=@buf:65536 --ring-flags -defer-taskrun 2>&1) || rc=$?
	if [ "$rc" = 0 ]; then
		fail "run fd_out=@>$out on a ring without DEFER_TASKRUN: exit 0, want a refusal: $o"
	elif [ "$(cat "$D/pub/keep2")" != keep ] || [ "$(listing)" != "$before" ]; then
		fail "run fd_out=@>$out refused at attach (exit $rc), but $D/pub changed:"
		diff <(echo "$before") <(listing) | sed 's/^/    /'
		echo "$o" | sed 's/^/    /' | tail -3
	else
		echo "ok: run fd_out=@>$out refused (exit $rc: $(tail -1 <<<"$o")), nothing changed"
	fi
done

# ranges: refused before anything runs
for args in "--depth 0" "--set depth=0" "--set depth=5000"; do
	checks=$((checks + 1))
	t0=$(date +%s)
	rc=0
	# shellcheck disable=SC2086
	o=$("$CLI" run nop-chain --count 10 $args 2>&1) || rc=$?
	t=$(($(date +%s) - t0))
	if [ "$rc" = 2 ] && grep -q "out of range: depth takes 1..4096" <<<"$o" && [ "$t" -lt 60 ]; then
		echo "ok: run nop-chain $args: exit 2 in $t s"
	else
		fail "run nop-chain $args: exit $rc after $t s, want 2 (out of range) at once: $o"
	fi
done
finish
