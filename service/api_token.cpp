#include "service/api_token.hpp"

#include <cctype>
#include <cstddef>

namespace ionflow {

bool constant_time_equal(std::string_view given, std::string_view expected) {
  unsigned diff = given.size() == expected.size() ? 0u : 1u;
  for (size_t i = 0; i < expected.size(); ++i) {
    const unsigned char g = i < given.size() ? static_cast<unsigned char>(given[i]) : 0;
    diff |= static_cast<unsigned>(g ^ static_cast<unsigned char>(expected[i]));
  }
  return diff == 0;
}

bool bearer_token_matches(std::string_view authorization, std::string_view expected_token) {
  constexpr std::string_view kScheme = "bearer";
  if (expected_token.empty() || authorization.size() <= kScheme.size()) return false;
  for (size_t i = 0; i < kScheme.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(authorization[i])) != kScheme[i]) return false;
  }
  std::string_view rest = authorization.substr(kScheme.size());
  if (rest.front() != ' ') return false;
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t')) rest.remove_suffix(1);
  return constant_time_equal(rest, expected_token);
}

}  // namespace ionflow
