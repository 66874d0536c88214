#!/usr/bin/env python3
"""bench/report.py BENCH.json

Markdown tables of an `iouring-bpf bench --json` file, for
docs/performance.md: medians (min..max over the runs in the detailed
rows), the ratios, and the targets' verdicts. bench/run writes it next to
the JSON as bench.md.
"""
import json
import sys


def fmt(v):
    if v is None:
        return '-'
    a = abs(v)
    if a >= 1e7:
        return '%.3g' % v
    if a >= 100 or a == 0:
        return '%.0f' % v
    if a >= 10:
        return '%.1f' % v
    if a >= 1:
        return '%.2f' % v
    return '%.3f' % v


def rng(m, scale=1.0, suffix=''):
    return '%s%s (%s%s..%s%s)' % (fmt(m['median'] * scale), suffix,
                                  fmt(m['min'] * scale), suffix,
                                  fmt(m['max'] * scale), suffix)


def find(scn, mode, metric, x=None):
    for m in scn['metrics']:
        if m['mode'] == mode and m['metric'] == metric and (x is None or m['x'] == x):
            return m
    return None


def modes(scn, metric):
    out = []
    for m in scn['metrics']:
        if m['metric'] == metric and m['mode'] not in [o[0] for o in out]:
            out.append((m['mode'], m['label']))
    return out


def table(head, rows):
    lines = ['| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    lines += ['| ' + ' | '.join(r) + ' |' for r in rows]
    return '\n'.join(lines)


def targets(scn):
    out = []
    for t in scn.get('targets', []):
        verdict = 'not measured' if t['met'] is None else ('**met**' if t['met'] else '**missed**')
        out.append('- %s: %s (median %s)' % (t['target'], verdict, fmt(t['median'])))
    return '\n'.join(out)


def nops(scn):
    rows = []
    for mode, label in modes(scn, 'req_per_s'):
        calls = find(scn, mode, 'enters_per_req') or find(scn, mode, 'loop_calls_per_req')
        rows.append([label, rng(find(scn, mode, 'req_per_s'), 1e-3, 'k'),
                     fmt(find(scn, mode, 'ns_per_req')['median']),
                     fmt(calls['median']) + (' loop calls' if calls['metric'].startswith('loop') else ' enters')])
    out = table(['mode', 'requests/s median (min..max)', 'ns/request', 'per request'], rows)
    rows = [[label, rng(find(scn, mode, 'ratio'))] for mode, label in modes(scn, 'ratio')]
    return out + '\n\n' + table(['ratio (within each run)', 'median (min..max)'], rows)


def op(scn):
    rows = [[label, rng(find(scn, mode, 'ns_per_req'))] for mode, label in modes(scn, 'ns_per_req')]
    rows += [['extra ns per IORING_OP_BPF request', rng(find(scn, 'bpf-nop', 'extra_ns'))],
             ['cost ratio bpf-nop / nop', rng(find(scn, 'bpf/nop', 'ratio'))]]
    return table(['', 'ns per request, median (min..max)'], rows)


def memcpy(scn):
    ms = modes(scn, 'MiB_per_s')
    xs = sorted({m['x'] for m in scn['metrics'] if m['x'] is not None})
    head = ['size'] + [label + ' MiB/s' for _, label in ms] + \
           ['op-plain / user', 'op-fixed / user']
    rows = []
    for x in xs:
        r = ['%d KiB' % (x // 1024)]
        r += [fmt(find(scn, mode, 'MiB_per_s', x)['median']) for mode, _ in ms]
        r += [rng(find(scn, 'op-plain/user', 'ratio', x)), rng(find(scn, 'op-fixed/user', 'ratio', x))]
        rows.append(r)
    return table(head, rows)


def wait(scn):
    cols = [('wakeups_per_1000', 'returns /1000'), ('sleeps_per_1000', 'sleeps /1000'),
            ('lat_mean', 'latency mean us'), ('lat_p50', 'p50 us'), ('lat_p99', 'p99 us'),
            ('cpu', 'CPU %'), ('post_delay_mean', 'post delay us')]
    rows = []
    for mode, label in modes(scn, 'wakeups_per_1000'):
        rows.append([label] + [fmt((find(scn, mode, c) or {}).get('median')) for c, _ in cols])
    return table(['mode'] + [h for _, h in cols], rows)


def load(scn):
    steps = ['open', 'load', 'attach', 'detach', 'close', 'total']
    rows = []
    for mode, label in modes(scn, 'total'):
        rows.append([label] + [fmt(find(scn, mode, st)['median']) for st in steps])
    return table(['program'] + [s + ' ms' for s in steps], rows)


FUNCS = {'nops': nops, 'op-overhead': op, 'memcpy': memcpy, 'wait': wait, 'load': load}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = json.load(open(sys.argv[1]))
    print('Kernel %s, %d CPUs (%s), %d runs per mode.  ' % (
        d['kernel'], d['cpus'], d['cpu_model'], d['runs']))
    print('Timing: %s.  ' % d['timing'])
    print('QEMU: %s.  ' % d['qemu'])
    print('Started %s by `%s`.' % (d['started'], d.get('invoked_by') or d['command']))
    for scn in d['scenarios']:
        print('\n#### %s\n' % scn['scenario'])
        print(FUNCS[scn['scenario']](scn))
        t = targets(scn)
        if t:
            print('\n' + t)
        if scn.get('failed_checks'):
            print('\n%d check(s) FAILED in this scenario: its figures are suspect.' % scn['failed_checks'])


if __name__ == '__main__':
    main()
