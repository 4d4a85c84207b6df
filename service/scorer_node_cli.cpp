#include "service/scorer_node_cli.hpp"

namespace ionflow {

CLI::App* add_scorer_node_command(CLI::App& app, ScorerNodeCommand& command) {
  CLI::App* sn = app.add_subcommand(
      "scorer-node", "Lend this machine's scorers to an ionflow serve/search --scorer-listen");
  sn->add_option("--connect", command.connect, "The coordinator's --scorer-listen HOST:PORT")
      ->required();
  sn->add_option("--scorers", command.scorers, "Scorers lent; 0 = usable cores")
      ->capture_default_str();
  sn->add_option("--token", command.token,
                 "The coordinator's --scorer-token (or IONFLOW_SCORER_TOKEN)")
      ->envname("IONFLOW_SCORER_TOKEN");
  sn->add_option("--name", command.name, "This node's name in the coordinator (default HOST:PID)");
  return sn;
}

}  // namespace ionflow
