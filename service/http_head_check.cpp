#include "service/http_head_check.hpp"

#include <fmt/format.h>

#include <cctype>
#include <optional>

#include "io/json_text.hpp"

namespace ionflow {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

bool is_content_length(std::string_view name) {
  static constexpr std::string_view kName = "content-length";
  if (name.size() != kName.size()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(name[i])) != kName[i]) return false;
  }
  return true;
}

// The byte count of a Content-Length value: 1*DIGIT (RFC 9110, 8.6), at most 18 digits.
std::optional<uint64_t> byte_count(std::string_view value) {
  if (value.empty() || value.size() > 18) return std::nullopt;
  uint64_t n = 0;
  for (char c : value) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<uint64_t>(c - '0');
  }
  return n;
}

}  // namespace

std::string body_too_large_message(uint64_t max_body_bytes) {
  return "request body too large (limit " + std::to_string(max_body_bytes) + " bytes)";
}

std::string gate_error_response(int status, std::string_view reason, std::string_view message,
                                std::string_view extra_headers) {
  const std::string body = "{\"error\": " + json_quote(message) + "}\n";
  return fmt::format(
      "HTTP/1.1 {} {}\r\nContent-Type: application/json\r\n{}Connection: close\r\n"
      "Content-Length: {}\r\n\r\n{}",
      status, reason, extra_headers, body.size(), body);
}

std::string check_request_head(std::string_view head, uint64_t max_body_bytes) {
  std::optional<uint64_t> length;
  size_t at = head.find('\n');  // the request line is not a header
  while (at != std::string_view::npos && at + 1 < head.size()) {
    const size_t end = head.find('\n', at + 1);
    const std::string_view line =
        head.substr(at + 1, (end == std::string_view::npos ? head.size() : end) - at - 1);
    at = end;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos || !is_content_length(line.substr(0, colon))) continue;
    const std::string_view value = trim(line.substr(colon + 1));
    const std::optional<uint64_t> n = byte_count(value);
    if (!n) {
      return gate_error_response(
          400, "Bad Request",
          "Content-Length: expected a byte count, got '" + std::string(value.substr(0, 40)) + "'");
    }
    if (length && *length != *n) {
      return gate_error_response(400, "Bad Request", "two Content-Length headers that differ");
    }
    length = n;
  }
  if (length && max_body_bytes > 0 && *length > max_body_bytes) {
    return gate_error_response(413, "Payload Too Large", body_too_large_message(max_body_bytes));
  }
  return "";
}

}  // namespace ionflow
