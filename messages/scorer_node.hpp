// Messages between a coordinator (`ionflow serve|search --scorer-listen HOST:PORT`) and a remote
// scorer node (`ionflow scorer-node --connect HOST:PORT`), over CAF's middleman (issue 17 part 2;
// the coordinator's gate is actors/scorer_gate.cpp, the node actors/scorer_node.cpp):
//   ScorerNodeHello    node -> coordinator, first: protocol and software version, the node's
//                      name, its scorer count and the shared token ("" = none).
//   ScorerNodeWelcome  the answer: accepted, or refused with the reason (the node logs it and
//                      exits; the coordinator logs it too).
//   RemoteJobSetup     coordinator -> node, once per job before its first chunk there: what the
//                      node needs to build the job's peptide index (the effective parameters, a
//                      complete job message, the FASTA bytes with their SHA-256 and, for a
//                      narrow-window job, the queries' neutral masses its index is selected
//                      by) and the index checksum the node must reproduce before it scores any
//                      chunk. The node replies a std::string: "" = ready, else why it refuses
//                      (both sides log it; the coordinator then keeps the job's chunks away).
// Chunks travel as QueryChunk / PsmBatch (messages/chunks.hpp). Plain value types; CAF
// inspectors in messages/scorer_node_inspect.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ionflow {

// Bumped whenever a message above or QueryChunk/PsmBatch changes shape (2: Query carries
// charges_tried; 3: QueryChunk carries its index part).
inline constexpr uint32_t kScorerProtocolVersion = 3;

struct ScorerNodeHello {
  uint32_t protocol_version = kScorerProtocolVersion;
  std::string software_version;  // IONFLOW_VERSION of the node
  std::string node_name;
  int32_t scorers = 0;
  std::string token;
};

struct ScorerNodeWelcome {
  bool accepted = false;
  std::string reason;  // refused: why, e.g. "wrong token"
  std::string coordinator;
};

struct RemoteJobSetup {
  uint64_t job = 0;
  std::string effective_parameters_json;
  std::string fasta_sha256;    // hex, of fasta_bytes
  std::string fasta_bytes;     // "" when the node reads effective_parameters' path itself
  std::string index_checksum;  // io/index_checksum.hpp
  // Empty: the whole database is indexed. Else the sorted queries' neutral masses (Da), from
  // which a narrow-window index is selected (scoring/search_plan.hpp: build_selected_index).
  std::vector<double> query_neutral_masses_da;
};

}  // namespace ionflow
