#include "service/client_cli.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <optional>
#include <stdexcept>

#include "service/queue_client.hpp"
#include "service/redis_connection.hpp"

namespace ionflow {

ClientCli::ClientCli(CLI::App& app) {
  submit_ = app.add_subcommand("submit", "Submit a job message to the service");
  submit_->add_option("job", submit_path_, "JSON job message")
      ->required()
      ->check(CLI::ExistingFile);
  submit_->add_flag("--wait", submit_wait_,
                    "Wait until the job ends; exit code as `ionflow search`");
  status_ = app.add_subcommand("status", "Show one job, or list the jobs");
  status_->add_option("id", status_id_, "Job id");
  cancel_ = app.add_subcommand("cancel", "Cancel a queued or running job");
  cancel_->add_option("id", cancel_id_, "Job id")->required();
  scorers_ = app.add_subcommand("scorers", "Show, or set, the service's scorer count");
  scorer_count_option_ = scorers_->add_option(
      "count", scorer_count_, "New scorer count (pins it when the server autoscales)");
  scorers_
      ->add_flag("--autoscale", resume_autoscale_,
                 "Release a pin: the autoscaler sizes the pool again")
      ->excludes(scorer_count_option_);
  for (CLI::App* sub : {submit_, status_, cancel_, scorers_}) add_server_options(sub);
}

void ClientCli::add_server_options(CLI::App* sub) {
  // No CLI11 envname here: these options exist once per subcommand, all bound to the same
  // member, and the environment of a subcommand not used could overwrite a flag given to the
  // one used. read_environment() reads it after parsing, only for what no flag gave.
  sub->add_option("--server", client_.server,
                  "Service address, http://HOST:PORT, or a Redis job queue, "
                  "redis://HOST:PORT[/STREAM] (or IONFLOW_SERVER)")
      ->capture_default_str();
  sub->add_option("--token", client_.token,
                  "API token of a server started with --api-token (or IONFLOW_API_TOKEN)");
}

bool ClientCli::chosen() const {
  return submit_->parsed() || status_->parsed() || cancel_->parsed() || scorers_->parsed();
}

void ClientCli::read_environment() {
  for (CLI::App* used : {submit_, status_, cancel_, scorers_}) {
    if (!used->parsed()) continue;
    auto from_env = [used](const char* option, const char* variable, std::string& value) {
      if (used->count(option) > 0) return;
      if (const char* v = std::getenv(variable); v != nullptr && *v != '\0') value = v;
    };
    from_env("--server", "IONFLOW_SERVER", client_.server);
    from_env("--token", "IONFLOW_API_TOKEN", client_.token);
  }
}

int ClientCli::run_on_queue() {
  try {
    if (submit_->parsed()) return queue_submit(client_.server, submit_path_, submit_wait_);
    if (status_->parsed()) return queue_status(client_.server, status_id_);
    if (cancel_->parsed()) return queue_cancel(client_.server, cancel_id_);
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "ionflow: {}\n", e.what());
    return 2;
  }
  fmt::print(stderr, "ionflow: `scorers` needs an HTTP --server, not a Redis queue\n");
  return 2;
}

int ClientCli::run() {
  read_environment();
  if (is_redis_url(client_.server)) return run_on_queue();
  const std::string given = client_.server;
  if (const std::optional<std::string> problem = http_server_problem(client_.server)) {
    fmt::print(stderr, "ionflow: server address '{}' (--server or IONFLOW_SERVER): {}\n", given,
               *problem);
    return 2;
  }
  if (submit_->parsed()) return client_submit(client_, submit_path_, submit_wait_);
  if (status_->parsed()) return client_status(client_, status_id_);
  if (cancel_->parsed()) return client_cancel(client_, cancel_id_);
  const std::optional<int> count =
      scorer_count_option_->count() > 0 ? std::optional<int>(scorer_count_) : std::nullopt;
  return client_scorers(client_, count, resume_autoscale_);
}

}  // namespace ionflow
