#!/bin/bash
# Adding a built-in program is adding a folder. A scratch copy of the tree
# (loader, progs, mk, tools, policies, vmlinux, and the build's objects, so
# that the build is incremental) gets progs/throwaway: a copy of
# progs/nop_chain with its name changed inside the new folder; no other
# file is edited. The build collects it: `list` shows it (text and JSON,
# its parameters read from its own object), `run throwaway` finds the
# program and its workload (exit 0 where the kernel has a loop hook, 3
# "lacks the io_uring loop hook" where it has none; never 2 "no built-in
# program"), the library finds it (`load` takes it to the ring check),
# and the other programs are all still there. Then the folder is removed
# again and the program is gone from the next build.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TMP=${TEST_TMPDIR:-$(mktemp -d)}
fails=0 checks=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
check() {	# DESCRIPTION COMMAND...
	local what=$1
	shift
	checks=$((checks + 1))
	if "$@"; then echo "ok: $what"; else fail "$what"; fi
}

TOOLS=$("$ROOT/tools/build-bpftools" --print-dir 2>/dev/null) ||
	{ echo "no libbpf/bpftool built (make tools)"; exit 77; }
[ -x "$ROOT/build/iouring-bpf" ] || { echo "FAIL: build the tree first (make -C loader)"; exit 1; }

S=$TMP/tree
mkdir -p "$S/build"
cp -a "$ROOT/loader" "$ROOT/progs" "$ROOT/mk" "$ROOT/tools" \
	"$ROOT/policies" "$ROOT/vmlinux" "$S/"
cp -a "$ROOT/build/progs" "$ROOT/build/skel" "$ROOT/build/loader" \
	"$ROOT/build/lib" "$S/build/" 2>/dev/null
before=$(cd "$S" && find loader progs mk -type f | sort | xargs md5sum)

# the new unit: a copy of a small one, renamed inside its own folder
cp -a "$S/progs/nop_chain" "$S/progs/throwaway"
sed -i 's/"nop-chain"/"throwaway"/; s/run nop-chain/run throwaway/' \
	"$S/progs/throwaway/unit.c"
after=$(cd "$S" && find loader progs mk -type f -not -path 'progs/throwaway/*' |
	sort | xargs md5sum)
check "only the new folder differs from the tree" [ "$before" = "$after" ]

build() {
	make -C "$S/loader" -s TOOLS_DIR="$TOOLS" >"$TMP/build.log" 2>&1 ||
		{ fail "the scratch tree does not build:"; tail -20 "$TMP/build.log"; exit 1; }
}
build
CLI=$S/build/iouring-bpf
list=$("$CLI" list)
check "list shows throwaway" grep -q "^throwaway " <<<"$list"
check "list shows its source" grep -q "progs/throwaway/prog.bpf.c" <<<"$list"
for p in $(ls "$ROOT/progs" | grep -v '\.h$'); do
	check "list still shows $p" grep -q "^$(tr _ - <<<"$p") " <<<"$list"
done
"$CLI" list --json >"$TMP/list.json" || fail "list --json exited $?"
checks=$((checks + 1))
python3 - "$TMP/list.json" <<'PY' || fail "list --json: throwaway is not a loop program with nr and depth from its object"
import json, sys
progs = {p["name"]: p for p in json.load(open(sys.argv[1]))["programs"]}
t = progs["throwaway"]
assert t["kind"] == "loop", t
assert t["file"] == "throwaway/prog.bpf.c", t
params = {p["name"]: p for p in t["params"]}
assert params["nr"]["default"] == 1000 and params["nr"]["type"] == "__u64", params
assert params["depth"]["default"] == 1, params
print("ok: list --json: throwaway, loop, nr=1000 (__u64), depth=1")
PY

out=$("$CLI" run throwaway --count 20 --depth 2 2>&1)
rc=$?
checks=$((checks + 1))
case $rc in
0) grep -q "throwaway: ok" <<<"$out" && echo "ok: run throwaway ran its workload" ||
	fail "run throwaway exited 0 without its result line: $out" ;;
3) grep -q "lacks the io_uring loop hook" <<<"$out" &&
	echo "ok: run throwaway found the program and its workload (this kernel has no loop hook: exit 3)" ||
	fail "run throwaway exit 3 without the loop hook's message: $out" ;;
*) fail "run throwaway: exit $rc: $out" ;;
esac
out=$("$CLI" run throwaway --count 5 --set nosuch=1 2>&1)
check "run throwaway --set nosuch=1 is refused by the program's own globals (exit 2)" \
	[ $? = 2 ]
out=$("$CLI" load throwaway 2>&1)
check "load throwaway: the library opens it (a loop program: --ring asked for)" \
	grep -q "throwaway is a loop program" <<<"$out"

# and removed again: the next build has no throwaway
rm -rf "$S/progs/throwaway"
build
check "after removing the folder, list no longer shows throwaway" \
	bash -c "! '$CLI' list | grep -q '^throwaway '"

echo "$checks checks, $fails failed"
[ "$fails" = 0 ]
