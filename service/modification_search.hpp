// Modification search: Unimod names as Mascot writes them ("Oxidation (M)", "Acetyl (Protein
// N-term)"), found as a user types, for the web page's modification fields
// (GET /v1/modifications?q=TEXT&limit=N). Every suggestion is a name the job message accepts
// (Unimod::resolve), one per Unimod entry and site.
//
// Ranking, case-insensitive: a name starting with the text first, then a title starting with it,
// then a title or full name containing it; within a rank, sites Unimod does not hide before
// hidden ones, then by accession (the common, low-numbered entries first), then by name. An
// empty text lists the common ones (hidden = false) by accession. "UNIMOD:35" finds accession 35.
// Answer: {"modifications": [{"name", "title", "full_name", "accession", "mono_mass_da",
//   "hidden"}, ...]} with at most `limit` (1..200) entries.
// Thread-safety: search() may be called from any thread (the list is immutable).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "scoring/unimod.hpp"
#include "service/json_value.hpp"

namespace ionflow {

class ModificationSearch {
 public:
  // Lists every entry and site of `unimod` (parses its whole file; throws as Unimod::choices()).
  explicit ModificationSearch(const Unimod& unimod);

  struct Suggestion {
    std::string name;  // "Oxidation (M)"
    std::string title;
    std::string full_name;
    int accession = 0;
    double mono_mass_da = 0.0;
    bool hidden = false;
  };
  std::vector<Suggestion> search(std::string_view text, size_t limit) const;
  JsonValue search_json(std::string_view text, size_t limit) const;

 private:
  std::vector<Suggestion> all_;
  std::vector<std::string> lower_name_, lower_title_, lower_full_;
};

}  // namespace ionflow
