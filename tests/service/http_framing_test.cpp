// A request on a kept-alive connection is read exactly to its end, and what follows it is the
// next request (service/guarded_http_server.hpp). cpp-httplib 0.11 stops reading a request
// early in several cases and then read the rest as further requests, each answered: found by
// the HTTP fuzzer once it kept its connection open (a request got two answers). Here such a
// connection is closed after the one answer; well-framed pipelined requests are all answered.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "in_process_api.hpp"

namespace ionflow {
namespace {

class HttpFraming : public InProcessApiTest {
 protected:
  // Sends `bytes` on a new connection, keeps it open, and returns the status lines of every
  // answer that comes until the server closes it (closed = true), 10 s pass without a byte, or,
  // with `open_after` > 0, that many answers have come, the last a whole health answer.
  std::vector<std::string> answers(const std::string& bytes, bool& closed, size_t open_after = 0) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port_));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    EXPECT_EQ(::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL),
              static_cast<ssize_t>(bytes.size()));
    received_.clear();
    closed = false;
    char buffer[4096];
    for (;;) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, 10000) <= 0) break;
      const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
      if (n <= 0) {
        closed = true;
        break;
      }
      received_.append(buffer, static_cast<size_t>(n));
      if (open_after > 0 && status_lines().size() >= open_after &&
          received_.ends_with("\"auth\": false\n}\n"))
        break;
    }
    ::close(fd);
    return status_lines();
  }

  std::vector<std::string> status_lines() const {
    std::vector<std::string> lines;
    for (size_t at = received_.find("HTTP/1.1 "); at != std::string::npos;
         at = received_.find("HTTP/1.1 ", at + 1))
      lines.push_back(received_.substr(at, received_.find("\r\n", at) - at));
    return lines;
  }

  std::string received_;
};

const std::string kHealth = "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n";

std::string with_body(const std::string& head, const std::string& body) {
  return head + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

// httplib reads no body for GET: the body was answered as a request of its own.
TEST_F(HttpFraming, AGetsBodyIsNotReadAsTheNextRequest) {
  start_api({});
  bool closed = false;
  const auto lines = answers(with_body("GET /v1/health HTTP/1.1\r\nHost: x\r\n",
                                       "GET /v1/nothing HTTP/1.1\r\nHost: x\r\n\r\n"),
                             closed);
  EXPECT_EQ(lines, std::vector<std::string>{"HTTP/1.1 200 OK"}) << received_;
  EXPECT_TRUE(closed);
}

// The 401 is answered before the body is read: the body came through as a request, past the
// token check of whatever proxy sent the first one.
TEST_F(HttpFraming, ABodyAfterA401IsNotReadAsTheNextRequest) {
  InProcessApiOptions o;
  o.api_token = "secret";
  start_api(o);
  bool closed = false;
  const auto lines =
      answers(with_body("POST /v1/jobs HTTP/1.1\r\nHost: x\r\n", kHealth + kHealth), closed);
  EXPECT_EQ(lines, std::vector<std::string>{"HTTP/1.1 401 Unauthorized"}) << received_;
  EXPECT_TRUE(closed);
}

// httplib rejects the request line without reading the header lines; each was answered 400.
TEST_F(HttpFraming, ABadRequestLineIsAnsweredOnceNotOncePerLine) {
  start_api({});
  bool closed = false;
  const auto lines = answers("GET\r\nHost: x\r\nA: b\r\n\r\n", closed);
  EXPECT_EQ(lines, std::vector<std::string>{"HTTP/1.1 400 Bad Request"}) << received_;
  EXPECT_TRUE(closed);
}

// A gzip body that does not decode: httplib stops after its first 4 KiB piece; the rest (here
// 400 health requests) was answered request by request.
TEST_F(HttpFraming, ABodyThatDoesNotDecodeIsNotReadOnAsRequests) {
  start_api({});
  std::string body;
  for (int i = 0; i < 400; ++i) body += kHealth;
  bool closed = false;
  const auto lines =
      answers(with_body("POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        "Content-Encoding: gzip\r\n",
                        body),
              closed);
  EXPECT_EQ(lines, std::vector<std::string>{"HTTP/1.1 400 Bad Request"}) << received_;
  EXPECT_TRUE(closed);
}

// A chunked body ends where its coding says, which only httplib's reader knows: the answer
// says the connection closes, and it does.
TEST_F(HttpFraming, AChunkedRequestIsAnsweredWithConnectionClose) {
  start_api({});
  bool closed = false;
  const auto lines = answers(
      "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
      "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n" +
          kHealth,
      closed);
  EXPECT_EQ(lines, std::vector<std::string>{"HTTP/1.1 400 Bad Request"}) << received_;
  EXPECT_NE(received_.find("Connection: close\r\n"), std::string::npos) << received_;
  EXPECT_TRUE(closed);
}

// Requests read to their end keep the connection: a rejected job message (its body read), a
// GET, then a health request, pipelined, are answered in order and the connection stays open.
TEST_F(HttpFraming, PipelinedRequestsReadToTheirEndAreEachAnswered) {
  start_api({});
  bool closed = false;
  const auto lines =
      answers(with_body("POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n",
                        "{\"nope\": 1}") +
                  "GET /v1/jobs/jdoesnotexist HTTP/1.1\r\nHost: x\r\n\r\n" + kHealth,
              closed, 3);
  EXPECT_EQ(lines, (std::vector<std::string>{"HTTP/1.1 400 Bad Request", "HTTP/1.1 404 Not Found",
                                             "HTTP/1.1 200 OK"}))
      << received_;
  EXPECT_FALSE(closed);
}

}  // namespace
}  // namespace ionflow
