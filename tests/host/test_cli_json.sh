#!/bin/bash
# Every --json document of the CLI has the shape docs/json/*.schema.json
# describes (docs/json.md): list, probe and show as this host makes them,
# bench's as tests/host/data/bench/sample.json holds it (a VM run), run's
# in the VM (tests/cli/test_run_loops.sh). The checker itself must refuse
# a document that breaks its schema.
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

# a document with a member renamed, one with a wrong type: both refused
checks=$((checks + 1))
sed 's/"op_id"/"opid"/' "$TMP/list.json" >"$TMP/bad1.json"
sed 's/"status": 3/"status": "3"/; s/"status": 0/"status": "0"/' "$TMP/probe.json" >"$TMP/bad2.json"
if python3 "$ROOT/tests/host/json_check.py" "$S/list.schema.json" "$TMP/bad1.json" >/dev/null ||
   python3 "$ROOT/tests/host/json_check.py" "$S/probe.schema.json" "$TMP/bad2.json" >/dev/null; then
	echo "FAIL: the checker accepted a document that breaks its schema"
	fails=$((fails + 1))
fi
finish
