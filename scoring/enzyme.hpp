// Enzyme: the cleavage rule of a protease, as a per-residue table that digestion (digest.hpp)
// asks "is the bond before residue i a cleavage site?".
//
// Named rules (case-insensitive; sources in enzyme.cpp next to each rule):
//   trypsin       C-terminal to K/R, not before P          (Sage default "KR"/"P"; Comet Trypsin)
//   trypsin/p     C-terminal to K/R, also before P         (MaxQuant "Trypsin/P"; Comet Trypsin/P)
//   lys-c         C-terminal to K, not before P            (Comet Lys_C "K P")
//   lys-n         N-terminal to K                          (Comet Lys_N "K -")
//   arg-c         C-terminal to R, not before P            (Comet Arg_C "R P")
//   asp-n         N-terminal to D                          (Comet Asp_N "D -")
//   glu-c         C-terminal to E, not before P            (E only: Glu-C in bicarbonate buffer,
//                 Drapeau et al. 1972, J Biol Chem 247:6720; Expasy PeptideCutter "Glu-C").
//                 For phosphate buffer (E and D) use "custom" with cleave_at "DE".
//   chymotrypsin  C-terminal to F/W/Y/L, not before P      (Comet Chymotrypsin "FWYL P"; the
//                 low-specificity form of Expasy PeptideCutter, without its M and H rules)
//   no-enzyme     every peptide bond (Sage's cleave_at "")
//   no-cleavage   no bond: the whole protein is one peptide (Sage's cleave_at "$")
//   custom        EnzymeParameters::cleave_at / restrict / c_terminal with Sage's meaning:
//                 cleave C-terminal (c_terminal) or N-terminal to each cleave_at residue, unless
//                 the residue after the site is in `restrict` (for N-terminal enzymes, unless
//                 the residue BEFORE the site is in `restrict`; Sage checks the residue after the
//                 cut, which for an N-terminal enzyme is the cleave_at residue itself). Sage's
//                 special values: cleave_at "" = every bond, "$" = no bond.
// Aliases (canonical_enzyme_name): trypsinp; lysc, lys_c; lysn, lys_n; argc, arg_c; aspn, asp_n;
// gluc, glu_c, v8; nonspecific, non-specific, unspecific, unspecific cleavage, no_enzyme (=
// no-enzyme); no cleavage, no_cleavage (= no-cleavage). This is the one table of enzyme names:
// the job message (service/job_message) translates between names and Sage's cleave_at /
// restrict / c_terminal with find_enzyme_rule and find_enzyme_rule_by_rule.
// Immutable after construction; thread-safe to share. Errors: std::invalid_argument.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scoring/search_parameters.hpp"

namespace ionflow {

class Enzyme {
 public:
  // Builds the rule named by params.name (see above); "custom" reads cleave_at, restrict and
  // c_terminal. Throws std::invalid_argument for an unknown name (listing the known names) or a
  // custom residue that is not an upper- or lower-case letter.
  explicit Enzyme(const EnzymeParameters& params);

  // Canonical lower-case name, e.g. "trypsin", "custom".
  const std::string& name() const { return name_; }
  // True for no-enzyme: every bond is a site (missed cleavages do not apply).
  bool cleaves_every_bond() const { return every_bond_; }
  // True for no-cleavage: no bond is a site.
  bool cleaves_no_bond() const { return no_bond_; }
  // True when sites are after the cleave_at residues (trypsin, Lys-C, Glu-C...), so that the
  // peptides end in one of them; false for Lys-N and Asp-N, whose peptides start with one.
  bool cleaves_c_terminal() const { return c_terminal_; }

  // True if the bond between sequence[i - 1] and sequence[i] is a cleavage site.
  // REQUIRES: 1 <= i < sequence.size().
  bool is_site(std::string_view sequence, size_t i) const {
    const auto before = static_cast<unsigned char>(sequence[i - 1]);
    const auto after = static_cast<unsigned char>(sequence[i]);
    // `&` rather than `&&`: no branch on the residues (digest() compacts sites branch-free).
    const unsigned site = c_terminal_ ? cleave_[before] : cleave_[after];
    const unsigned restricted = c_terminal_ ? restrict_[after] : restrict_[before];
    return (site & (restricted ^ 1u)) != 0;
  }

 private:
  std::string name_;
  bool c_terminal_ = true;
  bool every_bond_ = false;
  bool no_bond_ = false;
  std::array<bool, 256> cleave_{};
  std::array<bool, 256> restrict_{};
};

// The names Enzyme accepts (canonical spellings), e.g. for error messages and the CLI help.
std::vector<std::string> known_enzyme_names();

// A named rule in Sage's terms.
struct EnzymeRule {
  std::string name;        // canonical lower-case name, e.g. "trypsin"
  std::string cleave_at;   // residues at which to cleave ("" every bond, "$" none)
  std::string restrict;    // no cleavage when the residue after the site is one of these
  bool c_terminal = true;  // cleave after (true) or before (false) cleave_at residues
};

// The canonical spelling of a name or alias, lower case ("LysC" -> "lys-c"); other names are
// returned lower-cased.
std::string canonical_enzyme_name(std::string_view name);
// The rule for a name or alias (case-insensitive: "Trypsin", "LYS-C"); nullopt if unknown, also
// for "custom".
std::optional<EnzymeRule> find_enzyme_rule(std::string_view name);
// The named rule with exactly this cleavage rule (residue order ignored); nullopt if none.
std::optional<EnzymeRule> find_enzyme_rule_by_rule(std::string_view cleave_at,
                                                   std::string_view restrict, bool c_terminal);
// Whether two residue lists (cleave_at or restrict, e.g. "KR" and "RK") name the same residues:
// order and repeats are ignored. The one comparison of rules given in Sage's fields.
bool same_residues(std::string_view a, std::string_view b);
// "trypsin, trypsin/p, lys-c, ..." (the named rules, without "custom") for error messages.
std::string enzyme_rule_names();

}  // namespace ionflow
