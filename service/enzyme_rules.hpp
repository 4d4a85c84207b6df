// Enzyme rules by name: the cleavage rule (Sage's cleave_at / restrict / c_terminal) of each
// enzyme name a job message may give, so that `"enzyme": "lys-c"` and Sage's
// `"database.enzyme": {"cleave_at": "K", "restrict": "P"}` describe the same digestion.
//
// Sources: Mascot's enzyme definitions (matrixscience.com, "Enzymes" help page: Trypsin,
// Trypsin/P, Lys-C, LysN, Arg-C, Asp-N, V8-E = Glu-C, Chymotrypsin) and ExPASy PeptideCutter.
// Asp-N is restricted to D (Mascot adds B, which has no defined mass here). "no-enzyme" is Sage's
// non-enzymatic digestion (cleave_at ""): every sub-sequence within the length limits;
// "no-cleavage" is Sage's cleave_at "$": each protein is one peptide. The names and rules are
// those scoring/enzyme.hpp implements; this table only translates between the two spellings.
// Thread-safe (immutable table).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ionflow {

struct EnzymeRule {
  std::string name;        // canonical lower-case name, e.g. "trypsin"
  std::string cleave_at;   // residues at which to cleave
  std::string restrict;    // no cleavage when the residue after the site is one of these
  bool c_terminal = true;  // cleave after (true) or before (false) cleave_at residues
};

// The rule for a name (case-insensitive: "Trypsin", "LYS-C"); nullopt if unknown.
std::optional<EnzymeRule> find_enzyme_rule(std::string_view name);
// The named rule with exactly this cleavage rule (residue order ignored); nullopt if none.
std::optional<EnzymeRule> find_enzyme_rule_by_rule(std::string_view cleave_at,
                                                   std::string_view restrict, bool c_terminal);
// "trypsin, trypsin/p, lys-c, ..." for error messages.
std::string enzyme_rule_names();

}  // namespace ionflow
