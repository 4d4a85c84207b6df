// The service's client subcommands, `submit`, `status`, `cancel` and `scorers`: each takes
// --server (http://HOST:PORT of `ionflow serve`, or redis://HOST:PORT[/STREAM], a job queue)
// and --token, or IONFLOW_SERVER / IONFLOW_API_TOKEN for what no flag gave.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "service/client.hpp"

namespace ionflow {

class ClientCli {
 public:
  // Adds the four subcommands to `app`. CLI11 binds options to this object's members, so it
  // must stay where it is until run(): it is neither copied nor moved.
  explicit ClientCli(CLI::App& app);
  ClientCli(const ClientCli&) = delete;
  ClientCli& operator=(const ClientCli&) = delete;

  // True when the parsed command line chose one of the client subcommands.
  bool chosen() const;

  // Runs the chosen subcommand against the server; returns the process exit code (0 done,
  // 1 the job or request failed, 2 usage, 130 a waited-for job was cancelled).
  int run();

 private:
  void add_server_options(CLI::App* sub);
  // Fills --server and --token from the environment where the chosen command got no flag.
  void read_environment();
  int run_on_queue();

  ClientOptions client_;
  CLI::App* submit_ = nullptr;
  CLI::App* status_ = nullptr;
  CLI::App* cancel_ = nullptr;
  CLI::App* scorers_ = nullptr;
  CLI::Option* scorer_count_option_ = nullptr;
  std::string submit_path_, status_id_, cancel_id_;
  bool submit_wait_ = false, resume_autoscale_ = false;
  int scorer_count_ = 0;
};

}  // namespace ionflow
