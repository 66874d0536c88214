#!/usr/bin/env python3
"""bench/plot.py BENCH.json OUTDIR

One PNG per scenario of an `iouring-bpf bench --json` file, drawn by
gnuplot (pngcairo): medians as bars or lines, min..max over the runs as
error bars, the issue's targets as dashed lines. The timing mode and kernel
go in each plot's title: absolute figures are only comparable within one
file.
"""
import json
import os
import subprocess
import sys


def metrics(scn, metric, mode=None):
    return [m for m in scn['metrics'] if m['metric'] == metric and
            (mode is None or m['mode'] == mode)]


def target(scn, mode, default, x=None):
    """the bound of the scenario's target on mode (at x), as the bench set it"""
    for t in scn.get('targets', []):
        if t.get('mode') == mode and (x is None or t.get('x') == x):
            return t.get('at_most', t.get('at_least', default))
    return default


def q(s):
    return '"%s"' % (str(s).replace('\\', '\\\\').replace('"', '\\"')
                     .replace('\n', '\\n'))


def datablock(name, rows):
    out = ['$%s << EOD' % name]
    for r in rows:
        out.append(' '.join(q(v) if isinstance(v, str) else
                            ('%.6g' % v if v is not None else 'NaN') for v in r))
    out.append('EOD')
    return '\n'.join(out)


class Plot:
    def __init__(self, env, scn, outdir, size='1000,600'):
        self.env, self.scn = env, scn
        self.path = os.path.join(outdir, scn['scenario'] + '.png')
        self.lines = ['set terminal pngcairo size %s font "DejaVu Sans,10"' % size,
                      'set output %s' % q(self.path)]

    def sub(self):
        timing = self.env.get('timing', '').split(':')[0]
        if timing == 'icount' and 'shift=0' in self.env.get('qemu', ''):
            timing += ', 1 ns = 1 guest instruction'
        return '%s, kernel %s, %s runs, timing: %s' % (
            self.scn['scenario'], self.env.get('kernel', '?'),
            self.scn.get('runs', '?'), timing)

    def add(self, *lines):
        self.lines.extend(lines)

    def run(self):
        subprocess.run(['gnuplot'], input='\n'.join(self.lines) + '\n',
                       text=True, check=True)
        print('bench/plot.py: wrote %s' % self.path)


def bars(p, rows, ylabel, title, extra=()):
    """rows: (label, median, min, max)"""
    p.add(datablock('d', rows),
          'set title %s noenhanced' % q(title),
          'set ylabel %s' % q(ylabel),
          'set style data histogram',
          'set style histogram errorbars gap 2 lw 1',
          'set style fill solid 0.6 border -1',
          'set boxwidth 0.8',
          'set xtics noenhanced rotate by -20',
          'set yrange [0:*]',
          'set grid ytics',
          'unset key', *extra,
          'plot $d using 2:3:4:xtic(1) lc rgb "#4477aa"')


def plot_nops(env, scn, outdir):
    p = Plot(env, scn, outdir, '1000,650')
    rate = metrics(scn, 'req_per_s')
    rows = [(m['label'], m['median'] / 1e3, m['min'] / 1e3, m['max'] / 1e3)
            for m in rate]
    ratios = {m['mode']: m['median'] for m in metrics(scn, 'ratio')}
    title = '%s\nrequests/s; ratios (median of per-run ratios): c/a %.2f, c/b %.2f, c/d %.2f' % (
        p.sub(), ratios.get('c/a', 0), ratios.get('c/b', 0), ratios.get('c/d', 0))
    bars(p, rows, 'thousand requests/s (median, min..max)', title)
    p.run()


def plot_op(env, scn, outdir):
    p = Plot(env, scn, outdir, '800,600')
    ns = metrics(scn, 'ns_per_req')
    rows = [(m['label'], m['median'], m['min'], m['max']) for m in ns]
    ratio = metrics(scn, 'ratio', 'bpf/nop')
    r = ratio[0]['median'] if ratio else 0
    nop = [m for m in ns if m['mode'] == 'nop']
    extra = []
    t = target(scn, 'bpf/nop', 1.8)
    if nop:
        extra = ['set arrow from graph 0, first %g to graph 1, first %g nohead dt 2 lc rgb "red"'
                 % (t * nop[0]['median'], t * nop[0]['median']),
                 'set label "target: %g x IORING_OP_NOP" at graph 0.02, first %g offset 0,0.7 tc rgb "red" noenhanced'
                 % (t, t * nop[0]['median'])]
    bars(p, rows, 'ns per request (median, min..max)',
         '%s\nper-request cost, 32 per io_uring_enter; bpf-nop / nop = %.2f' % (p.sub(), r),
         extra)
    p.run()


def plot_memcpy(env, scn, outdir):
    p = Plot(env, scn, outdir, '1000,800')
    modes = []
    for m in metrics(scn, 'MiB_per_s'):
        if m['mode'] not in [x[0] for x in modes]:
            modes.append((m['mode'], m['label']))
    blocks, plots = [], []
    for i, (mode, label) in enumerate(modes):
        rows = sorted((m['x'] / 1024, m['median'], m['min'], m['max'])
                      for m in metrics(scn, 'MiB_per_s', mode))
        blocks.append(datablock('m%d' % i, rows))
        plots.append('$m%d using 1:2:3:4 with yerrorlines lw 2 title %s' % (i, q(label)))
    rmodes = []
    for m in metrics(scn, 'ratio'):
        if m['mode'] not in [x[0] for x in rmodes]:
            rmodes.append((m['mode'], m['label']))
    tp = target(scn, 'op-plain/user', 0.9, 65536)
    tf = target(scn, 'op-fixed/user', 0.95, 65536)
    rplots = []
    for i, (mode, label) in enumerate(rmodes):
        rows = sorted((m['x'] / 1024, m['median'], m['min'], m['max'])
                      for m in metrics(scn, 'ratio', mode))
        blocks.append(datablock('r%d' % i, rows))
        rplots.append('$r%d using 1:2:3:4 with yerrorlines lw 2 title %s' % (i, q(label)))
    p.add(*blocks,
          'set multiplot layout 2,1 title %s noenhanced' % q(p.sub()),
          'set logscale x 2', 'set grid', 'set key top left noenhanced',
          'set xlabel "copy size (KiB)"',
          'set ylabel "MiB/s (median, min..max)"', 'set yrange [0:*]',
          'set title "throughput"',
          'plot ' + ', '.join(plots),
          'set ylabel "x user-space memcpy"',
          'set title "ratio to user-space memcpy (per run), targets from 64 KiB: plain >= %g, fixed >= %g"'
          % (tp, tf),
          'set arrow from 64, %g to 1024, %g nohead dt 2 lc rgb "red" lw 2' % (tp, tp),
          'set arrow from 64, %g to 1024, %g nohead dt 3 lc rgb "dark-red" lw 2' % (tf, tf),
          'plot ' + ', '.join(rplots),
          'unset multiplot')
    p.run()


def plot_wait(env, scn, outdir):
    p = Plot(env, scn, outdir, '1100,800')
    modes = []
    for m in metrics(scn, 'wakeups_per_1000'):
        modes.append((m['mode'], m['label']))

    def get(mode, metric):
        ms = metrics(scn, metric, mode)
        return (ms[0]['median'], ms[0]['min'], ms[0]['max']) if ms else (None,) * 3

    rows1 = [(mode,) + get(mode, 'wakeups_per_1000') + get(mode, 'sleeps_per_1000')
             for mode, label in modes]
    rows2 = [(mode,) + get(mode, 'lat_mean') + get(mode, 'lat_p99')
             for mode, label in modes]
    p.add(datablock('w', rows1), datablock('l', rows2),
          'set multiplot layout 2,1 title %s noenhanced' % q(p.sub()),
          'set style data histogram',
          'set style histogram errorbars gap 2 lw 1',
          'set style fill solid 0.6 border -1',
          'set xtics noenhanced', 'set grid ytics', 'set yrange [0:*]',
          'set key below noenhanced',
          'set title "per 1000 completions (one every 100 us)"',
          'set ylabel "count (median, min..max)"',
          'plot $w using 2:3:4:xtic(1) title "returns to user space", '
          '$w using 5:6:7 title "sleeps (voluntary context switches)"',
          'set title "added latency: CQE in user space minus posted (log scale)"',
          'set ylabel "us (median of runs, min..max)"',
          'set logscale y', 'set yrange [*:*]',
          'plot $l using 2:3:4:xtic(1) title "mean", $l using 5:6:7 title "p99"',
          'unset multiplot')
    p.run()


def plot_load(env, scn, outdir):
    p = Plot(env, scn, outdir, '1100,600')
    progs = []
    for m in metrics(scn, 'total'):
        progs.append(m['mode'])
    steps = ['open', 'load', 'attach', 'detach', 'close']
    rows = []
    for prog in progs:
        row = [prog]
        for st in steps:
            ms = metrics(scn, st, prog)
            row.append(ms[0]['median'] if ms else 0)
        rows.append(row)
    p.add(datablock('d', rows),
          'set title %s noenhanced' % q(p.sub() + '\nmedian ms per step (stacked)'),
          'set style data histogram', 'set style histogram rowstacked',
          'set style fill solid 0.7 border -1', 'set boxwidth 0.7',
          'set xtics noenhanced rotate by -20', 'set grid ytics',
          'set ylabel "ms"', 'set yrange [0:*]', 'set key top left',
          'plot ' + ', '.join('$d using %d%s title %s' % (
              i + 2, ':xtic(1)' if i == 0 else '', q(st))
              for i, st in enumerate(steps)))
    p.run()


PLOTS = {'nops': plot_nops, 'op-overhead': plot_op, 'memcpy': plot_memcpy,
         'wait': plot_wait, 'load': plot_load}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        env = json.load(f)
    os.makedirs(sys.argv[2], exist_ok=True)
    for scn in env.get('scenarios', []):
        fn = PLOTS.get(scn['scenario'])
        if fn and scn.get('metrics'):
            fn(env, scn, sys.argv[2])


if __name__ == '__main__':
    main()
