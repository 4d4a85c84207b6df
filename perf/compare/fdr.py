"""Target-decoy FDR counted the same way for every tool in the comparison.

Input: one Psm per (spectrum, candidate) as parsed from a tool's output. Procedure:
  1. best hit per spectrum: the PSM with the lowest score (E-value / expect, lower is better)
     among all ranks and charge states of that spectrum; a spectrum whose best score is shared
     by a target and a decoy hit counts as a target (any target protein wins, as in
     "target if any protein is a target");
  2. target-decoy competition by the decoy tag (a PSM is a decoy when every protein it maps to
     carries the tag);
  3. sort by score ascending; q = decoys / targets counted cumulatively down the list, then
     made monotone by taking the running minimum from the bottom up. Equal E-values are broken
     by the tool's own primary score (X!Tandem hyperscore, Comet xcorr, ionflow hyperscore):
     X!Tandem prints expect with 2 significant digits and clamps it at 1e-15, Comet prints 3
     digits, so ties are common. PSMs still equal on both keys are one block: q is evaluated
     after the whole block, so their order cannot change the counts;
  4. PSMs at 1% FDR = target PSMs with q <= 0.01; peptides at 1% FDR = distinct unmodified
     sequences (letters only) among those PSMs (PSM-level q; no separate peptide-level FDR).
Elias & Gygi, Nat Methods 4:207 (2007) for target-decoy; q without the +1 correction, as asked
for this comparison.
"""
from dataclasses import dataclass, field
import re


@dataclass
class Psm:
    spectrum: str           # spectrum key shared by all tools (mzML nativeID)
    score: float            # lower is better (E-value / expect)
    peptide: str            # as the tool prints it (mods may be included)
    proteins: list = field(default_factory=list)
    is_decoy: bool = False
    charge: int = 0
    tiebreak: float = 0.0   # secondary key, lower is better (-hyperscore, -xcorr); see below

    def key(self):
        return (self.score, self.tiebreak)


def plain_sequence(peptide: str) -> str:
    """Upper-case residue letters only, mass annotations and flanking residues removed.

    >>> [plain_sequence(p) for p in ('M[+15.9949]PEPK', 'K.M[147]PEPK.R', '[UNIMOD:1]-AC[UNIMOD:4]K')]
    ['MPEPK', 'MPEPK', 'ACK']
    """
    p = re.sub(r'\[[^\]]*\]|\([^)]*\)', '', peptide)
    if p.count('.') == 2:  # K.PEPTIDE.R
        p = p.split('.')[1]
    return ''.join(c for c in p if 'A' <= c <= 'Z')


def is_decoy_protein(name: str, tag: str, suffix: bool) -> bool:
    """True when protein `name` (first header token) carries decoy `tag` as prefix or suffix."""
    return name.endswith(tag) if suffix else name.startswith(tag)


def best_per_spectrum(psms):
    """Lowest score per spectrum; among equal best scores a target is preferred."""
    best = {}
    for p in psms:
        cur = best.get(p.spectrum)
        if cur is None or p.key() < cur.key() or (p.key() == cur.key() and cur.is_decoy
                                                   and not p.is_decoy):
            best[p.spectrum] = p
    return list(best.values())


def q_values(best):
    """Returns [(q, psm)] sorted by score, q with ties as one block and monotone minimum.

    Targets T and decoys D at scores 1 2 3 3 4 5: T T D T T T. Cumulative D/T: 0, 0, then the
    tied block {D, T} at 3 gives 1/3 for both, then 1/4, 1/5; the running minimum from the
    bottom makes the block 1/5 as well.
    >>> psms = [Psm(str(i), s, 'PEPK', [], d) for i, (s, d) in
    ...         enumerate([(1, False), (2, False), (3, True), (3, False), (4, False), (5, False)])]
    >>> [round(q, 3) for q, p in q_values(psms)]
    [0.0, 0.0, 0.2, 0.2, 0.2, 0.2]
    >>> count_at(psms, 0.01).psms, count_at(psms, 0.2).psms
    (2, 5)
    """
    ranked = sorted(best, key=lambda p: p.key())
    out = []
    targets = decoys = 0
    i = 0
    while i < len(ranked):
        j = i
        while j < len(ranked) and ranked[j].key() == ranked[i].key():
            if ranked[j].is_decoy:
                decoys += 1
            else:
                targets += 1
            j += 1
        fdr = decoys / targets if targets else 1.0
        out.extend((fdr, p) for p in ranked[i:j])
        i = j
    running = float('inf')
    for k in range(len(out) - 1, -1, -1):
        running = min(running, out[k][0])
        out[k] = (running, out[k][1])
    return out


@dataclass
class FdrCount:
    spectra_with_hit: int
    psms: int        # target PSMs with q <= threshold
    peptides: int    # distinct plain sequences among them
    decoys_above: int  # decoy PSMs with q <= threshold (for the record)
    accepted: list   # the accepted target PSMs


def targets_above_first_decoy(psms, already_best=False):
    """Target PSMs (best per spectrum) ranked above every decoy: what D/T accepts at any
    threshold below 1/T, and a run's resolution, since (D+1)/T <= 0.01 needs 100 of them.
    A target tied with a decoy is not above it.

    >>> psms = [Psm(str(i), s, 'PEPK', [], d) for i, (s, d) in
    ...         enumerate([(1, False), (2, False), (3, True), (3, False), (4, False)])]
    >>> targets_above_first_decoy(psms)
    2
    """
    best = psms if already_best else best_per_spectrum(psms)
    first_decoy = min((p.key() for p in best if p.is_decoy), default=None)
    return sum(1 for p in best if not p.is_decoy and (first_decoy is None or p.key() < first_decoy))


def count_at(psms, threshold=0.01, already_best=False):
    """Applies steps 1-4 to `psms` and returns the counts at `threshold` (0.01 = 1% FDR)."""
    best = psms if already_best else best_per_spectrum(psms)
    qs = q_values(best)
    accepted = [p for q, p in qs if q <= threshold and not p.is_decoy]
    decoys = sum(1 for q, p in qs if q <= threshold and p.is_decoy)
    peptides = {plain_sequence(p.peptide) for p in accepted}
    return FdrCount(len(best), len(accepted), len(peptides), decoys, accepted)
