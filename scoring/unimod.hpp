// Unimod: resolves modification names as users write them in Mascot, against unimod.xml
// (Debian's openms-common ships /usr/share/openms/CHEMISTRY/unimod.xml; IONFLOW_UNIMOD_XML).
//
// Accepted forms (case-insensitive name, site in parentheses, Mascot style):
//   "Oxidation (M)", "Phospho (STY)", "Carbamidomethyl (C)", "Acetyl (Protein N-term)",
//   "Gln->pyro-Glu (N-term Q)", "Amidated (C-term)", "TMT6plex (K)", "TMT6plex (N-term)",
//   "UNIMOD:35 (M)", and explicit masses "+15.9949 (M)" / "15.9949@M" (name empty, accession 0).
// Errors: std::invalid_argument whose message names the text and, for unknown names, lists
// the closest Unimod titles ("unknown modification 'Oxidaton'; did you mean: Oxidation, ...").
// A site that Unimod does not list for that modification is accepted with a warning-free rule:
// the user's site wins (as Mascot's custom sites do). Thread-safe after construction.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "scoring/modification.hpp"

namespace ionflow {

class Unimod {
 public:
  // Loads and indexes unimod.xml. Throws std::runtime_error naming the path if unreadable.
  explicit Unimod(const std::string& unimod_xml_path = IONFLOW_UNIMOD_XML);
  ~Unimod();
  Unimod(const Unimod&) = delete;
  Unimod& operator=(const Unimod&) = delete;

  // Resolves one modification text (see forms above). Throws std::invalid_argument.
  Modification resolve(std::string_view text, bool fixed) const;

  // Monoisotopic delta (Da) and accession of a Unimod title, e.g. "Oxidation" -> 15.994915, 35.
  // Throws std::invalid_argument if unknown.
  std::pair<double, int> lookup(std::string_view title) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ionflow
