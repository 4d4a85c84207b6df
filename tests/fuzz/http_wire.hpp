// The HTTP fuzz target's client side (tests/fuzz/http_api_fuzzer.cpp): turns a fuzz input into
// a request as it goes on the wire and exchanges it with the API over one loopback connection
// kept open from input to input while the server keeps it (it closes after a request it did not
// read to the end, e.g. one with a bad request line, which most mutated inputs have).
//
// Framing is what a kept-alive connection depends on, so it is checked here: every answer is
// delimited (Content-Length, chunked, or the end of the connection) and a request gets exactly
// one answer; no bytes arrive that answer no request. (With a new connection and "Connection:
// close" per input these could not be seen: a GET's body answered as a second request, answers
// cut by a reset.) A request whose end the server finds only
// by reading it as the harness cannot predict (a Transfer-Encoding body, which may be cut; a
// request line that might be HEAD's, whose answer has a Content-Length but no body) goes on a
// connection that is closed after it, with the sending side shut so that a cut request ends at
// once instead of at the server's read timeout.
//
// Not thread-safe: one input at a time, as libFuzzer runs them. Failures abort through
// fuzz::fail with the request and what came back.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

#include "tests/fuzz/fuzz_support.hpp"

namespace ionflow::fuzz {

struct WireRequest {
  std::string text;         // request line, headers, empty line, body
  bool keep_alive = false;  // sent on the kept-alive connection (else on one closed after it)
  bool head = false;        // its method may be HEAD: the answer has no body
};

inline std::string lower_case(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The input's request line and header lines (split at its first empty line, CR LF or LF; the
// rest is the body; lines empty but for a CR left out), with CR LF line ends, its Content-Length
// and Connection headers replaced by the body's real length and, off the kept-alive connection,
// "Connection: close".
inline WireRequest wire_request(std::string_view input) {
  size_t head_end = input.find("\r\n\r\n");
  size_t body_at = head_end == std::string_view::npos ? head_end : head_end + 4;
  if (head_end == std::string_view::npos) {
    head_end = input.find("\n\n");
    body_at = head_end == std::string_view::npos ? input.size() : head_end + 2;
  }
  const std::string_view head = input.substr(0, std::min(head_end, input.size()));
  const std::string_view body = input.substr(std::min(body_at, input.size()));
  WireRequest out;
  out.keep_alive = true;
  std::string lines;
  size_t at = 0;
  bool first = true;
  while (at < head.size()) {
    size_t end = head.find('\n', at);
    if (end == std::string_view::npos) end = head.size();
    std::string_view line = head.substr(at, end - at);
    at = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;  // "\r\n\n" or "\n\r\n": not the head's end here
    const std::string name = lower_case(line.substr(0, line.find(':')));
    if (first) {
      // cpp-httplib's method is the first space-separated word, spaces and tabs trimmed.
      if (line.find("HEAD") != std::string_view::npos) out.keep_alive = false, out.head = true;
    } else if (name == "content-length" || name == "connection") {
      continue;
    } else if (lower_case(line).find("transfer-encoding") != std::string::npos) {
      out.keep_alive = false;
    }
    lines.append(line);
    lines += "\r\n";
    first = false;
  }
  out.text = std::move(lines);
  out.text += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  if (!out.keep_alive) out.text += "Connection: close\r\n";
  out.text += "\r\n";
  out.text.append(body);
  return out;
}

// One answer as it came: status line, headers, empty line, body (chunked bodies as sent).
struct HttpAnswer {
  std::string text;
  int status = 0;
  size_t body_at = 0;    // where the body starts in text
  bool closes = false;   // "Connection: close", or delimited by the end of the connection
  bool chunked = false;  // its body in text is chunked
  std::string header(std::string_view lower_name) const {
    const std::string head = lower_case(std::string_view(text).substr(0, body_at));
    const std::string key = "\r\n" + std::string(lower_name) + ":";
    const size_t at = head.find(key);
    if (at == std::string::npos) return "";
    const size_t end = head.find("\r\n", at + key.size());
    std::string value = text.substr(at + key.size(), end - at - key.size());
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.erase(0, 1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.pop_back();
    return value;
  }
  // The body, its chunks joined when it came chunked.
  std::string body() const {
    if (!chunked) return text.substr(body_at);
    std::string out;
    size_t at = body_at;
    for (;;) {
      const size_t line_end = text.find("\r\n", at);
      const unsigned long long size = std::strtoull(text.c_str() + at, nullptr, 16);
      if (line_end == std::string::npos || size == 0) return out;
      out.append(text, line_end + 2, size);
      at = line_end + 2 + size + 2;
    }
  }
};

// The API on 127.0.0.1:port through one connection, reopened when the server closed it.
class LoopbackHttp {
 public:
  // `on_stall` runs before the failure when no answer comes within 10 s (to show where the
  // service waits).
  LoopbackHttp(int port, std::function<void()> on_stall)
      : port_(port), on_stall_(std::move(on_stall)) {}
  LoopbackHttp(const LoopbackHttp&) = delete;
  LoopbackHttp& operator=(const LoopbackHttp&) = delete;

  // Sends `request` and returns its final answer (interim 1xx answers are read past); an empty
  // answer (text "") when the server closed a new connection without answering.
  HttpAnswer exchange(const WireRequest& request) {
    deadline_ = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    // A kept connection the server has closed since (after an answer that did not say so: its
    // request was not read to the end) is reopened; an unread byte there answers no request.
    if (fd_ >= 0 && server_closed_or_spoke(request)) close_connection();
    const bool reused = fd_ >= 0;
    if (!reused) open_connection();
    send_all(request.text);
    if (!request.keep_alive) ::shutdown(fd_, SHUT_WR);
    HttpAnswer answer = read_answer(request);
    if (answer.text.empty() && reused) {
      // The server closed the kept connection just before this request arrived (it had closed
      // it after the previous answer): the request was not read. Once more, on a new one.
      close_connection();
      open_connection();
      send_all(request.text);
      if (!request.keep_alive) ::shutdown(fd_, SHUT_WR);
      answer = read_answer(request);
    }
    if (!request.keep_alive || answer.closes || answer.text.empty()) {
      // Nothing may follow the answer before the server's close.
      if (!answer.text.empty()) expect_end(request, answer);
      close_connection();
    } else if (!buffer_.empty()) {
      fail("bytes after the answer, answering no request:\n" + buffer_.substr(0, 300) +
           "\n--- request:\n" + request.text.substr(0, 2000) + "\n--- answer:\n" + answer.text);
    }
    previous_ = request.text.substr(0, 2000);
    return answer;
  }

 private:
  [[noreturn]] void fail_here(const WireRequest& request, const std::string& what) {
    fail(what + "\n--- request:\n" + request.text.substr(0, 2000) + "\n--- received:\n" +
         buffer_.substr(0, 2000));
  }

  void open_connection() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) fail("socket() failed");
    const int on = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port_));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int connected = ::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address);
    if (connected != 0 && errno == EINTR) {  // the connect goes on: wait for it, then ask
      wait(POLLOUT);
      if (stalled_) fail("cannot connect to the API on port " + std::to_string(port_));
      int error = 0;
      socklen_t length = sizeof error;
      ::getsockopt(fd_, SOL_SOCKET, SO_ERROR, &error, &length);
      connected = error == 0 ? 0 : -1;
    }
    if (connected != 0) fail("cannot connect to the API on port " + std::to_string(port_));
    buffer_.clear();
  }

  void close_connection() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    buffer_.clear();
  }

  // True when the server has closed the kept connection; fails if it sent bytes instead.
  bool server_closed_or_spoke(const WireRequest& request) {
    pollfd p{fd_, POLLIN | POLLRDHUP, 0};
    if (::poll(&p, 1, 0) <= 0) return false;
    char byte;
    const ssize_t n = ::recv(fd_, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n > 0) {
      buffer_.assign(1, byte);
      fail_here(request, "the server sent bytes answering no request (after the previous one:\n" +
                             previous_ + ")");
    }
    return true;
  }

  // libFuzzer's -timeout alarm (SIGALRM, no SA_RESTART) interrupts poll: waited out, not failed.
  void wait(short events) {
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline_ - std::chrono::steady_clock::now());
      pollfd p{fd_, events, 0};
      const int ready = ::poll(&p, 1, static_cast<int>(std::max<int64_t>(0, left.count())));
      if (ready > 0) return;
      if (ready < 0 && errno == EINTR) continue;
      stalled_ = true;
      return;
    }
  }

  void send_all(const std::string& text) {
    size_t sent = 0;
    while (sent < text.size()) {
      const ssize_t n = ::send(fd_, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;  // the server may answer (413, 400) and close before the body is read
      sent += static_cast<size_t>(n);
    }
  }

  // Appends what the server sends next to buffer_; false at its end (EOF or reset).
  bool receive(const WireRequest& request) {
    char chunk[8192];
    for (;;) {
      wait(POLLIN);
      if (stalled_) {
        on_stall_();
        fail_here(request, "no answer within 10 s");
      }
      const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      buffer_.append(chunk, static_cast<size_t>(n));
      return true;
    }
  }

  // Takes `n` bytes off the front of buffer_ into `out` (receiving as needed); false if the
  // connection ended first.
  bool take(size_t n, std::string& out, const WireRequest& request) {
    while (buffer_.size() < n) {
      if (!receive(request)) return false;
    }
    out.append(buffer_, 0, n);
    buffer_.erase(0, n);
    return true;
  }

  // Takes one line (up to CR LF, included) into `out`.
  bool take_line(std::string& out, const WireRequest& request) {
    size_t end;
    while ((end = buffer_.find("\r\n")) == std::string::npos) {
      if (!receive(request)) return false;
    }
    return take(end + 2, out, request);
  }

  HttpAnswer read_answer(const WireRequest& request) {
    for (;;) {
      HttpAnswer a;
      size_t end;
      while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) {
        if (!receive(request)) {
          if (buffer_.empty()) return a;
          fail_here(request, "an answer cut off in its head");
        }
      }
      a.body_at = end + 4;
      take(a.body_at, a.text, request);
      if (a.text.size() < 12 || a.text.compare(0, 9, "HTTP/1.1 ") != 0 ||
          !std::isdigit(static_cast<unsigned char>(a.text[9])))
        fail_here(request, "not an HTTP answer:\n" + a.text.substr(0, 300));
      a.status = std::atoi(a.text.substr(9, 3).c_str());
      if (a.status >= 100 && a.status < 200) continue;  // interim (100 Continue): the next one
      a.closes = lower_case(a.header("connection")) == "close";
      const std::string length = a.header("content-length");
      a.chunked = lower_case(a.header("transfer-encoding")) == "chunked";
      if (a.status == 204 || a.status == 304) return a;
      // Perhaps HEAD's answer (no body), perhaps not: its connection closes after it, so the
      // body is whatever comes before the close, still framed as its head says.
      if (request.head && buffer_.empty() && !receive(request)) {
        a.closes = true;
        return a;
      }
      if (a.chunked) {
        read_chunked(a, request);
      } else if (!length.empty()) {
        if (length.find_first_not_of("0123456789") != std::string::npos || length.size() > 12)
          fail_here(request, "Content-Length that is no byte count: " + length);
        if (!take(std::strtoull(length.c_str(), nullptr, 10), a.text, request))
          fail_here(request, "the connection ended inside the answer's body:\n" + a.text);
      } else {
        // Delimited by the end of the connection (RFC 9112, 6.3): only on one that closes.
        while (receive(request)) {
        }
        a.text += buffer_;
        buffer_.clear();
        a.closes = true;
      }
      return a;
    }
  }

  void read_chunked(HttpAnswer& a, const WireRequest& request) {
    for (;;) {
      std::string line;
      if (!take_line(line, request)) fail_here(request, "chunked answer cut off:\n" + a.text);
      a.text += line;
      char* end = nullptr;
      const unsigned long long size = std::strtoull(line.c_str(), &end, 16);
      if (end == line.c_str()) fail_here(request, "chunk size that is no number: " + line);
      if (size == 0) {  // trailer lines up to the empty one
        do {
          line.clear();
          if (!take_line(line, request)) fail_here(request, "chunked answer cut off in trailer");
          a.text += line;
        } while (line != "\r\n");
        return;
      }
      if (!take(size + 2, a.text, request)) fail_here(request, "chunked answer cut off");
    }
  }

  // After an answer on a connection that closes: nothing more may come before its end.
  void expect_end(const WireRequest& request, const HttpAnswer& answer) {
    while (buffer_.empty() && receive(request)) {
    }
    if (!buffer_.empty())
      fail_here(request, "a second answer to one request, after:\n" + answer.text.substr(0, 500));
  }

  int port_;
  std::function<void()> on_stall_;
  int fd_ = -1;
  std::string buffer_;  // received, not yet taken
  std::string previous_;
  bool stalled_ = false;
  std::chrono::steady_clock::time_point deadline_;
};

}  // namespace ionflow::fuzz
