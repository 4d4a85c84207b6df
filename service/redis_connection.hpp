// RedisUrl and RedisConnection: where the job queue lives and one synchronous connection to it.
//
// RedisUrl parses `redis://[:PASSWORD@]HOST[:PORT][/STREAM]` (port 6379 and stream
// "ionflow:jobs" by default); a password not in the URL comes from IONFLOW_REDIS_PASSWORD.
// Throws std::invalid_argument naming what is wrong ("--queue: expected redis://HOST:PORT...").
//
// RedisConnection wraps one hiredis context (hiredis 0.14, RESP2). It connects lazily, sends
// AUTH when a password is set, and runs one command at a time. A transport failure (cannot
// connect, connection reset, timeout) throws RedisIoError and drops the context: the next
// command connects again, so a caller retries with a RedisBackoff. An error reply from the
// server (e.g. "NOGROUP ...") throws RedisReplyError and keeps the connection.
// Thread-safety: none; use one RedisConnection per thread. Not copyable.
// Units: timeouts in milliseconds.
#pragma once

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

struct redisContext;

namespace ionflow {

struct RedisUrl {
  std::string host;
  int port = 6379;
  std::string password;  // "" = no AUTH
  std::string stream = "ionflow:jobs";
  // "redis://HOST:PORT/STREAM" (without the password), for logs and clients.
  std::string display() const;
};
// `what` prefixes error messages ("--queue", "--server").
RedisUrl parse_redis_url(const std::string& text, const std::string& what);
bool is_redis_url(const std::string& text);

// A reply as plain values: strings, status and error text in `str`; arrays in `elements`.
struct RedisReply {
  enum class Type { kNil, kString, kStatus, kInteger, kArray, kError };
  Type type = Type::kNil;
  std::string str;
  long long integer = 0;
  std::vector<RedisReply> elements;
  bool is_nil() const { return type == Type::kNil; }
};

class RedisIoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
class RedisReplyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class RedisConnection {
 public:
  // command_timeout_ms bounds every command, including a blocking XREADGROUP's BLOCK time (give
  // it a margin above the longest BLOCK).
  explicit RedisConnection(RedisUrl url, int connect_timeout_ms = 2000,
                           int command_timeout_ms = 5000);
  ~RedisConnection();
  RedisConnection(const RedisConnection&) = delete;
  RedisConnection& operator=(const RedisConnection&) = delete;

  // Runs one command (connecting first if needed). Throws RedisIoError / RedisReplyError.
  RedisReply command(const std::vector<std::string>& args);
  bool connected() const { return context_ != nullptr; }
  void disconnect();
  const RedisUrl& url() const { return url_; }

 private:
  void connect();
  RedisUrl url_;
  int connect_timeout_ms_;
  int command_timeout_ms_;
  redisContext* context_ = nullptr;
};

// Exponential backoff for reconnecting: 100 ms doubling up to 5 s.
class RedisBackoff {
 public:
  std::chrono::milliseconds next();
  void reset() { delay_ms_ = 0, failures_ = 0; }
  int failures() const { return failures_; }

 private:
  int64_t delay_ms_ = 0;
  int failures_ = 0;
};

}  // namespace ionflow
