// One pass over a peptide's fragments that makes each fragment's m/z and at once matches it
// (PeakTable, the hyperscore's peaks) and adds its XCorr bin (XcorrSpectrum), without writing
// the fragments out: the same FragmentMatches and XCorr as fragment_ions() followed by
// PeakTable::match() and XcorrSpectrum::score(), to the bit.
//
// The m/z are fragment_ions()'s (the same additions and divisions in the same order); the
// matched intensities are an integer sum of exact units (exact_units.hpp), which equals their
// double sum in fragment order; the XCorr values and a candidate's ppm errors are added in
// fragment order. When the intensities could not be summed exactly (PeakTable::exact_for false,
// also for a ppm-tolerance PeakTable, which scans) score_fragments() returns false and the
// caller takes the general path.
//
// Thread-safety: the function keeps one thread_local scratch buffer and writes the XcorrSpectrum's
// per-candidate scratch (XcorrSpectrum::bins()): one XcorrSpectrum per thread.
#pragma once

#include "scoring/hyperscore.hpp"
#include "scoring/ion_series.hpp"
#include "scoring/peak_table.hpp"
#include "scoring/xcorr.hpp"

namespace ionflow {

struct FragmentScores {
  FragmentMatches matches;  // as PeakTable::match(fragments, with_ppm)
  double xcorr = 0.0;       // as XcorrSpectrum::score(fragments)
  int fragments = 0;        // fragments made (fragment_ions' count)
};

// Scores the fragments of `residues` (`types` at charges 1..max_fragment_charge, as
// fragment_ions() makes them) against the prepared `table` and `xcorr`; false (and `out`
// unspecified) when the general path must be taken.
bool score_fragments(const ModifiedResidues& residues, IonTypes types, int max_fragment_charge,
                     const PeakTable& table, const XcorrSpectrum& xcorr, bool with_ppm,
                     FragmentScores& out);

}  // namespace ionflow
