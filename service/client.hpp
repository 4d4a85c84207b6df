// The service's client commands: `ionflow submit`, `status`, `cancel` and `scorers` talk to a
// running `ionflow serve` over its HTTP JSON API and print what it answers.
// Each returns the process exit code: 0 on success, 1 when the job failed or was cancelled
// (submit --wait), 2 on a rejected request (the server's error is printed), 3 when the server
// cannot be reached.
#pragma once

#include <optional>
#include <string>

#include "service/json_value.hpp"

namespace ionflow {

struct ClientOptions {
  std::string server = "http://127.0.0.1:8080";
  std::string token;  // sent as "Authorization: Bearer <token>" when not empty
};

// Checks an HTTP(S) --server value and normalises it for the HTTP client: blanks around it and
// one trailing '/' dropped, the scheme lower-cased ("HTTP://h:8080/" -> "http://h:8080"), a
// missing one taken as http. Returns what is wrong with it, e.g. "'htp' scheme is not supported
// (http://HOST:PORT, https://HOST:PORT or redis://HOST:PORT[/STREAM])", "port 'abc' is not a
// number from 1 to 65535 (...)", or nullopt when it can be used. (cpp-httplib throws for an
// unknown scheme and looks any other text it cannot parse up whole as a host name: a path,
// user@, an IPv6 address with letters.)
std::optional<std::string> http_server_problem(std::string& server);

// Makes the message's relative input paths (mzml_paths, spectra, database.fasta) absolute
// against the current directory, so that a submitted job reads what `ionflow search` would.
void absolutize_job_inputs(JsonValue& message);
// The job file's text with its inputs made absolute (as is when it is not JSON); nullopt, after
// printing "ionflow submit: cannot read PATH", when it cannot be read.
std::optional<std::string> read_job_for_submit(const std::string& job_path);

int client_submit(const ClientOptions& options, const std::string& job_path, bool wait);
int client_status(const ClientOptions& options, const std::string& job_id);  // "" = list
int client_cancel(const ClientOptions& options, const std::string& job_id);
// Shows the pool; with new_count, sets (and, under autoscaling, pins) it; with resume_autoscale,
// hands the pool back to the autoscaler.
int client_scorers(const ClientOptions& options, std::optional<int> new_count,
                   bool resume_autoscale = false);

}  // namespace ionflow
