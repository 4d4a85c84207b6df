// The checks of a remote scorer node's handshake (messages/scorer_node.hpp), as plain functions
// so that both sides and the tests use the same rules and the same words:
//   - a coordinator listens on loopback unless told otherwise, and needs a token
//     (--scorer-token / IONFLOW_SCORER_TOKEN) to listen anywhere else;
//   - a hello is refused when its protocol version differs or its token is wrong (compared in
//     constant time, service/api_token.hpp);
//   - a node refuses a job whose index it rebuilt with another checksum.
// Each returns "" when all is well, else the reason, written to be logged as is on both sides.
// Thread-safety: pure functions.
#pragma once

#include <string>

#include "actors/search_runtime.hpp"
#include "messages/scorer_node.hpp"

namespace ionflow {

// `listen` is HOST:PORT as given to --scorer-listen.
std::string check_scorer_listen(const std::string& listen, const std::string& token);
// Why the coordinator refuses `hello` ("" = accept).
std::string check_scorer_hello(const ScorerNodeHello& hello, const std::string& expected_token);
// Sets `options` to accept scorer nodes on `listen` ("" = none; check_scorer_listen passed),
// each hello checked by check_scorer_hello against `token`.
void accept_scorer_nodes(SearchRuntime::Options& options, const std::string& listen,
                         const std::string& token);
// Why a node refuses to score job `job` ("" = the checksums agree).
std::string check_index_checksum(uint64_t job, const std::string& expected,
                                 const std::string& rebuilt);

}  // namespace ionflow
