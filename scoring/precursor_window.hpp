// The precursor window: the theoretical neutral masses (Da) a peptide may have to match a query
// of neutral mass `query_neutral_mass_da` at C13 isotope error `isotope_error` (0, +1, ...) under
// the job's precursor tolerance. The one rule the scorer's candidate windows
// (spectrum_scorer.cpp), the fragment index's windows (fragment_index.cpp: precursor_windows)
// and the peptide selection (precursor_selection.cpp) share, so they agree to the last bit.
// C13-C12 spacing: mass::kC13C12Spacing (scoring/mass.hpp). Pure, thread-safe.
#pragma once

#include <utility>

#include "scoring/mass.hpp"
#include "scoring/search_parameters.hpp"

namespace ionflow {

// [lo, hi] in Da: the tolerance's theoretical_range of the query mass less the isotope shift.
inline std::pair<double, double> precursor_window_da(const SearchParameters& params,
                                                     double query_neutral_mass_da,
                                                     int isotope_error) {
  const double observed = query_neutral_mass_da - isotope_error * mass::kC13C12Spacing;
  return params.precursor_tolerance.theoretical_range(observed);
}

}  // namespace ionflow
