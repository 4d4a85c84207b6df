"""The three search tools of the comparison: how each is set up and started for one run.

Every tool gets the same search (see SearchSettings) on the same indexed mzML and FASTA. Each
prepare_* function writes the tool's parameter files into `run_dir` (a fresh directory per run)
and returns (argv, result_path). Templates live beside this file: comet.params.in,
tandem_input.xml.in, tandem_default_input.xml, tandem_taxonomy.xml.in; ionflow gets a Sage-style
JSON job message (service/job_message.hpp).
"""
from dataclasses import dataclass
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
PROTON_DA = 1.007276466621  # CODATA 2018 proton mass, for Comet's MH+ digest mass range


@dataclass
class SearchSettings:
    fasta: str
    decoy_tag: str
    decoy_suffix: bool
    isotope_error: bool          # C13 isotope error 0/+1 when true, 0 only when false
    precursor_ppm: float = 10.0  # symmetric, ppm
    precursor_da: float = 0.0    # > 0: symmetric Da window instead (an open search, e.g. 500)
    fragment_da: float = 0.5     # symmetric, Da (Comet: see comet_fragment_bins)
    missed_cleavages: int = 1
    max_variable_mods: int = 2   # Oxidation (M) per peptide (ionflow default)
    min_length: int = 5          # residues (ionflow default)
    max_length: int = 50
    min_mass_da: float = 500.0   # neutral monoisotopic (ionflow default)
    max_mass_da: float = 5000.0
    threads: int = 2
    deisotope: bool = False      # ionflow only: drop fragment isotope peaks (high-res fragments)
    # (lo, hi) for spectra without a charge; () = each engine's default. Given to ionflow as
    # precursor_charge; Comet and X!Tandem keep their own handling (perf/ident/README.md).
    precursor_charges: tuple = ()


def _fill(template_name, values):
    with open(os.path.join(HERE, template_name)) as f:
        text = f.read()
    for k, v in values.items():
        text = text.replace('@' + k + '@', str(v))
    return text


def comet_fragment_bins(fragment_da):
    """(fragment_bin_tol, fragment_bin_offset, theoretical_fragment_ions) for a fragment
    tolerance: the two settings comet.params documents, ion trap (1.0005 / 0.4 / 1) for
    low-res tolerances (>= 0.1 Da), high res (0.02 / 0.0 / 0) below.

    >>> comet_fragment_bins(0.5), comet_fragment_bins(0.02)
    ((1.0005, 0.4, 1), (0.02, 0.0, 0))
    """
    if fragment_da >= 0.1:
        return 1.0005, 0.4, 1
    return 0.02, 0.0, 0


def prepare_comet(run_dir, spectra, s: SearchSettings, comet='comet-ms'):
    bin_tol, bin_offset, theoretical = comet_fragment_bins(s.fragment_da)
    params = _fill('comet.params.in', {
        'FRAGMENT_BIN_TOL': bin_tol, 'FRAGMENT_BIN_OFFSET': bin_offset,
        'THEORETICAL_FRAGMENT_IONS': theoretical,
        'DATABASE': s.fasta, 'THREADS': s.threads,
        # An open search: +-N Da on the neutral mass (MH+, type 0), Comet's wide-window search.
        'PRECURSOR_TOL': s.precursor_da if s.precursor_da > 0 else s.precursor_ppm,
        'PRECURSOR_UNITS': 0 if s.precursor_da > 0 else 2,
        'PRECURSOR_TOL_TYPE': 0 if s.precursor_da > 0 else 1,
        'ISOTOPE_ERROR': 1 if s.isotope_error else 0, 'MISSED_CLEAVAGES': s.missed_cleavages,
        'MAX_VARIABLE_MODS': s.max_variable_mods,
        'MIN_MH': f'{s.min_mass_da + PROTON_DA:.6f}', 'MAX_MH': f'{s.max_mass_da + PROTON_DA:.6f}',
        'MIN_LENGTH': s.min_length, 'MAX_LENGTH': s.max_length})
    path = os.path.join(run_dir, 'comet.params')
    with open(path, 'w') as f:
        f.write(params)
    base = os.path.join(run_dir, 'comet')
    return [comet, '-P' + path, '-N' + base, spectra], base + '.pep.xml'


def prepare_tandem(run_dir, spectra, s: SearchSettings, tandem='tandem'):
    default_input = os.path.join(run_dir, 'default_input.xml')
    shutil.copyfile(os.path.join(HERE, 'tandem_default_input.xml'), default_input)
    taxonomy = os.path.join(run_dir, 'taxonomy.xml')
    with open(taxonomy, 'w') as f:
        f.write(_fill('tandem_taxonomy.xml.in', {'DATABASE': s.fasta}))
    output = os.path.join(run_dir, 'tandem.xml')
    inp = os.path.join(run_dir, 'input.xml')
    with open(inp, 'w') as f:
        f.write(_fill('tandem_input.xml.in', {
            'DEFAULT_INPUT': default_input, 'TAXONOMY': taxonomy, 'SPECTRA': spectra,
            'OUTPUT': output, 'THREADS': s.threads, 'FRAGMENT_DA': s.fragment_da,
            # X!Tandem takes Daltons on the parent's neutral (M+H) mass like Comet's type 0.
            'PRECURSOR_TOL': s.precursor_da if s.precursor_da > 0 else s.precursor_ppm,
            'PRECURSOR_UNITS': 'Daltons' if s.precursor_da > 0 else 'ppm',
            'ISOTOPE_ERROR': 'yes' if s.isotope_error else 'no',
            'MISSED_CLEAVAGES': s.missed_cleavages}))
    return [tandem, inp], output


def ionflow_job(s: SearchSettings):
    """The Sage-style job message for the same search (keys: service/job_message.cpp)."""
    return {
        'database': {
            'enzyme': {'missed_cleavages': s.missed_cleavages, 'min_len': s.min_length,
                       'max_len': s.max_length},
            'max_variable_mods': s.max_variable_mods,
            'decoy_tag': s.decoy_tag,
            'generate_decoys': False,
            'peptide_min_mass': s.min_mass_da,
            'peptide_max_mass': s.max_mass_da,
        },
        'enzyme': 'trypsin',
        'fixed_modifications': ['Carbamidomethyl (C)'],
        'variable_modifications': ['Oxidation (M)'],
        'decoy_tag_position': 'suffix' if s.decoy_suffix else 'prefix',
        'precursor_tol': ({'da': [-s.precursor_da, s.precursor_da]} if s.precursor_da > 0
                          else {'ppm': [-s.precursor_ppm, s.precursor_ppm]}),
        'fragment_tol': {'da': [-s.fragment_da, s.fragment_da]},
        'isotope_errors': [0, 1] if s.isotope_error else [0, 0],
        'clip_n_terminal_methionine': True,
        'licensed_cores': s.threads,
        'report_psms': 1,
        'deisotope': s.deisotope,
        'output_formats': ['tsv'],
        **({'precursor_charge': list(s.precursor_charges)} if s.precursor_charges else {}),
    }


def prepare_ionflow(run_dir, spectra, s: SearchSettings, ionflow):
    job = os.path.join(run_dir, 'job.json')
    with open(job, 'w') as f:
        json.dump(ionflow_job(s), f, indent=2)
    out = os.path.join(run_dir, 'out')
    return [ionflow, 'search', job, spectra, '-f', s.fasta, '-o', out], \
        os.path.join(out, 'results.tsv')


def prepare(tool, run_dir, spectra, s: SearchSettings, binaries):
    """prepare_comet / prepare_tandem / prepare_ionflow by name; `binaries` maps each tool name
    to its executable (argparse results with .comet, .tandem, .ionflow work too)."""
    binary = getattr(binaries, tool)
    if tool == 'comet':
        return prepare_comet(run_dir, spectra, s, binary)
    if tool == 'tandem':
        return prepare_tandem(run_dir, spectra, s, binary)
    return prepare_ionflow(run_dir, spectra, s, binary)
