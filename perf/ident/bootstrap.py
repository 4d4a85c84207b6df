"""Paired bootstrap of two engines' PSM counts at 1% FDR on the same spectra.

A search's count at 1% (D/T, perf/compare/fdr.py) on a run of 20-30 accepted PSMs moves by
several with where one decoy falls; whether one engine's lead over another is more than that is
a question about the run's spectra as a sample. The bootstrap (Efron & Tibshirani 1993, "An
Introduction to the Bootstrap", ch. 6, percentile interval) draws the run's spectra with
replacement, counts both engines on the same draw (paired: a spectrum drawn twice counts twice
for both) and reports the percentile interval of the difference.

Input: each engine's best PSM per spectrum (fdr.best_per_spectrum), keyed by the spectrum key
all engines share. Spectra are drawn from the union of both engines' keys (a spectrum neither
engine matched adds nothing to either count). The draws come from random.Random(seed): the
same inputs give the same interval.
"""
from dataclasses import dataclass
import random

import fdr


@dataclass
class Difference:
    observed: int     # count(a) - count(b) on the run itself
    low: float        # 2.5th percentile of the bootstrap differences
    high: float       # 97.5th percentile
    share_a_at_least_b: float  # share of the draws where count(a) >= count(b)

    def text(self):
        return f'{self.observed:+d} [{self.low:+.0f} to {self.high:+.0f}], ' \
               f'{100 * self.share_a_at_least_b:.0f}% >= 0'


def _blocks(best, index):
    """best PSMs sorted by key, grouped into tie blocks: per block (target spectra, decoy
    spectra) as indices into the spectra (index: spectrum key -> index)."""
    ranked = sorted(best, key=lambda p: p.key())
    blocks, last = [], None
    for p in ranked:
        if not blocks or p.key() != last:
            blocks.append(([], []))
            last = p.key()
        blocks[-1][1 if p.is_decoy else 0].append(index[p.spectrum])
    return blocks


def weighted_count(blocks, weight, threshold=0.01):
    """Target PSMs at q <= threshold when spectrum i counts weight[i] times: fdr.q_values' rule
    (cumulative D/T after each tie block, running minimum from the bottom) on weighted counts.

    >>> blocks = [([0], []), ([1], []), ([3], [2]), ([4], [])]
    >>> weighted_count(blocks, [1, 1, 1, 1, 1], 0.01)
    2
    >>> weighted_count(blocks, [2, 0, 1, 1, 3], 0.2)
    6
    """
    fdrs, targets_per_block = [], []
    targets = decoys = 0
    for target_spectra, decoy_spectra in blocks:
        t = sum(weight[i] for i in target_spectra)
        decoys += sum(weight[i] for i in decoy_spectra)
        targets += t
        fdrs.append(decoys / targets if targets else 1.0)
        targets_per_block.append(t)
    accepted, running = 0, float('inf')
    for q, t in zip(reversed(fdrs), reversed(targets_per_block)):
        running = min(running, q)
        if running <= threshold:
            accepted += t
    return accepted


def paired_difference(best_a, best_b, resamples=1000, seed=1, threshold=0.01):
    """Count(a) - count(b) at `threshold` with its 95% paired-bootstrap percentile interval.

    >>> P = fdr.Psm
    >>> a = [P('s1', 1e-5, 'PEPK'), P('s2', 1e-4, 'PEPK'), P('s3', 0.1, 'PEPK', [], True)]
    >>> b = [P('s1', 1e-5, 'PEPK'), P('s2', 0.2, 'PEPK'), P('s3', 0.1, 'PEPK', [], True)]
    >>> d = paired_difference(a, b)
    >>> d.observed, d.share_a_at_least_b
    (1, 1.0)
    """
    spectra = sorted({p.spectrum for p in best_a} | {p.spectrum for p in best_b})
    index = {s: i for i, s in enumerate(spectra)}
    blocks_a, blocks_b = _blocks(best_a, index), _blocks(best_b, index)
    n = len(spectra)
    ones = [1] * n
    observed = weighted_count(blocks_a, ones, threshold) - weighted_count(blocks_b, ones,
                                                                          threshold)
    rng = random.Random(seed)
    diffs = []
    for _ in range(resamples):
        weight = [0] * n
        for i in rng.choices(range(n), k=n):
            weight[i] += 1
        diffs.append(weighted_count(blocks_a, weight, threshold) -
                     weighted_count(blocks_b, weight, threshold))
    diffs.sort()
    low = diffs[int(0.025 * (resamples - 1))]
    high = diffs[int(round(0.975 * (resamples - 1)))]
    return Difference(observed, low, high, sum(1 for d in diffs if d >= 0) / resamples)
