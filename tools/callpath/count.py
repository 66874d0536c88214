#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""count.py BINARY TRACE ROOT [STOP]: the calls into another file on the
success path of an instrumented run, from main() to the entry of STOP
(default iouring_bpf_attach_link, inside which libbpf attaches), as
docs/library.md counts them: each distinct (caller, callee) pair whose
files differ, libbpf and libc left out (they are not instrumented; the
build excludes libbpf's header inlines: README.md), followed down into
every callee. Prints the
calls, then the count, the files and the calls from loader/lib into the
CLI (loader/cli, loader/workloads, progs/NAME/run.c)."""
import os
import re
import subprocess
import sys

binary, trace, root = sys.argv[1:4]
stop = sys.argv[4] if len(sys.argv) > 4 else 'iouring_bpf_attach_link'
rows = [l.split()[1:4] for l in open(trace) if l.startswith('E ')]
addrs = sorted({a for r in rows for a in r[:2]})
res = subprocess.run(['addr2line', '-f', '-e', binary] + addrs,
                     capture_output=True, text=True, check=True).stdout
res = res.split('\n')
where = {}
for i, a in enumerate(addrs):
    f = res[2 * i + 1].split(':')[0]
    where[a] = (res[2 * i], os.path.relpath(f, root) if f.startswith('/') else f)


def ours(f):
    return f.startswith('loader/') or f.startswith('progs/')


edges = []
for fn, site, depth in rows:
    callee, cf = where[fn]
    caller, sf = where[site]
    e = (caller, sf, callee, cf)
    if ours(cf) and ours(sf) and cf != sf and e not in edges:
        edges.append(e)
    if callee == stop:
        break
back = [e for e in edges if e[1].startswith('loader/lib/') and
        re.match(r'loader/cli/|loader/workloads/|progs/[a-z_]+/run\.c', e[3])]
files = {f for e in edges for f in (e[1], e[3])}
for e in edges:
    print('%s (%s) -> %s (%s)' % e)
print('%d calls into another file to %s, over %d files (%d headers); %d from the library into the CLI'
      % (len(edges), stop, len(files), len([f for f in files if f.endswith('.h')]), len(back)))
