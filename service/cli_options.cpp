#include "service/cli_options.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <system_error>

namespace ionflow {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(item);
  return out;
}

JsonValue string_array(const std::vector<std::string>& items) {
  JsonValue a = JsonValue::array();
  for (const auto& s : items) a.push_back(s);
  return a;
}

JsonValue symmetric_tolerance(const char* unit, double width) {
  JsonValue t = JsonValue::object();
  t.set(unit, JsonValue::Array{JsonValue(-width), JsonValue(width)});
  return t;
}

JsonValue json_from_flag(const std::string& text) {
  int64_t integer = 0;
  const char* end = text.data() + text.size();
  if (auto [ptr, ec] = std::from_chars(text.data(), end, integer);
      ec == std::errc() && ptr == end) {
    return JsonValue(integer);
  }
  char* real_end = nullptr;
  const double real = std::strtod(text.c_str(), &real_end);
  if (!text.empty() && real_end == text.c_str() + text.size() && std::isfinite(real)) {
    return JsonValue(real);
  }
  return JsonValue(text);
}

CLI::Validator half_width() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        try {
          if (std::stod(value) >= 0) return "";
        } catch (const std::exception&) {
          return "expected a number, got " + value;
        }
        return "expected a half-width >= 0 (the window is [-x, x]), got " + value +
               "; for an asymmetric window give precursor_tol / fragment_tol in the job file";
      },
      "HALF_WIDTH");
}

CLI::Validator integer_in(long long lo, long long hi, const std::string& what) {
  const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, what, range](std::string& value) -> std::string {
        long long n = 0;
        size_t used = 0;
        try {
          n = std::stoll(value, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != value.size() || n < lo || n > hi) {
          return what + " must be an integer in " + range + ", got " + value;
        }
        return "";
      },
      "INT in " + range);
}

}  // namespace ionflow
