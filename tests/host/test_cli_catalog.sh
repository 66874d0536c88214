#!/bin/bash
# The catalogue (the units progs/NAME/, shown by `iouring-bpf list --json`)
# matches progs/*/prog.bpf.c one to one, and every unit has its entry
# (unit.c) and workload (run.c); each program's kind matches the
# struct_ops in its source; each parameter is a global of the embedded
# object, declared `const volatile` with the type its entry says; each
# source opens with a teaching comment that says how to run it. Also:
# `list` (text) names every program.
source "$(dirname "$0")/cli_lib.sh"

"$CLI" list --json >"$TMP/list.json" || { echo "FAIL: list --json exited $?"; exit 1; }
python3 - "$ROOT" "$TMP/list.json" <<'PY' || fails=$((fails + 1))
import glob, json, os, re, sys
root, path = sys.argv[1], sys.argv[2]
progs = json.load(open(path))["programs"]
bad = []
files = sorted(os.path.relpath(f, os.path.join(root, "progs"))
               for f in glob.glob(os.path.join(root, "progs", "*", "prog.bpf.c")))
listed = sorted(p["file"] for p in progs)
if files != listed:
    bad.append("catalogue files %s != progs/*/prog.bpf.c %s" % (listed, files))
for f in files:
    for part in ("unit.c", "run.c"):
        if not os.path.exists(os.path.join(root, "progs", os.path.dirname(f), part)):
            bad.append("progs/%s has no %s" % (os.path.dirname(f), part))
names = [p["name"] for p in progs]
if len(set(names)) != len(names):
    bad.append("duplicate names: %s" % names)
for p in progs:
    src = open(os.path.join(root, "progs", p["file"])).read()
    m = re.match(r"//[^\n]*\n/\*(.*?)\*/", src, re.S)
    if not m:
        bad.append("%s: does not open with a teaching comment" % p["file"])
        continue
    comment = m.group(1)
    if "iouring-bpf run " + p["name"] not in comment and "iouring-bpf load " + p["name"] not in comment:
        bad.append("%s: the comment does not say `iouring-bpf run %s`" % (p["file"], p["name"]))
    for word in ("What it shows",):
        if word not in comment:
            bad.append("%s: the comment lacks '%s'" % (p["file"], word))
    wants = {"op": ["uring_bpf_ops"], "loop": ["io_uring_ops", "io_uring_bpf_ops"]}[p["kind"]]
    if p["struct_ops"] != wants:
        bad.append("%s: kind %s but struct_ops %s" % (p["name"], p["kind"], p["struct_ops"]))
    want = wants[0]
    macro = {"op": "IOU_OP_OPS(", "loop": "IOU_LOOP_OPS("}[p["kind"]]
    if macro not in src and "struct " + want + " " not in src:
        bad.append("%s: kind %s but no %s in the source" % (p["file"], p["kind"], macro))
    if p["kind"] == "op" and not isinstance(p.get("op_id"), int):
        bad.append("%s: op program without an op id" % p["name"])
    for par in p["params"]:
        if par["default"] is None:
            bad.append("%s: parameter %s is not a global of the object" % (p["name"], par["name"]))
        if not re.search(r"const volatile %s %s\b" % (re.escape(par["type"]), re.escape(par["name"])), src):
            bad.append("%s: parameter %s is not `const volatile %s` in %s" % (p["name"], par["name"], par["type"], p["file"]))
for b in bad:
    print("FAIL:", b)
print("%d programs checked" % len(progs))
sys.exit(1 if bad else 0)
PY
checks=$((checks + 1))

out=$("$CLI" list)
for f in "$ROOT"/progs/*/prog.bpf.c; do
	checks=$((checks + 1))
	name=$(basename "$(dirname "$f")" | tr _ -)
	grep -q "^$name " <<<"$out" || { echo "FAIL: list does not show $name"; fails=$((fails + 1)); }
done
finish
