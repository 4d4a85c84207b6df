#include "scoring/enzyme.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace ionflow {
namespace {

struct NamedRule {
  const char* name;
  const char* cleave_at;
  const char* restrict;
  bool c_terminal;
};

// Sources: see enzyme.hpp. Comet's rules are from the enzyme table of its default comet.params
// ("Trypsin 1 KR P", "Lys_C 1 K P", "Lys_N 0 K -", "Arg_C 1 R P", "Asp_N 0 D -",
// "Chymotrypsin 1 FWYL P"); Sage's special cleave_at values "" (every bond) and "$" (no bond).
constexpr NamedRule kRules[] = {
    {"trypsin", "KR", "P", true}, {"trypsin/p", "KR", "", true},
    {"lys-c", "K", "P", true},    {"lys-n", "K", "", false},
    {"arg-c", "R", "P", true},    {"asp-n", "D", "", false},
    {"glu-c", "E", "P", true},    {"chymotrypsin", "FWYL", "P", true},
    {"no-enzyme", "", "", true},  {"no-cleavage", "$", "", true},
};

// Common alternative spellings -> canonical name.
constexpr std::pair<const char*, const char*> kAliases[] = {
    {"trypsinp", "trypsin/p"},
    {"lysc", "lys-c"},
    {"lys_c", "lys-c"},
    {"lysn", "lys-n"},
    {"lys_n", "lys-n"},
    {"argc", "arg-c"},
    {"arg_c", "arg-c"},
    {"aspn", "asp-n"},
    {"asp_n", "asp-n"},
    {"gluc", "glu-c"},
    {"glu_c", "glu-c"},
    {"v8", "glu-c"},
    {"nonspecific", "no-enzyme"},
    {"non-specific", "no-enzyme"},
    {"unspecific", "no-enzyme"},
    {"unspecific cleavage", "no-enzyme"},
    {"no_enzyme", "no-enzyme"},
    {"no cleavage", "no-cleavage"},
    {"no_cleavage", "no-cleavage"},
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string sorted(std::string_view s) {
  std::string out(s);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

EnzymeRule to_rule(const NamedRule& r) {
  return {r.name, r.cleave_at, r.restrict, r.c_terminal};
}

void fill(std::array<bool, 256>& table, std::string_view residues, const char* field) {
  for (char c : residues) {
    if (!std::isalpha(static_cast<unsigned char>(c))) {
      throw std::invalid_argument(std::string("enzyme ") + field + " '" + std::string(residues) +
                                  "' contains a non-letter '" + c + "'");
    }
    table[static_cast<unsigned char>(std::toupper(static_cast<unsigned char>(c)))] = true;
  }
}

}  // namespace

std::string canonical_enzyme_name(std::string_view name) {
  std::string n = lower(name);
  for (const auto& [alias, canonical] : kAliases) {
    if (n == alias) return canonical;
  }
  return n;
}

std::optional<EnzymeRule> find_enzyme_rule(std::string_view name) {
  const std::string n = canonical_enzyme_name(name);
  for (const NamedRule& r : kRules) {
    if (n == r.name) return to_rule(r);
  }
  return std::nullopt;
}

std::optional<EnzymeRule> find_enzyme_rule_by_rule(std::string_view cleave_at,
                                                   std::string_view restrict, bool c_terminal) {
  for (const NamedRule& r : kRules) {
    // Sage's "" (every bond) and "$" (no bond) ignore restrict and c_terminal.
    const std::string_view at = r.cleave_at;
    const bool special = at.empty() || at == "$";
    if (same_residues(at, cleave_at) &&
        (special || (same_residues(r.restrict, restrict) && r.c_terminal == c_terminal))) {
      return to_rule(r);
    }
  }
  return std::nullopt;
}

bool same_residues(std::string_view a, std::string_view b) {
  return sorted(a) == sorted(b);
}

std::string enzyme_rule_names() {
  std::string out;
  for (const NamedRule& r : kRules) {
    if (!out.empty()) out += ", ";
    out += r.name;
  }
  return out;
}

std::vector<std::string> known_enzyme_names() {
  std::vector<std::string> names;
  for (const NamedRule& r : kRules) names.emplace_back(r.name);
  names.emplace_back("custom");
  return names;
}

Enzyme::Enzyme(const EnzymeParameters& params) {
  name_ = canonical_enzyme_name(params.name);
  std::string cleave_at = params.cleave_at, restrict = params.restrict;
  bool c_terminal = params.c_terminal;
  if (name_ != "custom") {
    const std::optional<EnzymeRule> rule = find_enzyme_rule(name_);
    if (!rule) {
      std::string known;
      for (const auto& n : known_enzyme_names()) known += (known.empty() ? "" : ", ") + n;
      throw std::invalid_argument("unknown enzyme '" + params.name + "'; known enzymes: " + known);
    }
    cleave_at = rule->cleave_at;
    restrict = rule->restrict;
    c_terminal = rule->c_terminal;
  }
  if (cleave_at.empty()) {  // Sage: "" = non-specific
    every_bond_ = true;
    return;
  }
  if (cleave_at == "$") {  // Sage: "$" = no digestion
    no_bond_ = true;
    return;
  }
  fill(cleave_, cleave_at, "cleave_at");
  fill(restrict_, restrict, "restrict");
  c_terminal_ = c_terminal;
}

}  // namespace ionflow
