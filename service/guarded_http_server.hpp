// GuardedHttpServer: cpp-httplib's Server with connection handling that slow or stalled clients
// cannot exhaust. Stock cpp-httplib (Debian 12: 0.11.4) gives every accepted connection a pool
// thread until it closes, so as many stalled connections as threads (64 in ionflow before)
// stopped the API. Here:
//   - A connection holds no worker thread while its request head (request line and headers) is
//     still arriving or while it idles between keep-alive requests: one "gate" thread watches
//     all of them with epoll and hands a connection to a worker only when its head is complete
//     (or exceeds kMaxHeadBytes, which httplib then answers with 400/414).
//   - The head must be complete within head_timeout_seconds of the accept (or of the previous
//     response); an idle keep-alive connection is closed after idle_timeout_seconds; one
//     connection serves at most keep_alive_max_requests requests.
//   - A worker reading a body waits at most read_timeout_seconds for each piece and
//     body_timeout_seconds for the whole request; each write waits at most
//     write_timeout_seconds for the client to take data.
//   - A head whose Content-Length is no byte count, or above max_body_bytes, or (with a
//     max_body_bytes) that has a Transfer-Encoding, is answered by the gate at once (400, 413,
//     411) and the connection closed (service/http_head_check.hpp).
//   - A request is read exactly to its end (its head, then its Content-Length): a connection
//     whose request httplib did not read so (a bad request line, a GET's body, a body after a
//     401, a body that did not decode) is closed after the answer instead of taking the rest as
//     the next request; a request with a Transfer-Encoding (no max_body_bytes) is answered with
//     Connection: close.
//     Answers are sent without Nagle's delay (TCP_NODELAY). A connection ends after its last
//     answer with its sending side shut; what the client still sends is dropped until it
//     closes or idle_timeout_seconds pass (closed at once, unread bytes reset the connection
//     and the end of the answer could be lost).
//   - At most max_connections_per_address open connections per client IP address and
//     max_connections in all: beyond that the connection is answered at once with 503 and
//     closed (body: {"error": "too many connections from ADDRESS (limit N per client
//     address)"}, or "... open connections (limit N)").
// Thread-safety: as httplib::Server (routes set up before listen, stop() from any thread).
// Errors: none thrown; connections that fail are closed and counted as released.
#pragma once

#include <httplib.h>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace ionflow {

struct HttpConnectionLimits {
  int workers = 16;                      // threads running request handlers
  int max_connections = 0;               // open connections in all; 0 = half RLIMIT_NOFILE, <= 4096
  int max_connections_per_address = 64;  // open connections per client IP address
  double head_timeout_seconds = 10;      // request line + headers complete within this
  double idle_timeout_seconds = 5;       // keep-alive connection idle between requests
  int keep_alive_max_requests = 100;     // requests per connection, then it is closed
  double read_timeout_seconds = 5;       // each wait for body bytes
  double body_timeout_seconds = 120;     // the whole request body
  double write_timeout_seconds = 10;     // each wait for the client to take response bytes
  uint64_t max_body_bytes = 0;  // a larger Content-Length is answered 413 by the gate; 0 = none
};

class GuardedHttpServer : public httplib::Server {
 public:
  explicit GuardedHttpServer(HttpConnectionLimits limits);
  ~GuardedHttpServer() override;
  GuardedHttpServer(const GuardedHttpServer&) = delete;
  GuardedHttpServer& operator=(const GuardedHttpServer&) = delete;

  const HttpConnectionLimits& limits() const { return limits_; }

  class Gate;  // the epoll thread, the workers and the per-address counts (one per listen)

 private:
  // Called by httplib's accept loop (through our task queue, on the accept thread) for each
  // accepted socket: hands it to the gate, never blocks.
  bool process_and_close_socket(socket_t sock) override;
  friend class Gate;
  bool serve_one_request(httplib::Stream& stream, bool close_connection, bool& connection_closed);

  HttpConnectionLimits limits_;
  Gate* gate_ = nullptr;  // set while listening (by the task queue on the accept thread)
};

}  // namespace ionflow
