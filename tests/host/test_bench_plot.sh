#!/bin/bash
# bench/plot.py draws one PNG per scenario from an `iouring-bpf bench --json`
# file (data/bench/sample.json: a real `make bench ICOUNT=1` result), and
# that file has the shape docs/performance.md describes: every metric with
# one value per run, median within min..max, targets with a verdict.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SAMPLE=$ROOT/tests/host/data/bench/sample.json
TMP=${TEST_TMPDIR:-$(mktemp -d)}
command -v gnuplot >/dev/null || { echo "gnuplot is not installed (apt-get install gnuplot-nox)"; exit 77; }

python3 - "$SAMPLE" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("kernel", "timing", "qemu", "runs", "cpus", "scenarios"):
    assert k in d, "no %s" % k
names = [s["scenario"] for s in d["scenarios"]]
assert names == ["nops", "op-overhead", "memcpy", "wait", "load"], names
for s in d["scenarios"]:
    assert s["metrics"], s["scenario"]
    for m in s["metrics"]:
        assert len(m["runs"]) == d["runs"], (s["scenario"], m["mode"], m["metric"])
        assert m["min"] <= m["median"] <= m["max"], (s["scenario"], m)
    for t in s["targets"]:
        assert t["met"] in (True, False), t
print("ok: sample.json has %d scenarios, %d runs each" % (len(names), d["runs"]))
PY

python3 "$ROOT/bench/plot.py" "$SAMPLE" "$TMP/plots"
fail=0
for scn in nops op-overhead memcpy wait load; do
	f=$TMP/plots/$scn.png
	if [ ! -s "$f" ] || [ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" != 89504e470d0a1a0a ]; then
		echo "FAIL: $scn.png missing or not a PNG"; fail=1
	else
		echo "ok: $scn.png"
	fi
done
exit $fail
