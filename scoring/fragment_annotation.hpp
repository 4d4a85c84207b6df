// Fragment annotation: which measured peak each theoretical fragment matched, for showing one
// PSM (the service's spectrum view), by the scorer's own rule and look-up (PeakTable::best,
// hyperscore.hpp): a fragment matches the most intense prepared peak within the fragment
// tolerance, the lowest m/z winning ties. So annotate_fragments(...).size() ==
// match_fragments(...).total_matched for the same peaks, fragments and tolerance (tested), which is
// results.tsv's `matched_peaks`.
//
// Units: m/z in Th, errors in Da (observed − theoretical) and ppm (of the theoretical m/z).
// Thread-safe: a pure function. Allocates only its result.
#pragma once

#include <cstdint>
#include <vector>

#include "scoring/ion_series.hpp"
#include "scoring/query.hpp"
#include "scoring/tolerance.hpp"

namespace ionflow {

struct FragmentMatch {
  Fragment fragment;       // the theoretical ion (type, ordinal, charge, m/z)
  uint32_t peak = 0;       // index into the peaks given
  double error_da = 0.0;   // peak m/z − fragment m/z, Th
  double error_ppm = 0.0;  // error_da / fragment m/z · 1e6
};

// One FragmentMatch per matched fragment, in the order of `fragments`. `peaks` ascending in m/z.
std::vector<FragmentMatch> annotate_fragments(const std::vector<Peak>& peaks,
                                              const std::vector<Fragment>& fragments,
                                              const Tolerance& fragment_tolerance);

// "b", "y", "a", "c", "z" (z = z-dot).
const char* ion_type_letter(IonType type);

}  // namespace ionflow
