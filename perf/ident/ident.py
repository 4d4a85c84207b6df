#!/usr/bin/env python3
"""Identification benchmark: ionflow, Comet and X!Tandem on real runs, with an entrapment check.

For every run (openms-doc BSA1-3 and E. coli; from /work/shared/data, when present, the
MetaMorpheus yeast run as mzML and as MGF and Comet's HeLa fixture) and two databases:
  own      the run's database (targets + decoys; reversed decoys "rev_" added when it has none)
  entrap   the proteins the sample can contain + reference proteomes it cannot contain
           (perf/ident/README.md lists them per run), each with a reversed decoy; at least
           10x the sample's peptides for the openms-doc runs and the yeast run
every engine searches with the same settings (perf/compare/tools.py, instrument-fitting
tolerances per run) and is counted the same way:
  - PSMs and peptides at 1% FDR by E-value through the common top-1 target-decoy script
    (perf/compare/fdr.py) for every engine;
  - for ionflow also by its own q-values (results.tsv spectrum_q, rank-1 rows): PSMs, and
    peptides as distinct sequences among them, the peers' rule; and, apart, the peptides its
    peptide-level FDR accepts (peptide_q, a stricter count the peers have no match for);
  - entrapment (perf/ident/entrapment.py): of the accepted targets, N_T from the sample and
    N_E only in the entrapment proteome, the combined estimate N_E(1+1/r)/(N_T+N_E) with its
    95% interval, at PSM and peptide level, for ionflow's own q-values and for every engine's
    E-value. The BSA database itself holds 9,320 Sorangium cellulosum proteins a BSA digest
    cannot contain: they are entrapment in both databases.
  - ionflow's E-value count against the best peer's on every search, with the 95% interval of
    the difference from a paired bootstrap of the run's spectra (perf/ident/bootstrap.py).

Usage: ident.py [--runs BSA1,...] [--engines ionflow,comet,tandem] [--dbs own,entrap]
                [--work DIR] [--ionflow PATH] [--shared DIR] [--fresh] [--threads 2]
Peers' results are reused when their settings and inputs are unchanged (--fresh reruns them);
ionflow is always run. Python 3 standard library only.
"""
import argparse
import gzip
import hashlib
import json
import os
import subprocess
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'compare'))
sys.path.insert(0, HERE)
import bootstrap  # noqa: E402
import entrapment  # noqa: E402
import fdr  # noqa: E402
import outputs  # noqa: E402
import tools  # noqa: E402
from compare import indexed_input, EXAMPLES, BSA_FASTA, ECOLI_FASTA  # noqa: E402

REPO = os.path.abspath(os.path.join(HERE, '..', '..'))
SHARED = '/work/shared/data'
ENGINES = ('ionflow', 'comet', 'tandem')
YEAST_REF = 'fasta-proteomes/UP000002311-S.cerevisiae.fasta.gz'
ECOLI_REF = 'fasta-proteomes/UP000000625-E.coli.fasta.gz'
HUMAN_1K = 'fasta-proteomes/top1k_human.fasta'
HUMAN_SMALL = 'comet-hela-fixture/human.small.fasta'


def bsa_sample(header):
    """BSA database: everything but Sorangium cellulosum is what the sample can contain."""
    return 'OS=Sorangium' not in header


# name -> run description. source 'examples' = openms-doc under data/, 'shared' = SHARED.
# fasta: the run's own database; tag/suffix: its decoy tag (None: no decoys in it, add rev_);
# sample: predicate on a target header, True when the sample can contain that protein;
# entrap: reference proteomes (under SHARED) appended for the entrap database.
RUNS = {
    'BSA1': dict(source='examples', spectra='BSA/BSA1.mzML', fasta=BSA_FASTA, tag='_rev',
                 suffix=True, iso=True, ppm=10.0, frag=0.5, mc=1, sample=bsa_sample,
                 entrap=[YEAST_REF, ECOLI_REF]),
    'BSA2': dict(source='examples', spectra='BSA/BSA2.mzML', fasta=BSA_FASTA, tag='_rev',
                 suffix=True, iso=True, ppm=10.0, frag=0.5, mc=1, sample=bsa_sample,
                 entrap=[YEAST_REF, ECOLI_REF]),
    'BSA3': dict(source='examples', spectra='BSA/BSA3.mzML', fasta=BSA_FASTA, tag='_rev',
                 suffix=True, iso=True, ppm=10.0, frag=0.5, mc=1, sample=bsa_sample,
                 entrap=[YEAST_REF, ECOLI_REF]),
    'Ecoli': dict(source='examples', spectra='ID/Ecoli_MS2_small.mzML', fasta=ECOLI_FASTA,
                  tag='rev_', suffix=False, iso=False, ppm=10.0, frag=0.5, mc=1, sample=None,
                  entrap=[YEAST_REF, HUMAN_SMALL, HUMAN_1K]),
    'yeast-mzML': dict(source='shared',
                       spectra='metamorpheus-yeast-smallcalib/SmallCalibratible_Yeast.mzML',
                       fasta='metamorpheus-yeast-smallcalib/SmallYeast.fasta', tag=None,
                       suffix=False, iso=True, ppm=10.0, frag=0.02, mc=1, sample=None,
                       entrap=[ECOLI_REF, HUMAN_SMALL]),
    'yeast-MGF': dict(source='shared',
                      spectra='metamorpheus-yeast-smallcalib/SmallCalibratibleYeast.mgf',
                      fasta='metamorpheus-yeast-smallcalib/SmallYeast.fasta', tag=None,
                      suffix=False, iso=True, ppm=10.0, frag=0.02, mc=1, sample=None,
                      entrap=[ECOLI_REF, HUMAN_SMALL]),
    'HeLa': dict(source='shared', spectra='comet-hela-fixture/fixture_spectra.derived.mgf',
                 fasta=HUMAN_SMALL, tag=None, suffix=False, iso=False, ppm=20.0, frag=0.02,
                 mc=2, sample=None, entrap=[YEAST_REF, ECOLI_REF]),
}
# A run big enough to be rescored (scoring/rescoring.hpp rescores from 1000 rank-1 PSMs): the
# 3,275 MS2 spectra of BSA1-3 and E. coli as one run, against the scale set's 20,000-protein
# human-size database (perf/scale; build/perf/ionflow_make_scale_set writes both under
# --work/scale: its first 3,275 spectra are the real ones, unjittered — later copies would be
# jittered copies of the same spectra, whose identifications come in correlated clusters that a
# binomial interval does not cover). That database is its own entrapment database: its 9,320
# Sorangium proteins and ~6,400 generated background proteins (random residues, accessions
# BG...) cannot hold a peptide of these spectra.
SCALE_QUERIES = 3275
RUNS['pooled'] = dict(source='generated', spectra=f'scale_{SCALE_QUERIES}_seed1.mzML',
                      fasta='scale_db_20000_seed1.fasta', tag='rev_', suffix=False, iso=True,
                      ppm=10.0, frag=0.5, mc=1, entrap=None,
                      sample=lambda h: 'OS=Sorangium' not in h and not h.startswith('BG'))

# Charge-less runs: the same MGF with its CHARGE lines removed (written under --work/inputs),
# searched with precursor charges 1-3 for spectra without one.
for _name in ('yeast-MGF', 'HeLa'):
    RUNS[_name + '-nocharge'] = dict(RUNS[_name], strip_charges=True, charges=(1, 3),
                                     base=_name + '-nocharge')

# Wide windows: every run above at +-1.2 Da on the neutral mass, isotope errors off (the window
# holds them), as a TOF run is searched. Open searches: +-500 Da, BSA1 against its own database
# (its entrapment database would take Comet about an hour) and E. coli against both; X!Tandem is
# not run for them (perf/compare does the same).
for _name in [n for n in RUNS if n != 'pooled']:
    RUNS[_name + '-wide'] = dict(RUNS[_name], precursor_da=1.2, iso=False,
                                 base=RUNS[_name].get('base', _name))
RUNS['BSA1-open'] = dict(RUNS['BSA1'], precursor_da=500.0, iso=False, base='BSA1', dbs=('own',))
RUNS['Ecoli-open'] = dict(RUNS['Ecoli'], precursor_da=500.0, iso=False, base='Ecoli')


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument('--runs', default=','.join(RUNS))
    p.add_argument('--engines', default=','.join(ENGINES))
    p.add_argument('--dbs', default='own,entrap')
    p.add_argument('--threads', type=int, default=2)
    p.add_argument('--work', default=os.path.join(REPO, 'data/perf/ident'))
    p.add_argument('--examples', default=EXAMPLES)
    p.add_argument('--shared', default=SHARED)
    p.add_argument('--ionflow', default=os.environ.get('IONFLOW', os.path.join(
        REPO, 'build/service/ionflow')))
    p.add_argument('--scale-tool', default=os.path.join(REPO, 'build/perf/ionflow_make_scale_set'),
                   help='the scale-set generator (for the pooled run)')
    p.add_argument('--comet', default='comet-ms')
    p.add_argument('--tandem', default='tandem')
    p.add_argument('--fresh', action='store_true', help='rerun the peers too')
    p.add_argument('--timeout', type=float, default=1800.0)
    return p.parse_args(argv)


def read_fasta(path):
    """[(header without '>', sequence)] of a plain or gzip FASTA."""
    opener = gzip.open if path.endswith('.gz') else open
    out, header, seq = [], None, []
    with opener(path, 'rt') as f:
        for line in f:
            line = line.rstrip('\r\n')
            if line.startswith('>'):
                if header is not None:
                    out.append((header, ''.join(seq)))
                header, seq = line[1:], []
            elif header is not None:
                seq.append(line.strip())
    if header is not None:
        out.append((header, ''.join(seq)))
    return out


def write_target_decoy(path, targets):
    """Writes targets, then each reversed with accession prefix rev_ (first token; a repeated
    accession is written once). An unchanged file is left alone (its mtime keys the peers'
    reuse)."""
    seen, lines = set(), []
    for h, s in targets:
        acc = h.split()[0]
        if acc not in seen:
            seen.add(acc)
            lines.append((h, s))
    text = ''.join(f'>{h}\n{s}\n' for h, s in lines) + \
        ''.join(f'>rev_{h}\n{s[::-1]}\n' for h, s in lines)
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return
    with open(path + '.tmp', 'w') as f:
        f.write(text)
    os.replace(path + '.tmp', path)


class Database:
    """One searched database: its FASTA, decoy tag, and which targets the sample can hold."""

    def __init__(self, path, tag, suffix, sample_seqs, entrap_seqs):
        self.path, self.tag, self.suffix = path, tag, suffix
        self.sample = entrapment.SampleProteins(sample_seqs)
        self.has_entrapment = bool(entrap_seqs)
        self.r, self.sample_peptides, self.entrap_peptides = (
            entrapment.database_ratio(sample_seqs, entrap_seqs) if entrap_seqs else (0, 0, 0))


def build_databases(args, name, run, root):
    os.makedirs(os.path.join(args.work, 'db'), exist_ok=True)
    own_targets = [(h, s) for h, s in read_fasta(os.path.join(root, run['fasta']))
                   if run['tag'] is None or not fdr.is_decoy_protein(h.split()[0], run['tag'],
                                                                      run['suffix'])]
    pick = run['sample'] or (lambda h: True)
    sample = [s for h, s in own_targets if pick(h)]
    own_entrap = [s for h, s in own_targets if not pick(h)]
    dbs = {}
    if run['tag'] is None:
        path = os.path.join(args.work, 'db', f'{name}.own.fasta')
        write_target_decoy(path, own_targets)
        dbs['own'] = Database(path, 'rev_', False, sample, own_entrap)
    else:
        dbs['own'] = Database(os.path.join(root, run['fasta']), run['tag'], run['suffix'],
                              sample, own_entrap)
    if run['entrap'] is None:  # the own database holds the entrapment proteins
        return dbs
    extra = []
    for ref in run['entrap']:
        extra += read_fasta(os.path.join(args.shared, ref))
    path = os.path.join(args.work, 'db', f'{name}.entrap.fasta')
    write_target_decoy(path, own_targets + extra)
    dbs['entrap'] = Database(path, 'rev_', False, sample, own_entrap + [s for h, s in extra])
    return dbs


def settings_for(run, db, threads):
    return tools.SearchSettings(fasta=db.path, decoy_tag=db.tag, decoy_suffix=db.suffix,
                                isotope_error=run['iso'], precursor_ppm=run['ppm'],
                                precursor_da=run.get('precursor_da', 0.0),
                                fragment_da=run['frag'], missed_cleavages=run['mc'],
                                threads=threads, deisotope=run['frag'] < 0.1,
                                precursor_charges=run.get('charges', ()))


def fingerprint(paths, settings):
    # deisotope and precursor_charges are ionflow's only (the peers' own charge handling).
    fields = {k: v for k, v in settings.__dict__.items()
              if k not in ('deisotope', 'precursor_charges')}
    h = hashlib.sha1(json.dumps(fields, sort_keys=True).encode())
    for p in paths:
        st = os.stat(p)
        h.update(f'{p}:{st.st_size}:{st.st_mtime_ns}'.encode())
    return h.hexdigest()


def run_engine(args, engine, run_dir, spectra, settings):
    """Runs one search (or reuses a peer's unchanged result); returns the result path or None."""
    os.makedirs(run_dir, exist_ok=True)
    argv, result = tools.prepare(engine, run_dir, spectra, settings, args)
    stamp = os.path.join(run_dir, 'fingerprint.txt')
    fp = fingerprint([spectra, settings.fasta], settings)
    if engine != 'ionflow' and not args.fresh and os.path.exists(result) and \
            os.path.exists(stamp) and open(stamp).read() == fp:
        return result, None
    if os.path.exists(result):
        os.remove(result)
    with open(os.path.join(run_dir, 'command.txt'), 'w') as f:
        f.write(' '.join(argv) + '\n')
    t0 = time.time()
    with open(os.path.join(run_dir, 'stdout.log'), 'wb') as out, \
            open(os.path.join(run_dir, 'stderr.log'), 'wb') as err:
        rc = subprocess.call(['timeout', '-k', '10', str(int(args.timeout))] + argv,
                             cwd=run_dir, stdout=out, stderr=err)
    wall = time.time() - t0
    if rc != 0 or not os.path.exists(result):
        sys.stderr.write(f'{run_dir}: {engine} failed (exit {rc}), see stderr.log\n')
        return None, wall
    with open(stamp, 'w') as f:
        f.write(fp)
    return result, wall


def ionflow_own(result):
    """(accepted target PSMs by spectrum_q, accepted target peptides by peptide_q) of
    results.tsv, rank-1 rows: lists of plain sequences (one per PSM / per distinct peptide)."""
    import csv
    psms, peptides = [], set()
    with open(result, newline='') as f:
        for row in csv.DictReader(f, delimiter='\t'):
            if row.get('rank', '1') != '1' or row['label'].strip() == '-1':
                continue
            seq = fdr.plain_sequence(row['peptide'])
            if float(row['spectrum_q']) <= 0.01:
                psms.append(seq)
            if float(row['peptide_q']) <= 0.01:
                peptides.add(seq)
    return psms, sorted(peptides)


RANDOM_BALANCE_TOP = 10


def random_balance(db, best):
    """[entrapment, decoy, first is a decoy (0/1), expected entrapment] among the
    RANDOM_BALANCE_TOP best-ranked random matches of `best` (rank-1 PSMs by E-value): decoys and
    targets the sample cannot contain. A random match is an entrapment target with probability
    r / (2r + 1) under D/T's assumption (targets and decoys alike, the entrapment r times the
    sample); None without an entrapment proteome or with r < 2."""
    if not db.has_entrapment or db.r < 2:
        return None
    labels = []
    for p in sorted(best, key=lambda p: p.key()):
        if p.is_decoy:
            labels.append('D')
        elif not db.sample.contains(fdr.plain_sequence(p.peptide)):
            labels.append('E')
        if len(labels) >= RANDOM_BALANCE_TOP:
            break
    if not labels:
        return None
    share = db.r / (2 * db.r + 1)
    return [labels.count('E'), labels.count('D'), int(labels[0] == 'D'), share * len(labels)]


def entrapment_of(db, sequences):
    n_e = sum(1 for s in sequences if not db.sample.contains(s))
    return entrapment.combined_estimate(len(sequences) - n_e, n_e, db.r) if db.has_entrapment \
        else None


def count_engine(engine, result, ids, db):
    if engine == 'comet':
        psms = outputs.parse_comet_pepxml(result, db.tag, db.suffix)
    elif engine == 'tandem':
        psms = outputs.parse_tandem_xml(result, ids, db.tag, db.suffix)
    else:
        psms, _ = outputs.parse_ionflow_tsv(result)
    best = fdr.best_per_spectrum(psms)
    c = fdr.count_at(best, already_best=True)
    psm_seqs = [fdr.plain_sequence(p.peptide) for p in c.accepted]
    pep_seqs = sorted(set(psm_seqs))
    out = {'best': best,
           'evalue': {'psms': len(psm_seqs), 'peptides': len(pep_seqs),
                      'psm_entrapment': entrapment_of(db, psm_seqs),
                      'peptide_entrapment': entrapment_of(db, pep_seqs),
                      'above_first_decoy': fdr.targets_above_first_decoy(best, True),
                      'random_balance': random_balance(db, best)}}
    if engine == 'ionflow':
        own_psms, own_peps = ionflow_own(result)
        own_seqs = sorted(set(own_psms))
        out['own_q'] = {'psms': len(own_psms), 'peptides': len(own_seqs),
                        'psm_entrapment': entrapment_of(db, own_psms),
                        'peptide_entrapment': entrapment_of(db, own_seqs)}
        out['peptide_q'] = {'peptides': len(own_peps),
                            'peptide_entrapment': entrapment_of(db, own_peps)}
    return out


def strip_charges(args, name, path):
    """The MGF at `path` without its CHARGE= lines, as --work/inputs/<name>.mgf."""
    out = os.path.join(args.work, 'inputs', name + '.mgf')
    if not os.path.exists(out) or os.path.getmtime(out) < os.path.getmtime(path):
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(path) as f, open(out + '.tmp', 'w') as o:
            o.writelines(line for line in f if not line.startswith('CHARGE='))
        os.replace(out + '.tmp', out)
    return out


def spectra_input(args, name, path, run=None):
    if run and run.get('strip_charges'):
        path = strip_charges(args, name, path)
    if path.endswith('.mgf'):
        return path, []
    spectra = indexed_input(args.work, name, path)
    return spectra, outputs.spectrum_table(spectra)[0]


def generate_scale_set(args, out):
    """The pooled run's spectra and database under `out`, made once by the generator (a
    missing generator leaves them missing: the run is then skipped with the reason)."""
    run = RUNS['pooled']
    if all(os.path.exists(os.path.join(out, f)) for f in (run['spectra'], run['fasta'])):
        return
    if not os.access(args.scale_tool, os.X_OK):
        return
    subprocess.check_call([args.scale_tool, '--queries', str(SCALE_QUERIES), '--out', out,
                           '--formats', 'mzml,fasta', '--spectra', ','.join(
                               os.path.join(args.examples, p) for p in
                               ('BSA/BSA1.mzML', 'BSA/BSA2.mzML', 'BSA/BSA3.mzML',
                                'ID/Ecoli_MS2_small.mzML'))],
                          stdout=subprocess.DEVNULL)


def tandem_input(args, name, spectra, ids):
    """X!Tandem 2017.2.1.4 (Debian) cannot read zlib-compressed mzML ("unsupported CODEC"):
    it gets the MGF perf/compare/mzml_to_mgf.py writes from the same mzML (precursor m/z, charges
    and peaks as the mzML gives them); its group ids then count MGF entries, so no native ids."""
    if not spectra.endswith('.mzML'):
        return spectra, ids
    with open(spectra, 'rb') as f:
        if b'MS:1000574' not in f.read():  # zlib compression
            return spectra, ids
    import mzml_to_mgf
    path = os.path.join(args.work, 'inputs', name + '.tandem.mgf')
    if not os.path.exists(path) or os.path.getmtime(path) < os.path.getmtime(spectra):
        with open(spectra, 'rb') as f, open(path + '.tmp', 'w') as out:
            mzml_to_mgf.write_mgf(f.read(), out)
        os.replace(path + '.tmp', path)
    return path, []


def main(argv):
    args = parse_args(argv)
    args.work = os.path.abspath(args.work)
    os.makedirs(args.work, exist_ok=True)
    engines = [e for e in args.engines.split(',') if e]
    if 'ionflow' in engines and not os.access(args.ionflow, os.X_OK):
        sys.stderr.write(f'ionflow not found at {args.ionflow}; skipping it (use --ionflow)\n')
        engines.remove('ionflow')
    skipped, results = [], {}
    for name in [r for r in args.runs.split(',') if r]:
        if name not in RUNS:
            sys.exit(f'unknown run {name} ({", ".join(RUNS)})')
        run = RUNS[name]
        root = {'examples': args.examples, 'shared': args.shared,
                'generated': os.path.join(args.work, 'scale')}[run['source']]
        if run['source'] == 'generated':
            generate_scale_set(args, root)
        missing = [p for p in [run['spectra'], run['fasta']] if
                   not os.path.exists(os.path.join(root, p))]
        missing += [p for p in run['entrap'] or []
                    if not os.path.exists(os.path.join(args.shared, p))]
        if missing and run['source'] == 'generated' and not os.access(args.scale_tool, os.X_OK):
            skipped.append(f'{name}: skipped, needs the scale-set generator {args.scale_tool} '
                           '(a build with -DIONFLOW_BUILD_PERF=ON) or --scale-tool')
            continue
        if missing:
            skipped.append(f'{name}: skipped, missing {", ".join(missing)} (under {root} / '
                           f'{args.shared})')
            continue
        base = run.get('base', name)  # the variants of a run share its inputs and databases
        dbs = build_databases(args, base, run, root)
        spectra, ids = spectra_input(args, base, os.path.join(root, run['spectra']), run)
        results[name] = {}
        for db_name in [d for d in args.dbs.split(',')
                        if d and d in dbs and d in run.get('dbs', dbs)]:
            db = dbs[db_name]
            results[name][db_name] = {'db': db, 'engines': {}}
            for engine in engines:
                if engine == 'tandem' and run.get('precursor_da', 0.0) > 10:
                    continue  # open searches: Comet only (see above)
                run_dir = os.path.join(args.work, 'runs', name, db_name, engine)
                inp, inp_ids = tandem_input(args, base, spectra, ids) if engine == 'tandem' \
                    else (spectra, ids)
                result, wall = run_engine(args, engine, run_dir, inp,
                                          settings_for(run, db, args.threads))
                counted = count_engine(engine, result, inp_ids, db) if result else None
                results[name][db_name]['engines'][engine] = counted
                sys.stderr.write(f'{name} {db_name} {engine}: '
                                 f'{"reused" if wall is None else f"{wall:.1f} s"}\n')
    print_tables(results, engines, skipped)
    write_summary(args.work, results)
    return 0


def _cell(c):
    return f"{c['psms']} / {c['peptides']}" if c else '-'


def print_tables(results, engines, skipped):
    print('## PSMs / peptides at 1% FDR\n')
    print('E-value through the common top-1 target-decoy script (perf/compare/fdr.py); '
          'ionflow also by its own q-values (spectrum_q; peptides = distinct sequences among '
          'the PSMs, as for the peers) and, apart, the peptides its peptide-level FDR accepts '
          '(peptide_q <= 0.01).\n')
    head = ['run', 'database'] + [f'{e} (E-value)' for e in engines]
    if 'ionflow' in engines:
        head += ['ionflow (own q)', 'ionflow peptide_q']
    head.append('best peer')
    print('| ' + ' | '.join(head) + ' |')
    print('|' + '---|' * len(head))
    for name, per_db in results.items():
        for db_name, r in per_db.items():
            e = r['engines']
            cells = [_cell(e.get(x) and e[x]['evalue']) for x in engines]
            if 'ionflow' in engines:
                cells.append(_cell(e.get('ionflow') and e['ionflow']['own_q']))
                cells.append(str(e['ionflow']['peptide_q']['peptides']) if e.get('ionflow')
                             else '-')
            peers = [e[x]['evalue'] for x in ('comet', 'tandem') if e.get(x)]
            best = max(peers, key=lambda c: (c['psms'], c['peptides'])) if peers else None
            cells.append(_cell(best))
            print(f'| {name} | {db_name} | ' + ' | '.join(cells) + ' |')
    print('\n## Entrapment at 1% FDR (combined estimate N_E(1+1/r)/(N_T+N_E), 95% interval)\n')
    print('A row fails (FAIL) when the interval lies wholly above 1%.\n')
    print('| run | database | r | statistic | PSM level | peptide level |')
    print('|---|---|---|---|---|---|')
    for name, per_db in results.items():
        for db_name, r in per_db.items():
            db = r['db']
            if not db.has_entrapment:
                continue
            rows = []
            for x in engines:
                c = r['engines'].get(x)
                if not c:
                    continue
                if x == 'ionflow':
                    rows.append(('ionflow own q', c['own_q']))
                    rows.append(('ionflow peptide_q', c['peptide_q']))
                rows.append((f'{x} E-value', c['evalue']))
            for label, c in rows:
                cells = []
                for key in ('psm_entrapment', 'peptide_entrapment'):
                    est = c.get(key)
                    cells.append('-' if est is None else
                                 est.text() + ('' if est.holds() else ' FAIL'))
                print(f'| {name} | {db_name} | {db.r:.2f} | {label} | ' + ' | '.join(cells) + ' |')
    print('\nPooled over the runs above (per database; r = the smallest of the runs):\n')
    print('| database | statistic | PSM level | peptide level |')
    print('|---|---|---|---|')
    for db_name in ('own', 'entrap'):
        labels = [('ionflow own q', 'ionflow', 'own_q'),
                  ('ionflow peptide_q', 'ionflow', 'peptide_q')] if 'ionflow' in engines else []
        labels += [(f'{x} E-value', x, 'evalue') for x in engines]
        for label, engine, kind in labels:
            cells = []
            for key in ('psm_entrapment', 'peptide_entrapment'):
                ests = [per_db[db_name]['engines'][engine][kind].get(key)
                        for per_db in results.values()
                        if db_name in per_db and per_db[db_name]['db'].has_entrapment
                        and per_db[db_name]['engines'].get(engine)]
                if not ests:
                    break
                if any(e is None for e in ests):
                    cells.append('-')
                    continue
                est = entrapment.pooled_estimate(ests)
                cells.append(est.text() + ('' if est.holds() else ' FAIL'))
            if cells:
                print(f'| {db_name} | {label} | ' + ' | '.join(cells) + ' |')
    print_random_balance(results, engines)
    print_below_best_peer(results, engines)
    print_bootstrap(results, engines)
    for s in skipped:
        print(f'\n{s}')


def print_random_balance(results, engines):
    """Entrapment / decoy among each search's best-ranked random matches, summed per database and
    window class: D/T's assumption that a random match is a decoy as often as a target."""
    sums = {}
    for name, per_db in results.items():
        window_da = RUNS[name].get('precursor_da')
        window = f'±{window_da:g} Da' if window_da else 'narrow'
        for db_name, r in per_db.items():
            for x in engines:
                c = r['engines'].get(x)
                bal = c and c['evalue'].get('random_balance')
                if not bal:
                    continue
                acc = sums.setdefault((db_name, window), {}).setdefault(x, [0, 0, 0, 0, 0.0])
                acc[0] += bal[0]
                acc[1] += bal[1]
                acc[2] += 1
                acc[3] += bal[2]
                acc[4] += bal[3]
    print(f'\n## Balance of the best random matches (the {RANDOM_BALANCE_TOP} best-ranked by '
          'E-value per search)\n')
    print('Entrapment / decoy PSMs among each search\'s best-ranked rank-1 matches that are '
          'decoys or entrapment targets, summed, and the entrapment count D/T\'s assumption '
          'expects (r / (2r + 1) of them; databases with r >= 2); then the searches, and in how '
          'many of them the best random match is a decoy. The searches share spectra (the same '
          'run at several windows or in several formats), so the sums are not independent.\n')
    print('| database | window | ' + ' | '.join(engines) + ' |')
    print('|---|---|' + '---|' * len(engines))
    for (db_name, window), per_engine in sums.items():
        cells = [f'{a[0]} / {a[1]} (expected {a[4]:.0f}; first a decoy in {a[3]} of {a[2]})'
                 if (a := per_engine.get(x)) else '-' for x in engines]
        print(f'| {db_name} | {window} | ' + ' | '.join(cells) + ' |')


def print_below_best_peer(results, engines):
    """The searches where ionflow's own q accepts fewer PSMs or peptides than the best peer,
    with what decides them: the peer's entrapment PSMs among its accepted ones, and each
    engine's targets ranked above its first decoy (D/T accepts exactly those on a run whose
    second decoy comes late; (D+1)/T <= 1% needs 100)."""
    if 'ionflow' not in engines:
        return
    rows = []
    for name, per_db in results.items():
        for db_name, r in per_db.items():
            e = r['engines']
            own = e.get('ionflow') and e['ionflow']['own_q']
            peers = {x: e[x]['evalue'] for x in ('comet', 'tandem') if e.get(x)}
            if not own or not peers:
                continue
            peer = max(peers, key=lambda x: (peers[x]['psms'], peers[x]['peptides']))
            best = peers[peer]
            if own['psms'] >= best['psms'] and own['peptides'] >= best['peptides']:
                continue
            ent = best['psm_entrapment']
            ent_text = f'{ent.n_t} / {ent.n_e}' if ent else '-'
            rows.append(f"| {name} | {db_name} | {_cell(own)} | {peer} {_cell(best)} | "
                        f"{ent_text} | {e['ionflow']['evalue']['above_first_decoy']} / "
                        f"{best['above_first_decoy']} |")
    print('\n## Searches where ionflow\'s own q is below the best peer\n')
    print('Peer entrapment: N_T / N_E of the best peer\'s accepted PSMs (entrapment proteome '
          'in the database; - without one). Above first decoy: target PSMs ranked above the '
          'first decoy by E-value, ionflow / the peer.\n')
    print('| run | database | ionflow own q | best peer | peer entrapment | above first decoy |')
    print('|---|---|---|---|---|---|')
    for row in rows:
        print(row)
    print(f'\n{len(rows)} searches')


BOOTSTRAP_DRAWS = 1000


def print_bootstrap(results, engines):
    """ionflow's E-value count at 1% against the best peer's on every search, with the paired
    bootstrap interval of the difference (perf/ident/bootstrap.py): which leads and gaps are more
    than where a decoy falls in the run's spectra."""
    if 'ionflow' not in engines:
        return
    rows, below, above, level = [], 0, 0, 0
    for name, per_db in results.items():
        for db_name, r in per_db.items():
            e = r['engines']
            peers = {x: e[x] for x in ('comet', 'tandem') if e.get(x)}
            if not e.get('ionflow') or not peers:
                continue
            peer = max(peers, key=lambda x: (peers[x]['evalue']['psms'],
                                             peers[x]['evalue']['peptides']))
            d = bootstrap.paired_difference(e['ionflow']['best'], peers[peer]['best'],
                                            resamples=BOOTSTRAP_DRAWS)
            below += d.high < 0
            above += d.low > 0
            level += d.low <= 0 <= d.high
            rows.append(f"| {name} | {db_name} | {e['ionflow']['evalue']['psms']} | {peer} "
                        f"{peers[peer]['evalue']['psms']} | {d.text()} |")
    if not rows:
        return
    print('\n## ionflow against the best peer by E-value, paired bootstrap of the spectra\n')
    print(f'PSMs at 1% by E-value (common script); difference ionflow - peer on the run, its 95% '
          f'percentile interval over {BOOTSTRAP_DRAWS:,} draws of the run\'s spectra with '
          'replacement (both engines counted on the same draw), and the share of draws where '
          'ionflow has at least the peer\'s count.\n')
    print('| run | database | ionflow | best peer | ionflow - peer [95%], draws >= 0 |')
    print('|---|---|---|---|---|')
    for row in rows:
        print(row)
    print(f'\nInterval wholly below 0 (ionflow behind beyond the noise): {below} searches; '
          f'wholly above 0: {above}; containing 0: {level}.')


def write_summary(work, results):
    def plain(o):
        if isinstance(o, entrapment.Estimate):
            return o.__dict__
        if isinstance(o, Database):
            return {'path': o.path, 'r': o.r, 'sample_peptides': o.sample_peptides,
                    'entrapment_peptides': o.entrap_peptides}
        return str(o)
    def without_psms(o):  # each engine's 'best' PSM list is for the bootstrap, not the summary
        if isinstance(o, dict):
            return {k: without_psms(v) for k, v in o.items() if k != 'best'}
        return o
    with open(os.path.join(work, 'summary.json'), 'w') as f:
        json.dump(without_psms(results), f, indent=1, default=plain)
    print(f"\nsummary: {os.path.join(work, 'summary.json')}")


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
