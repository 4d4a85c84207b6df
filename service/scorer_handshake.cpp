#include "service/scorer_handshake.hpp"

#include <fmt/format.h>

#include "service/api_token.hpp"

namespace ionflow {

namespace {

bool is_loopback_host(const std::string& host) {
  return host == "127.0.0.1" || host == "localhost" || host == "::1" || host == "[::1]" ||
         host.rfind("127.", 0) == 0;
}

}  // namespace

std::string check_scorer_listen(const std::string& listen, const std::string& token) {
  const auto colon = listen.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == listen.size()) {
    return fmt::format("--scorer-listen: expected HOST:PORT, got {}", listen);
  }
  const std::string host = listen.substr(0, colon);
  if (!is_loopback_host(host) && token.empty()) {
    return fmt::format(
        "--scorer-listen {}: listening beyond loopback needs a token (--scorer-token or "
        "IONFLOW_SCORER_TOKEN)",
        listen);
  }
  return "";
}

std::string check_scorer_hello(const ScorerNodeHello& hello, const std::string& expected_token) {
  if (hello.protocol_version != kScorerProtocolVersion) {
    return fmt::format(
        "scorer node {} speaks scorer protocol {} (ionflow {}), this coordinator speaks {}",
        hello.node_name, hello.protocol_version, hello.software_version, kScorerProtocolVersion);
  }
  if (!expected_token.empty() && !constant_time_equal(hello.token, expected_token)) {
    return fmt::format("scorer node {}: {} token", hello.node_name,
                       hello.token.empty() ? "no" : "wrong");
  }
  if (hello.scorers < 1) {
    return fmt::format("scorer node {}: offers {} scorers (at least 1)", hello.node_name,
                       hello.scorers);
  }
  return "";
}

void accept_scorer_nodes(SearchRuntime::Options& options, const std::string& listen,
                         const std::string& token) {
  if (listen.empty()) return;
  options.scorer_listen = listen;
  options.check_scorer_node = [token](const ScorerNodeHello& hello) {
    return check_scorer_hello(hello, token);
  };
}

std::string check_index_checksum(uint64_t job, const std::string& expected,
                                 const std::string& rebuilt) {
  if (expected == rebuilt) return "";
  return fmt::format(
      "job {}: peptide index checksum {} differs from the coordinator's {}; refusing its chunks",
      job, rebuilt.substr(0, 16), expected.substr(0, 16));
}

}  // namespace ionflow
