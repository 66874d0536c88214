#!/usr/bin/env python3
"""bench/trace_summary.py TRACE COUNT [--top N]

Reads an ftrace `function` tracer dump made by bench/trace-calls: regions
between the bench's "begin MODE" and "end MODE" trace_marker lines. Prints,
per region, the kernel function calls per request (COUNT requests each) and
the functions called most per request; then, for pairs of modes, the
functions whose calls per request differ.
"""
import collections
import re
import sys

MARK = re.compile(r'tracing_mark_write: bench [\w-]+: (begin|end) (.*)$')
FUNC = re.compile(r'^\s*\S.*?\[\d+\].*?\s[\d.]+: (\S+) <-(\S+)')


def parse(path):
    regions = collections.OrderedDict()
    cur = None
    with open(path, errors='replace') as f:
        for line in f:
            m = MARK.search(line)
            if m:
                kind, name = m.group(1), m.group(2).strip()
                if kind == 'begin':
                    cur = regions.setdefault(name, collections.Counter())
                else:
                    cur = None
                continue
            if cur is None or line.startswith('#'):
                continue
            m = FUNC.match(line)
            if m:
                cur[m.group(1)] += 1
    return regions


def main():
    args = sys.argv[1:]
    top = 25
    if '--top' in args:
        i = args.index('--top')
        top = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    path, count = args[0], int(args[1])
    regions = parse(path)
    if not regions:
        sys.exit('no marked regions in %s (was the bench run with --trace-marks?)' % path)
    for name, c in regions.items():
        total = sum(c.values())
        print('== %s: %.1f kernel function calls per request (%d calls, %d requests)'
              % (name, total / count, total, count))
        for fn, n in c.most_common(top):
            print('   %8.2f  %s' % (n / count, fn))
        print()
    names = list(regions)
    pairs = [(a, b) for a in names for b in names
             if a < b and a.split()[-1] == b.split()[-1]]
    for a, b in pairs:
        ca, cb = regions[a], regions[b]
        diff = {fn: (cb[fn] - ca[fn]) / count for fn in set(ca) | set(cb)}
        diff = {fn: d for fn, d in diff.items() if abs(d) >= 0.5}
        if not diff:
            continue
        print('== %s minus %s: %+.1f calls per request' %
              (b, a, (sum(cb.values()) - sum(ca.values())) / count))
        for fn, d in sorted(diff.items(), key=lambda x: (-abs(x[1]), x[0]))[:top * 2]:
            print('   %+8.2f  %s' % (d, fn))
        print()


if __name__ == '__main__':
    main()
