// `ionflow scorer-node --connect HOST:PORT --scorers N [--token T] [--name NAME]`: lends N
// scorers to a coordinator (`ionflow serve|search --scorer-listen HOST:PORT`) over CAF's
// middleman (actors/scorer_node_runtime.hpp) until SIGINT/SIGTERM or the coordinator goes away.
//
// Per job it rebuilds the peptide index from what the coordinator sends (the FASTA's bytes,
// checked against their SHA-256, and the job's effective parameters; for a narrow-window job the
// queries' masses) with the same functions the coordinator used, and refuses the job's chunks
// unless the index checksum (io/index_checksum.hpp) equals the coordinator's.
// Exit codes: 0 left, 1 refused by the coordinator, 2 usage, 3 cannot connect.
#pragma once

#include <memory>
#include <string>

#include "actors/job_context.hpp"
#include "messages/scorer_node.hpp"

namespace ionflow {

struct ScorerNodeCommand {
  std::string connect;  // HOST:PORT
  int scorers = 0;      // 0 = usable cores
  std::string token;    // --token / IONFLOW_SCORER_TOKEN
  std::string name;     // "" = HOST:PID
};

// The scoring context of `setup`'s job, rebuilt here with `build_threads` threads. Throws
// std::runtime_error naming what differs (FASTA SHA-256, index checksum) or what failed.
std::shared_ptr<const JobScoring> rebuild_job_scoring(const RemoteJobSetup& setup,
                                                      int build_threads);

int run_scorer_node_command(const ScorerNodeCommand& command);

}  // namespace ionflow
