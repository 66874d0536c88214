#!/bin/bash
# kernels: ours stock
# examples/attach_skel, built on the host against a staged `make install`
# with pkg-config alone (make -C examples), as an application of
# libiouring-bpf 2 would be: as uid 0 it attaches the built-in nop-chain
# (by name) and then its own program from its bpftool skeleton (the
# template's myloop) to liburing rings, each through open, bind, load,
# attach in a straight line, and both must complete their NOPs and say
# why they stopped; as uid 65534 it must fail cleanly: exit 4 (EPERM),
# the library's message on stderr naming the missing privilege, and
# nothing else there (libbpf's own messages go to the library's print
# callback, not to stderr).
app=build/examples/attach_skel
[ -x "$app" ] || { echo "FAIL: $app not built (make -C examples)"; exit 1; }
fails=0
TMP=$(mktemp -d)

"$app" 200 >"$TMP/out" 2>"$TMP/err"; rc=$?
sed 's/^/    /' "$TMP/out" "$TMP/err"
case $rc in
0)	if grep -q "^nop-chain: enter 0, completed 200 of 200, exit done" "$TMP/out" &&
	   grep -q "^myloop: enter 0, done 200 of 200, exit done" "$TMP/out"; then
		echo "ok: as root: nop-chain and the skeleton's myloop ran 200 NOPs each"
	else
		echo "FAIL: as root: exit 0 but the output is not both runs'"
		fails=$((fails + 1))
	fi ;;
77)	echo "this kernel has no loop hook"; exit 77 ;;
*)	echo "FAIL: as root: exit $rc"; fails=$((fails + 1)) ;;
esac

if command -v setpriv >/dev/null &&
   setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all true; then
	# uid 65534 runs a copy of the app and the library beside it: the
	# clone may be where that user cannot reach (a root's home is 0700);
	# LD_LIBRARY_PATH is searched before the app's RUNPATH
	U=$TMP/nobody
	mkdir -p "$U"
	cp "$app" "$U/" && cp -L build/stage/lib/libiouring-bpf.so.2 "$U/"
	chmod 755 "$TMP" "$U"
	chmod 644 "$U/libiouring-bpf.so.2"
	(cd / && LD_LIBRARY_PATH=$U setpriv --reuid=65534 --regid=65534 \
		--clear-groups --inh-caps=-all "$U/attach_skel" 200) \
		>"$TMP/out" 2>"$TMP/err"; rc=$?
	sed 's/^/    /' "$TMP/out" "$TMP/err"
	other=$(grep -v '^libiouring-bpf: ' "$TMP/err")
	if [ $rc = 4 ] && grep -q "^libiouring-bpf: .*not permitted.*CAP_BPF" "$TMP/err" &&
	   [ -z "$other" ] && ! grep -q 'libbpf:' "$TMP/err"; then
		echo "ok: as uid 65534: exit 4, the library's message alone on stderr"
	else
		echo "FAIL: as uid 65534: exit $rc (want 4); stderr must be the library's message alone${other:+; other lines: $other}"
		fails=$((fails + 1))
	fi
else
	echo "FAIL: setpriv cannot drop to uid 65534 here"
	fails=$((fails + 1))
fi
rm -rf "$TMP"
[ $fails = 0 ]
