// The `ionflow scorer-node` subcommand's command line (service/scorer_node_command.hpp):
// --connect HOST:PORT (required), --scorers N, --token T (or IONFLOW_SCORER_TOKEN), --name NAME.
#pragma once

#include <CLI/CLI.hpp>

#include "service/scorer_node_command.hpp"

namespace ionflow {

// Adds `scorer-node` to `app` with its options bound to `command` (which must outlive parsing);
// returns the subcommand.
CLI::App* add_scorer_node_command(CLI::App& app, ScorerNodeCommand& command);

}  // namespace ionflow
