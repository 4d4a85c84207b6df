#include "service/job_message_detail.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
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

namespace {

// Sage keys given at too high a level: the level ("" = the top, "database") and the key's full
// path ("fasta" at the top is "database.fasta", "missed_cleavages" in database is
// "database.enzyme.missed_cleavages").
struct DeeperKey {
  std::string_view level, full;
};
constexpr DeeperKey kDeeperKeys[] = {
    {"", "database.fasta"},
    {"", "database.static_mods"},
    {"", "database.variable_mods"},
    {"", "database.decoy_tag"},
    {"", "database.generate_decoys"},
    {"", "database.max_variable_mods"},
    {"", "database.peptide_min_mass"},
    {"", "database.peptide_max_mass"},
    {"", "database.enzyme.missed_cleavages"},
    {"", "database.enzyme.min_len"},
    {"", "database.enzyme.max_len"},
    {"database", "database.enzyme.missed_cleavages"},
    {"database", "database.enzyme.min_len"},
    {"database", "database.enzyme.max_len"},
    {"database", "database.enzyme.cleave_at"},
    {"database", "database.enzyme.restrict"},
    {"database", "database.enzyme.c_terminal"},
    {"database", "database.enzyme.semi_enzymatic"},
};

// The key to suggest for the unknown `name` at `path`, or "": a deeper key of that exact name;
// else the closest key of this level, within a third of the name's length in edits (at least
// 2), or one that the name starts with ("precursor_tolerance" -> "precursor_tol"); else the
// closest deeper key ("database.missed_cleavage" -> "database.enzyme.missed_cleavages").
std::string_view suggestion(const std::string& path, std::string_view name,
                            const std::vector<Key>& keys) {
  std::vector<std::string_view> deeper_names;
  std::vector<std::string_view> deeper_full;
  for (const DeeperKey& d : kDeeperKeys) {
    if (d.level != path) continue;
    const std::string_view last = d.full.substr(d.full.rfind('.') + 1);
    if (last == name) return d.full;
    deeper_names.push_back(last);
    deeper_full.push_back(d.full);
  }
  std::vector<std::string_view> names;
  for (const auto& k : keys) names.push_back(k.name);
  if (std::string_view best = closest_name(name, names); !best.empty()) return best;
  for (const auto& k : keys) {
    if (k.name.size() >= 4 && name.substr(0, k.name.size()) == k.name) return k.name;
  }
  const std::string_view deeper = closest_name(name, deeper_names);
  for (size_t i = 0; i < deeper_names.size(); ++i) {
    if (deeper_names[i] == deeper && !deeper.empty()) return deeper_full[i];
  }
  return {};
}

}  // namespace

void walk_object(const JsonValue& v, const std::string& path, const std::vector<Key>& keys) {
  if (!v.is_object()) fail(path, "expected object, got " + got(v));
  for (const auto& [name, value] : v.as_object()) {
    std::string member_path = join_path(path, name);
    auto it = std::find_if(keys.begin(), keys.end(),
                           [&key = name](const Key& k) { return k.name == key; });
    if (it == keys.end())
      fail(member_path, "unknown key" + did_you_mean(suggestion(path, name, keys)));
    if (value.is_null()) continue;
    it->handle(value, member_path);
  }
}

}  // namespace ionflow::job_message_detail
