#!/bin/bash
# Every --json document of the CLI has the shape docs/json/*.schema.json
# describes (docs/json.md): list, probe, show, version, unload and filter's
# as this host makes them, bench's as tests/host/data/bench/sample.json
# holds it (a VM run), run's and load's in the VM (tests/cli/). In JSON
# mode (-j or -p, before or after the command) every command's error is
# one {"error": ...} document on stdout (error.schema.json) with the exit
# code in it, and the plain message still on stderr. The checker itself
# must refuse a document that breaks its schema.
source "$(dirname "$0")/cli_lib.sh"
S=$ROOT/docs/json
check_doc() {	# SCHEMA FILE WHAT
	checks=$((checks + 1))
	if out=$(python3 "$ROOT/tests/host/json_check.py" "$S/$1.schema.json" "$2"); then
		echo "ok: $3 matches $1.schema.json"
	else
		echo "FAIL: $3 does not match $1.schema.json:"; echo "$out" | sed 's/^/    /'
		fails=$((fails + 1))
	fi
}
"$CLI" list --json >"$TMP/list.json"
check_doc list "$TMP/list.json" "list --json"
"$CLI" probe --json >"$TMP/probe.json"
check_doc probe "$TMP/probe.json" "probe --json"
if "$CLI" show --json >"$TMP/show.json" 2>/dev/null; then
	check_doc show "$TMP/show.json" "show --json"
else
	echo "show --json: not permitted here (not root): not checked"
fi
check_doc bench "$ROOT/tests/host/data/bench/sample.json" "bench's sample"
"$CLI" version --json >"$TMP/version.json"
check_doc version "$TMP/version.json" "version --json"
"$CLI" -p version >"$TMP/version-p.json"
check_doc version "$TMP/version-p.json" "-p version"
for act in list ops probe "check no-network" "show no-network" "compile deny-ipv6"; do
	# shellcheck disable=SC2086
	"$CLI" filter $act --json >"$TMP/filter.json"
	check_doc filter "$TMP/filter.json" "filter $act --json"
done
if "$CLI" unload all --json >"$TMP/unload.json" 2>/dev/null; then
	check_doc unload "$TMP/unload.json" "unload all --json"
else
	echo "unload all --json: not permitted here (not root): not checked"
fi

# -p: the same document, indented
checks=$((checks + 1))
"$CLI" list -p >"$TMP/list-p.json"
if ! python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); sys.exit(a != b)' \
	"$TMP/list.json" "$TMP/list-p.json" || [ "$(wc -l <"$TMP/list-p.json")" -lt 50 ] ||
	! grep -q '^      "name": "nop",$' "$TMP/list-p.json"; then
	echo "FAIL: list -p is not list --json indented"; fails=$((fails + 1))
fi

# errors in JSON mode: one document on stdout, the message on stderr
check_error() {	# WANT_EXIT ARGS...: the CLI's error document
	local want=$1 rc
	shift
	checks=$((checks + 1))
	"$CLI" "$@" >"$TMP/err.json" 2>"$TMP/err.txt" && rc=0 || rc=$?
	if [ "$rc" != "$want" ]; then
		echo "FAIL: iouring-bpf $*: exit $rc, want $want"; fails=$((fails + 1)); return
	fi
	if ! out=$(python3 "$ROOT/tests/host/json_check.py" "$S/error.schema.json" "$TMP/err.json"); then
		echo "FAIL: iouring-bpf $*: stdout is not an error document:"
		echo "$out" | sed 's/^/    /'; head -c 300 "$TMP/err.json" | sed 's/^/    /'
		fails=$((fails + 1)); return
	fi
	if ! python3 - "$TMP/err.json" "$TMP/err.txt" "$rc" <<'PY'; then
import json, sys
e = json.load(open(sys.argv[1]))["error"]
err = open(sys.argv[2]).read()
ok = e["exit_code"] == int(sys.argv[3]) and e["message"] in err
sys.exit(0 if ok else 1)
PY
		echo "FAIL: iouring-bpf $*: the document's exit_code or message is not the exit code and stderr's line"
		fails=$((fails + 1)); return
	fi
	echo "ok: iouring-bpf ${*:0:60}: exit $want, an error document"
}
check_error 2 -j
check_error 2 -j frobnicate
check_error 2 --json --bogus
check_error 2 -j list extra
check_error 2 probe --json extra
check_error 2 show -p extra
check_error 2 load -j
check_error 2 -j load nop-chain --id 5
check_error 2 load /tmp -j
check_error 2 load nop --id 300 -j
check_error 2 unload -j
check_error 2 -j unload a/b
check_error 2 run nosuch --json
check_error 2 run nop --count x -j
check_error 2 run nop --json --count
check_error 2 -p bench nope
check_error 2 bench -j
check_error 2 -j filter frob
check_error 2 filter check -j
check_error 2 -j sandbox -- true
check_error 2 -j help frob
check_error 2 version -j extra
check_error 2 -j run "$(head -c 100000 /dev/zero | tr '\0' a)"
if ! "$CLI" probe >/dev/null 2>&1; then
	check_error 3 -j run nop
	check_error 3 load nop -j
	check_error 3 -j bench nops
fi
check_error 2 -j filter check "$TMP/none.policy"
printf 'allow frobnicate\n' >"$TMP/bad.policy"
check_error 1 filter check "$TMP/bad.policy" -j

# a document with a member renamed, one with a wrong type: both refused
checks=$((checks + 1))
sed 's/"op_id"/"opid"/' "$TMP/list.json" >"$TMP/bad1.json"
sed 's/"status": 3/"status": "3"/; s/"status": 0/"status": "0"/' "$TMP/probe.json" >"$TMP/bad2.json"
"$CLI" -j frobnicate 2>/dev/null | sed 's/"exit_code": 2/"exit_code": "2"/' >"$TMP/bad3.json"
echo '{"error": {"message": "x"}}' >"$TMP/bad4.json"
if python3 "$ROOT/tests/host/json_check.py" "$S/list.schema.json" "$TMP/bad1.json" >/dev/null ||
   python3 "$ROOT/tests/host/json_check.py" "$S/probe.schema.json" "$TMP/bad2.json" >/dev/null ||
   python3 "$ROOT/tests/host/json_check.py" "$S/error.schema.json" "$TMP/bad3.json" >/dev/null ||
   python3 "$ROOT/tests/host/json_check.py" "$S/error.schema.json" "$TMP/bad4.json" >/dev/null; then
	echo "FAIL: the checker accepted a document that breaks its schema"
	fails=$((fails + 1))
fi
finish
