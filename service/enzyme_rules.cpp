#include "service/enzyme_rules.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace ionflow {

namespace {

const std::vector<EnzymeRule>& rules() {
  static const std::vector<EnzymeRule> k = {
      {"trypsin", "KR", "P", true}, {"trypsin/p", "KR", "", true},
      {"lys-c", "K", "P", true},    {"lys-n", "K", "", false},
      {"arg-c", "R", "P", true},    {"asp-n", "D", "", false},
      {"glu-c", "E", "P", true},    {"chymotrypsin", "FLWY", "P", true},
      {"no-enzyme", "", "", true},  {"no-cleavage", "$", "", true},
  };
  return k;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string sorted(std::string_view s) {
  std::string out(s);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

std::optional<EnzymeRule> find_enzyme_rule(std::string_view name) {
  std::string n = lower(name);
  if (n == "nonspecific" || n == "unspecific" || n == "unspecific cleavage") n = "no-enzyme";
  for (const auto& r : rules()) {
    if (r.name == n) return r;
  }
  return std::nullopt;
}

std::optional<EnzymeRule> find_enzyme_rule_by_rule(std::string_view cleave_at,
                                                   std::string_view restrict, bool c_terminal) {
  for (const auto& r : rules()) {
    // Sage's "" (every bond) and "$" (no bond) ignore restrict and c_terminal.
    bool special = r.cleave_at.empty() || r.cleave_at == "$";
    if (sorted(r.cleave_at) == sorted(cleave_at) &&
        (special || (sorted(r.restrict) == sorted(restrict) && r.c_terminal == c_terminal))) {
      return r;
    }
  }
  return std::nullopt;
}

std::string enzyme_rule_names() {
  std::string out;
  for (const auto& r : rules()) {
    if (!out.empty()) out += ", ";
    out += r.name;
  }
  return out;
}

}  // namespace ionflow
