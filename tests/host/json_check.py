#!/usr/bin/env python3
# json_check.py SCHEMA [FILE] - check a JSON document (FILE or stdin)
# against one of docs/json/*.schema.json. Knows the part of JSON Schema
# those files use: type, enum, properties, required,
# additionalProperties, items, anyOf. Prints each violation with its path;
# exit 0 valid, 1 not, 2 not JSON.
import json
import sys

TYPES = {"object": dict, "array": list, "string": str, "boolean": bool,
         "null": type(None)}


def is_type(v, t):
    if t in ("integer", "number"):
        ok = isinstance(v, int) if t == "integer" else isinstance(v, (int, float))
        return ok and not isinstance(v, bool)
    return isinstance(v, TYPES[t])


def check(v, s, path, bad):
    if "type" in s:
        ts = s["type"] if isinstance(s["type"], list) else [s["type"]]
        if not any(is_type(v, t) for t in ts):
            bad.append("%s: %r is not %s" % (path, v, "/".join(ts)))
            return
    if "enum" in s and v not in s["enum"]:
        bad.append("%s: %r not one of %s" % (path, v, s["enum"]))
    if isinstance(v, dict):
        props = s.get("properties", {})
        for k in s.get("required", []):
            if k not in v:
                bad.append("%s: no member %r" % (path, k))
        for k, x in v.items():
            if k in props:
                check(x, props[k], path + "." + k, bad)
            elif s.get("additionalProperties") is False:
                bad.append("%s: unexpected member %r" % (path, k))
            elif isinstance(s.get("additionalProperties"), dict):
                check(x, s["additionalProperties"], path + "." + k, bad)
    if "anyOf" in s:
        tries = []
        for alt in s["anyOf"]:
            tries.append([])
            check(v, alt, path, tries[-1])
        if all(tries):
            bad.append("%s: matches none of anyOf: %s" %
                       (path, "; ".join(t[0] for t in tries)))
    if isinstance(v, list) and "items" in s:
        for i, x in enumerate(v):
            check(x, s["items"], "%s[%d]" % (path, i), bad)


schema = json.load(open(sys.argv[1]))
try:
    doc = json.load(open(sys.argv[2]) if len(sys.argv) > 2 else sys.stdin)
except ValueError as e:
    print("not JSON: %s" % e)
    sys.exit(2)
bad = []
check(doc, schema, "$", bad)
for b in bad[:20]:
    print(b)
sys.exit(1 if bad else 0)
