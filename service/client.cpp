#include "service/client.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "service/json_value.hpp"

#include <httplib.h>

namespace ionflow {

namespace {

struct Answer {
  int status = 0;  // 0 = no connection
  JsonValue body;
  std::string text;
};

Answer call(const ClientOptions& options, const std::string& method, const std::string& path,
            const std::string& body = "") {
  httplib::Client client(options.server);
  client.set_connection_timeout(5, 0);
  client.set_read_timeout(60, 0);
  if (!options.token.empty()) client.set_bearer_token_auth(options.token);
  auto send = [&]() -> httplib::Result {
    if (method == "POST") return client.Post(path, body, "application/json");
    if (method == "PUT") return client.Put(path, body, "application/json");
    if (method == "DELETE") return client.Delete(path);
    return client.Get(path);
  };
  httplib::Result result = send();
  Answer a;
  if (!result) return a;
  a.status = result->status;
  a.text = result->body;
  try {
    a.body = parse_json(a.text);
  } catch (const JsonSyntaxError&) {
  }
  return a;
}

constexpr const char* kServerForms =
    "(http://HOST:PORT, https://HOST:PORT or redis://HOST:PORT[/STREAM])";

// A host cpp-httplib's address pattern takes: a name or IPv4 address, or [an IPv6 address of
// digits and colons] (its pattern is \[[\d:]+\]; anything else it looks up whole as a name).
std::optional<std::string> host_problem(const std::string& host) {
  if (host.empty()) return "no host name";
  if (host.front() == '[') {
    if (host.back() != ']') return "an IPv6 address needs its closing ']'";
    if (host.size() == 2 || host.find_first_not_of("0123456789:", 1) != host.size() - 1) {
      return "only IPv6 addresses of digits and colons can be given ([::1]); use a host name";
    }
    return std::nullopt;
  }
  if (host.find(':') != std::string::npos) return "an IPv6 address needs brackets: [::1]";
  if (host.find('@') != std::string::npos) return "user@ is not part of a server address";
  return std::nullopt;
}

std::optional<std::string> port_problem(const std::string& port) {
  const bool digits = !port.empty() && port.size() <= 5 &&
                      port.find_first_not_of("0123456789") == std::string::npos;
  if (digits && std::stoi(port) >= 1 && std::stoi(port) <= 65535) return std::nullopt;
  return "port '" + port + "' is not a number from 1 to 65535";
}

// Lower-cases the scheme in place; what is wrong with it, if anything.
std::optional<std::string> scheme_problem(std::string& server, size_t scheme_end) {
  for (size_t i = 0; i < scheme_end; ++i) {
    server[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(server[i])));
  }
  const std::string scheme = server.substr(0, scheme_end);
  if (scheme == "http" || scheme == "https") return std::nullopt;  // https: OpenSSL build
  if (scheme == "redis") return "write the scheme in lower case: redis://HOST:PORT[/STREAM]";
  return "'" + scheme + "' scheme is not supported";
}

std::optional<std::string> address_problem(std::string& server) {
  const size_t first = server.find_first_not_of(" \t");
  server = first == std::string::npos
               ? ""
               : server.substr(first, server.find_last_not_of(" \t") - first + 1);
  if (server.empty()) return "empty";
  const size_t scheme_end = server.find("://");
  if (scheme_end != std::string::npos) {
    if (auto problem = scheme_problem(server, scheme_end)) return problem;
  }
  if (server.back() == '/') server.pop_back();  // "http://h:8080/" is "http://h:8080"
  const std::string rest = server.substr(scheme_end == std::string::npos ? 0 : scheme_end + 3);
  if (rest.find_first_of("/?#") != std::string::npos) {
    return "a path, query or fragment is not part of a server address";
  }
  const size_t bracket = rest.find(']');
  const bool bracketed = !rest.empty() && rest.front() == '[' && bracket != std::string::npos;
  const size_t host_end = bracketed ? bracket + 1 : rest.find(':');
  // A bare IPv6 address ("::1") has several colons: the whole of it is the host then.
  const bool bare_ipv6 = !bracketed && std::count(rest.begin(), rest.end(), ':') > 1;
  const std::string host = bare_ipv6 ? rest : rest.substr(0, host_end);
  if (auto problem = host_problem(host)) return problem;
  if (bare_ipv6 || host_end >= rest.size()) return std::nullopt;
  if (rest[host_end] != ':') return "unexpected text after the host: " + rest.substr(host_end);
  return port_problem(rest.substr(host_end + 1));
}

}  // namespace

std::optional<std::string> http_server_problem(std::string& server) {
  std::optional<std::string> problem = address_problem(server);
  if (problem) *problem += std::string(" ") + kServerForms;
  return problem;
}

namespace {

// Prints a transport or API error; returns the exit code for it.
int report_error(const ClientOptions& options, const Answer& a) {
  if (a.status == 0) {
    fmt::print(stderr, "ionflow: cannot reach the service at {}\n", options.server);
    return 3;
  }
  const JsonValue* e = a.body.find("error");
  fmt::print(stderr, "ionflow: HTTP {}: {}\n", a.status,
             e && e->is_string() ? e->as_string() : a.text);
  return 2;
}

std::string field(const JsonValue& o, const char* key) {
  const JsonValue* v = o.find(key);
  if (!v || v->is_null()) return "";
  return v->is_string() ? v->as_string() : to_json(*v);
}

}  // namespace

// Input paths are resolved against the client's directory before the message leaves it, so
// `ionflow submit` works like `ionflow search` from the same directory.
void absolutize_job_inputs(JsonValue& message) {
  namespace fs = std::filesystem;
  auto fix = [](JsonValue& v) {
    if (v.is_string() && !v.as_string().empty() && fs::path(v.as_string()).is_relative()) {
      v = JsonValue((fs::current_path() / v.as_string()).lexically_normal().string());
    }
  };
  for (const char* key : {"mzml_paths", "spectra"}) {
    if (JsonValue* list = message.find(key); list && list->is_array()) {
      for (auto& p : list->as_array()) fix(p);
    }
  }
  if (JsonValue* db = message.find("database"); db && db->is_object()) {
    if (JsonValue* fasta = db->find("fasta")) fix(*fasta);
  }
}

std::optional<std::string> read_job_for_submit(const std::string& job_path) {
  std::ifstream in(job_path, std::ios::binary);
  if (!in) {
    fmt::print(stderr, "ionflow submit: cannot read {}\n", job_path);
    return std::nullopt;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  std::string body = ss.str();
  try {
    JsonValue message = parse_json(body);
    absolutize_job_inputs(message);
    body = to_json(message);
  } catch (const JsonSyntaxError&) {
    // Sent as is: the server (or the queue node that takes it) names the error.
  }
  return body;
}

int client_submit(const ClientOptions& options, const std::string& job_path, bool wait) {
  const std::optional<std::string> job = read_job_for_submit(job_path);
  if (!job) return 2;
  const std::string& body = *job;
  // With --wait, Ctrl-C stops the waiting, not the job: say so, and how to stop the job. Caught
  // from before the job exists, so that no interrupt can kill the client silently.
  static volatile std::sig_atomic_t interrupted = 0;
  interrupted = 0;
  struct sigaction action {};
  action.sa_handler = [](int) { interrupted = 1; };
  sigemptyset(&action.sa_mask);
  struct sigaction old_int = {};
  struct sigaction old_term = {};
  if (wait) {
    sigaction(SIGINT, &action, &old_int);
    sigaction(SIGTERM, &action, &old_term);
  }
  struct RestoreSignals {
    struct sigaction int_action, term_action;
    bool active;
    ~RestoreSignals() {
      if (!active) return;
      sigaction(SIGINT, &int_action, nullptr);
      sigaction(SIGTERM, &term_action, nullptr);
    }
  } restore{old_int, old_term, wait};
  Answer a = call(options, "POST", "/v1/jobs", body);
  if (a.status != 201) return report_error(options, a);
  std::string id = field(a.body, "id");
  if (const JsonValue* w = a.body.find("warnings"); w && w->is_array()) {
    for (const auto& x : w->as_array()) fmt::print(stderr, "warning: {}\n", x.as_string());
  }
  fmt::print("{}\n", id);
  std::fflush(stdout);
  if (!wait) return 0;
  std::string last;
  while (true) {
    for (int slice = 0; slice < 10 && !interrupted; ++slice) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (interrupted) {
      fmt::print(stderr,
                 "{}: stopped waiting; the job keeps running on the server (ionflow cancel {} "
                 "stops it)\n",
                 id, id);
      return 130;
    }
    Answer s = call(options, "GET", "/v1/jobs/" + id);
    if (s.status != 200) return report_error(options, s);
    std::string state = field(s.body, "state");
    std::string line = state;
    if (const JsonValue* p = s.body.find("progress"); p && p->is_object()) {
      line += fmt::format(
          " {} {}%", field(*p, "stage"),
          static_cast<int>(p->find("fraction") ? p->find("fraction")->as_double() * 100 : 0));
    }
    if (line != last) fmt::print(stderr, "{}: {}\n", id, line), last = line;
    if (state == "done") {
      if (const JsonValue* sum = s.body.find("summary")) fmt::print("{}\n", to_json(*sum, 2));
      return 0;
    }
    if (state == "failed" || state == "cancelled") {
      fmt::print(stderr, "{}: {}: {}\n", id, state, field(s.body, "error"));
      return state == "cancelled" ? 130 : 1;  // as `ionflow search` exits
    }
  }
}

int client_status(const ClientOptions& options, const std::string& job_id) {
  if (!job_id.empty()) {
    Answer a = call(options, "GET", "/v1/jobs/" + job_id);
    if (a.status != 200) return report_error(options, a);
    fmt::print("{}\n", to_json(a.body, 2));
    return 0;
  }
  Answer a = call(options, "GET", "/v1/jobs");
  if (a.status != 200) return report_error(options, a);
  fmt::print("{:<14} {:<10} {:>8}  {}\n", "ID", "STATE", "PRIORITY", "ERROR");
  if (const JsonValue* jobs = a.body.find("jobs"); jobs && jobs->is_array()) {
    for (const auto& j : jobs->as_array()) {
      fmt::print("{:<14} {:<10} {:>8}  {}\n", field(j, "id"), field(j, "state"),
                 field(j, "priority"), field(j, "error"));
    }
  }
  return 0;
}

int client_cancel(const ClientOptions& options, const std::string& job_id) {
  Answer a = call(options, "DELETE", "/v1/jobs/" + job_id);
  if (a.status != 200 && a.status != 202) return report_error(options, a);
  fmt::print("{} {}\n", job_id, a.status == 202 ? "cancelling" : field(a.body, "state"));
  return 0;
}

int client_scorers(const ClientOptions& options, std::optional<int> new_count,
                   bool resume_autoscale) {
  Answer a;
  if (new_count) {
    JsonValue body(JsonValue::Object{{"count", JsonValue(*new_count)}});
    a = call(options, "PUT", "/v1/scorers", to_json(body));
  } else if (resume_autoscale) {
    a = call(options, "PUT", "/v1/scorers", R"({"autoscale": true})");
  } else {
    a = call(options, "GET", "/v1/scorers");
  }
  if (a.status != 200) return report_error(options, a);
  const JsonValue* autoscaling = a.body.find("autoscaling");
  const JsonValue* pinned = a.body.find("pinned");
  std::string scaling;
  if (autoscaling && autoscaling->type() == JsonValue::Type::kBool && autoscaling->as_bool()) {
    scaling = fmt::format(
        ", autoscaling {}-{}, target {}{}", field(a.body, "min_scorers"),
        field(a.body, "max_scorers"), field(a.body, "target"),
        pinned && pinned->type() == JsonValue::Type::kBool && pinned->as_bool() ? ", pinned" : "");
  }
  fmt::print("scorers {} (licensed cores {}{})\n", field(a.body, "scorers"),
             field(a.body, "licensed_cores"), scaling);
  const JsonValue* local = a.body.find("local_scorers");
  if (new_count && local && local->type() == JsonValue::Type::kInteger &&
      local->as_integer() < *new_count) {
    fmt::print(stderr, "ionflow scorers: asked for {}, capped at the licensed cores ({})\n",
               *new_count, field(a.body, "licensed_cores"));
  }
  return 0;
}

}  // namespace ionflow
