// The `ionflow serve` subcommand's command line: every field of ServeOptions as a long option
// (also the keys of a --config file's [serve] section), grouped as the HTTP service, its scorer
// pool and limits, and the Redis job queue.
#pragma once

#include <CLI/CLI.hpp>

#include "service/serve_command.hpp"

namespace ionflow {

// Adds `serve` to `app` with its options bound to `options` (which must outlive parsing);
// returns the subcommand.
CLI::App* add_serve_command(CLI::App& app, ServeOptions& options);

}  // namespace ionflow
