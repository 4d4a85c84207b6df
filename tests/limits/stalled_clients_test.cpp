// `ionflow serve` against slow and stalled HTTP clients (issue 20). Before GuardedHttpServer, 64
// connections that sent nothing (or half a request line) took every pool thread and the API
// stopped answering. Here 200 such connections, from ten loopback addresses (127.0.0.2-11, 20
// each, under the per-client cap), stay open while a normal client from 127.0.0.1 gets health
// answers and runs a job to the end; then the server closes the stalled ones at the head timeout
// (10 s). One address opening more than --max-connections-per-client connections gets 503 with
// the address and the limit for the excess; 101 pipelined requests on one connection get 100
// answers, the last with "Connection: close".
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include "../service/serve_support.hpp"

namespace ionflow::serve_test {
namespace {

using Clock = std::chrono::steady_clock;

// A TCP connection from `source` (a 127.0.0.0/8 address) to 127.0.0.1:port; -1 on failure.
int connect_from(const std::string& source, int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in local{};
  local.sin_family = AF_INET;
  ::inet_pton(AF_INET, source.c_str(), &local.sin_addr);
  sockaddr_in remote{};
  remote.sin_family = AF_INET;
  remote.sin_port = htons(static_cast<uint16_t>(port));
  ::inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof(local)) != 0 ||
      ::connect(fd, reinterpret_cast<sockaddr*>(&remote), sizeof(remote)) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Everything the server sends until it closes or `timeout` passes without a byte.
std::string read_until_close(int fd, std::chrono::milliseconds timeout, bool* closed = nullptr) {
  std::string out;
  char buf[4096];
  if (closed) *closed = false;
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(timeout.count())) <= 0) return out;
    ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
    if (n <= 0) {
      if (closed) *closed = true;
      return out;
    }
    out.append(buf, static_cast<size_t>(n));
  }
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class StalledClients : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(kIonflow)) << kIonflow << " not built";
    ASSERT_GT(server_.start(), 0) << server_.log();
  }
  void TearDown() override {
    for (int fd : fds_) ::close(fd);
  }
  ServeTestDir dir_{"stalled"};
  ServeProcess server_{dir_.path(), {"--concurrent-jobs", "1", "--scorers", "1"}};
  std::vector<int> fds_;
};

TEST_F(StalledClients, TwoHundredStalledConnectionsLeaveTheApiAnsweringAndAreClosedAtTheTimeout) {
  for (int address = 2; address <= 11; ++address) {
    const std::string source = "127.0.0." + std::to_string(address);
    for (int i = 0; i < 20; ++i) {
      int fd = connect_from(source, server_.port());
      ASSERT_GE(fd, 0) << source << ": " << std::strerror(errno);
      // Half send nothing, half stop inside the request line.
      if (i % 2 == 1) {
        ASSERT_EQ(::send(fd, "GET /v1/hea", 11, MSG_NOSIGNAL), 11);
      }
      fds_.push_back(fd);
    }
  }
  const auto opened = Clock::now();
  auto client = server_.client();
  client->set_read_timeout(3, 0);  // well below the 10 s head timeout: no waiting it out
  for (int i = 0; i < 5; ++i) {
    auto health = client->Get("/v1/health");
    ASSERT_TRUE(health) << "no answer with 200 stalled connections open: "
                        << httplib::to_string(health.error());
    EXPECT_EQ(health->status, 200);
    EXPECT_EQ(parse_json(health->body).find("status")->as_string(), "ok");
  }
  client->set_read_timeout(30, 0);
  const std::string id = submit(*client, small_job());
  ASSERT_FALSE(id.empty());
  EXPECT_EQ(wait_for_end(*client, id), "done");
  EXPECT_LT(Clock::now() - opened, std::chrono::seconds(9))
      << "the answers came only after the stalled connections timed out";

  // The server closes each stalled connection at the 10 s head timeout, without an answer.
  int closed_count = 0;
  for (int fd : fds_) {
    bool closed = false;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        opened + std::chrono::seconds(16) - Clock::now());
    std::string bytes = read_until_close(fd, std::max(left, std::chrono::milliseconds(1)), &closed);
    EXPECT_EQ(bytes, "");
    closed_count += closed;
  }
  EXPECT_EQ(closed_count, 200);
  EXPECT_GE(Clock::now() - opened, std::chrono::seconds(9)) << "closed before the head timeout";
}

TEST_F(StalledClients, ConnectionsBeyondThePerClientCapGet503NamingTheAddressAndLimit) {
  // 64 (the default --max-connections-per-client) are held; the next 6 are refused at once.
  for (int i = 0; i < 70; ++i) {
    int fd = connect_from("127.0.0.50", server_.port());
    ASSERT_GE(fd, 0) << std::strerror(errno);
    fds_.push_back(fd);
  }
  int refused = 0;
  for (size_t i = 0; i < fds_.size(); ++i) {
    std::string answer = read_until_close(fds_[i], std::chrono::milliseconds(i < 64 ? 50 : 3000));
    if (answer.empty()) continue;
    ++refused;
    EXPECT_EQ(answer.rfind("HTTP/1.1 503 Service Unavailable\r\n", 0), 0u) << answer;
    EXPECT_NE(answer.find("{\"error\": \"too many connections from 127.0.0.50 (limit 64 per "
                          "client address)\"}"),
              std::string::npos)
        << answer;
  }
  EXPECT_EQ(refused, 6);
  // Another address is not affected.
  auto health = server_.client()->Get("/v1/health");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
}

TEST_F(StalledClients, OneConnectionServesAtMostOneHundredRequestsThenCloses) {
  int fd = connect_from("127.0.0.60", server_.port());
  ASSERT_GE(fd, 0);
  fds_.push_back(fd);
  std::string requests;
  for (int i = 0; i < 101; ++i) requests += "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n";
  ASSERT_EQ(::send(fd, requests.data(), requests.size(), MSG_NOSIGNAL),
            static_cast<ssize_t>(requests.size()));
  bool closed = false;
  std::string answers = read_until_close(fd, std::chrono::seconds(10), &closed);
  EXPECT_TRUE(closed);
  EXPECT_EQ(count_of(answers, "HTTP/1.1 200 OK\r\n"), 100u);
  EXPECT_EQ(count_of(answers, "Connection: close\r\n"), 1u);
  EXPECT_NE(answers.rfind("Connection: close\r\n"), std::string::npos);
  EXPECT_GT(answers.rfind("Connection: close\r\n"), answers.rfind("HTTP/1.1 200 OK\r\n"));
}

TEST_F(StalledClients, AnIdleKeepAliveConnectionIsClosedAfterFiveSeconds) {
  int fd = connect_from("127.0.0.61", server_.port());
  ASSERT_GE(fd, 0);
  fds_.push_back(fd);
  const std::string request = "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n";
  ASSERT_EQ(::send(fd, request.data(), request.size(), MSG_NOSIGNAL),
            static_cast<ssize_t>(request.size()));
  const auto sent = Clock::now();
  bool closed = false;
  std::string answer = read_until_close(fd, std::chrono::seconds(12), &closed);
  EXPECT_EQ(count_of(answer, "HTTP/1.1 200 OK\r\n"), 1u);
  EXPECT_TRUE(closed);
  EXPECT_GE(Clock::now() - sent, std::chrono::milliseconds(4500));
}

}  // namespace
}  // namespace ionflow::serve_test
