// PeptideIndex: every unique peptide form of the database, sorted by neutral mass, with the
// proteins each occurs in. Built once per job from the proteins held in RAM; then read-only and
// safe to share between threads (scorers hold a const reference or shared_ptr<const>).
#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "scoring/modification.hpp"
#include "scoring/peptide.hpp"
#include "scoring/protein.hpp"
#include "scoring/search_parameters.hpp"

namespace ionflow {

struct PeptideIndex {
  std::vector<Protein> proteins;            // targets and decoys
  std::vector<Modification> modifications;  // fixed then variable, as PlacedModification indexes
  std::vector<Peptide> peptides;            // ascending neutral_mass_da

  // Half-open index range [first, last) of peptides with neutral mass in [lo_da, hi_da].
  std::pair<size_t, size_t> mass_range(double lo_da, double hi_da) const;
};

// Digests `proteins` with params.database (enzyme, missed cleavages, lengths, mass bounds,
// N-terminal Met clipping), places fixed and variable modifications, adds decoys as configured,
// merges identical peptide forms (I and L equal) and sorts by neutral mass.
// Throws std::invalid_argument for impossible parameters (unknown enzyme, min > max).
std::shared_ptr<const PeptideIndex> build_peptide_index(std::vector<Protein> proteins,
                                                         const SearchParameters& params);

}  // namespace ionflow
