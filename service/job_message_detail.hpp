// Internal to the job message (service/job_message*.cpp): typed access to JSON values with
// errors that name the key path (JobMessageError), the key tables, and the values a message
// spells in several ways (modifications, tolerances, paths, decoy settings). Not a public
// interface: service/job_message.hpp is. Pure functions, thread-safe; errors: JobMessageError.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scoring/modification.hpp"
#include "scoring/tolerance.hpp"
#include "scoring/unimod.hpp"
#include "service/job_message.hpp"
#include "service/json_value.hpp"

namespace ionflow::job_message_detail {

// Typed access with errors that name the key path.

[[noreturn]] void fail(const std::string& path, const std::string& message);
std::string got(const JsonValue& v);
std::string join_path(const std::string& parent, std::string_view key);
std::string index_path(const std::string& parent, size_t i);
bool get_bool(const JsonValue& v, const std::string& path);
int64_t get_integer(const JsonValue& v, const std::string& path, int64_t min, int64_t max);
int get_int(const JsonValue& v, const std::string& path, int min, int max);
double get_number(const JsonValue& v, const std::string& path);
const std::string& get_string(const JsonValue& v, const std::string& path);
const JsonValue::Array& get_array(const JsonValue& v, const std::string& path);
std::vector<std::string> get_string_list(const JsonValue& v, const std::string& path);
// A Sage [lo, hi] pair of integers.
std::pair<int, int> get_int_range(const JsonValue& v, const std::string& path, int min, int max);
// Dispatches an object's members to handlers; null members are skipped ("not given", as in
// Sage's Option<T>). Unknown keys are errors with a suggestion.
using Handler = std::function<void(const JsonValue&, const std::string&)>;
struct Key {
  std::string_view name;
  Handler handle;
};

void walk_object(const JsonValue& v, const std::string& path, const std::vector<Key>& keys);

// Modifications given as objects (the canonical form in effective_parameters).

const std::vector<std::pair<ModificationPosition, std::string_view>>& position_names();
std::string_view position_name(ModificationPosition p);
void check_residues(const std::string& residues, const std::string& path);
Modification modification_from_object(const JsonValue& v, const std::string& path,
                                      const Unimod& unimod, bool fixed);
// `keys` gets the key path of each modification returned ("fixed_modifications[1]").
std::vector<Modification> modification_list(const JsonValue& v, const std::string& path,
                                            const Unimod& unimod, bool fixed,
                                            std::vector<std::string>& keys);
// Sage's static_mods {"C": 57.021464} and variable_mods {"M": [15.9949]} / {"M": 15.9949}.
// `keys` gets the key path of each modification returned ("database.variable_mods.M[0]").
std::vector<Modification> sage_modifications(const JsonValue& v, const std::string& path,
                                             bool fixed, std::vector<std::string>& keys);
// Two fixed modifications on the same residue or terminus cannot both apply.
void check_fixed_conflicts(const std::vector<Modification>& fixed, const std::string& path);
// A variable modification identical to a fixed one (same position, an overlapping site, the same
// mass within 0.001 Da): the fixed one already sits on every such site, so the variable one
// either stacks a second copy or does nothing; a copy-paste slip either way. Refused, naming
// both keys (as two fixed modifications on one site are). Two identical variable modifications,
// and a variable modification of 0 Da, are refused too: each makes every form twice.
// `*_keys` name each modification.
void check_variable_same_as_fixed(const std::vector<Modification>& fixed,
                                  const std::vector<std::string>& fixed_keys,
                                  const std::vector<Modification>& variable,
                                  const std::vector<std::string>& variable_keys);

// Tolerances: Sage's {"ppm": [lo, hi]} / {"da": [lo, hi]}.

// The widest window a tolerance key accepts, per unit, in whole ppm or Da (a bound beyond it
// is refused).
struct ToleranceLimits {
  double ppm = 0.0;
  double da = 0.0;
  const char* why_ppm = "";  // appended to the refusal of a ppm window
  const char* why_da = "";   // and of a Da window
  // A window narrower than this (upper - lower, ppm or Da; 0: none) is searched with a warning.
  double narrow_ppm = 0.0;
  double narrow_da = 0.0;
};
// Precursor windows: +-100,000 ppm (10%) and +-5,000 Da are far beyond any real search, open
// searches included (a window of +-1e6 ppm reaches mass 0 and ran for minutes finding nothing).
inline constexpr ToleranceLimits kPrecursorToleranceLimits{1e5, 5e3, "", ""};
// Fragment windows: +-1,000 ppm and +-2 Da. Ion-trap searches use 0.4-1.0 Da (X!Tandem's 0.4,
// Comet's 1.0005 bins), Orbitrap and TOF fragments 10-50 ppm; wider windows match every peak
// (measured on the BSA1 demo: +-1 Da 13 PSMs at 1% FDR, +-2 Da 17, +-5 Da and wider none).
// Below 1 ppm or 0.001 Da wide (±0.5 ppm), narrower than any analyser's fragment accuracy, a
// window is searched with a warning: few fragments match (E. coli at ±1 ppm: no PSM at 1% FDR).
inline constexpr ToleranceLimits kFragmentToleranceLimits{
    1e3,
    2.0,
    " (a wider fragment window matches every peak; high-resolution searches use 10-20 ppm)",
    " (a wider fragment window matches every peak; ion-trap searches use 0.4-1.0 Da)",
    1.0,
    1e-3};

Tolerance get_tolerance(const JsonValue& v, const std::string& path, const ToleranceLimits& limits,
                        std::vector<std::string>& warnings);
JsonValue tolerance_json(const Tolerance& t);

// Paths.

std::string resolve_path(const std::string& text, const std::string& path,
                         const JobMessageOptions& options);
void check_readable_file(const std::string& file, const std::string& path);
// A tag that starts with a separator and ends with a letter or digit ("_rev", "-decoy") is a
// suffix; anything else ("rev_", "DECOY_", "###REV###") a prefix.
bool infer_suffix(const std::string& tag);
std::string_view decoy_generation_name(DecoyGeneration g);

}  // namespace ionflow::job_message_detail
