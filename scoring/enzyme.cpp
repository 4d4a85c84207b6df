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
// "Chymotrypsin 1 FWYL P").
constexpr NamedRule kRules[] = {
    {"trypsin", "KR", "P", true}, {"trypsin/p", "KR", "", true},       {"lys-c", "K", "P", true},
    {"lys-n", "K", "", false},    {"arg-c", "R", "P", true},           {"asp-n", "D", "", false},
    {"glu-c", "E", "P", true},    {"chymotrypsin", "FWYL", "P", true},
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
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

std::vector<std::string> known_enzyme_names() {
  std::vector<std::string> names;
  for (const auto& rule : kRules) names.emplace_back(rule.name);
  names.emplace_back("no-enzyme");
  names.emplace_back("no-cleavage");
  names.emplace_back("custom");
  return names;
}

Enzyme::Enzyme(const EnzymeParameters& params) {
  std::string name = lower(params.name);
  // Common alternative spellings.
  if (name == "trypsin/p" || name == "trypsinp") name = "trypsin/p";
  if (name == "lysc" || name == "lys_c") name = "lys-c";
  if (name == "lysn" || name == "lys_n") name = "lys-n";
  if (name == "argc" || name == "arg_c") name = "arg-c";
  if (name == "aspn" || name == "asp_n") name = "asp-n";
  if (name == "gluc" || name == "glu_c" || name == "v8") name = "glu-c";
  if (name == "nonspecific" || name == "unspecific" || name == "unspecific cleavage" ||
      name == "non-specific" || name == "no_enzyme") {
    name = "no-enzyme";
  }
  if (name == "no cleavage" || name == "no_cleavage") name = "no-cleavage";
  name_ = name;

  if (name == "no-enzyme") {
    every_bond_ = true;
    return;
  }
  if (name == "no-cleavage") {
    no_bond_ = true;
    return;
  }
  if (name == "custom") {
    if (params.cleave_at.empty()) {  // Sage: "" = non-specific
      every_bond_ = true;
      return;
    }
    if (params.cleave_at == "$") {  // Sage: "$" = no digestion
      no_bond_ = true;
      return;
    }
    fill(cleave_, params.cleave_at, "cleave_at");
    fill(restrict_, params.restrict, "restrict");
    c_terminal_ = params.c_terminal;
    return;
  }
  for (const auto& rule : kRules) {
    if (name == rule.name) {
      fill(cleave_, rule.cleave_at, "cleave_at");
      fill(restrict_, rule.restrict, "restrict");
      c_terminal_ = rule.c_terminal;
      return;
    }
  }
  std::string known;
  for (const auto& n : known_enzyme_names()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown enzyme '" + params.name + "'; known enzymes: " + known);
}

}  // namespace ionflow
