#!/bin/bash
# iouring-bpf bench on the host: bad arguments are usage errors (exit 2)
# before anything is measured; on a kernel without the io_uring BPF
# features (this build host) every scenario exits 3 with a one-line
# message and writes no JSON. bench/run rejects bad arguments (exit 2)
# before it builds or boots anything.
source "$(dirname "$0")/cli_lib.sh"

expect_exit 2 "no scenario 'bogus'.*nops, op-overhead, memcpy, wait, load or all" -- bench bogus
expect_exit 2 "which scenario" -- bench
expect_exit 2 "one scenario" -- bench nops wait
expect_exit 2 "--runs must be an integer in 1..50" -- bench nops --runs 0
expect_exit 2 "--runs must be an integer" -- bench nops --runs x
expect_exit 2 "--runs must be an integer" -- bench nops --runs 51
expect_exit 2 "--count must be an integer" -- bench nops --count -5
expect_exit 2 "--count is per scenario" -- bench all --count 10
expect_exit 2 "--prog and --set are for the nops and op-overhead" -- bench memcpy --prog nop
expect_exit 2 "--set is for the program given with --prog" -- bench nops --set nr=1
expect_exit 2 "unrecognized option" -- bench nops --bogus
expect_exit 2 "--runs must be an integer in 1..50" -- bench nops -R 0
expect_exit 2 "option '-o' needs a value" -- bench nops -o
expect_exit 2 "/tmp is a directory, not a BPF object" -- bench nops --prog /tmp
expect_exit 2 "unknown program .nosuch." -- bench nops --prog nosuch
expect_exit 2 "--prog and --set are for the nops and op-overhead" -- bench -j memcpy --prog nop
expect_exit 0 "op-overhead  " -- bench --help
expect_exit 0 "bench SCENARIO" -- --help

if host_has_features; then
	echo "this kernel has the io_uring BPF features: the exit-3 checks do not apply"
else
	for scn in nops op-overhead memcpy wait load all; do
		expect_exit 3 "lacks (IORING_OP_BPF|the io_uring loop hook).*make bench" \
			-- bench "$scn" --json "$TMP/$scn.json"
		if [ -e "$TMP/$scn.json" ]; then
			echo "FAIL: bench $scn wrote $TMP/$scn.json on a kernel without the features"
			fails=$((fails + 1))
		fi
	done
	# usage errors come first, even without the features
	expect_exit 2 "no scenario" -- bench nope --runs 3
	# -o FILE, -R, -T and --prog parse; --json alone is JSON on stdout
	# (here the error document); --json FILE is still the file
	expect_exit 3 "lacks" -- bench nops -o "$TMP/o.json" -R 2 -T --prog nop
	expect_exit 3 '^\{"error": \{"command": "bench"' -- bench --json all
	expect_exit 3 '^\{"error": \{"command": "bench"' -- -j bench nops
	expect_exit 3 '"exit_code": 3' -- bench --json "$TMP/j.json" nops
	expect_exit 3 '"exit_code": 3' -- bench nops --json "$TMP/all"
	if [ -e "$TMP/o.json" ] || [ -e "$TMP/j.json" ] || [ -e "$TMP/all" ]; then
		echo "FAIL: bench wrote its JSON file on a kernel without the features"
		fails=$((fails + 1))
	fi
fi

run_usage() {	# bench/run ARGS... must exit 2 at once
	local rc=0
	checks=$((checks + 1))
	timeout 20 "$ROOT/bench/run" "$@" >/dev/null 2>&1 || rc=$?
	if [ $rc != 2 ]; then
		echo "FAIL: bench/run $*: exit $rc, want 2"
		fails=$((fails + 1))
	fi
}
run_usage --scenario bogus
run_usage --runs 0
run_usage --runs
run_usage --icount 99
run_usage --bogus
finish
