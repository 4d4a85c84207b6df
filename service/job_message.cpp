#include "service/job_message.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <system_error>

#include "scoring/edit_distance.hpp"
#include "scoring/mass.hpp"
#include "scoring/modification_spec.hpp"
#include "service/enzyme_rules.hpp"

namespace ionflow {

namespace fs = std::filesystem;

namespace {

// ---------------------------------------------------------------------------------------------
// Typed access with errors that name the key path.

[[noreturn]] void fail(const std::string& path, const std::string& message) {
  throw JobMessageError(path, message);
}

std::string got(const JsonValue& v) {
  switch (v.type()) {
    case JsonValue::Type::kString:
      return "string " + json_quote(v.as_string());
    case JsonValue::Type::kInteger:
      return "integer " + std::to_string(v.as_integer());
    case JsonValue::Type::kReal:
      return "number " + to_json(v);
    case JsonValue::Type::kBool:
      return v.as_bool() ? "true" : "false";
    default:
      return json_type_name(v.type());
  }
}

std::string join_path(const std::string& parent, std::string_view key) {
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}
std::string index_path(const std::string& parent, size_t i) {
  return parent + "[" + std::to_string(i) + "]";
}

bool get_bool(const JsonValue& v, const std::string& path) {
  if (v.type() != JsonValue::Type::kBool) fail(path, "expected boolean, got " + got(v));
  return v.as_bool();
}

int64_t get_integer(const JsonValue& v, const std::string& path, int64_t min, int64_t max) {
  bool whole_real = v.type() == JsonValue::Type::kReal &&
                    std::floor(v.as_double()) == v.as_double() && std::fabs(v.as_double()) < 9e15;
  if (v.type() != JsonValue::Type::kInteger && !whole_real) {
    fail(path, std::string("expected ") + (min >= 0 ? "unsigned integer" : "integer") + ", got " +
                   got(v));
  }
  int64_t x =
      v.type() == JsonValue::Type::kInteger ? v.as_integer() : static_cast<int64_t>(v.as_double());
  if (min >= 0 && x < 0) fail(path, "expected unsigned integer, got " + got(v));
  if (x < min || x > max) {
    fail(path, "must be between " + std::to_string(min) + " and " + std::to_string(max) + ", got " +
                   std::to_string(x));
  }
  return x;
}
int get_int(const JsonValue& v, const std::string& path, int min, int max) {
  return static_cast<int>(get_integer(v, path, min, max));
}

double get_number(const JsonValue& v, const std::string& path) {
  if (!v.is_number()) fail(path, "expected number, got " + got(v));
  return v.as_double();
}

const std::string& get_string(const JsonValue& v, const std::string& path) {
  if (!v.is_string()) fail(path, "expected string, got " + got(v));
  return v.as_string();  // never holds a NUL character: parse_json refuses those
}

const JsonValue::Array& get_array(const JsonValue& v, const std::string& path) {
  if (!v.is_array()) fail(path, "expected array, got " + got(v));
  return v.as_array();
}

std::vector<std::string> get_string_list(const JsonValue& v, const std::string& path) {
  std::vector<std::string> out;
  const auto& a = get_array(v, path);
  for (size_t i = 0; i < a.size(); ++i) out.push_back(get_string(a[i], index_path(path, i)));
  return out;
}

// A Sage [lo, hi] pair of integers.
std::pair<int, int> get_int_range(const JsonValue& v, const std::string& path, int min, int max) {
  const auto& a = get_array(v, path);
  if (a.size() != 2) {
    fail(path, "expected [lower, upper], got an array of " + std::to_string(a.size()));
  }
  int lo = get_int(a[0], index_path(path, 0), min, max);
  int hi = get_int(a[1], index_path(path, 1), min, max);
  if (lo > hi) {
    fail(path, "lower " + std::to_string(lo) + " > upper " + std::to_string(hi) +
                   " (give [lower, upper])");
  }
  return {lo, hi};
}

// Dispatches an object's members to handlers; null members are skipped ("not given", as in
// Sage's Option<T>). Unknown keys are errors with a suggestion.
using Handler = std::function<void(const JsonValue&, const std::string&)>;
struct Key {
  std::string_view name;
  Handler handle;
};

void walk_object(const JsonValue& v, const std::string& path, const std::vector<Key>& keys) {
  if (!v.is_object()) fail(path, "expected object, got " + got(v));
  for (const auto& [name, value] : v.as_object()) {
    std::string member_path = join_path(path, name);
    auto it = std::find_if(keys.begin(), keys.end(), [&](const Key& k) { return k.name == name; });
    if (it == keys.end()) {
      std::string message = "unknown key";
      // Suggest the closest known key: within a third of the name's length in edits (at least
      // 2), or one that the name starts with ("precursor_tolerance" -> "precursor_tol").
      // Sage keys given at the wrong level ("fasta" at the top instead of "database.fasta").
      static const std::map<std::string_view, std::string_view> kNested = {
          {"fasta", "database.fasta"},
          {"static_mods", "database.static_mods"},
          {"variable_mods", "database.variable_mods"},
          {"decoy_tag", "database.decoy_tag"},
          {"generate_decoys", "database.generate_decoys"},
          {"max_variable_mods", "database.max_variable_mods"},
          {"peptide_min_mass", "database.peptide_min_mass"},
          {"peptide_max_mass", "database.peptide_max_mass"},
          {"missed_cleavages", "database.enzyme.missed_cleavages"},
          {"min_len", "database.enzyme.min_len"},
          {"max_len", "database.enzyme.max_len"},
      };
      if (auto nested = kNested.find(name); path.empty() && nested != kNested.end()) {
        fail(member_path, message + "; did you mean \"" + std::string(nested->second) + "\"?");
      }
      std::string_view best;
      size_t best_distance = std::max<size_t>(3, name.size() / 3 + 1);
      for (const auto& k : keys) {
        size_t d = edit_distance(name, k.name);
        if (d < best_distance) best_distance = d, best = k.name;
      }
      if (best.empty()) {
        for (const auto& k : keys) {
          if (k.name.size() >= 4 && std::string_view(name).substr(0, k.name.size()) == k.name) {
            best = k.name;
            break;
          }
        }
      }
      if (!best.empty()) message += "; did you mean \"" + std::string(best) + "\"?";
      fail(member_path, message);
    }
    if (value.is_null()) continue;
    it->handle(value, member_path);
  }
}

// ---------------------------------------------------------------------------------------------
// Sage keys that ionflow accepts but does not implement: each produces a warning.

struct Unimplemented {
  std::string_view key;
  std::string_view note;
};

const std::vector<Unimplemented>& unimplemented_top_level() {
  static const std::vector<Unimplemented> k = {
      {"chimera", "chimeric (co-fragmenting) PSM search is not implemented"},
      {"wide_window", "wide-window/DIA search is not implemented; precursor_tol is used"},
      {"predict_rt", "retention-time prediction is not implemented"},
      {"quant", "TMT/LFQ quantification is not implemented"},
      {"min_matched_peaks", "not implemented; PSMs are reported whatever their matched peaks"},
      {"override_precursor_charge", "not implemented; charges in the file are used"},
      {"annotate_matches", "fragment annotation output is not implemented"},
      {"write_report", "Sage's HTML report is not implemented"},
      {"score_type", "only the X!Tandem hyperscore is implemented"},
      {"bruker_spectrum_processor", "Bruker .d input is not implemented"},
      {"parallel", "ionflow always runs in parallel (see scorers)"},
      {"version", "Sage results.json field, ignored"},
      {"output_paths", "Sage results.json field, ignored"},
  };
  return k;
}

const std::vector<Unimplemented>& unimplemented_database() {
  static const std::vector<Unimplemented> k = {
      {"bucket_size", "Sage fragment-index tuning, ionflow's index has no buckets"},
      {"fragment_min_mz", "not implemented; all fragments are indexed"},
      {"fragment_max_mz", "not implemented; all fragments are indexed"},
      {"min_ion_index", "not implemented; all b/y ions are scored"},
      {"prefilter", "not implemented"},
      {"prefilter_chunk_size", "not implemented"},
      {"prefilter_low_memory", "not implemented"},
  };
  return k;
}

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

// A variable modification identical to a fixed one (same position, an overlapping site, the same
// mass within 0.001 Da): the fixed one already sits on every such site, so the variable one
// either stacks a second copy or does nothing; a copy-paste slip either way. Refused, naming
// both keys (as two fixed modifications on one site are). `*_keys` name each modification.
void check_variable_same_as_fixed(const std::vector<Modification>& fixed,
                                  const std::vector<std::string>& fixed_keys,
                                  const std::vector<Modification>& variable,
                                  const std::vector<std::string>& variable_keys) {
  constexpr double kSameMassDa = 0.001;
  for (size_t v = 0; v < variable.size(); ++v) {
    const Modification& var = variable[v];
    for (size_t f = 0; f < fixed.size(); ++f) {
      const Modification& fix = fixed[f];
      if (fix.position != var.position ||
          std::abs(fix.mass_delta_da - var.mass_delta_da) > kSameMassDa) {
        continue;
      }
      // The residues in common; an empty list (a terminus on any residue) overlaps every list.
      std::string common;
      if (fix.residues.empty() || var.residues.empty()) {
        common = fix.residues.empty() ? var.residues : fix.residues;
      } else {
        for (char c : var.residues) {
          if (fix.residues.find(c) != std::string::npos) common += c;
        }
        if (common.empty()) continue;
      }
      std::string site = common;
      if (fix.position != ModificationPosition::kAnywhere) {
        site = std::string(position_name(fix.position)) + (common.empty() ? "" : " " + common);
      }
      const std::string what =
          fix.name.empty() ? to_json(JsonValue(fix.mass_delta_da)) + " Da" : fix.name;
      fail(variable_keys.at(v), "the same modification (" + what + " on " + site + ") as fixed " +
                                    fixed_keys.at(f) +
                                    ": a site cannot be both fixed and variable; remove one");
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Tolerances: Sage's {"ppm": [lo, hi]} / {"da": [lo, hi]}.

Tolerance get_tolerance(const JsonValue& v, const std::string& path,
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
  // Sanity bounds: a window of +-1e6 ppm reaches mass 0 and ran for minutes finding nothing.
  // +-100,000 ppm (10%) and +-5,000 Da are far beyond any real search, open searches included.
  const double limit = t.unit == Tolerance::Unit::kPpm ? 1e5 : 5e3;
  if (std::abs(t.lower) > limit || std::abs(t.upper) > limit) {
    fail(p, "bounds must lie within +-" + std::to_string(static_cast<long long>(limit)) +
                (t.unit == Tolerance::Unit::kPpm ? " ppm" : " Da") + ", got [" +
                to_json(JsonValue(t.lower)) + ", " + to_json(JsonValue(t.upper)) + "]");
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
    bool real_inside = false;
    for (const auto& root_text : options.data_roots) {
      std::error_code root_ec;
      const fs::path root = fs::weakly_canonical(fs::path(root_text), root_ec);
      if (ec || root_ec) continue;
      auto rel = real.lexically_relative(root);
      if (!rel.empty() && !has_dot_dot(rel)) real_inside = true;
    }
    if (!real_inside) {
      fail(path, "path resolves (through a symbolic link) outside the server's data roots: " +
                     p.string() + " -> " + real.string());
    }
  }
  return p.string();
}

void check_readable_file(const std::string& file, const std::string& path) {
  std::error_code ec;
  auto status = fs::status(file, ec);
  if (ec || !fs::exists(status)) fail(path, "file not found: " + file);
  if (!fs::is_regular_file(status)) fail(path, "not a regular file: " + file);
  std::ifstream in(file, std::ios::binary);
  if (!in) fail(path, "cannot open for reading: " + file);
}

// A tag that starts with a separator and ends with a letter or digit ("_rev", "-decoy") is a
// suffix; anything else ("rev_", "DECOY_", "###REV###") a prefix.
bool infer_suffix(const std::string& tag) {
  if (tag.empty()) return false;
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  return !alnum(tag.front()) && alnum(tag.back());
}

// "mzid" writes mzIdentML 1.1.0, "mzid1.2" 1.2.0 (both results.mzid: one of them per job).
const std::vector<std::string_view> kOutputFormats = {"tsv", "mzid", "mzid1.2", "pepxml", "pin"};

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

// ---------------------------------------------------------------------------------------------
// The message.

class MessageReader {
 public:
  MessageReader(const Unimod& unimod, const JobMessageOptions& options)
      : unimod_(unimod), options_(options) {}

  ParsedJob read(const JsonValue& root) {
    if (!root.is_object()) fail("", "a job message is a JSON object, got " + got(root));
    walk_object(root, "", top_level_keys());
    resolve();
    ParsedJob out;
    out.spec = std::move(spec_);
    out.warnings = std::move(warnings_);
    out.spec.effective_parameters_json = effective_parameters_json(out.spec);
    return out;
  }

 private:
  std::vector<Key> with_unimplemented(std::vector<Key> keys,
                                      const std::vector<Unimplemented>& unimplemented) {
    for (const auto& u : unimplemented) {
      std::string note(u.note);
      keys.push_back({u.key, [this, note](const JsonValue&, const std::string& p) {
                        warnings_.push_back(p + ": Sage setting not implemented by ionflow (" +
                                            note + "); ignored");
                      }});
    }
    return keys;
  }

  std::vector<Key> top_level_keys() {
    auto& s = spec_.search;
    std::vector<Key> keys = {
        {"database", [this](const JsonValue& v, const std::string& p) { read_database(v, p); }},
        {"precursor_tol",
         [this, &s](const JsonValue& v, const std::string& p) {
           s.precursor_tolerance = get_tolerance(v, p, warnings_);
         }},
        {"fragment_tol",
         [this, &s](const JsonValue& v, const std::string& p) {
           s.fragment_tolerance = get_tolerance(v, p, warnings_);
         }},
        {"isotope_errors",
         [&s](const JsonValue& v, const std::string& p) {
           auto [lo, hi] = get_int_range(v, p, -5, 5);
           s.isotope_errors.clear();
           for (int i = lo; i <= hi; ++i) s.isotope_errors.push_back(i);
         }},
        {"precursor_charge",
         [&s](const JsonValue& v, const std::string& p) {
           auto [lo, hi] = get_int_range(v, p, 1, kMaxPrecursorCharge);
           s.min_precursor_charge = lo;
           s.max_precursor_charge = hi;
         }},
        {"max_fragment_charge",
         [&s](const JsonValue& v, const std::string& p) { s.max_fragment_charge = get_int(v, p, 0, 10); }},
        {"min_peaks", [&s](const JsonValue& v, const std::string& p) { s.min_peaks = get_int(v, p, 0, 100000); }},
        {"max_peaks", [&s](const JsonValue& v, const std::string& p) { s.max_peaks = get_int(v, p, 1, 100000); }},
        {"report_psms", [&s](const JsonValue& v, const std::string& p) { s.report_psms = get_int(v, p, 1, 100); }},
        {"deisotope", [&s](const JsonValue& v, const std::string& p) { s.deisotope = get_bool(v, p); }},
        {"remove_precursor_peak",
         [&s](const JsonValue& v, const std::string& p) { s.remove_precursor_peak = get_bool(v, p); }},
        {"ion_types",
         [this](const JsonValue& v, const std::string& p) {
           ion_types_ = get_string(v, p);
           ion_types_key_ = p;
         }},
        {"mzml_paths",
         [this](const JsonValue& v, const std::string& p) {
           mzml_paths_ = get_string_list(v, p);
         }},
        {"spectra",
         [this](const JsonValue& v, const std::string& p) {
           spectra_ = get_string_list(v, p);
         }},
        {"output_directory",
         [this](const JsonValue& v, const std::string& p) {
           output_directory_ = get_string(v, p);
           output_directory_key_ = p;
         }},
        {"write_pin", [this](const JsonValue& v, const std::string& p) { write_pin_ = get_bool(v, p); }},
        // ionflow keys.
        {"enzyme",
         [this](const JsonValue& v, const std::string& p) {
           const auto& name = get_string(v, p);
           auto rule = find_enzyme_rule(name);
           if (!rule) fail(p, "unknown enzyme " + json_quote(name) + " (" + enzyme_rule_names() + ")");
           enzyme_rule_ = *rule;
         }},
        {"fixed_modifications",
         [this](const JsonValue& v, const std::string& p) {
           named_fixed_ = modification_list(v, p, unimod_, true, named_fixed_keys_);
         }},
        {"variable_modifications",
         [this](const JsonValue& v, const std::string& p) {
           named_variable_ = modification_list(v, p, unimod_, false, named_variable_keys_);
         }},
        {"decoy_tag_position",
         [this](const JsonValue& v, const std::string& p) {
           const auto& s = get_string(v, p);
           if (s == "prefix") {
             decoy_suffix_ = false;
           } else if (s == "suffix") {
             decoy_suffix_ = true;
           } else {
             fail(p, "expected \"prefix\" or \"suffix\", got " + got(v));
           }
         }},
        {"decoy_generation",
         [this](const JsonValue& v, const std::string& p) {
           const auto& s = get_string(v, p);
           if (s == "none") {
             decoy_generation_ = DecoyGeneration::kNone;
           } else if (s == "reverse_peptide") {
             decoy_generation_ = DecoyGeneration::kReversePeptide;
           } else if (s == "reverse_protein") {
             decoy_generation_ = DecoyGeneration::kReverseProtein;
           } else {
             fail(p, "expected \"reverse_peptide\", \"reverse_protein\" or \"none\", got " + got(v));
           }
         }},
        {"clip_n_terminal_methionine",
         [&s](const JsonValue& v, const std::string& p) {
           s.database.clip_n_terminal_methionine = get_bool(v, p);
         }},
        {"licensed_cores",
         [this](const JsonValue& v, const std::string& p) { spec_.licensed_cores = get_int(v, p, 0, 4096); }},
        {"scorers", [this](const JsonValue& v, const std::string& p) { spec_.scorers = get_int(v, p, 0, 4096); }},
        {"parsers", [this](const JsonValue& v, const std::string& p) { spec_.parsers = get_int(v, p, 1, 4); }},
        {"chunk_size",
         [this](const JsonValue& v, const std::string& p) {
           spec_.chunk_size = static_cast<uint32_t>(get_integer(v, p, 1, 1000000));
         }},
        {"block_size_bytes",
         [this](const JsonValue& v, const std::string& p) {
           spec_.block_size_bytes = static_cast<uint32_t>(get_integer(v, p, 4096, 1u << 30));
         }},
        {"max_blocks_in_flight",
         [this](const JsonValue& v, const std::string& p) {
           spec_.max_blocks_in_flight = static_cast<uint32_t>(get_integer(v, p, 1, 1024));
         }},
        {"max_chunks_in_flight",
         [this](const JsonValue& v, const std::string& p) {
           spec_.max_chunks_in_flight = static_cast<uint32_t>(get_integer(v, p, 0, 65536));
         }},
        {"sorter_memory_mb",
         [this](const JsonValue& v, const std::string& p) {
           spec_.sorter_memory_budget_bytes = static_cast<uint64_t>(get_integer(v, p, 1, 1 << 20))
                                              << 20;
         }},
        {"fragment_index_memory_mb",
         [this](const JsonValue& v, const std::string& p) {
           spec_.fragment_index_budget_bytes = static_cast<uint64_t>(get_integer(v, p, 1, 1 << 24))
                                               << 20;
         }},
        {"temp_directory",
         [this](const JsonValue& v, const std::string& p) {
           temp_directory_ = get_string(v, p);
           temp_directory_key_ = p;
         }},
        {"index_cache_directory",
         [this](const JsonValue& v, const std::string& p) {
           index_cache_directory_ = get_string(v, p);
           index_cache_directory_key_ = p;
         }},
        {"output_formats",
         [this](const JsonValue& v, const std::string& p) {
           auto formats = get_string_list(v, p);
           if (formats.empty()) {
             fail(p, "give at least one format (tsv, mzid, mzid1.2, pepxml, pin)");
           }
           std::set<std::string> seen;
           for (size_t i = 0; i < formats.size(); ++i) {
             if (std::find(kOutputFormats.begin(), kOutputFormats.end(), formats[i]) ==
                 kOutputFormats.end()) {
               fail(index_path(p, i), "unknown format " + json_quote(formats[i]) +
                                          " (tsv, mzid, mzid1.2, pepxml, pin)");
             }
             if ((formats[i] == "mzid" && seen.count("mzid1.2")) ||
                 (formats[i] == "mzid1.2" && seen.count("mzid"))) {
               fail(index_path(p, i), "mzid and mzid1.2 both write results.mzid; give one");
             }
             if (!seen.insert(formats[i]).second) {
               fail(index_path(p, i), "format " + json_quote(formats[i]) + " listed twice");
             }
           }
           spec_.output_formats = formats;
         }},
        {"zstd", [this](const JsonValue& v, const std::string& p) { spec_.zstd = get_bool(v, p); }},
        {"priority",
         [this](const JsonValue& v, const std::string& p) { spec_.priority = get_int(v, p, -1000000, 1000000); }},
    };
    return with_unimplemented(std::move(keys), unimplemented_top_level());
  }

  void read_database(const JsonValue& v, const std::string& path) {
    auto& d = spec_.search.database;
    std::vector<Key> keys = {
        {"fasta", [this](const JsonValue& x, const std::string& p) { fasta_ = get_string(x, p); }},
        {"enzyme", [this](const JsonValue& x, const std::string& p) { read_enzyme(x, p); }},
        {"static_mods",
         [this](const JsonValue& x, const std::string& p) {
           sage_fixed_ = sage_modifications(x, p, true, sage_fixed_keys_);
           sage_fixed_key_ = p;
         }},
        {"variable_mods",
         [this](const JsonValue& x, const std::string& p) {
           sage_variable_ = sage_modifications(x, p, false, sage_variable_keys_);
         }},
        {"max_variable_mods",
         [&d](const JsonValue& x, const std::string& p) {
           d.max_variable_modifications = get_int(x, p, 0, 10);
         }},
        {"decoy_tag",
         [this](const JsonValue& x, const std::string& p) {
           decoy_tag_ = get_string(x, p);
           if (decoy_tag_->empty()) fail(p, "must not be empty");
         }},
        {"generate_decoys",
         [this](const JsonValue& x, const std::string& p) {
           generate_decoys_ = get_bool(x, p);
           generate_decoys_key_ = p;
         }},
        {"peptide_min_mass",
         [this](const JsonValue& x, const std::string& p) {
           peptide_min_mass_ = get_number(x, p);
         }},
        {"peptide_max_mass",
         [this](const JsonValue& x, const std::string& p) {
           peptide_max_mass_ = get_number(x, p);
         }},
        {"ion_kinds",
         [this](const JsonValue& x, const std::string& p) {
           std::string kinds;
           for (const auto& k : get_string_list(x, p)) kinds += k;
           ion_kinds_ = kinds;
           ion_kinds_key_ = p;
         }},
    };
    walk_object(v, path, with_unimplemented(std::move(keys), unimplemented_database()));
  }

  void read_enzyme(const JsonValue& v, const std::string& path) {
    auto& e = spec_.search.database.enzyme;
    enzyme_key_ = path;
    walk_object(
        v, path,
        {{"missed_cleavages",
          [&e](const JsonValue& x, const std::string& p) {
            e.missed_cleavages = get_int(x, p, 0, 255);
          }},
         {"min_len", [&e](const JsonValue& x,
                          const std::string& p) { e.min_length = get_int(x, p, 1, 1000); }},
         {"max_len", [&e](const JsonValue& x,
                          const std::string& p) { e.max_length = get_int(x, p, 1, 1000); }},
         {"cleave_at",
          [this](const JsonValue& x, const std::string& p) {
            const auto& s = get_string(x, p);
            if (s != "$") check_residues(s, p);
            sage_rule_.cleave_at = s;
          }},
         {"restrict",
          [this](const JsonValue& x, const std::string& p) {
            const auto& s = get_string(x, p);
            check_residues(s, p);
            sage_rule_.restrict = s;
          }},
         {"c_terminal", [this](const JsonValue& x,
                               const std::string& p) { sage_rule_.c_terminal = get_bool(x, p); }},
         {"semi_enzymatic",
          [&e](const JsonValue& x, const std::string& p) { e.semi_enzymatic = get_bool(x, p); }},
         {"name", [this](const JsonValue& x, const std::string& p) {
            // Accepted here too so that database.enzyme can be read on its own.
            const auto& name = get_string(x, p);
            auto rule = find_enzyme_rule(name);
            if (!rule)
              fail(p, "unknown enzyme " + json_quote(name) + " (" + enzyme_rule_names() + ")");
            if (enzyme_rule_ && enzyme_rule_->name != rule->name) {
              fail(p, "conflicts with enzyme " + json_quote(enzyme_rule_->name));
            }
            enzyme_rule_ = *rule;
          }}});
  }

  void resolve() {
    auto& s = spec_.search;
    auto& d = s.database;
    auto& e = d.enzyme;

    // Enzyme: a name fixes the cleavage rule; Sage's cleave_at/restrict/c_terminal must then
    // agree with it. Without a name, Sage's fields (default trypsin) name the rule if it is a
    // known one, else it is "custom".
    if (enzyme_rule_) {
      const auto& r = *enzyme_rule_;
      auto check = [&](bool given, bool same, const char* field) {
        if (given && !same) {
          fail(join_path(enzyme_key_, field),
               "conflicts with enzyme " + json_quote(r.name) + " (omit it, or use a custom rule)");
        }
      };
      check(sage_rule_.cleave_at.has_value(), sage_rule_.cleave_at == r.cleave_at, "cleave_at");
      check(sage_rule_.restrict.has_value(), sage_rule_.restrict == r.restrict, "restrict");
      check(sage_rule_.c_terminal.has_value(), sage_rule_.c_terminal == r.c_terminal, "c_terminal");
      e.name = r.name;
      e.cleave_at = r.cleave_at;
      e.restrict = r.restrict;
      e.c_terminal = r.c_terminal;
    } else {
      e.cleave_at = sage_rule_.cleave_at.value_or("KR");
      e.restrict = sage_rule_.restrict.value_or("P");
      e.c_terminal = sage_rule_.c_terminal.value_or(true);
      auto known = find_enzyme_rule_by_rule(e.cleave_at, e.restrict, e.c_terminal);
      e.name = known ? known->name : "custom";
    }
    if (e.min_length > e.max_length) {
      fail(
          join_path(enzyme_key_.empty() ? "database.enzyme" : enzyme_key_, "min_len"),
          "min_len " + std::to_string(e.min_length) + " > max_len " + std::to_string(e.max_length));
    }

    // Masses.
    if (peptide_min_mass_) d.peptide_min_mass_da = *peptide_min_mass_;
    if (peptide_max_mass_) d.peptide_max_mass_da = *peptide_max_mass_;
    if (d.peptide_min_mass_da < 0 || !std::isfinite(d.peptide_min_mass_da)) {
      fail("database.peptide_min_mass", "must be >= 0 Da");
    }
    if (d.peptide_min_mass_da > d.peptide_max_mass_da || !std::isfinite(d.peptide_max_mass_da)) {
      fail("database.peptide_min_mass",
           "peptide_min_mass " + to_json(JsonValue(d.peptide_min_mass_da)) +
               " > peptide_max_mass " + to_json(JsonValue(d.peptide_max_mass_da)) + " Da");
    }

    // Modifications: Sage's mass maps first, then Unimod names.
    d.fixed_modifications = sage_fixed_;
    d.fixed_modifications.insert(d.fixed_modifications.end(), named_fixed_.begin(),
                                 named_fixed_.end());
    d.variable_modifications = sage_variable_;
    d.variable_modifications.insert(d.variable_modifications.end(), named_variable_.begin(),
                                    named_variable_.end());
    check_fixed_conflicts(d.fixed_modifications,
                          named_fixed_.empty()
                              ? (sage_fixed_key_.empty() ? "database.static_mods" : sage_fixed_key_)
                              : "fixed_modifications");
    std::vector<std::string> fixed_keys = sage_fixed_keys_;
    fixed_keys.insert(fixed_keys.end(), named_fixed_keys_.begin(), named_fixed_keys_.end());
    std::vector<std::string> variable_keys = sage_variable_keys_;
    variable_keys.insert(variable_keys.end(), named_variable_keys_.begin(),
                         named_variable_keys_.end());
    check_variable_same_as_fixed(d.fixed_modifications, fixed_keys, d.variable_modifications,
                                 variable_keys);
    // A modification given by mass gets the Unimod name and accession of the one entry at its
    // sites and mass (scoring/unimod.hpp), so that results say UNIMOD:4, not +57.021464.
    for (auto* list : {&d.fixed_modifications, &d.variable_modifications}) {
      for (Modification& m : *list) m = unimod_.named_by_mass(m);
    }

    // Decoys.
    if (decoy_tag_) d.decoy_tag = *decoy_tag_;
    d.decoy_tag_is_suffix = decoy_suffix_.value_or(infer_suffix(d.decoy_tag));
    if (decoy_generation_ && generate_decoys_) {
      bool generates = *decoy_generation_ != DecoyGeneration::kNone;
      if (generates != *generate_decoys_) {
        fail(generate_decoys_key_, std::string(*generate_decoys_ ? "true" : "false") +
                                       " conflicts with decoy_generation \"" +
                                       std::string(decoy_generation_name(*decoy_generation_)) +
                                       "\"");
      }
    }
    if (decoy_generation_) {
      d.decoy_generation = *decoy_generation_;
    } else if (generate_decoys_) {
      // Sage: true = reverse peptides (ignore FASTA decoys), false = use the FASTA's decoys.
      d.decoy_generation =
          *generate_decoys_ ? DecoyGeneration::kReversePeptide : DecoyGeneration::kNone;
    }

    // Ion types.
    if (ion_types_ && ion_kinds_)
      fail(ion_types_key_, "give either ion_types or database.ion_kinds");
    if (ion_kinds_) ion_types_ = ion_kinds_, ion_types_key_ = ion_kinds_key_;
    if (ion_types_) {
      std::string types;
      for (char c : *ion_types_) {
        char lc = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (std::string_view("abcyz").find(lc) == std::string_view::npos) {
          fail(ion_types_key_,
               std::string("unsupported ion type '") + c + "' (any of a, b, c, y, z)");
        }
        if (types.find(lc) != std::string::npos) {
          fail(ion_types_key_, std::string("ion type '") + c + "' listed twice");
        }
        types += lc;
      }
      if (types.empty()) fail(ion_types_key_, "give at least one ion type");
      std::sort(types.begin(), types.end());
      s.ion_types = types;
    }

    // Spectra.
    if (s.min_peaks > s.max_peaks) {
      fail("min_peaks", "min_peaks " + std::to_string(s.min_peaks) + " > max_peaks " +
                            std::to_string(s.max_peaks) + " (no spectrum could be searched)");
    }

    // Pipeline.
    if (spec_.licensed_cores > 0 && spec_.scorers > spec_.licensed_cores) {
      fail("scorers", std::to_string(spec_.scorers) + " exceeds licensed_cores " +
                          std::to_string(spec_.licensed_cores));
    }
    if (write_pin_ && *write_pin_ &&
        std::find(spec_.output_formats.begin(), spec_.output_formats.end(), "pin") ==
            spec_.output_formats.end()) {
      spec_.output_formats.push_back("pin");
    }

    // Paths.
    if (spectra_ && mzml_paths_) fail("spectra", "give either spectra or mzml_paths, not both");
    std::string spectra_key = spectra_ ? "spectra" : "mzml_paths";
    std::vector<std::string> spectra =
        spectra_ ? *spectra_ : mzml_paths_.value_or(std::vector<std::string>{});
    for (size_t i = 0; i < spectra.size(); ++i) {
      spec_.spectra_paths.push_back(resolve_path(spectra[i], index_path(spectra_key, i), options_));
    }
    if (fasta_) spec_.fasta_path = resolve_path(*fasta_, "database.fasta", options_);
    if (!options_.forced_output_directory.empty()) {
      if (output_directory_) {
        warnings_.push_back(output_directory_key_ + ": ignored; the server writes results to " +
                            options_.forced_output_directory);
      }
      spec_.output_directory = options_.forced_output_directory;
    } else {
      JobMessageOptions unrestricted = options_;
      unrestricted.data_roots.clear();
      spec_.output_directory =
          resolve_path(output_directory_.value_or("."), "output_directory", unrestricted);
    }
    if (temp_directory_ && !options_.forced_output_directory.empty()) {
      // ionflow serve decides where files are written: spills stay in the job's directory.
      warnings_.push_back(temp_directory_key_ + ": ignored; the server spills into " +
                          options_.forced_output_directory);
    } else if (temp_directory_) {
      JobMessageOptions unrestricted = options_;
      unrestricted.data_roots.clear();
      spec_.temp_directory = resolve_path(*temp_directory_, temp_directory_key_, unrestricted);
    }
    if (!options_.forced_index_cache_directory.empty()) {
      if (index_cache_directory_) {
        warnings_.push_back(index_cache_directory_key_ +
                            ": ignored; the server keeps its index cache in " +
                            options_.forced_index_cache_directory);
      }
      spec_.index_cache_directory = options_.forced_index_cache_directory;
    } else if (index_cache_directory_ && !index_cache_directory_->empty()) {
      JobMessageOptions unrestricted = options_;
      unrestricted.data_roots.clear();
      spec_.index_cache_directory =
          resolve_path(*index_cache_directory_, index_cache_directory_key_, unrestricted);
    }

    if (options_.check_inputs) {
      if (spec_.fasta_path.empty())
        fail("database.fasta", "required (the FASTA database to search)");
      check_readable_file(spec_.fasta_path, "database.fasta");
      if (spec_.spectra_paths.empty()) {
        fail(spectra_key, "no spectra files given (mzml_paths, spectra, or the command line)");
      }
      for (size_t i = 0; i < spec_.spectra_paths.size(); ++i) {
        check_readable_file(spec_.spectra_paths[i], index_path(spectra_key, i));
      }
    }
  }

  const Unimod& unimod_;
  const JobMessageOptions& options_;
  JobSpec spec_;
  std::vector<std::string> warnings_;

  struct SageRule {
    std::optional<std::string> cleave_at;
    std::optional<std::string> restrict;
    std::optional<bool> c_terminal;
  } sage_rule_;
  std::optional<EnzymeRule> enzyme_rule_;
  std::string enzyme_key_;
  std::vector<Modification> sage_fixed_, sage_variable_, named_fixed_, named_variable_;
  // The key path of each modification above, index for index.
  std::vector<std::string> sage_fixed_keys_, sage_variable_keys_, named_fixed_keys_,
      named_variable_keys_;
  std::string sage_fixed_key_;
  std::optional<std::string> decoy_tag_;
  std::optional<bool> decoy_suffix_;
  std::optional<DecoyGeneration> decoy_generation_;
  std::optional<bool> generate_decoys_;
  std::string generate_decoys_key_;
  std::optional<double> peptide_min_mass_, peptide_max_mass_;
  std::optional<std::string> ion_types_, ion_kinds_;
  std::string ion_types_key_, ion_kinds_key_;
  std::optional<std::vector<std::string>> mzml_paths_, spectra_;
  std::optional<std::string> fasta_;
  std::optional<std::string> output_directory_;
  std::string output_directory_key_;
  std::optional<std::string> temp_directory_;
  std::string temp_directory_key_;
  std::optional<std::string> index_cache_directory_;
  std::string index_cache_directory_key_;
  std::optional<bool> write_pin_;
};

JsonValue modification_json(const Modification& m) {
  JsonValue o = JsonValue::object();
  if (!m.name.empty()) o.set("name", m.name);
  if (m.unimod_accession != 0) o.set("unimod_accession", m.unimod_accession);
  o.set("mass_da", m.mass_delta_da);
  o.set("position", std::string(position_name(m.position)));
  if (!m.residues.empty()) o.set("residues", m.residues);
  return o;
}

}  // namespace

ParsedJob read_job_message(const JsonValue& message, const Unimod& unimod,
                           const JobMessageOptions& options) {
  MessageReader reader(unimod, options);
  return reader.read(message);
}

ParsedJob parse_job_message(std::string_view json_text, const Unimod& unimod,
                            const JobMessageOptions& options) {
  JsonValue root;
  try {
    root = parse_json(json_text);
  } catch (const JsonSyntaxError& e) {
    throw JobMessageError("", std::string("not valid JSON: ") + e.what());
  }
  return read_job_message(root, unimod, options);
}

JsonValue effective_parameters(const JobSpec& spec) {
  const auto& s = spec.search;
  const auto& d = s.database;
  const auto& e = d.enzyme;

  JsonValue enzyme = JsonValue::object();
  enzyme.set("missed_cleavages", e.missed_cleavages);
  enzyme.set("min_len", e.min_length);
  enzyme.set("max_len", e.max_length);
  enzyme.set("cleave_at", e.cleave_at);
  enzyme.set("restrict", e.restrict);
  enzyme.set("c_terminal", e.c_terminal);
  enzyme.set("semi_enzymatic", e.semi_enzymatic);

  JsonValue database = JsonValue::object();
  database.set("fasta", spec.fasta_path);
  database.set("enzyme", std::move(enzyme));
  database.set("peptide_min_mass", d.peptide_min_mass_da);
  database.set("peptide_max_mass", d.peptide_max_mass_da);
  database.set("max_variable_mods", d.max_variable_modifications);
  database.set("decoy_tag", d.decoy_tag);
  database.set("generate_decoys", d.decoy_generation != DecoyGeneration::kNone);

  JsonValue root = JsonValue::object();
  root.set("database", std::move(database));
  // A custom rule is fully described by database.enzyme; a named one also by its name.
  if (find_enzyme_rule(e.name)) root.set("enzyme", e.name);
  root.set("decoy_tag_position", d.decoy_tag_is_suffix ? "suffix" : "prefix");
  root.set("decoy_generation", std::string(decoy_generation_name(d.decoy_generation)));
  root.set("clip_n_terminal_methionine", d.clip_n_terminal_methionine);
  JsonValue fixed = JsonValue::array(), variable = JsonValue::array();
  for (const auto& m : d.fixed_modifications) fixed.push_back(modification_json(m));
  for (const auto& m : d.variable_modifications) variable.push_back(modification_json(m));
  root.set("fixed_modifications", std::move(fixed));
  root.set("variable_modifications", std::move(variable));
  root.set("precursor_tol", tolerance_json(s.precursor_tolerance));
  root.set("fragment_tol", tolerance_json(s.fragment_tolerance));
  int iso_lo = 0, iso_hi = 0;
  if (!s.isotope_errors.empty()) {
    iso_lo = *std::min_element(s.isotope_errors.begin(), s.isotope_errors.end());
    iso_hi = *std::max_element(s.isotope_errors.begin(), s.isotope_errors.end());
  }
  root.set("isotope_errors", JsonValue::Array{JsonValue(iso_lo), JsonValue(iso_hi)});
  root.set("precursor_charge",
           JsonValue::Array{JsonValue(s.min_precursor_charge), JsonValue(s.max_precursor_charge)});
  root.set("max_fragment_charge", s.max_fragment_charge);
  root.set("ion_types", s.ion_types);
  root.set("min_peaks", s.min_peaks);
  root.set("max_peaks", s.max_peaks);
  root.set("remove_precursor_peak", s.remove_precursor_peak);
  root.set("deisotope", s.deisotope);
  root.set("report_psms", s.report_psms);
  JsonValue spectra = JsonValue::array();
  for (const auto& p : spec.spectra_paths) spectra.push_back(p);
  root.set("mzml_paths", std::move(spectra));
  root.set("output_directory", spec.output_directory);
  root.set("licensed_cores", spec.licensed_cores);
  root.set("scorers", spec.scorers);
  root.set("parsers", spec.parsers);
  root.set("chunk_size", spec.chunk_size);
  root.set("block_size_bytes", spec.block_size_bytes);
  root.set("max_blocks_in_flight", spec.max_blocks_in_flight);
  root.set("max_chunks_in_flight", spec.max_chunks_in_flight);
  root.set("sorter_memory_mb", static_cast<uint64_t>(spec.sorter_memory_budget_bytes >> 20));
  root.set("fragment_index_memory_mb",
           static_cast<uint64_t>(spec.fragment_index_budget_bytes >> 20));
  // Where the sorter spills: the output directory unless temp_directory is given.
  root.set("temp_directory",
           spec.temp_directory.empty() ? spec.output_directory : spec.temp_directory);
  if (!spec.index_cache_directory.empty()) {
    root.set("index_cache_directory", spec.index_cache_directory);
  }
  JsonValue formats = JsonValue::array();
  for (const auto& f : spec.output_formats) formats.push_back(f);
  root.set("output_formats", std::move(formats));
  root.set("zstd", spec.zstd);
  root.set("priority", spec.priority);
  return root;
}

std::string effective_parameters_json(const JobSpec& spec) {
  return to_json(effective_parameters(spec), 2);
}

}  // namespace ionflow
