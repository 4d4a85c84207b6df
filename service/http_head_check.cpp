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

// `name` equals `lower` (a lower-case header name) in any case.
bool is_header(std::string_view name, std::string_view lower) {
  if (name.size() != lower.size()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(name[i])) != lower[i]) return false;
  }
  return true;
}

bool is_content_length(std::string_view name) {
  return is_header(name, "content-length");
}

// Calls `f(name, value)` for each header line of `head` (the request line is not one; a line
// without a colon is skipped). The value is as on the line, untrimmed.
template <class F>
void for_each_header(std::string_view head, F f) {
  size_t at = head.find('\n');
  while (at != std::string_view::npos && at + 1 < head.size()) {
    const size_t end = head.find('\n', at + 1);
    const std::string_view line =
        head.substr(at + 1, (end == std::string_view::npos ? head.size() : end) - at - 1);
    at = end;
    const size_t colon = line.find(':');
    if (colon != std::string_view::npos) f(line.substr(0, colon), line.substr(colon + 1));
  }
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

std::string length_required_message(uint64_t max_body_bytes) {
  return "a request body needs a Content-Length header (a body sent with Transfer-Encoding is "
         "not read: its size is known only at its end; limit " +
         std::to_string(max_body_bytes) + " bytes)";
}

const char* reason_phrase(int status) {
  switch (status) {
    case 400:
      return "Bad Request";
    case 408:
      return "Request Timeout";
    case 411:
      return "Length Required";
    case 413:
      return "Payload Too Large";
    case 414:
      return "URI Too Long";
    case 416:
      return "Range Not Satisfiable";
    case 431:
      return "Request Header Fields Too Large";
    case 501:
      return "Not Implemented";
    case 503:
      return "Service Unavailable";
    case 505:
      return "HTTP Version Not Supported";
    default:
      return nullptr;
  }
}

std::string unparsed_request_message(int status) {
  const std::string code = "HTTP status " + std::to_string(status);
  const char* reason = reason_phrase(status);
  if (reason == nullptr) return code;
  const char* what =
      status == 400 ? ": the request line, a header or the chunked body could not be read" : "";
  return code + " (" + reason + what + ")";
}

std::string gate_error_response(int status, std::string_view message,
                                std::string_view extra_headers) {
  const char* reason = reason_phrase(status) != nullptr ? reason_phrase(status) : "Error";
  const std::string body = "{\"error\": " + json_quote(message) + "}\n";
  return fmt::format(
      "HTTP/1.1 {} {}\r\nContent-Type: application/json\r\n{}Connection: close\r\n"
      "Content-Length: {}\r\n\r\n{}",
      status, reason, extra_headers, body.size(), body);
}

std::string check_request_head(std::string_view head, uint64_t max_body_bytes) {
  std::optional<uint64_t> length;
  std::string error;
  for_each_header(head, [&](std::string_view name, std::string_view raw) {
    if (error.empty() && max_body_bytes > 0 && is_header(name, "transfer-encoding")) {
      error = gate_error_response(411, length_required_message(max_body_bytes));
    }
    if (!error.empty() || !is_content_length(name)) return;
    const std::string_view value = trim(raw);
    const std::optional<uint64_t> n = byte_count(value);
    if (!n) {
      error = gate_error_response(400, "Content-Length: expected a byte count, got '" +
                                           std::string(value.substr(0, 40)) + "'");
    } else if (length && *length != *n) {
      error = gate_error_response(400, "two Content-Length headers that differ");
    }
    length = n;
  });
  if (!error.empty()) return error;
  if (length && max_body_bytes > 0 && *length > max_body_bytes) {
    return gate_error_response(413, body_too_large_message(max_body_bytes));
  }
  return "";
}

RequestBody request_body(std::string_view head) {
  RequestBody body;
  for_each_header(head, [&](std::string_view name, std::string_view value) {
    if (is_content_length(name)) {
      body.content_length = byte_count(trim(value)).value_or(0);
    } else if (is_header(name, "transfer-encoding")) {
      body.transfer_encoding = true;
    }
  });
  return body;
}

}  // namespace ionflow
