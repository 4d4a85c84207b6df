#include "service/redis_connection.hpp"

#include <hiredis/hiredis.h>

#include <algorithm>
#include <cstdlib>

namespace ionflow {

namespace {

const char kScheme[] = "redis://";

RedisReply convert(const redisReply* r) {
  RedisReply out;
  switch (r->type) {
    case REDIS_REPLY_STRING:
      out.type = RedisReply::Type::kString;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_STATUS:
      out.type = RedisReply::Type::kStatus;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_ERROR:
      out.type = RedisReply::Type::kError;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_INTEGER:
      out.type = RedisReply::Type::kInteger;
      out.integer = r->integer;
      break;
    case REDIS_REPLY_ARRAY:
      out.type = RedisReply::Type::kArray;
      for (size_t i = 0; i < r->elements; ++i) out.elements.push_back(convert(r->element[i]));
      break;
    default:
      out.type = RedisReply::Type::kNil;
  }
  return out;
}

timeval to_timeval(int ms) {
  timeval tv{};
  tv.tv_sec = ms / 1000;
  tv.tv_usec = (ms % 1000) * 1000;
  return tv;
}

}  // namespace

std::string RedisUrl::display() const {
  return std::string(kScheme) + host + ":" + std::to_string(port) + "/" + stream;
}

bool is_redis_url(const std::string& text) {
  return text.rfind(kScheme, 0) == 0;
}

RedisUrl parse_redis_url(const std::string& text, const std::string& what) {
  auto fail = [&](const std::string& why) {
    throw std::invalid_argument(what + ": expected redis://[:PASSWORD@]HOST:PORT[/STREAM], got " +
                                text + " (" + why + ")");
  };
  if (!is_redis_url(text)) fail("no redis:// scheme");
  std::string rest = text.substr(sizeof(kScheme) - 1);
  RedisUrl url;
  if (auto at = rest.rfind('@'); at != std::string::npos) {
    std::string user_info = rest.substr(0, at);
    rest = rest.substr(at + 1);
    // redis://:PASS@ (Redis has no user before 6; "user:pass" keeps the part after ':').
    auto colon = user_info.find(':');
    url.password = colon == std::string::npos ? user_info : user_info.substr(colon + 1);
  }
  std::string authority = rest;
  if (auto slash = rest.find('/'); slash != std::string::npos) {
    authority = rest.substr(0, slash);
    std::string stream = rest.substr(slash + 1);
    if (!stream.empty()) url.stream = stream;
  }
  auto colon = authority.rfind(':');
  url.host = authority.substr(0, colon);
  if (url.host.empty()) fail("no host");
  if (colon != std::string::npos) {
    const std::string port = authority.substr(colon + 1);
    size_t used = 0;
    int value = -1;
    try {
      value = std::stoi(port, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != port.size() || value < 1 || value > 65535) fail("bad port " + port);
    url.port = value;
  }
  if (url.password.empty()) {
    if (const char* p = std::getenv("IONFLOW_REDIS_PASSWORD"); p != nullptr) url.password = p;
  }
  return url;
}

RedisConnection::RedisConnection(RedisUrl url, int connect_timeout_ms, int command_timeout_ms)
    : url_(std::move(url)),
      connect_timeout_ms_(connect_timeout_ms),
      command_timeout_ms_(command_timeout_ms) {}

RedisConnection::~RedisConnection() {
  disconnect();
}

void RedisConnection::disconnect() {
  if (context_ != nullptr) redisFree(context_);
  context_ = nullptr;
}

void RedisConnection::connect() {
  disconnect();
  redisContext* c =
      redisConnectWithTimeout(url_.host.c_str(), url_.port, to_timeval(connect_timeout_ms_));
  if (c == nullptr) throw RedisIoError("redis " + url_.display() + ": cannot connect: no memory");
  if (c->err != 0) {
    std::string why = c->errstr;
    redisFree(c);
    throw RedisIoError("redis " + url_.display() + ": cannot connect: " + why);
  }
  redisSetTimeout(c, to_timeval(command_timeout_ms_));
  context_ = c;
  if (!url_.password.empty()) {
    try {
      command({"AUTH", url_.password});
    } catch (const RedisReplyError& e) {
      disconnect();
      throw RedisIoError("redis " + url_.display() + ": AUTH refused: " + e.what());
    }
  }
}

RedisReply RedisConnection::command(const std::vector<std::string>& args) {
  if (context_ == nullptr) connect();
  std::vector<const char*> argv;
  std::vector<size_t> lengths;
  for (const auto& a : args) argv.push_back(a.data()), lengths.push_back(a.size());
  auto* raw = static_cast<redisReply*>(
      redisCommandArgv(context_, static_cast<int>(args.size()), argv.data(), lengths.data()));
  if (raw == nullptr) {
    std::string why = context_->errstr;
    disconnect();
    throw RedisIoError("redis " + url_.display() + ": " + args.front() + ": " +
                       (why.empty() ? "connection lost" : why));
  }
  RedisReply reply = convert(raw);
  freeReplyObject(raw);
  if (reply.type == RedisReply::Type::kError) throw RedisReplyError(reply.str);
  return reply;
}

std::chrono::milliseconds RedisBackoff::next() {
  ++failures_;
  delay_ms_ = delay_ms_ == 0 ? 100 : std::min<int64_t>(delay_ms_ * 2, 5000);
  return std::chrono::milliseconds(delay_ms_);
}

}  // namespace ionflow
