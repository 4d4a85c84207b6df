// The `ionflow` command: `search` (one job, like Sage's CLI), `serve` (the job service),
// `scorer-node` (scorers lent to a serve or search elsewhere) and the service's client commands
// (`submit`, `status`, `cancel`, `scorers`). Each command's options live in its own *_cli file
// and each command is a function in its own file; main() only sets up the shared options,
// parses and dispatches.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "service/client_cli.hpp"
#include "service/scorer_node_cli.hpp"
#include "service/search_cli.hpp"
#include "service/serve_cli.hpp"
#include "service/serve_command.hpp"

namespace {

// The options every command takes: --version, --config (CLI11's TOML/INI config files: `ionflow
// serve --config serve.toml` reads the [serve] section's keys as serve's long option names;
// options on the command line win) and --log-level.
void add_global_options(CLI::App& app, std::string& log_level) {
  app.set_version_flag("-V,--version", std::string("ionflow ") + IONFLOW_VERSION);
  app.require_subcommand(1);
  app.fallthrough();  // --log-level and --config may also follow the command
  app.set_config("--config", "",
                 "Read options from a TOML/INI file; keys in a [serve] section are serve's long "
                 "option names (data-dir = \"/srv/ionflow\"); command-line options override it");
  app.allow_config_extras(CLI::config_extras_mode::error);  // a misspelt key is named
  app.add_option("--log-level", log_level, "trace, debug, info, warn, error, critical, off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}))
      ->capture_default_str();
}

// A first word that is no command is named, rather than CLI11's "A subcommand is required".
bool first_word_is_a_command(CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return true;
  const std::string_view word = argv[1];
  for (const auto* cmd : app.get_subcommands([](CLI::App*) { return true; })) {
    if (cmd->get_name() == word) return true;
  }
  fmt::print(stderr,
             "ionflow: unknown command '{}' (expected search, serve, scorer-node, submit, status, "
             "cancel or scorers; see ionflow --help)\n",
             word);
  return false;
}

void set_log_level(const std::string& level) {
  auto logger = spdlog::stderr_color_mt("ionflow");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("[%H:%M:%S.%e] [%^%l%$] %v");
  spdlog::set_level(spdlog::level::from_str(level));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ionflow: MS/MS peptide database search engine and search service"};
  std::string log_level = "info";
  add_global_options(app, log_level);
  ionflow::SearchCli search(app);
  ionflow::ServeOptions serve_options;
  CLI::App* serve = ionflow::add_serve_command(app, serve_options);
  ionflow::ScorerNodeCommand node_command;
  CLI::App* node = ionflow::add_scorer_node_command(app, node_command);
  ionflow::ClientCli client(app);

  // Usage errors exit 2 (as bad job files do), not with CLI11's own codes; --help and
  // --version exit 0.
  if (!first_word_is_a_command(app, argc, argv)) return 2;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  set_log_level(log_level);
  if (search.chosen()) return search.run(app.count("--log-level") > 0);
  if (serve->parsed()) return ionflow::run_serve_command(serve_options);
  if (node->parsed()) return ionflow::run_scorer_node_command(node_command);
  if (client.chosen()) return client.run();
  return 2;
}
