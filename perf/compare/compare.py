#!/usr/bin/env python3
"""Side-by-side comparison of ionflow, Comet and X!Tandem on the same inputs and settings.

For each dataset and tool: N timed runs (GNU time: wall, user+sys CPU, peak RSS; each run under
`timeout`), then target PSMs and peptides at 1% FDR counted the same way for every tool from its
own output (fdr.py). Prints a Markdown table and writes, under --work:
  summary.json                     every number in the table, per run too
  accepted_<dataset>.tsv           spectra accepted at 1% FDR by any tool, with each tool's
                                   peptide and score (which spectra each tool identifies)
  runs/<dataset>/<tool>/run<k>/    parameter files, logs and raw outputs of each run
  inputs/<dataset>.mzML            the indexed mzML all tools read (mzml_index.py)

Usage: compare.py [--runs 3] [--tools ionflow,comet,tandem] [--datasets BSA1,BSA2,BSA3,Ecoli]
                  [--threads 2] [--timeout 900] [--work DIR] [--ionflow PATH] [--examples DIR]
                  [--dataset NAME,MZML,FASTA,TAG,prefix|suffix,iso|noiso[,KEY=VALUE...] ...]
                  [--suite issue19]
A dataset's KEY=VALUE options: fragment_da=0.02 (fragment tolerance, Da; default 0.5),
precursor_da=500 (an open search: +-500 Da instead of +-10 ppm; X!Tandem is not run),
tools=ionflow:comet (only these tools on it). --suite issue19 adds the datasets of issue 19
(perf/README.md "Issue 19"): BSA1, the high-resolution scale set, E. coli and BSA1 open
searches, and (ionflow only) the 100,000- and 683,905-query scale sets.
For ionflow the tables also give what its results.json says: queries, the scorers' active span,
wall / span, queries per second, and the 100k / 684k ratios of queries/s and peak RSS.
Python 3 standard library only. See perf/README.md for the method and the measured numbers.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # keep perf/compare/ free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fdr  # noqa: E402
import mzml_index  # noqa: E402
import outputs  # noqa: E402
import tools  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
EXAMPLES = os.path.join(REPO, 'data/openms-doc/usr/share/doc/openms/examples')
BSA_FASTA = 'TOPPAS/data/BSA_Identification/18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta'
ECOLI_FASTA = 'TOPPAS/data/Identification/target_decoy_Ecoli_K12_TaxID_83333.proteomes.fasta'

# name -> (mzML, FASTA, decoy tag, tag is suffix, isotope error 0/+1)
BUILTIN = {
    'BSA1': ('BSA/BSA1.mzML', BSA_FASTA, '_rev', True, True),
    'BSA2': ('BSA/BSA2.mzML', BSA_FASTA, '_rev', True, True),
    'BSA3': ('BSA/BSA3.mzML', BSA_FASTA, '_rev', True, True),
    'Ecoli': ('ID/Ecoli_MS2_small.mzML', ECOLI_FASTA, 'rev_', False, False),
}
TOOLS = ('ionflow', 'comet', 'tandem')
SCALE = os.path.join(REPO, 'data/scale')
SCALE_HR = os.path.join(REPO, 'data/scale-hr')
# --suite issue19: (name, mzML, FASTA, tag, suffix, iso, options); paths relative to the
# examples folder unless absolute. Made by perf/scale (perf/README.md "Scale set").
SUITES = {
    'issue19': [
        ('BSA1', 'BSA/BSA1.mzML', BSA_FASTA, '_rev', True, True, {}),
        ('HR20k', os.path.join(SCALE_HR, 'scale_20000_seed1.mzML'),
         os.path.join(SCALE_HR, 'scale_db_20000_seed1.fasta'), 'rev_', False, True,
         {'fragment_da': 0.02}),
        ('Ecoli-open', 'ID/Ecoli_MS2_small.mzML', ECOLI_FASTA, 'rev_', False, False,
         {'precursor_da': 500.0}),
        ('BSA1-open', 'BSA/BSA1.mzML', BSA_FASTA, '_rev', True, False, {'precursor_da': 500.0}),
        ('HR100k', os.path.join(SCALE_HR, 'scale_100000_seed1.mzML'),
         os.path.join(SCALE_HR, 'scale_db_20000_seed1.fasta'), 'rev_', False, True,
         {'fragment_da': 0.02, 'tools': ['ionflow']}),
        ('scale100k', os.path.join(SCALE, 'scale_100000_seed1.mzML'),
         os.path.join(SCALE, 'scale_db_20000_seed1.fasta'), 'rev_', False, True,
         {'tools': ['ionflow']}),
        ('scale684k', os.path.join(SCALE, 'scale_683905_seed1.mzML'),
         os.path.join(SCALE, 'scale_db_20000_seed1.fasta'), 'rev_', False, True,
         {'tools': ['ionflow']}),
    ],
}


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument('--runs', type=int, default=3)
    p.add_argument('--tools', default=','.join(TOOLS))
    p.add_argument('--datasets', default='BSA1,BSA2,BSA3,Ecoli')
    p.add_argument('--dataset', action='append', default=[],
                   help='extra dataset NAME,MZML,FASTA,TAG,prefix|suffix,iso|noiso[,KEY=VALUE]')
    p.add_argument('--suite', default='', help='add a suite of datasets: ' + ', '.join(SUITES))
    p.add_argument('--threads', type=int, default=2)
    p.add_argument('--timeout', type=float, default=900.0, help='seconds per run')
    p.add_argument('--work', default=os.path.join(REPO, 'data/perf/compare'))
    p.add_argument('--examples', default=EXAMPLES)
    p.add_argument('--ionflow', default=os.environ.get('IONFLOW', os.path.join(
        REPO, 'build/service/ionflow')))
    p.add_argument('--comet', default='comet-ms')
    p.add_argument('--tandem', default='tandem')
    return p.parse_args(argv)


def dataset_options(fields):
    """KEY=VALUE fields of --dataset -> options dict."""
    out = {}
    for f in fields:
        key, _, value = f.partition('=')
        if key in ('fragment_da', 'precursor_da'):
            out[key] = float(value)
        elif key == 'tools':
            out[key] = [t for t in value.split(':') if t]
        else:
            sys.exit(f'unknown dataset option {f} (fragment_da, precursor_da, tools)')
    return out


def datasets(args):
    """name -> (mzML, FASTA, decoy tag, tag is suffix, isotope error, options)."""
    out = {}
    for name in [d for d in args.datasets.split(',') if d]:
        if name not in BUILTIN:
            sys.exit(f'unknown dataset {name} (built in: {", ".join(BUILTIN)})')
        mzml, fasta, tag, suffix, iso = BUILTIN[name]
        out[name] = (os.path.join(args.examples, mzml), os.path.join(args.examples, fasta),
                     tag, suffix, iso, {})
    if args.suite:
        if args.suite not in SUITES:
            sys.exit(f'unknown suite {args.suite} ({", ".join(SUITES)})')
        for name, mzml, fasta, tag, suffix, iso, options in SUITES[args.suite]:
            out[name] = (os.path.join(args.examples, mzml), os.path.join(args.examples, fasta),
                         tag, suffix, iso, options)
    for spec in args.dataset:
        f = spec.split(',')
        if len(f) < 6:
            sys.exit('--dataset wants NAME,MZML,FASTA,TAG,prefix|suffix,iso|noiso[,KEY=VALUE]: '
                     + spec)
        out[f[0]] = (os.path.abspath(f[1]), os.path.abspath(f[2]), f[3], f[4] == 'suffix',
                     f[5] == 'iso', dataset_options(f[6:]))
    return out


def indexed_input(work, name, mzml):
    """The indexed copy of `mzml` that all tools read (Comet needs the index). A large file
    (> 100 MB, e.g. the scale set) that is already indexed is used in place."""
    with open(mzml, 'rb') as f:
        head = f.read(2048)
    if b'<indexedmzML' in head and os.path.getsize(mzml) > 100 << 20:
        return mzml
    os.makedirs(os.path.join(work, 'inputs'), exist_ok=True)
    path = os.path.join(work, 'inputs', name + '.mzML')
    if not os.path.exists(path) or os.path.getmtime(path) < os.path.getmtime(mzml):
        with open(mzml, 'rb') as f:
            data = f.read()
        with open(path + '.tmp', 'wb') as f:
            f.write(mzml_index.index_mzml(data))
        os.replace(path + '.tmp', path)
    return path


def timed_run(argv, run_dir, timeout):
    """Runs argv under GNU time and timeout. Returns dict(wall, cpu, rss_mb, rc)."""
    time_file = os.path.join(run_dir, 'time.txt')
    cmd = ['/usr/bin/time', '-f', '%e %U %S %M', '-o', time_file,
           'timeout', '-k', '10', str(int(timeout))] + argv
    with open(os.path.join(run_dir, 'command.txt'), 'w') as f:
        f.write(' '.join(cmd) + '\n')
    with open(os.path.join(run_dir, 'stdout.log'), 'wb') as out, \
            open(os.path.join(run_dir, 'stderr.log'), 'wb') as err:
        rc = subprocess.call(cmd, cwd=run_dir, stdout=out, stderr=err)
    fields = None
    with open(time_file) as f:
        for line in f:  # "Command exited with non-zero status N" may precede the numbers
            parts = line.split()
            if len(parts) == 4:
                try:
                    fields = [float(x) for x in parts]
                except ValueError:
                    pass
    if fields is None:
        return {'wall': None, 'cpu': None, 'rss_mb': None, 'rc': rc}
    return {'wall': fields[0], 'cpu': fields[1] + fields[2], 'rss_mb': fields[3] / 1024.0,
            'rc': rc}


def count(tool, result, ids, tag, suffix):
    """FDR counts for one run's output; (FdrCount, extra dict)."""
    if tool == 'comet':
        return fdr.count_at(outputs.parse_comet_pepxml(result, tag, suffix)), {}
    if tool == 'tandem':
        return fdr.count_at(outputs.parse_tandem_xml(result, ids, tag, suffix)), {}
    psms, own = outputs.parse_ionflow_tsv(result)
    own_psms = [p for q, d, p in own if q <= 0.01 and not d]
    extra = {'own_spectrum_q_psms': len(own_psms),
             'own_spectrum_q_peptides': len({fdr.plain_sequence(p) for p in own_psms})}
    return fdr.count_at(psms), extra


def summarize(values):
    v = [x for x in values if x is not None]
    if not v:
        return None
    return {'median': statistics.median(v), 'min': min(v), 'max': max(v)}


def ionflow_inside(run_dir):
    """What ionflow's own results.json says about a run (None without one)."""
    path = os.path.join(run_dir, 'out', 'results.json')
    if not os.path.exists(path):
        return None
    with open(path) as f:
        summary = json.load(f)['summary']
    scorer = summary.get('stages', {}).get('scorer', {})
    span = scorer.get('last_active_seconds', -1.0) - scorer.get('first_active_seconds', -1.0)
    wall = summary.get('wall_seconds', 0.0)
    return {'queries': summary.get('queries', 0), 'wall_s': wall,
            'scorer_first_s': scorer.get('first_active_seconds'),
            'scorer_last_s': scorer.get('last_active_seconds'),
            'wall_over_scorer_span': wall / span if span > 0 else None,
            'queries_per_s': summary.get('queries', 0) / wall if wall > 0 else None,
            'peak_rss_mb': summary.get('peak_rss_bytes', 0) / 1048576.0,
            'index_scope': summary.get('index_scope', '')}


def run_dataset(args, name, ds, tool_names):
    mzml, fasta, tag, suffix, iso, options = ds
    spectra = indexed_input(args.work, name, mzml)
    ids, ms2 = outputs.spectrum_table(spectra)
    settings = tools.SearchSettings(fasta=fasta, decoy_tag=tag, decoy_suffix=suffix,
                                    isotope_error=iso, threads=args.threads,
                                    fragment_da=options.get('fragment_da', 0.5),
                                    precursor_da=options.get('precursor_da', 0.0))
    results = {'_settings': {'fragment_da': settings.fragment_da,
                             'precursor': (f'+-{settings.precursor_da:g} Da'
                                           if settings.precursor_da > 0
                                           else f'+-{settings.precursor_ppm:g} ppm')}}
    accepted = {}
    wanted = options.get('tools', TOOLS)
    for tool in tool_names:
        if tool not in wanted:
            continue
        if tool == 'tandem' and settings.precursor_da > 0:
            results[tool] = {'skipped': 'X!Tandem has no open (wide-window) search mode'}
            continue
        runs = []
        last = None
        for k in range(1, args.runs + 1):
            run_dir = os.path.join(args.work, 'runs', name, tool, f'run{k}')
            os.makedirs(run_dir, exist_ok=True)
            argv, result = tools.prepare(tool, run_dir, spectra, settings, args)
            if os.path.exists(result):
                os.remove(result)
            t = timed_run(argv, run_dir, args.timeout)
            if tool == 'ionflow':
                t['inside'] = ionflow_inside(run_dir)
            if t['rc'] == 0 and os.path.exists(result):
                c, extra = count(tool, result, ids, tag, suffix)
                t.update({'psms_1pct': c.psms, 'peptides_1pct': c.peptides,
                          'spectra_with_hit': c.spectra_with_hit, **extra})
                last = c
            else:
                with open(os.path.join(run_dir, 'stderr.log'), errors='replace') as f:
                    t['error'] = f.read()[-400:]
            runs.append(t)
            sys.stderr.write(f'{name} {tool} run {k}: {json.dumps(t)}\n')
        ok = [r for r in runs if 'psms_1pct' in r]
        res = {'runs': runs, 'ms2_spectra': ms2,
               'wall_s': summarize([r['wall'] for r in ok]),
               'cpu_s': summarize([r['cpu'] for r in ok]),
               'rss_mb': summarize([r['rss_mb'] for r in ok])}
        if ok:
            res['psms_1pct'] = ok[-1]['psms_1pct']
            res['peptides_1pct'] = ok[-1]['peptides_1pct']
            res['counts_differ_between_runs'] = len({r['psms_1pct'] for r in ok}) > 1
            res['spectra_per_s'] = ms2 / res['wall_s']['median'] if res['wall_s']['median'] else None
            for key in ('own_spectrum_q_psms', 'own_spectrum_q_peptides'):
                if key in ok[-1]:
                    res[key] = ok[-1][key]
            inside = [r['inside'] for r in ok if r.get('inside')]
            if inside:
                res['inside'] = {
                    'queries': inside[-1]['queries'],
                    'wall_over_scorer_span': summarize([i['wall_over_scorer_span'] for i in inside]),
                    'queries_per_s': summarize([i['queries_per_s'] for i in inside]),
                    'peak_rss_mb': summarize([i['peak_rss_mb'] for i in inside]),
                    'scorer_first_s': summarize([i['scorer_first_s'] for i in inside]),
                    'index_scope': inside[-1]['index_scope']}
            accepted[tool] = {p.spectrum: p for p in last.accepted}
        results[tool] = res
    write_accepted(args.work, name, accepted)
    results['_overlap'] = overlap(accepted)
    return results


def write_accepted(work, name, accepted):
    keys = sorted({k for per in accepted.values() for k in per})
    path = os.path.join(work, f'accepted_{name}.tsv')
    names = sorted(accepted)
    with open(path, 'w') as f:
        f.write('native_id\t' + '\t'.join(f'{t}_peptide\t{t}_score' for t in names) + '\n')
        for k in keys:
            cells = []
            for t in names:
                p = accepted[t].get(k)
                cells += [fdr.plain_sequence(p.peptide), f'{p.score:.3g}'] if p else ['', '']
            f.write(k + '\t' + '\t'.join(cells) + '\n')


def inside_table(all_results):
    """ionflow's own view of its runs (results.json), and the linear-cost check."""
    lines = ['| dataset | fragment / precursor | queries | queries/s median | scorers start s '
             '| wall / scorer span median (min-max) | peak RSS MB (results.json) |',
             '|---|---|---|---|---|---|---|']
    for name, res in all_results.items():
        inside = res.get('ionflow', {}).get('inside')
        if not inside:
            continue
        st = res['_settings']
        lines.append(f"| {name} | {st['fragment_da']:g} Da / {st['precursor']} | "
                     f"{inside['queries']} | {inside['queries_per_s']['median']:.0f} | "
                     f"{fmt(inside['scorer_first_s'])} | {fmt(inside['wall_over_scorer_span'], 3)} "
                     f"| {inside['peak_rss_mb']['max']:.0f} |")
    small = all_results.get('scale100k', {}).get('ionflow', {}).get('inside')
    large = all_results.get('scale684k', {}).get('ionflow', {}).get('inside')
    if small and large:
        lines.append('')
        lines.append(
            f"linear cost, 683,905 / 100,000 queries: queries/s "
            f"{large['queries_per_s']['median'] / small['queries_per_s']['median']:.3f}, "
            f"peak RSS {large['peak_rss_mb']['max'] / small['peak_rss_mb']['max']:.3f} "
            f"(issue 19: both within 10%)")
    return '\n'.join(lines)


def overlap(accepted):
    names = sorted(accepted)
    out = {}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            both = set(accepted[a]) & set(accepted[b])
            same = sum(1 for k in both if fdr.plain_sequence(accepted[a][k].peptide).replace('I', 'L')
                       == fdr.plain_sequence(accepted[b][k].peptide).replace('I', 'L'))
            out[f'{a}&{b}'] = {'spectra_both': len(both), 'same_peptide': same}
    if len(names) >= 2:
        out['any'] = len(set().union(*[set(v) for v in accepted.values()]))
    return out


def fmt(stat, digits=2):
    if not stat:
        return '-'
    return f"{stat['median']:.{digits}f} ({stat['min']:.{digits}f}-{stat['max']:.{digits}f})"


def table(all_results, tool_names):
    lines = ['| dataset | tool | wall s median (min-max) | CPU s median (min-max) | peak RSS MB '
             '| spectra/s | PSMs 1% | peptides 1% | wall / ionflow | PSMs / ionflow |',
             '|---|---|---|---|---|---|---|---|---|---|']
    for name, res in all_results.items():
        base = res.get('ionflow', {})
        for tool in tool_names:
            if tool not in res:
                continue
            r = res[tool]
            if 'skipped' in r:
                lines.append(f"| {name} | {tool} | not run: {r['skipped']} | | | | | | | |")
                continue
            psms = r.get('psms_1pct', '-')
            if 'own_spectrum_q_psms' in r:
                psms = f"{psms} (own q: {r['own_spectrum_q_psms']})"
            ratio_w = ratio_p = '-'
            if base.get('wall_s') and r.get('wall_s'):
                ratio_w = f"{r['wall_s']['median'] / base['wall_s']['median']:.2f}"
            if base.get('psms_1pct') and r.get('psms_1pct') is not None:
                ratio_p = f"{r['psms_1pct'] / base['psms_1pct']:.2f}"
            sps = f"{r['spectra_per_s']:.0f}" if r.get('spectra_per_s') else '-'
            rss = f"{r['rss_mb']['max']:.0f}" if r.get('rss_mb') else '-'
            lines.append(f"| {name} | {tool} | {fmt(r.get('wall_s'))} | {fmt(r.get('cpu_s'))} | "
                         f"{rss} | {sps} | {psms} | {r.get('peptides_1pct', '-')} | {ratio_w} | "
                         f"{ratio_p} |")
    return '\n'.join(lines)


def main(argv):
    args = parse_args(argv)
    args.work = os.path.abspath(args.work)
    os.makedirs(args.work, exist_ok=True)
    tool_names = [t for t in args.tools.split(',') if t]
    for t in tool_names:
        if t not in TOOLS:
            sys.exit(f'unknown tool {t} ({", ".join(TOOLS)})')
    if 'ionflow' in tool_names and not os.access(args.ionflow, os.X_OK):
        sys.stderr.write(f'ionflow not found at {args.ionflow}; skipping it (use --ionflow)\n')
        tool_names.remove('ionflow')
    started = time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())
    load = os.getloadavg()
    all_results = {}
    for name, ds in datasets(args).items():
        all_results[name] = run_dataset(args, name, ds, tool_names)
    summary = {'started_utc': started, 'loadavg_at_start': load, 'cpus': os.cpu_count(),
               'runs_per_tool': args.runs, 'threads': args.threads, 'results': all_results}
    with open(os.path.join(args.work, 'summary.json'), 'w') as f:
        json.dump(summary, f, indent=1, default=str)
    print(f'started {started} UTC, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on '
          f'{os.cpu_count()} CPUs, {args.runs} runs per tool, {args.threads} threads each\n')
    print(table(all_results, tool_names))
    print()
    inside = inside_table(all_results)
    if inside.count('\n') > 1:
        print('ionflow, from its results.json:\n')
        print(inside)
        print()
    for name, res in all_results.items():
        if res.get('_overlap'):
            print(f"{name} overlap of accepted spectra: {json.dumps(res['_overlap'])}")
    print(f"\nsummary: {os.path.join(args.work, 'summary.json')}")
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
