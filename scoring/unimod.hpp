// Unimod: resolves modification names as users write them in Mascot, against unimod.xml
// (Debian's openms-common ships /usr/share/openms/CHEMISTRY/unimod.xml; IONFLOW_UNIMOD_XML).
//
// Accepted forms (case-insensitive name and terminus words, site in parentheses, Mascot style;
// residue letters are kept as given, so "Oxidation (m)" has residue 'm', which the caller refuses
// as it refuses "B": service/job_message's check_residues):
//   "Oxidation (M)", "Phospho (STY)", "Carbamidomethyl (C)", "Acetyl (Protein N-term)",
//   "Gln->pyro-Glu (N-term Q)", "Amidated (C-term)", "TMT6plex (K)", "TMT6plex (N-term)",
//   "UNIMOD:35 (M)", and explicit masses "+15.9949 (M)" / "15.9949@M" (name empty, accession 0).
// Errors: std::invalid_argument whose message names the text and, for unknown names, lists
// the closest Unimod titles ("unknown modification 'Oxidaton'; did you mean: Oxidation, ...").
// A site that Unimod does not list for that modification is accepted with a warning-free rule:
// the user's site wins (as Mascot's custom sites do).
//
// Cost: every search job constructs one, so the constructor only reads the file (2.4 MB) and
// indexes the <umod:mod> titles by a raw text scan (~1 ms); a name that is a Unimod title (the
// common "Carbamidomethyl (C)", "Oxidation (M)") is answered by parsing just that element. The
// whole-file XML parse (~20 ms) is lazy: it runs at most once, at the first look-up that needs
// it: a full name ("Oxidation or Hydroxylation"), an alternative name, a "UNIMOD:n" accession,
// an unknown name (for its suggestions), titles() or parse_whole_file().
// Thread-safe after construction: const methods may be called from several threads (the lazy
// parse is guarded by std::call_once).
// A malformed unimod.xml is reported when the whole file is parsed, as std::runtime_error naming
// the path, line, byte and expat's message. The constructor parses it at once when the scan
// cannot vouch for the file: no <umod:mod> element, or the scan does not reach the root
// element's end tag (a truncated file never answers the titles read before the cut). Otherwise
// the first look-up that needs the full parse (or whose element does not parse alone) reports
// it; damage the scan does not see (e.g. a mismatched tag inside an element never looked up)
// leaves the elements that parse alone usable. Call parse_whole_file() to check every byte.
// An entry whose <umod:delta mono_mass> is not a number is refused when used (std::runtime_error
// naming the path, the modification and the value), never read as 0 Da.
//
// Naming a modification given by mass (Sage's static_mods {"C": 57.021464}, "+15.9949 (M)"):
// named_by_mass() gives it the title and accession of the one Unimod entry whose delta
// (<umod:delta mono_mass>) is within the tolerance and that lists every site of it
// (<umod:specificity site position>; a protein terminus also accepts Unimod's "Any N-term").
// Entries listing the sites as visible (hidden="0") come first; only when none matches do
// hidden specificities count (Unimod's rarer sites, e.g. Methyl on K). Two or more matches leave
// it a mass: Dimethyl, Ethyl and Delta:H(4)C(2) (28.0313 Da, hidden on K) stay "+28.0313".
// The search keeps the user's mass; only the name and accession are added.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "scoring/modification.hpp"

namespace ionflow {

// One Unimod entry with the sites it lists, for choosing a modification by name (the service's
// search-as-you-type). mascot_name() writes a site the way resolve() reads it back:
// "Oxidation (M)", "Acetyl (Protein N-term)", "Gln->pyro-Glu (N-term Q)", "Amidated (C-term)".
struct UnimodChoice {
  struct Site {
    std::string site;      // <umod:specificity site>: a residue, "N-term" or "C-term"
    std::string position;  // "Anywhere", "Any N-term", "Any C-term", "Protein N-term", ...
    bool hidden = false;   // Unimod's hidden="1": a rare site Mascot lists only on request
  };
  std::string title;      // "Oxidation"
  std::string full_name;  // "Oxidation or Hydroxylation"
  int accession = 0;      // 35
  double mono_mass_da = 0.0;
  std::vector<Site> sites;

  static std::string mascot_name(const std::string& title, const Site& site);
};

// Tolerance for naming a modification given by mass, Da. It accepts a mass given to 3 decimals
// (rounding error <= 0.0005 Da; "15.995" for Oxidation's 15.994915) and is under half the
// smallest gap between two different deltas at one visible site in Debian's unimod.xml
// (0.001786 Da: iTRAQ8plex 304.20536 and TMTpro 304.207146 on K), so a mass is never within it
// of two different deltas there; only entries of one delta (isomers) can make it ambiguous.
inline constexpr double kUnimodMassToleranceDa = 0.0005;

// A Unimod entry that a mass matches (title, record id, its <umod:delta mono_mass> in Da).
struct UnimodMatch {
  std::string title;
  int accession = 0;
  double mono_mass_da = 0.0;
};

class Unimod {
 public:
  // Reads unimod.xml and indexes its titles (the whole-file parse is lazy, see above). Throws
  // std::runtime_error naming the path if unreadable, and, if the file has no <umod:mod>
  // element or is truncated, its XML error (line, byte) or "has no <umod:mod> entries".
  explicit Unimod(const std::string& unimod_xml_path = IONFLOW_UNIMOD_XML);
  ~Unimod();
  Unimod(const Unimod&) = delete;
  Unimod& operator=(const Unimod&) = delete;

  // Resolves one modification text (see forms above). Throws std::invalid_argument; and
  // std::runtime_error (path, line, byte) if it needed the whole-file parse and that failed.
  Modification resolve(std::string_view text, bool fixed) const;

  // Monoisotopic delta (Da) and accession of a Unimod title (or full or alternative name),
  // e.g. "Oxidation" -> 15.994915, 35. Throws std::invalid_argument if unknown, and
  // std::runtime_error as resolve() does.
  std::pair<double, int> lookup(std::string_view title) const;

  // Parses the whole file now instead of at the first look-up that needs it, e.g. for a
  // long-running service to validate unimod.xml at start-up. Throws std::runtime_error naming
  // the path, line and byte if the file is not well-formed XML (every call, not only the first).
  void parse_whole_file() const;

  // True once the whole file has been parsed (for tests and diagnostics: a title look-up leaves
  // it false).
  bool whole_file_parsed() const;

  // The entries matching `m`'s mass (within tolerance_da) and every one of its sites, in file
  // order: those listing the sites visibly, or when there are none, those listing them hidden
  // (see above). Parses the whole file; throws as parse_whole_file().
  std::vector<UnimodMatch> matches_by_mass(const Modification& m,
                                           double tolerance_da = kUnimodMassToleranceDa) const;

  // `m` with the name and accession of its one match (matches_by_mass), mass, position,
  // residues and fixed unchanged; `m` itself when it already has a name or accession, or when
  // zero or several entries match. Throws as parse_whole_file().
  Modification named_by_mass(const Modification& m,
                             double tolerance_da = kUnimodMassToleranceDa) const;

  // Every <umod:mod> title in file order (parses the whole file; throws as parse_whole_file()).
  std::vector<std::string> titles() const;

  // Every entry with a usable mass and its sites, in file order (parses the whole file; throws
  // as parse_whole_file()).
  std::vector<UnimodChoice> choices() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ionflow
