#include "service/queue_stream.hpp"

namespace ionflow {

namespace {

const char kHeartbeatScript[] = R"lua(
local p = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[3], ARGV[3], 1)
if #p == 0 then return {'gone', ''} end
if p[1][2] ~= ARGV[2] then return {'lost', p[1][2]} end
redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[3], 'JUSTID')
return {'owned', ARGV[2]}
)lua";

// [id, [field, value, ...]] -> StreamEntry; nullopt for a deleted entry (nil fields).
std::optional<StreamEntry> to_entry(const RedisReply& r) {
  if (r.type != RedisReply::Type::kArray || r.elements.size() != 2) return std::nullopt;
  if (r.elements[1].type != RedisReply::Type::kArray) return std::nullopt;
  StreamEntry e;
  e.entry_id = r.elements[0].str;
  const auto& f = r.elements[1].elements;
  for (size_t i = 0; i + 1 < f.size(); i += 2) e.fields[f[i].str] = f[i + 1].str;
  return e;
}

}  // namespace

void ensure_consumer_group(RedisConnection& redis, const ConsumerGroup& g) {
  try {
    redis.command({"XGROUP", "CREATE", g.stream, g.group, "0", "MKSTREAM"});
  } catch (const RedisReplyError& e) {
    if (std::string(e.what()).rfind("BUSYGROUP", 0) != 0) throw;
  }
}

std::optional<StreamEntry> read_new_entry(RedisConnection& redis, const ConsumerGroup& g,
                                          int block_ms) {
  RedisReply r = redis.command({"XREADGROUP", "GROUP", g.group, g.consumer, "COUNT", "1", "BLOCK",
                                std::to_string(block_ms), "STREAMS", g.stream, ">"});
  // [[stream, [[id, [fields]]]]] or nil on timeout.
  if (r.type != RedisReply::Type::kArray || r.elements.empty()) return std::nullopt;
  const RedisReply& stream = r.elements[0];
  if (stream.elements.size() != 2 || stream.elements[1].elements.empty()) return std::nullopt;
  return to_entry(stream.elements[1].elements[0]);
}

std::optional<StreamEntry> claim_idle_entry(RedisConnection& redis, const ConsumerGroup& g,
                                            int64_t min_idle_ms, std::string& cursor) {
  RedisReply r = redis.command({"XAUTOCLAIM", g.stream, g.group, g.consumer,
                                std::to_string(min_idle_ms), cursor, "COUNT", "1"});
  // [next cursor, [[id, [fields]] or nil, ...], [deleted ids] (7.0)]
  if (r.type != RedisReply::Type::kArray || r.elements.size() < 2) return std::nullopt;
  cursor = r.elements[0].str.empty() ? "0-0" : r.elements[0].str;
  std::optional<StreamEntry> found;
  for (const auto& item : r.elements[1].elements) {
    if (auto e = to_entry(item)) {
      if (!found) found = std::move(e);
    } else if (item.type == RedisReply::Type::kArray && !item.elements.empty()) {
      ack_entry(redis, g, item.elements[0].str);  // 6.2: deleted entry with nil fields
    }
  }
  return found;
}

int64_t delivery_count(RedisConnection& redis, const ConsumerGroup& g,
                       const std::string& entry_id) {
  RedisReply r = redis.command({"XPENDING", g.stream, g.group, entry_id, entry_id, "1"});
  // [[id, consumer, idle ms, deliveries]]
  if (r.elements.empty() || r.elements[0].elements.size() < 4) return 0;
  return r.elements[0].elements[3].integer;
}

HeartbeatResult heartbeat_entry(RedisConnection& redis, const ConsumerGroup& g,
                                const std::string& entry_id) {
  RedisReply r =
      redis.command({"EVAL", kHeartbeatScript, "1", g.stream, g.group, g.consumer, entry_id});
  HeartbeatResult out;
  if (r.elements.size() == 2) {
    const std::string& kind = r.elements[0].str;
    out.kind = kind == "owned"  ? HeartbeatResult::Kind::kOwned
               : kind == "lost" ? HeartbeatResult::Kind::kLost
                                : HeartbeatResult::Kind::kGone;
    out.owner = r.elements[1].str;
  }
  return out;
}

void ack_entry(RedisConnection& redis, const ConsumerGroup& g, const std::string& entry_id) {
  redis.command({"XACK", g.stream, g.group, entry_id});
}

int64_t entry_time_ms(const std::string& entry_id) {
  try {
    return std::stoll(entry_id.substr(0, entry_id.find('-')));
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace ionflow
