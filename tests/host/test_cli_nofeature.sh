#!/bin/bash
# On a kernel without the io_uring BPF features (this build host: a stock
# kernel), the CLI says so plainly and exits 3 -- probe, run and load, for
# both kinds of program -- so that test jobs can skip. In the VM, where the
# features are there, this test skips.
source "$(dirname "$0")/cli_lib.sh"

if "$CLI" probe --json >"$TMP/probe.json" 2>"$TMP/probe.err"; then rc=0; else rc=$?; fi
checks=$((checks + 1))
python3 - "$TMP/probe.json" "$rc" <<'PY' || fails=$((fails + 1))
import json, sys
d = json.load(open(sys.argv[1]))
rc = int(sys.argv[2])
ok = d["status"] == rc and isinstance(d["items"], list) and d["items"]
for it in d["items"]:
    ok = ok and set(it) >= {"name", "ok", "detail", "fix"}
    if not it["ok"] and not it["info"] and not it["fix"]:
        print("FAIL: probe item %s is missing but says nothing to do" % it["name"]); ok = False
if not ok:
    print("FAIL: probe --json: status %s vs exit %d, or malformed" % (d.get("status"), rc))
sys.exit(0 if ok else 1)
PY
if [ "$rc" != 3 ]; then
	echo "this kernel has the io_uring BPF features (probe exit $rc): nothing to test here"
	exit 77
fi

expect_exit 3 "this kernel lacks the io_uring BPF features" -- probe
expect_exit 3 "MISSING +uring_bpf_ops" -- probe
expect_exit 3 "MISSING +loop hook API +neither struct io_uring_ops" -- probe
expect_exit 3 "-> boot the project's kernel" -- probe
# the library's message names what is missing, the CLI adds its command
expect_exit 3 "lacks the io_uring loop hook.*stock 7\.1\+ kernel \(\`iouring-bpf probe\` lists what the kernel has and lacks\)" -- run nop-chain
# per hook: this kernel has neither; filters depend on the kernel (7.2+)
expect_exit 3 "exit 3 for --hook loop" -- probe --hook loop
expect_exit 3 "exit 3 for --hook op" -- probe --hook op
expect_exit 3 "exit 3 for --hook loop,filters" -- probe --hook loop,filters
expect_exit 2 "--hook bogus: expected loop, op or filters" -- probe --hook bogus
expect_exit 2 "probe takes no arguments" -- probe loop
"$CLI" probe --json --hook filters >"$TMP/pf.json" && rc=0 || rc=$?
checks=$((checks + 1))
python3 - "$TMP/pf.json" "$rc" <<'PY' || fails=$((fails + 1))
import json, sys
d = json.load(open(sys.argv[1]))
rc = int(sys.argv[2])
ok = (d["status"] == rc == d["hooks"]["filters"]["status"] and
      d["hook"] == "filters" and
      d["hooks"]["filters"]["available"] == d["filters"] == (rc == 0) and
      d["hooks"]["loop"]["status"] == 3 and d["hooks"]["op"]["status"] == 3)
if not ok:
    print("FAIL: probe --json --hook filters: exit %d, %s" % (rc, d["hooks"]))
sys.exit(0 if ok else 1)
PY
expect_exit 3 "lacks IORING_OP_BPF.*no 'struct uring_bpf_ops'.*Boot the project's patched kernel" -- run nop
expect_exit 3 "lacks IORING_OP_BPF" -- run memcpy --count 3
expect_exit 3 "lacks the io_uring loop hook.*neither 'struct io_uring_ops'.*nor 'struct io_uring_bpf_ops'" -- run nop-chain --count 10
expect_exit 3 "lacks the io_uring loop hook" -- run copy
expect_exit 3 "lacks IORING_OP_BPF" -- load nop --id 9
expect_exit 3 "lacks IORING_OP_BPF" -- load "$ROOT/build/progs/nop.bpf.o"
expect_exit 3 "lacks the io_uring loop hook" -- load cq-stats --ring $$:0
expect_exit 0 "nothing attached" -- show
expect_exit 0 "" -- show --json
"$CLI" show --json | python3 -c 'import json,sys; json.load(sys.stdin)' ||
	{ echo "FAIL: show --json is not JSON"; fails=$((fails + 1)); }
finish
