// A request head's Content-Length, checked by GuardedHttpServer's gate before a worker reads the
// body. cpp-httplib 0.11 answers a body over its payload limit, or a Content-Length that is no
// number ("-5" wraps to 2^64 - 5), with 413 only after reading and discarding the announced
// bytes: the worker then waits the whole read timeout (5 s) for bytes that never come, and 16
// such requests at a time hold every worker. Here they are answered at once and closed. The
// gate also notes the body a head announces (request_body), so that a connection whose request
// was not read exactly to its end is closed instead of reading on from the middle of it.
//
// Contract: `head` is the request line and header lines up to and including the empty line
// (CR LF or LF line ends). Returns "" when the head may go to a worker, else the whole HTTP/1.1
// response to send before closing: 400 for a Content-Length that is not a decimal byte count
// (RFC 9110, 8.6) or for two that differ (RFC 9112, 6.3), 413 for one above `max_body_bytes`
// (0 = no limit), and with a limit 411 (Length Required, RFC 9110, 15.5.12) for a head with a
// Transfer-Encoding: cpp-httplib 0.11 reads a chunked body whole, whatever its payload limit
// (a 50 MB body went through --max-body-bytes 1000, found by a reviewer), so only a body whose
// size the head states is read. Bodies are JSON objects with an "error" string, as the API's.
// Never throws except std::bad_alloc.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ionflow {

std::string check_request_head(std::string_view head, uint64_t max_body_bytes);

// The body a head announces (RFC 9112, 6.3): its Content-Length (0 when there is none or it is
// not a byte count: check_request_head answers those) and whether it has a Transfer-Encoding
// header (any value; its body then ends where the coding says, not after a length).
struct RequestBody {
  uint64_t content_length = 0;
  bool transfer_encoding = false;
};
RequestBody request_body(std::string_view head);

// "request body too large (limit N bytes)": the 413 message of the gate and of the API's handler.
std::string body_too_large_message(uint64_t max_body_bytes);
// The gate's 411 message: "a request body needs a Content-Length header (...; limit N bytes)".
std::string length_required_message(uint64_t max_body_bytes);

// The reason phrase of an error status the service or cpp-httplib answers (RFC 9110, 15: "Bad
// Request", "Payload Too Large", "URI Too Long", "Service Unavailable", ...), or nullptr for a
// status not listed.
const char* reason_phrase(int status);

// The message of an error cpp-httplib answers itself, before any handler (a request line or
// header it cannot parse, a broken chunked body, a URI over its 8 KiB): "HTTP status 400 (Bad
// Request: the request line, a header or the chunked body could not be read)", "HTTP status 414
// (URI Too Long)"; "HTTP status N" for a status reason_phrase does not list.
std::string unparsed_request_message(int status);

// The gate's own answer (these and its 503s): "HTTP/1.1 <status> <reason_phrase(status)>",
// Content-Type application/json, Connection: close, `extra_headers` (each ending in CR LF), and
// the body {"error": <message>} with the message JSON-quoted (io/json_text.hpp).
std::string gate_error_response(int status, std::string_view message,
                                std::string_view extra_headers = "");

}  // namespace ionflow
