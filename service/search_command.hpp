// `ionflow search`: runs one job message locally, as Sage's CLI does — the job file, then
// command-line overrides (spectra files, FASTA, output directory and the common parameters),
// then the search through SearchRuntime with progress on stderr and a summary at the end.
//
// Overrides are applied to the message as JSON key paths before it is read, so that an
// overriding value is checked exactly like the same key in the file (errors name the key).
// Exit codes: 0 done, 1 the job failed (JobError: bad input file, I/O), 2 bad job message or
// usage, 130 cancelled (SIGINT/SIGTERM).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "service/json_value.hpp"

namespace ionflow {

struct SearchCommand {
  std::string job_path;                                      // the JSON job message
  std::vector<std::pair<std::string, JsonValue>> overrides;  // key path -> value, in order
  bool dry_run = false;  // print the effective parameters on stdout and stop
  bool quiet = false;    // no progress output
  // --max-memory: "8G", "512M", bytes; "" = service/memory_budget.hpp's default.
  std::string max_memory;
  // --scorer-listen HOST:PORT: remote scorer nodes may join the job (service/scorer_handshake.hpp)
  std::string scorer_listen;
  std::string scorer_token;  // --scorer-token / IONFLOW_SCORER_TOKEN
};

// Sets `key_path` ("database.enzyme.missed_cleavages") in `message`, creating objects on the
// way. Throws JobMessageError if a parent on the path exists but is not an object.
void set_job_key(JsonValue& message, const std::string& key_path, JsonValue value);

// Runs the command; returns the process exit code. Messages go to stderr / spdlog.
int run_search_command(const SearchCommand& command);

}  // namespace ionflow
