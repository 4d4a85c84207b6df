#include "service/job_message_detail.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <system_error>

#include <fcntl.h>
#include <unistd.h>

#include "scoring/mass.hpp"
#include "scoring/modification_spec.hpp"
#include "service/upload_file.hpp"

namespace ionflow::job_message_detail {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// Modifications given as objects (the canonical form in effective_parameters).

const std::vector<std::pair<ModificationPosition, std::string_view>>& position_names() {
  static const std::vector<std::pair<ModificationPosition, std::string_view>> k = {
      {ModificationPosition::kAnywhere, "anywhere"},
      {ModificationPosition::kPeptideNTerm, "peptide_n_term"},
      {ModificationPosition::kPeptideCTerm, "peptide_c_term"},
      {ModificationPosition::kProteinNTerm, "protein_n_term"},
      {ModificationPosition::kProteinCTerm, "protein_c_term"},
  };
  return k;
}

std::string_view position_name(ModificationPosition p) {
  for (const auto& [pos, name] : position_names()) {
    if (pos == p) return name;
  }
  return "anywhere";
}

void check_residues(const std::string& residues, const std::string& path) {
  for (char c : residues) {
    if (mass::residue_mass(c) < 0) {
      fail(path, std::string("invalid residue '") + c + "' (use upper-case one-letter codes)");
    }
  }
}

Modification modification_from_object(const JsonValue& v, const std::string& path,
                                      const Unimod& unimod, bool fixed) {
  Modification m;
  m.fixed = fixed;
  std::optional<double> mass;
  bool have_position = false;
  walk_object(
      v, path,
      {{"name", [&](const JsonValue& x, const std::string& p) { m.name = get_string(x, p); }},
       {"unimod_accession",
        [&](const JsonValue& x, const std::string& p) {
          m.unimod_accession = get_int(x, p, 0, 1000000);
        }},
       {"mass_da", [&](const JsonValue& x, const std::string& p) { mass = get_number(x, p); }},
       {"position",
        [&](const JsonValue& x, const std::string& p) {
          const auto& s = get_string(x, p);
          for (const auto& [pos, name] : position_names()) {
            if (name == s) m.position = pos, have_position = true;
          }
          if (!have_position) {
            fail(p, "unknown position " + json_quote(s) +
                        " (anywhere, peptide_n_term, peptide_c_term, protein_n_term, "
                        "protein_c_term)");
          }
        }},
       {"residues", [&](const JsonValue& x, const std::string& p) {
          m.residues = get_string(x, p);
          check_residues(m.residues, p);
        }}});
  if (!mass) {
    if (m.name.empty()) fail(path, "give mass_da or a Unimod name");
    try {
      auto [delta, accession] = unimod.lookup(m.name);
      mass = delta;
      if (m.unimod_accession == 0) m.unimod_accession = accession;
    } catch (const std::invalid_argument& e) {
      fail(join_path(path, "name"), e.what());
    }
  }
  m.mass_delta_da = *mass;
  if (m.position == ModificationPosition::kAnywhere && m.residues.empty()) {
    fail(join_path(path, "residues"), "required for a modification at position anywhere");
  }
  return m;
}

// `keys` gets the key path of each modification returned ("fixed_modifications[1]").
std::vector<Modification> modification_list(const JsonValue& v, const std::string& path,
                                            const Unimod& unimod, bool fixed,
                                            std::vector<std::string>& keys) {
  std::vector<Modification> out;
  const auto& a = get_array(v, path);
  keys.clear();
  for (size_t i = 0; i < a.size(); ++i) {
    std::string p = index_path(path, i);
    keys.push_back(p);
    if (a[i].is_string()) {
      try {
        out.push_back(unimod.resolve(a[i].as_string(), fixed));
      } catch (const std::exception& e) {
        fail(p, e.what());
      }
      // The same rule as the object form: "Phospho (XYZ)" was accepted here and then refused
      // when the server re-read its effective parameters at job start.
      check_residues(out.back().residues, p);
    } else if (a[i].is_object()) {
      out.push_back(modification_from_object(a[i], p, unimod, fixed));
    } else {
      fail(p, "expected a modification name (\"Oxidation (M)\") or object, got " + got(a[i]));
    }
  }
  return out;
}

// Sage's static_mods {"C": 57.021464} and variable_mods {"M": [15.9949]} / {"M": 15.9949}.
// `keys` gets the key path of each modification returned ("database.variable_mods.M[0]").
std::vector<Modification> sage_modifications(const JsonValue& v, const std::string& path,
                                             bool fixed, std::vector<std::string>& keys) {
  std::vector<Modification> out;
  if (!v.is_object()) fail(path, "expected object, got " + got(v));
  keys.clear();
  for (const auto& [key, value] : v.as_object()) {
    std::string p = join_path(path, key);
    std::vector<double> masses;
    if (value.is_number()) {
      masses.push_back(value.as_double());
      keys.push_back(p);
    } else if (!fixed && value.is_array()) {
      const auto& a = value.as_array();
      for (size_t i = 0; i < a.size(); ++i) {
        masses.push_back(get_number(a[i], index_path(p, i)));
        keys.push_back(index_path(p, i));
      }
    } else {
      fail(p, std::string(fixed ? "expected number (Da)"
                                : "expected number or array of numbers (Da)") +
                  ", got " + got(value));
    }
    for (double mass_da : masses) {
      try {
        out.push_back(modification_from_sage(key, mass_da, fixed));
      } catch (const std::invalid_argument& e) {
        fail(p, e.what());
      }
      check_residues(out.back().residues, p);  // B, J, X, Z have no single mass
    }
  }
  return out;
}

// Two fixed modifications on the same residue or terminus cannot both apply.
void check_fixed_conflicts(const std::vector<Modification>& fixed, const std::string& path) {
  std::set<std::pair<int, char>> seen;
  for (const auto& m : fixed) {
    std::string sites = m.residues.empty() ? std::string(1, '*') : m.residues;
    for (char c : sites) {
      if (!seen.insert({static_cast<int>(m.position), c}).second) {
        fail(path, "two fixed modifications on the same site (" +
                       std::string(position_name(m.position)) +
                       (c == '*' ? "" : std::string(" ") + c) + ")");
      }
    }
  }
}

namespace {

// Two modification masses closer than this are one mass (Unimod gives 4-6 decimals).
constexpr double kSameMassDa = 0.001;

// When `a` and `b` are one modification (same position, an overlapping site, the same mass
// within 0.001 Da), the site they share in words ("M", "peptide N-term Q") and the
// modification's name or mass; nullopt otherwise.
std::optional<std::string> same_modification(const Modification& a, const Modification& b) {
  if (a.position != b.position || std::abs(a.mass_delta_da - b.mass_delta_da) > kSameMassDa) {
    return std::nullopt;
  }
  // The residues in common; an empty list (a terminus on any residue) overlaps every list.
  std::string common;
  if (a.residues.empty() || b.residues.empty()) {
    common = a.residues.empty() ? b.residues : a.residues;
  } else {
    for (char c : b.residues) {
      if (a.residues.find(c) != std::string::npos) common += c;
    }
    if (common.empty()) return std::nullopt;
  }
  std::string site = common;
  if (a.position != ModificationPosition::kAnywhere) {
    site = std::string(position_name(a.position)) + (common.empty() ? "" : " " + common);
  }
  const std::string what = a.name.empty() ? to_json(JsonValue(a.mass_delta_da)) + " Da" : a.name;
  return what + " on " + site;
}

}  // namespace

// A variable modification identical to a fixed one: the fixed one already sits on every such
// site, so the variable one either stacks a second copy or does nothing; a copy-paste slip
// either way. Refused, naming both keys (as two fixed modifications on one site are). Two
// variable modifications identical to each other ({"M": [15.99], "m": [15.99]}) would make
// each oxidised form twice and change the results: refused the same way, as is a variable
// modification of 0 Da (within 0.001), which makes each form twice too. `*_keys` name each
// modification.
void check_variable_same_as_fixed(const std::vector<Modification>& fixed,
                                  const std::vector<std::string>& fixed_keys,
                                  const std::vector<Modification>& variable,
                                  const std::vector<std::string>& variable_keys) {
  for (size_t v = 0; v < variable.size(); ++v) {
    if (std::abs(variable[v].mass_delta_da) < kSameMassDa) {
      fail(variable_keys.at(v), "a variable modification of " +
                                    to_json(JsonValue(variable[v].mass_delta_da)) +
                                    " Da: each modified form would be the unmodified peptide "
                                    "again, counted twice; remove it");
    }
    for (size_t f = 0; f < fixed.size(); ++f) {
      if (const auto same = same_modification(fixed[f], variable[v])) {
        fail(variable_keys.at(v), "the same modification (" + *same + ") as fixed " +
                                      fixed_keys.at(f) +
                                      ": a site cannot be both fixed and variable; remove one");
      }
    }
    for (size_t w = 0; w < v; ++w) {
      if (const auto same = same_modification(variable[w], variable[v])) {
        fail(variable_keys.at(v), "the same modification (" + *same + ") as " +
                                      variable_keys.at(w) + ": given twice; remove one");
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Tolerances: Sage's {"ppm": [lo, hi]} / {"da": [lo, hi]}.

Tolerance get_tolerance(const JsonValue& v, const std::string& path, const ToleranceLimits& limits,
                        std::vector<std::string>& warnings) {
  if (!v.is_object())
    fail(path, "expected {\"ppm\": [lower, upper]} or {\"da\": [...]}, got " + got(v));
  const auto& o = v.as_object();
  if (o.size() != 1) fail(path, "give exactly one of \"ppm\" or \"da\"");
  const auto& [unit, bounds] = o.front();
  std::string p = join_path(path, unit);
  Tolerance t;
  if (unit == "ppm") {
    t.unit = Tolerance::Unit::kPpm;
  } else if (unit == "da") {
    t.unit = Tolerance::Unit::kDa;
  } else {
    fail(p, "unknown key; expected \"ppm\" or \"da\"");
  }
  const auto& a = get_array(bounds, p);
  if (a.size() != 2)
    fail(p, "expected [lower, upper], got an array of " + std::to_string(a.size()));
  t.lower = get_number(a[0], index_path(p, 0));
  t.upper = get_number(a[1], index_path(p, 1));
  if (!std::isfinite(t.lower) || !std::isfinite(t.upper)) fail(p, "bounds must be finite");
  const double limit = t.unit == Tolerance::Unit::kPpm ? limits.ppm : limits.da;
  if (std::abs(t.lower) > limit || std::abs(t.upper) > limit) {
    fail(p, "bounds must lie within +-" + std::to_string(static_cast<long long>(limit)) +
                (t.unit == Tolerance::Unit::kPpm ? " ppm" : " Da") + ", got [" +
                to_json(JsonValue(t.lower)) + ", " + to_json(JsonValue(t.upper)) + "]" +
                (t.unit == Tolerance::Unit::kPpm ? limits.why_ppm : limits.why_da));
  }
  if (t.lower > t.upper) {
    fail(p, "lower " + to_json(JsonValue(t.lower)) + " > upper " + to_json(JsonValue(t.upper)) +
                " (give [lower, upper], e.g. [-10, 10])");
  }
  if (t.lower == t.upper) {
    fail(p, "lower and upper are both " + to_json(JsonValue(t.upper)) +
                ": a window of zero width matches nothing");
  }
  if (t.lower > 0 || t.upper < 0) {
    warnings.push_back(p + ": the window [" + to_json(JsonValue(t.lower)) + ", " +
                       to_json(JsonValue(t.upper)) +
                       "] does not contain 0 (bounds are offsets from the mass)");
  }
  const bool ppm = t.unit == Tolerance::Unit::kPpm;
  if (t.upper - t.lower < (ppm ? limits.narrow_ppm : limits.narrow_da)) {
    warnings.push_back(p + ": the window [" + to_json(JsonValue(t.lower)) + ", " +
                       to_json(JsonValue(t.upper)) + "] is narrower than any analyser's " +
                       "fragment accuracy; few fragments will match (high-resolution searches " +
                       "use 10-20 ppm or 0.02 Da)");
  }
  return t;
}

JsonValue tolerance_json(const Tolerance& t) {
  JsonValue o = JsonValue::object();
  JsonValue::Array a{JsonValue(t.lower), JsonValue(t.upper)};
  o.set(t.unit == Tolerance::Unit::kPpm ? "ppm" : "da", JsonValue(std::move(a)));
  return o;
}

// ---------------------------------------------------------------------------------------------
// Paths.

bool has_dot_dot(const fs::path& p) {
  for (const auto& part : p) {
    if (part == "..") return true;
  }
  return false;
}

std::string resolve_path(const std::string& text, const std::string& path,
                         const JobMessageOptions& options) {
  if (text.empty()) fail(path, "empty path");
  fs::path p(text);
  if (!options.data_roots.empty() && has_dot_dot(p)) {
    fail(path, "path contains \"..\": " + text);
  }
  if (p.is_relative()) {
    fs::path base =
        options.base_directory.empty() ? fs::current_path() : fs::path(options.base_directory);
    p = base / p;
  }
  p = p.lexically_normal();
  if (!options.data_roots.empty()) {
    bool inside = false;
    for (const auto& root_text : options.data_roots) {
      fs::path root = fs::path(root_text).lexically_normal();
      auto rel = p.lexically_relative(root);
      if (!rel.empty() && !has_dot_dot(rel)) inside = true;
    }
    if (!inside) fail(path, "path outside the server's data roots: " + p.string());
    // The same check on the real path: a symbolic link inside a root may point anywhere
    // (/etc/shadow), so every link is resolved first (weakly_canonical: what exists of it).
    std::error_code ec;
    const fs::path real = fs::weakly_canonical(p, ec);
    // A loop of symbolic links (ELOOP) or an unreadable directory on the way: say so, not
    // "outside the data roots" with an empty target.
    if (ec) fail(path, "cannot resolve the path: " + p.string() + ": " + ec.message());
    bool real_inside = false;
    for (const auto& root_text : options.data_roots) {
      std::error_code root_ec;
      const fs::path root = fs::weakly_canonical(fs::path(root_text), root_ec);
      if (root_ec) continue;
      auto rel = real.lexically_relative(root);
      if (!rel.empty() && !has_dot_dot(rel)) real_inside = true;
    }
    if (!real_inside) {
      fail(path, "path resolves (through a symbolic link) outside the server's data roots: " +
                     p.string() + " -> " + real.string());
    }
    if (!options.uploads_directory.empty()) {
      std::error_code uploads_ec;
      const fs::path real_uploads = fs::weakly_canonical(options.uploads_directory, uploads_ec);
      if (is_unfinished_upload(p.string(), options.uploads_directory) ||
          (!uploads_ec && is_unfinished_upload(real.string(), real_uploads.string()))) {
        fail(path, "an upload in progress, not a file yet: " + p.string() +
                       " (an upload's file takes its name in the uploads directory with its "
                       "last piece)");
      }
    }
  }
  return p.string();
}

void check_readable_file(const std::string& file, const std::string& path) {
  std::error_code ec;
  auto status = fs::status(file, ec);
  // The OS reason where it is not plain absence (a name too long, a directory on the way that
  // cannot be searched): a new user's 5,000-character path was "file not found".
  if (ec && ec != std::errc::no_such_file_or_directory) {
    fail(path, "cannot read the file: " + file + ": " + ec.message());
  }
  if (ec || !fs::exists(status)) fail(path, "file not found: " + file);
  if (!fs::is_regular_file(status)) fail(path, "not a regular file: " + file);
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(path, "cannot open for reading: " + file + ": " + std::strerror(errno));
  ::close(fd);
}

// A tag that starts with a separator and ends with a letter or digit ("_rev", "-decoy") is a
// suffix; anything else ("rev_", "DECOY_", "###REV###") a prefix.
bool infer_suffix(const std::string& tag) {
  if (tag.empty()) return false;
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  return !alnum(tag.front()) && alnum(tag.back());
}

std::string_view decoy_generation_name(DecoyGeneration g) {
  switch (g) {
    case DecoyGeneration::kNone:
      return "none";
    case DecoyGeneration::kReversePeptide:
      return "reverse_peptide";
    case DecoyGeneration::kReverseProtein:
      return "reverse_protein";
  }
  return "none";
}

}  // namespace ionflow::job_message_detail
