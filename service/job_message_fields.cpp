#include "service/job_message_detail.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <system_error>

#include "scoring/edit_distance.hpp"

namespace ionflow::job_message_detail {

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

void walk_object(const JsonValue& v, const std::string& path, const std::vector<Key>& keys) {
  if (!v.is_object()) fail(path, "expected object, got " + got(v));
  for (const auto& [name, value] : v.as_object()) {
    std::string member_path = join_path(path, name);
    auto it = std::find_if(keys.begin(), keys.end(),
                           [&key = name](const Key& k) { return k.name == key; });
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
        fail(member_path, message + did_you_mean(nested->second));
      }
      std::vector<std::string_view> names;
      for (const auto& k : keys) names.push_back(k.name);
      std::string_view best = closest_name(name, names);
      if (best.empty()) {
        for (const auto& k : keys) {
          if (k.name.size() >= 4 && std::string_view(name).substr(0, k.name.size()) == k.name) {
            best = k.name;
            break;
          }
        }
      }
      fail(member_path, message + did_you_mean(best));
    }
    if (value.is_null()) continue;
    it->handle(value, member_path);
  }
}

}  // namespace ionflow::job_message_detail
