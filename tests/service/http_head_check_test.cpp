// The gate's check of a request head's Content-Length (service/http_head_check.hpp): bad or too
// large lengths are answered at once, everything else goes on to a worker; and, over real HTTP,
// such a request gets the gate's answer instead of cpp-httplib's after its 5 s read timeout.
#include "service/http_head_check.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

#include "in_process_api.hpp"

namespace ionflow {
namespace {

std::string head(const std::string& headers) {
  return "POST /v1/jobs HTTP/1.1\r\nHost: x\r\n" + headers + "\r\n";
}

TEST(HttpHeadCheck, BadOrTooLargeContentLengthsAreAnsweredAtOnce) {
  EXPECT_EQ(check_request_head(head("Content-Length: 12\r\n"), 100), "");
  EXPECT_EQ(check_request_head(head("content-length:100 \r\n"), 100), "");  // the limit itself
  EXPECT_EQ(check_request_head(head(""), 100), "");                         // no body
  EXPECT_EQ(check_request_head(head("Content-Length: 5000\r\n"), 0), "");   // no limit

  const std::string negative = check_request_head(head("Content-Length: -5\r\n"), 100);
  EXPECT_EQ(negative.rfind("HTTP/1.1 400 Bad Request\r\n", 0), 0u) << negative;
  EXPECT_NE(negative.find("{\"error\": \"Content-Length: expected a byte count, got '-5'\"}"),
            std::string::npos)
      << negative;
  EXPECT_NE(negative.find("Connection: close\r\n"), std::string::npos);

  const std::string large = check_request_head(head("CONTENT-LENGTH: 101\r\n"), 100);
  EXPECT_EQ(large.rfind("HTTP/1.1 413 Payload Too Large\r\n", 0), 0u) << large;
  EXPECT_NE(large.find("request body too large (limit 100 bytes)"), std::string::npos);

  EXPECT_NE(check_request_head(head("Content-Length: 99999999999999999999\r\n"), 0).find("400"),
            std::string::npos);  // 20 digits: no byte count we could hold
  EXPECT_NE(check_request_head(head("Content-Length: 1\r\nContent-Length: 2\r\n"), 0)
                .find("two Content-Length headers that differ"),
            std::string::npos);
  EXPECT_NE(check_request_head(head("Content-Length: 1e3\r\n"), 0).find("got '1e3'"),
            std::string::npos);
}

// A chunked body's size is known only at its end, and cpp-httplib 0.11 reads it whole whatever
// its payload limit: with a limit such a head is answered 411 at once.
TEST(HttpHeadCheck, ATransferEncodingIsAnswered411WhenBodiesHaveALimit) {
  const std::string chunked = check_request_head(head("Transfer-Encoding: chunked\r\n"), 100);
  EXPECT_EQ(chunked.rfind("HTTP/1.1 411 Length Required\r\n", 0), 0u) << chunked;
  EXPECT_NE(chunked.find("a request body needs a Content-Length header"), std::string::npos);
  EXPECT_NE(chunked.find("limit 100 bytes"), std::string::npos);
  EXPECT_NE(chunked.find("Connection: close\r\n"), std::string::npos);
  EXPECT_EQ(
      check_request_head(head("transfer-encoding: gzip, chunked\r\nContent-Length: 5\r\n"), 100)
          .rfind("HTTP/1.1 411", 0),
      0u);
  EXPECT_EQ(check_request_head(head("Transfer-Encoding: chunked\r\n"), 0), "");  // no limit
}

TEST(HttpHeadCheck, RequestBodyIsTheContentLengthAndWhetherATransferEncodingCame) {
  EXPECT_EQ(request_body(head("Content-Length: 12\r\n")).content_length, 12u);
  EXPECT_FALSE(request_body(head("Content-Length: 12\r\n")).transfer_encoding);
  EXPECT_EQ(request_body(head("content-length:  7 \r\n")).content_length, 7u);
  EXPECT_EQ(request_body(head("")).content_length, 0u);
  EXPECT_EQ(request_body(head("Content-Length: -5\r\n")).content_length, 0u);  // gate's 400
  EXPECT_TRUE(request_body(head("TRANSFER-ENCODING: chunked\r\n")).transfer_encoding);
  EXPECT_TRUE(request_body(head("Transfer-Encoding: gzip, chunked\r\n")).transfer_encoding);
  // The request line is no header, whatever it holds.
  EXPECT_EQ(request_body("GET /Content-Length:5 HTTP/1.1\r\n\r\n").content_length, 0u);
}

class HttpHeadCheckApi : public InProcessApiTest {};

// A raw request on a new connection; everything the server sends back before it closes.
std::string raw_exchange(int port, const std::string& request) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  EXPECT_EQ(::send(fd, request.data(), request.size(), MSG_NOSIGNAL),
            static_cast<ssize_t>(request.size()));
  std::string response;
  char buffer[4096];
  for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) response.append(buffer, n);
  ::close(fd);
  return response;
}

// The client sends no body and keeps its side open: cpp-httplib would wait 5 s to discard the
// body, then answer 413 "request body too large" for both; the gate answers each at once.
TEST_F(HttpHeadCheckApi, TheGateAnswersBadLengthsWithoutAWorkerWaitingForTheBody) {
  InProcessApiOptions o;
  o.max_body_bytes = 1000;
  start_api(o);
  const std::string negative = raw_exchange(port_, head("Content-Length: -5\r\n"));
  EXPECT_EQ(negative.rfind("HTTP/1.1 400 Bad Request\r\n", 0), 0u) << negative;
  EXPECT_NE(negative.find("got '-5'"), std::string::npos) << negative;
  const std::string large = raw_exchange(port_, head("Content-Length: 1001\r\n"));
  EXPECT_EQ(large.rfind("HTTP/1.1 413 Payload Too Large\r\n", 0), 0u) << large;
  EXPECT_NE(large.find("request body too large (limit 1000 bytes)"), std::string::npos);
  ASSERT_EQ(client_->Get("/v1/health")->status, 200);
}

// Errors cpp-httplib answers before any handler, and its 8 KiB cap on form-encoded bodies (curl
// --data and --data-binary send that type): a new user got '{"error": "HTTP status 400"}' for a
// request line it could not parse, and job advice for an upload.
TEST_F(HttpHeadCheckApi, ErrorsBeforeAnyHandlerSayWhatWasWrong) {
  start_api(InProcessApiOptions{});
  const std::string garbled = raw_exchange(port_, "GARBLED\r\n\r\n");
  EXPECT_EQ(garbled.rfind("HTTP/1.1 400 Bad Request\r\n", 0), 0u) << garbled;
  EXPECT_NE(garbled.find("HTTP status 400 (Bad Request: the request line, a header or the "
                         "chunked body could not be read)"),
            std::string::npos)
      << garbled;
  const std::string form(9000, 'x');
  auto upload =
      client_->Put("/v1/uploads/run.mgf?offset=0", form, "application/x-www-form-urlencoded");
  ASSERT_TRUE(upload);
  EXPECT_EQ(upload->status, 413);
  EXPECT_NE(upload->body.find("send the file with Content-Type: application/octet-stream"),
            std::string::npos)
      << upload->body;
  auto job = client_->Post("/v1/jobs", form, "application/x-www-form-urlencoded");
  ASSERT_TRUE(job);
  EXPECT_EQ(job->status, 413);
  EXPECT_NE(job->body.find("send the job with Content-Type: application/json"), std::string::npos)
      << job->body;
  // Browsers add a charset; cpp-httplib's cap applies all the same.
  auto browser =
      client_->Post("/v1/jobs", form, "application/x-www-form-urlencoded; charset=UTF-8");
  ASSERT_TRUE(browser);
  EXPECT_NE(browser->body.find("limited to 8192 bytes"), std::string::npos) << browser->body;
  EXPECT_EQ(unparsed_request_message(414), "HTTP status 414 (URI Too Long)");
  EXPECT_EQ(unparsed_request_message(599), "HTTP status 599");
}

}  // namespace
}  // namespace ionflow
