// Queue stream: the Redis Streams consumer-group operations a node uses on the job stream —
// create the group, read a new entry, claim an entry another consumer left idle (XAUTOCLAIM,
// Redis >= 6.2; Debian 12 ships 7.0), count an entry's deliveries, keep an entry this consumer
// runs from looking idle (heartbeat), acknowledge it.
//
// Delivery model: an entry read or claimed by a consumer is pending until acknowledged; its
// delivery count grows with each XREADGROUP/XAUTOCLAIM delivery (heartbeats use XCLAIM JUSTID,
// which does not count). Thread-safety: free functions over a caller-owned connection.
// Errors: RedisIoError / RedisReplyError (e.g. "NOGROUP" when the group vanished with a Redis
// restart without persistence: call ensure_consumer_group again).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "service/redis_connection.hpp"

namespace ionflow {

struct StreamEntry {
  std::string entry_id;  // "1712345678123-0"
  std::map<std::string, std::string> fields;
};

struct ConsumerGroup {
  std::string stream;
  std::string group;
  std::string consumer;
};

// XGROUP CREATE stream group 0 MKSTREAM (entries added before any node started are read too);
// an existing group is left as it is.
void ensure_consumer_group(RedisConnection& redis, const ConsumerGroup& g);
// XREADGROUP ... COUNT 1 BLOCK block_ms STREAMS stream >: a never-delivered entry, or nullopt.
std::optional<StreamEntry> read_new_entry(RedisConnection& redis, const ConsumerGroup& g,
                                          int block_ms);
// XAUTOCLAIM stream group consumer min_idle_ms cursor COUNT 1: an entry pending for at least
// min_idle_ms on any consumer (this one included), now owned by g.consumer. `cursor` carries the
// scan position between calls ("0-0" to start). Entries deleted from the stream while pending
// are acknowledged and skipped.
std::optional<StreamEntry> claim_idle_entry(RedisConnection& redis, const ConsumerGroup& g,
                                            int64_t min_idle_ms, std::string& cursor);
// How many times the pending entry was delivered (0 if it is not pending).
int64_t delivery_count(RedisConnection& redis, const ConsumerGroup& g, const std::string& entry_id);

struct HeartbeatResult {
  enum class Kind { kOwned, kLost, kGone };
  Kind kind = Kind::kOwned;
  std::string owner;  // kLost: the consumer that holds it now
};
// If g.consumer still owns the pending entry, resets its idle time (XCLAIM ... JUSTID, in one
// script with the ownership check); otherwise says who has it (kLost) or that it is no longer
// pending (kGone: acknowledged by someone).
HeartbeatResult heartbeat_entry(RedisConnection& redis, const ConsumerGroup& g,
                                const std::string& entry_id);
void ack_entry(RedisConnection& redis, const ConsumerGroup& g, const std::string& entry_id);

// The Unix time (ms) in an entry id "MS-SEQ"; 0 if it has none.
int64_t entry_time_ms(const std::string& entry_id);

}  // namespace ionflow
