// A real `redis-server` for the queue tests: started on a free 127.0.0.1 port in its own
// directory (append-only file on, fsync always, so a kill -9 and restart loses nothing the
// server acknowledged), stopped (SIGKILL) and reaped on destruction. restart() keeps the port
// and the data directory. Every wait is bounded; a server that does not answer PING within
// 10 s fails the test.
#pragma once

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "service/redis_connection.hpp"

namespace ionflow::redis_test {

namespace fs = std::filesystem;

inline bool redis_server_installed() {
  return fs::exists("/usr/bin/redis-server");
}

// A port the kernel just handed out on 127.0.0.1 (closed again, so it is free now).
inline int free_loopback_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  socklen_t len = sizeof(addr);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

class RedisServer {
 public:
  explicit RedisServer(fs::path dir) : dir_(std::move(dir)), port_(free_loopback_port()) {
    fs::create_directories(dir_);
    start();
  }
  ~RedisServer() { kill9(); }
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;

  void start() {
    const std::string port = std::to_string(port_);
    const std::string log = (dir_ / "redis.log").string();
    pid_ = ::fork();
    if (pid_ == 0) {
      FILE* f = std::freopen(log.c_str(), "a", stdout);
      (void)f;
      ::execl("/usr/bin/redis-server", "redis-server", "--port", port.c_str(), "--bind",
              "127.0.0.1", "--dir", dir_.c_str(), "--save", "", "--appendonly", "yes",
              "--appendfsync", "always", "--daemonize", "no", nullptr);
      ::_exit(127);
    }
    for (int i = 0; i < 200; ++i) {
      try {
        RedisConnection c(url());
        if (c.command({"PING"}).str == "PONG") return;
      } catch (const std::exception&) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ADD_FAILURE() << "redis-server on port " << port_ << " did not answer PING";
  }
  void kill9() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  void restart() {
    kill9();
    start();
  }
  RedisUrl url(const std::string& stream = "ionflow:jobs") const {
    RedisUrl u;
    u.host = "127.0.0.1";
    u.port = port_;
    u.stream = stream;
    return u;
  }
  std::string url_text(const std::string& stream) const {
    return "redis://127.0.0.1:" + std::to_string(port_) + "/" + stream;
  }
  int port() const { return port_; }

 private:
  fs::path dir_;
  int port_;
  pid_t pid_ = -1;
};

}  // namespace ionflow::redis_test
