// The remote scorer node's handshake rules (service/scorer_handshake.hpp): loopback by default,
// a token beyond it, protocol version and token refusals with the reason both sides log, and
// the index checksum comparison.
#include <gtest/gtest.h>

#include "service/scorer_handshake.hpp"

namespace ionflow {
namespace {

ScorerNodeHello hello(const std::string& token) {
  ScorerNodeHello h;
  h.software_version = "0.1.0";
  h.node_name = "beta";
  h.scorers = 2;
  h.token = token;
  return h;
}

TEST(ScorerHandshake, ListensBeyondLoopbackOnlyWithAToken) {
  EXPECT_EQ(check_scorer_listen("127.0.0.1:7000", ""), "");
  EXPECT_EQ(check_scorer_listen("localhost:0", ""), "");
  EXPECT_EQ(check_scorer_listen("0.0.0.0:7000", "s3cret"), "");
  EXPECT_EQ(check_scorer_listen("0.0.0.0:7000", ""),
            "--scorer-listen 0.0.0.0:7000: listening beyond loopback needs a token "
            "(--scorer-token or IONFLOW_SCORER_TOKEN)");
  EXPECT_EQ(check_scorer_listen("7000", ""), "--scorer-listen: expected HOST:PORT, got 7000");
}

TEST(ScorerHandshake, RefusesAnotherProtocolOrAWrongToken) {
  EXPECT_EQ(check_scorer_hello(hello("s3cret"), "s3cret"), "");
  EXPECT_EQ(check_scorer_hello(hello(""), ""), "");  // loopback without a token
  EXPECT_EQ(check_scorer_hello(hello("guess"), "s3cret"), "scorer node beta: wrong token");
  EXPECT_EQ(check_scorer_hello(hello(""), "s3cret"), "scorer node beta: no token");
  ScorerNodeHello old = hello("s3cret");
  old.protocol_version = kScorerProtocolVersion - 1;  // before QueryChunk carried its part
  EXPECT_EQ(check_scorer_hello(old, "s3cret"), "scorer node beta speaks scorer protocol " +
                                                   std::to_string(kScorerProtocolVersion - 1) +
                                                   " (ionflow 0.1.0), this coordinator speaks " +
                                                   std::to_string(kScorerProtocolVersion));
  ScorerNodeHello none = hello("");
  none.scorers = 0;
  EXPECT_EQ(check_scorer_hello(none, ""), "scorer node beta: offers 0 scorers (at least 1)");
}

TEST(ScorerHandshake, IndexChecksumMustMatch) {
  const std::string a(64, 'a');
  const std::string b(64, 'b');
  EXPECT_EQ(check_index_checksum(7, a, a), "");
  EXPECT_EQ(check_index_checksum(7, a, b),
            "job 7: peptide index checksum bbbbbbbbbbbbbbbb differs from the coordinator's "
            "aaaaaaaaaaaaaaaa; refusing its chunks");
}

}  // namespace
}  // namespace ionflow
