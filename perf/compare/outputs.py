"""Parsers for the three tools' result files, each returning fdr.Psm lists keyed by mzML nativeID.

- Comet 2019.01 pepXML (output_pepxmlfile = 1): spectrum_query@spectrumNativeID, search_hit
  (hit_rank 1 only) with @protein and <alternative_protein>, score = search_score "expect".
- X!Tandem 2017.2.1.4 output XML: <group type="model" id=... expect=...>; the group id is the
  0-based position of the spectrum in the mzML (checked on BSA1 and Ecoli_MS2_small: group 564 =
  spectrum index 564 = nativeID "spectrum=2442"); score = group@expect; proteins = first token of
  each <protein>'s <note label="description"> (the @label is truncated with "..."), peptide =
  @seq of the domain with the group's best expect.
- ionflow results.tsv (Sage-compatible columns): label (1 target / -1 decoy), spectrum_q,
  peptide, proteins; rank 1 rows only when a rank column exists; the spectrum key is the first
  present of native_id / spectrum_id / scannr; score = the first present of evalue / expect /
  e_value (else -hyperscore, then spectrum_q); ties broken by -hyperscore.

Also: spectrum_table(mzML) -> (nativeIDs in file order, MS2 count) read with a regex scan.
"""
import csv
import re
import xml.etree.ElementTree as ET

from fdr import Psm, is_decoy_protein

_SPECTRUM = re.compile(rb'<spectrum\s[^>]*?\bid="([^"]*)"')
_MS_LEVEL = re.compile(rb'accession="MS:1000511"[^>]*?value="(\d+)"')


def _unescape(s: str) -> str:
    return (s.replace('&quot;', '"').replace('&apos;', "'").replace('&lt;', '<')
            .replace('&gt;', '>').replace('&amp;', '&'))


def spectrum_table(mzml_path):
    """Returns (ids, ms2_count): nativeIDs of all spectra in file order, and how many are MS2."""
    with open(mzml_path, 'rb') as f:
        data = f.read()
    ids = []
    ms2 = 0
    starts = [m for m in _SPECTRUM.finditer(data)]
    for k, m in enumerate(starts):
        ids.append(_unescape(m.group(1).decode()))
        end = starts[k + 1].start() if k + 1 < len(starts) else len(data)
        lvl = _MS_LEVEL.search(data, m.end(), min(end, m.end() + 20000))
        if lvl and lvl.group(1) == b'2':
            ms2 += 1
    return ids, ms2


def _local(tag):
    return tag.rsplit('}', 1)[-1]


def parse_comet_pepxml(path, decoy_tag, suffix):
    psms = []
    for _, el in ET.iterparse(path, events=('end',)):
        if _local(el.tag) != 'spectrum_query':
            continue
        native_id = el.get('spectrumNativeID') or el.get('spectrum')
        charge = int(el.get('assumed_charge', '0'))
        for hit in el.iter():
            if _local(hit.tag) != 'search_hit' or hit.get('hit_rank') != '1':
                continue
            proteins = [hit.get('protein')]
            expect = None
            xcorr = 0.0
            for child in hit:
                name = _local(child.tag)
                if name == 'alternative_protein':
                    proteins.append(child.get('protein'))
                elif name == 'search_score' and child.get('name') == 'expect':
                    expect = float(child.get('value'))
                elif name == 'search_score' and child.get('name') == 'xcorr':
                    xcorr = float(child.get('value'))
            if expect is None:
                continue
            decoy = all(is_decoy_protein(p, decoy_tag, suffix) for p in proteins)
            psms.append(Psm(native_id, expect, hit.get('peptide'), proteins, decoy, charge,
                            -xcorr))
        el.clear()
    return psms


def parse_tandem_xml(path, native_ids, decoy_tag, suffix):
    psms = []
    for _, el in ET.iterparse(path, events=('end',)):
        if _local(el.tag) != 'group' or el.get('type') != 'model':
            continue
        gid = int(el.get('id'))
        key = native_ids[gid] if 0 <= gid < len(native_ids) else f'tandem:{gid}'
        expect = float(el.get('expect'))
        proteins, best_seq, best_e, best_h = [], None, None, 0.0
        for prot in el.iter():
            if _local(prot.tag) != 'protein':
                continue
            name = None
            for note in prot.iter():
                if _local(note.tag) == 'note' and note.get('label') == 'description':
                    name = (note.text or '').split()[0] if (note.text or '').split() else None
            name = name or (prot.get('label') or '').split()[0]
            for dom in prot.iter():
                if _local(dom.tag) != 'domain':
                    continue
                e = float(dom.get('expect'))
                if best_e is None or e < best_e:
                    best_e, best_seq = e, dom.get('seq')
                    best_h = float(dom.get('hyperscore', '0'))
            if name not in proteins:
                proteins.append(name)
        if best_seq is None:
            el.clear()
            continue
        decoy = all(is_decoy_protein(p, decoy_tag, suffix) for p in proteins)
        psms.append(Psm(key, expect, best_seq, proteins, decoy, int(el.get('z', '0')), -best_h))
        el.clear()
    return psms


def _first(row_keys, names):
    for n in names:
        if n in row_keys:
            return n
    return None


def parse_ionflow_tsv(path):
    """Returns (psms, own_rank1) where psms carry the recomputation score and own_rank1 are
    (spectrum_q, is_decoy, peptide) of the rank-1 rows as ionflow wrote them."""
    psms, own = [], []
    with open(path, newline='') as f:
        reader = csv.DictReader(f, delimiter='\t')
        cols = reader.fieldnames or []
        key_col = _first(cols, ['native_id', 'spectrum_id', 'scannr', 'spectrum', 'scan'])
        idx_col = _first(cols, ['spectrum_index', 'index'])
        score_col = _first(cols, ['evalue', 'expect', 'e_value', 'e-value'])
        rank_col = _first(cols, ['rank', 'hit_rank'])
        for row in reader:
            if rank_col and row[rank_col] not in ('1', ''):
                continue
            if key_col:
                key = row[key_col]
            elif idx_col:
                key = str(row[idx_col])
            else:
                key = str(len(own))
            decoy = row['label'].strip() == '-1'
            q = float(row['spectrum_q']) if row.get('spectrum_q') not in (None, '') else 1.0
            if score_col:
                score = float(row[score_col])
            elif 'hyperscore' in row:
                score = -float(row['hyperscore'])
            else:
                score = q
            proteins = [p for p in re.split(r'[;\t]', row.get('proteins', '')) if p]
            tiebreak = -float(row['hyperscore']) if row.get('hyperscore') else 0.0
            psms.append(Psm(key, score, row['peptide'], proteins, decoy,
                            int(float(row.get('charge') or 0)), tiebreak))
            own.append((q, decoy, row['peptide']))
    return psms, own
