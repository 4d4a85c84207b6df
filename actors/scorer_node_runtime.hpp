// `ionflow scorer-node` behind a plain C++ interface (no CAF header leaks into the service): an
// actor system with CAF's middleman that connects to a coordinator's gate (`ionflow serve|search
// --scorer-listen HOST:PORT`, actors/scorer_gate.cpp), says hello (messages/scorer_node.hpp) and,
// once welcome, scores the chunks the coordinator's pool sends with `scorers` local scorers
// (actors/scorer.cpp, one thread each).
//
// Per job, before its first chunk, the coordinator sends a RemoteJobSetup; `build_job` turns it
// into the job's scoring context (it rebuilds the peptide index and compares its checksum) or
// throws std::exception whose what() is the refusal, which is logged here and sent back. Chunks
// of a job the node refused never come. Leaving at any time is safe: the coordinator scores the
// chunks this node held elsewhere.
//
// Thread-safety: run_scorer_node blocks the calling thread until the node leaves; build_job is
// called from one actor thread at a time.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "actors/job_context.hpp"
#include "messages/scorer_node.hpp"

namespace ionflow {

struct ScorerNodeOptions {
  std::string host;  // the coordinator's --scorer-listen address
  uint16_t port = 0;
  int scorers = 1;
  std::string token;  // "" = none
  std::string name;   // the node's name in the coordinator's pool and results.json
  std::function<std::shared_ptr<const JobScoring>(const RemoteJobSetup&)> build_job;
  const std::atomic<bool>* stop = nullptr;  // set (e.g. by SIGTERM) to leave; polled every 200 ms
};

// Runs the node until it leaves. Returns 0 when it left (stop, or the coordinator went away), 1
// when the coordinator refused it (the reason is logged), 3 when it could not connect.
int run_scorer_node(const ScorerNodeOptions& options);

}  // namespace ionflow
