// The remote scorer node's messages (messages/scorer_node.hpp) survive a CAF binary_serializer
// round trip unchanged, as crossing machines through the middleman requires.
#include <gtest/gtest.h>
#include <caf/all.hpp>
#include <caf/binary_deserializer.hpp>
#include <caf/binary_serializer.hpp>

#include "messages/scorer_node_inspect.hpp"

namespace ionflow {
namespace {

struct Config : caf::actor_system_config {
  Config() {
    register_scorer_node_types(*this);
    set("scheduler.max-threads", 2);
  }
};

template <class T>
T round_trip(caf::actor_system& sys, T x) {
  std::vector<char> buf;
  caf::binary_serializer sink{sys, buf};
  auto err = sink(x);
  EXPECT_FALSE(err) << sys.render(err);
  T y;
  caf::binary_deserializer source{sys, buf};
  err = source(y);
  EXPECT_FALSE(err) << sys.render(err);
  return y;
}

TEST(ScorerNodeMessages, RoundTripUnchanged) {
  Config cfg;
  caf::actor_system sys{cfg};
  ScorerNodeHello hello;
  hello.software_version = "0.1.0";
  hello.node_name = "beta:4711";
  hello.scorers = 16;
  hello.token = "s3cret";
  ScorerNodeHello h = round_trip(sys, hello);
  EXPECT_EQ(h.protocol_version, kScorerProtocolVersion);
  EXPECT_EQ(h.software_version, "0.1.0");
  EXPECT_EQ(h.node_name, "beta:4711");
  EXPECT_EQ(h.scorers, 16);
  EXPECT_EQ(h.token, "s3cret");
  ScorerNodeWelcome no{false, "scorer node beta:4711: wrong token", "alpha"};
  ScorerNodeWelcome w = round_trip(sys, no);
  EXPECT_FALSE(w.accepted);
  EXPECT_EQ(w.reason, "scorer node beta:4711: wrong token");
  EXPECT_EQ(w.coordinator, "alpha");
  RemoteJobSetup setup;
  setup.job = 42;
  setup.effective_parameters_json = R"({"database": {"fasta": "/data/db.fasta"}})";
  setup.fasta_bytes = std::string(">P1\nPEPTIDEK\n\0\xff", 15);  // bytes, not text
  setup.fasta_sha256 = std::string(64, 'c');
  setup.index_checksum = std::string(64, 'd');
  RemoteJobSetup s = round_trip(sys, setup);
  EXPECT_EQ(s.job, 42u);
  EXPECT_EQ(s.effective_parameters_json, setup.effective_parameters_json);
  EXPECT_EQ(s.fasta_bytes, setup.fasta_bytes);
  EXPECT_EQ(s.fasta_sha256, setup.fasta_sha256);
  EXPECT_EQ(s.index_checksum, setup.index_checksum);
}

}  // namespace
}  // namespace ionflow
