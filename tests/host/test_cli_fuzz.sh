#!/bin/bash
# host/test_cli_fuzz: the CLI's parsers under libFuzzer (tests/fuzz/cli):
# every saved input in tests/fuzz/cli/regressions/ must pass, then 10 s of
# fresh fuzzing (seed 1) must find nothing. Skips without clang's libFuzzer
# or without the loader's build (make -C loader).
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
TMP=${TEST_TMPDIR:-$(mktemp -d)}
if [ ! -f build/skel/nop.skel.h ]; then
	echo "the loader is not built (make -C loader)"
	exit 77
fi
if ! echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' |
	clang -x c -fsanitize=fuzzer - -o "$TMP/probe" 2>/dev/null; then
	echo "clang cannot build libFuzzer targets (install libclang-rt-14-dev)"
	exit 77
fi
make -s -C tests fuzz-cli || exit 1
FZ=$ROOT/build/tests/fuzz/fuzz_cli
mkdir -p "$TMP/corpus" "$TMP/cwd"
cd "$TMP/cwd" || exit 1
"$FZ" -close_fd_mask=3 "$ROOT"/tests/fuzz/cli/regressions/* >"$TMP/replay.log" 2>&1 || {
	echo "FAIL: a saved input fails again:"
	grep -E 'Running|ERROR|SUMMARY' "$TMP/replay.log" | tail -20
	exit 1
}
echo "replayed $(ls "$ROOT"/tests/fuzz/cli/regressions | wc -l) saved inputs"
cp "$ROOT"/tests/fuzz/cli/regressions/* "$TMP/corpus/"
"$FZ" -seed=1 -max_total_time=10 -close_fd_mask=3 -artifact_prefix="$TMP/" \
	"$TMP/corpus" >"$TMP/fuzz.log" 2>&1 || {
	echo "FAIL: libFuzzer found a crash (copy it into tests/fuzz/cli/regressions/):"
	grep -E 'ERROR|SUMMARY|Test unit written|Base64' "$TMP/fuzz.log" | tail -20
	exit 1
}
grep -oE 'Done [0-9]+ runs in [0-9]+ second' "$TMP/fuzz.log"
