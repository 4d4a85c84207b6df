// Hyperscore: X!Tandem's peptide-spectrum score (Fenyö & Beavis 2003, Anal. Chem. 75:768–774;
// Craig & Beavis 2004, Bioinformatics 20:1466), and the fragment matching it is computed from.
//
// Matching: every theoretical fragment (ion_series.hpp) is looked up among the prepared peaks
// (ascending m/z) by binary search at the start of each ascending run of fragments and by a
// forward walk within the run; it matches the most intense peak within the fragment
// tolerance (Da or ppm, Tolerance::bounds of the fragment m/z). The theoretical intensity is 1,
// so the dot product is the sum of the matched peaks' prepared intensities.
//
// Formula used (log10 of X!Tandem's product, so scores add instead of multiply):
//     hyperscore = log10( Σ_matched I_i  ·  Π_t N_t! )
//                = log10(Σ I_i) + Σ_t log10(N_t!)
// where t runs over the ion types searched (a, b, c, y, z·) and N_t is the number of matched
// fragments of type t (all fragment charges together). I_i are the prepared intensities
// (base peak 100, square-root transformed; see spectrum_preparation.hpp). No match -> 0.
//
// Thread-safe: pure functions; match_fragments() allocates nothing.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "scoring/ion_series.hpp"
#include "scoring/query.hpp"
#include "scoring/tolerance.hpp"

namespace ionflow {

// Most intense prepared peaks the hyperscore matches against, by fragment resolution:
//  - kHyperscorePeaks = 50 for low-resolution fragment windows: X!Tandem's default
//    "spectrum, total peaks" (measured: 50 beats 40, 75 and 150 on BSA1-3 and Ecoli, ±0.5 Da);
//  - kHighResolutionHyperscorePeaks = 100 when the window is at most
//    kHighResolutionWindowDa wide (at 1000 Th for a ppm window): a random fragment lands on a
//    peak about 25 times less often at ±0.02 Da than at ±0.5 Da, so the peaks below the 50th
//    that carry fragments (HCD spectra of 100-450 peaks) add more than they let in. Measured
//    (perf/ident, 2026-12-04, the five high-resolution runs x own and entrapment database,
//    ionflow's own q at 1% FDR): 50 peaks 376 PSMs, 100 peaks 401, 150 peaks 406; pooled
//    entrapment of the own q 1.2% at 100 and 150 (0.9% at 50); by E-value through the common
//    script 415 / 418 / 422 PSMs with 10 / 10 / 14 entrapment PSMs. 100 is the cautious one.
inline constexpr size_t kHyperscorePeaks = 50;
inline constexpr size_t kHighResolutionHyperscorePeaks = 100;
inline constexpr double kHighResolutionWindowDa = 0.2;

// How many peaks select_hyperscore_peaks keeps for `fragment_tolerance` (rule above).
size_t hyperscore_peak_count(const Tolerance& fragment_tolerance);

// The `count` most intense of `peaks` (ties: the lower m/z), ascending m/z, into `out` (all of
// them when there are no more). The scorer matches fragments against these, with
// count = hyperscore_peak_count(fragment tolerance).
void select_hyperscore_peaks(const std::vector<Peak>& peaks, size_t count, std::vector<Peak>& out);

// log10(n!) for n >= 0 (table up to 255, Stirling's series beyond).
double log10_factorial(int n);

// What matching one candidate's fragments against a spectrum found.
struct FragmentMatches {
  double summed_intensity = 0.0;             // Σ prepared intensities of matched peaks
  std::array<int, kIonTypeCount> matched{};  // matched fragments per IonType
  int total_matched = 0;
  double summed_abs_ppm = 0.0;  // Σ |observed − theoretical| / theoretical · 1e6
};

// Matches `fragments` against `peaks` (ascending m/z) within `fragment_tolerance`.
FragmentMatches match_fragments(const std::vector<Peak>& peaks,
                                const std::vector<Fragment>& fragments,
                                const Tolerance& fragment_tolerance);

// The hyperscore of a match (formula above); 0 when nothing matched.
double hyperscore(const FragmentMatches& matches);

}  // namespace ionflow
