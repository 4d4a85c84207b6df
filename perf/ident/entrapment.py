"""Entrapment: how many accepted identifications cannot come from the sample.

A proteome the sample cannot contain is appended to the search database (with its own decoys).
Every target identification accepted at a nominal FDR is either a sample target (its peptide
occurs in a protein the sample can contain) or an entrapment hit (it occurs only in the
appended proteome, so it is certainly false). With r = entrapment peptides / sample peptides in
the database (distinct tryptic peptides, I = L, entrapment peptides that also occur in the
sample not counted), the combined estimate of the false discovery proportion among the
accepted (Wen, Freestone, Riffle, MacCoss, Noble, Keich, "Assessment of false discovery rate control
in tandem mass spectrometry analysis using entrapment", Nat. Methods 2025: the combined method) is

    FDP = N_E (1 + 1/r) / (N_T + N_E)

with N_T the accepted sample targets and N_E the accepted entrapment targets. The interval is
the Clopper-Pearson 95% interval of the binomial proportion N_E / (N_T + N_E), times (1 + 1/r).
An FDR procedure that holds at level a gives FDP estimates whose interval reaches down to a.

Python 3 standard library only.
"""
from dataclasses import dataclass
import math


def normalise(sequence: str) -> str:
    """Upper-case residues with I read as L (the two have the same mass).

    >>> normalise('peptIde')
    'PEPTLDE'
    """
    return sequence.upper().replace('I', 'L')


def tryptic_peptides(sequence, missed_cleavages=1, min_length=5, max_length=50):
    """Distinct fully tryptic peptides (after K/R, not before P), I read as L.

    >>> sorted(tryptic_peptides('AAAAAKPBBBBBRCCCCCK', 1, 5, 50))
    ['AAAAAKPBBBBBR', 'AAAAAKPBBBBBRCCCCCK', 'CCCCCK']
    """
    s = normalise(sequence)
    sites = [0] + [i + 1 for i in range(len(s) - 1)
                   if s[i] in 'KR' and s[i + 1] != 'P'] + [len(s)]
    out = set()
    for a in range(len(sites) - 1):
        for b in range(a + 1, min(len(sites), a + missed_cleavages + 2)):
            p = s[sites[a]:sites[b]]
            if min_length <= len(p) <= max_length:
                out.add(p)
    return out


class SampleProteins:
    """Answers "can this peptide come from the sample?" by substring search over the sample's
    protein sequences (I = L), whatever protein names a tool reports."""

    def __init__(self, sequences):
        self._text = '|'.join(normalise(s) for s in sequences)

    def contains(self, peptide: str) -> bool:
        return normalise(peptide) in self._text


def database_ratio(sample_sequences, entrapment_sequences, missed_cleavages=1):
    """r = distinct entrapment peptides not in the sample / distinct sample peptides."""
    sample = set()
    for s in sample_sequences:
        sample |= tryptic_peptides(s, missed_cleavages)
    entrap = set()
    for s in entrapment_sequences:
        entrap |= tryptic_peptides(s, missed_cleavages)
    entrap -= sample
    return len(entrap) / len(sample) if sample else float('inf'), len(sample), len(entrap)


def _binom_cdf(k, n, p):
    """P(X <= k) for X ~ Binomial(n, p), summed in log space."""
    if p <= 0:
        return 1.0
    if p >= 1:
        return 1.0 if k >= n else 0.0
    total = 0.0
    lp, lq = math.log(p), math.log1p(-p)
    for i in range(0, k + 1):
        total += math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
                          + i * lp + (n - i) * lq)
    return min(1.0, total)


def clopper_pearson(k, n, confidence=0.95):
    """Exact two-sided interval for a binomial proportion k / n (bisection on the CDF).

    >>> lo, hi = clopper_pearson(0, 50); round(lo, 4), round(hi, 4)
    (0.0, 0.0711)
    >>> lo, hi = clopper_pearson(2, 60); round(lo, 4), round(hi, 4)
    (0.0041, 0.1153)
    """
    if n == 0:
        return 0.0, 1.0
    alpha = 1.0 - confidence

    def bisect(f, target):  # f increasing in p
        lo, hi = 0.0, 1.0
        for _ in range(60):
            mid = (lo + hi) / 2
            if f(mid) < target:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    lower = 0.0 if k == 0 else bisect(lambda p: 1.0 - _binom_cdf(k - 1, n, p), alpha / 2)
    upper = 1.0 if k == n else bisect(lambda p: 1.0 - _binom_cdf(k, n, p), 1.0 - alpha / 2)
    return lower, upper


@dataclass
class Estimate:
    n_t: int
    n_e: int
    r: float
    fdp: float
    low: float
    high: float

    def holds(self, level=0.01) -> bool:
        """The estimate does not exceed `level` beyond its interval."""
        return self.low <= level

    def text(self) -> str:
        if self.n_t + self.n_e == 0:
            return 'N_T 0, N_E 0'
        return (f'N_T {self.n_t}, N_E {self.n_e}: {100 * self.fdp:.1f}% '
                f'[{100 * self.low:.1f}-{100 * self.high:.1f}]')


def combined_estimate(n_t, n_e, r) -> Estimate:
    """N_E (1 + 1/r) / (N_T + N_E) with its Clopper-Pearson interval.

    >>> e = combined_estimate(58, 2, 1.0); round(e.fdp, 4), e.holds()
    (0.0667, True)
    >>> combined_estimate(300, 12, 1.0).holds()
    False
    """
    n = n_t + n_e
    scale = 1.0 + 1.0 / r
    if n == 0:
        return Estimate(0, 0, r, 0.0, 0.0, 0.0)
    lo, hi = clopper_pearson(n_e, n)
    return Estimate(n_t, n_e, r, n_e * scale / n, lo * scale, hi * scale)


def pooled_estimate(estimates) -> Estimate:
    """The combined estimate over several runs: sum of N_E (1 + 1/r_i) over sum of N_T + N_E;
    the interval is the Clopper-Pearson interval of the pooled N_E / N times the smallest and
    the largest (1 + 1/r_i) (r is then reported as the smallest r_i).

    >>> e = pooled_estimate([combined_estimate(50, 1, 100.0), combined_estimate(80, 2, 4.0)])
    >>> e.n_t, e.n_e, round(e.fdp, 4)
    (130, 3, 0.0264)
    """
    estimates = [e for e in estimates if e is not None]
    n_t = sum(e.n_t for e in estimates)
    n_e = sum(e.n_e for e in estimates)
    n = n_t + n_e
    if n == 0:
        return Estimate(0, 0, 0.0, 0.0, 0.0, 0.0)
    scales = [1.0 + 1.0 / e.r for e in estimates]
    lo, hi = clopper_pearson(n_e, n)
    fdp = sum(e.n_e * s for e, s in zip(estimates, scales)) / n
    return Estimate(n_t, n_e, min(e.r for e in estimates), fdp, lo * min(scales),
                    hi * max(scales))
