// Shared helpers of the `ionflow serve` process tests (serve_load_test, serve_lifecycle_test): a
// real `ionflow serve` child process on 127.0.0.1 with an ephemeral port and its own data
// directory, job messages on real data, and bounded polling of a job's state over HTTP.
// Contract: every wait is bounded (a timeout, then an ADD_FAILURE naming the job); the server
// process is SIGKILLed and reaped when the ServeProcess is destroyed. Not thread-safe except
// where noted (post_job may be called from many threads, each with its own client).
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "service/json_value.hpp"

#include <httplib.h>

namespace ionflow::serve_test {

namespace fs = std::filesystem;

inline const std::string kIonflow = std::string(IONFLOW_BINARY_DIR) + "/service/ionflow";
inline const std::string kData = IONFLOW_TEST_DATA_DIR;
inline const std::string kExamples = IONFLOW_EXAMPLES_DIR;

// Runs a command line (through the shell); returns its exit code and stdout.
inline std::pair<int, std::string> run_command(const std::string& command) {
  std::string out;
  FILE* p = ::popen(command.c_str(), "r");
  if (p == nullptr) return {-1, ""};
  char buffer[4096];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof(buffer), p)) > 0) out.append(buffer, n);
  const int status = ::pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

inline std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

// The demo job's parameters (examples/bsa_demo.json) on `mzml` against `fasta` (absolute paths).
// The demo job's settings over several spectra files.
inline std::string demo_job_of(const std::vector<std::string>& mzmls, const std::string& fasta) {
  std::string paths;
  for (const auto& m : mzmls) paths += (paths.empty() ? "\"" : ", \"") + m + "\"";
  return R"({"database": {"fasta": ")" + fasta + R"j(",
    "enzyme": {"missed_cleavages": 1, "min_len": 5, "max_len": 50},
    "peptide_min_mass": 500.0, "peptide_max_mass": 5000.0, "max_variable_mods": 2,
    "decoy_tag": "_rev", "generate_decoys": false},
  "enzyme": "trypsin", "decoy_tag_position": "suffix",
  "fixed_modifications": ["Carbamidomethyl (C)"], "variable_modifications": ["Oxidation (M)"],
  "precursor_tol": {"ppm": [-10, 10]}, "isotope_errors": [0, 1],
  "fragment_tol": {"da": [-0.5, 0.5]}, "precursor_charge": [2, 4],
  "min_peaks": 15, "max_peaks": 150, "report_psms": 1,
  "mzml_paths": [)j" +
         paths + R"(], "output_formats": ["tsv"]})";
}

inline std::string demo_job(const std::string& mzml, const std::string& fasta) {
  return demo_job_of(std::vector<std::string>{mzml}, fasta);
}

// Fast: 15 MS2 spectra, 12 PSMs at 1% FDR (see tests/e2e/excerpt_search_test.cpp).
inline std::string small_job() {
  return demo_job(kData + "/BSA1_identified_excerpt.mzML",
                  kData + "/bsa_target_decoy_excerpt.fasta");
}

// Several seconds with one scorer: BSA1, BSA2 and BSA3 five times each (~15,700 queries)
// against the 18 878-entry target-decoy FASTA. One BSA1 alone now takes well under a second,
// too short to resize scorers or kill the server in the middle of it, and three copies began
// to finish inside the resize test's 0.6 s once the mzML reader got faster.
inline std::string long_job(int copies = 5) {
  std::vector<std::string> mzmls;
  for (int copy = 0; copy < copies; ++copy) {
    for (const char* run : {"BSA1", "BSA2", "BSA3"}) {
      mzmls.push_back(kExamples + "/BSA/" + run + ".mzML");
    }
  }
  return demo_job_of(
      mzmls,
      kExamples +
          "/TOPPAS/data/BSA_Identification/18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta");
}

// Lines of a text (the header of a TSV included).
inline size_t line_count(const std::string& text) {
  size_t n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

// The file names in `dir` starting with "results." (empty if `dir` does not exist).
inline std::vector<std::string> results_files(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::string name = e.path().filename().string();
    if (name.rfind("results.", 0) == 0) out.push_back(name);
  }
  return out;
}

// One `ionflow serve` process on 127.0.0.1:0 over `data_dir`; may be started again (restart).
class ServeProcess {
 public:
  ServeProcess(fs::path data_dir, std::vector<std::string> extra_args)
      : data_dir_(std::move(data_dir)), extra_args_(std::move(extra_args)) {}
  ~ServeProcess() { kill9(); }

  // When true, start() passes only extra_args after "serve" (no --data-dir, --listen, ...: the
  // test gives them, e.g. through --config). The server must still listen on 127.0.0.1.
  bool bare = false;
  // NAME=VALUE pairs set in the server's environment (e.g. IONFLOW_API_TOKEN=...).
  std::vector<std::string> environment;
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  // Starts the server; returns its port, 0 if it did not print it within 30 s.
  int start() {
    log_ = data_dir_ / ("serve-" + std::to_string(++starts_) + ".log");
    std::vector<std::string> args = {kIonflow,      "serve",       "--data-dir",      data_dir_,
                                     "--listen",    "127.0.0.1:0", "--data-root",     kData,
                                     "--data-root", kExamples,     "--grace-seconds", "5"};
    if (bare) args.resize(2);
    args.insert(args.end(), extra_args_.begin(), extra_args_.end());
    pid_ = ::fork();
    if (pid_ == 0) {
      FILE* f = std::freopen(log_.c_str(), "w", stderr);
      (void)f;
      for (auto& e : environment) ::putenv(e.data());
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(kIonflow.c_str(), argv.data());
      ::_exit(127);
    }
    const std::string marker = "listening on http://127.0.0.1:";
    for (int i = 0; i < 600; ++i) {
      std::string text = read_file(log_);
      if (auto at = text.find(marker); at != std::string::npos) {
        port_ = std::stoi(text.substr(at + marker.size()));
        return port_;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return 0;
  }

  void kill9() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  std::unique_ptr<httplib::Client> client() const {
    auto c = std::make_unique<httplib::Client>("127.0.0.1", port_);
    c->set_connection_timeout(10, 0);
    c->set_read_timeout(30, 0);
    c->set_write_timeout(10, 0);
    return c;
  }
  std::string log() const { return read_file(log_); }
  fs::path job_directory(const std::string& id) const { return data_dir_ / "jobs" / id; }
  int port() const { return port_; }
  pid_t pid() const { return pid_; }

 private:
  fs::path data_dir_;
  std::vector<std::string> extra_args_;
  fs::path log_;
  int starts_ = 0;
  pid_t pid_ = -1;
  int port_ = 0;
};

// POSTs a job; returns its id ("" and a test failure unless the answer is 201).
inline std::string submit(httplib::Client& client, const std::string& message) {
  auto res = client.Post("/v1/jobs", message, "application/json");
  EXPECT_TRUE(res) << "POST /v1/jobs: no answer";
  if (!res) return "";
  EXPECT_EQ(res->status, 201) << res->body;
  if (res->status != 201) return "";
  return parse_json(res->body).find("id")->as_string();
}

// The job's state ("" if the request failed).
inline std::string job_state(httplib::Client& client, const std::string& id) {
  auto res = client.Get(("/v1/jobs/" + id).c_str());
  if (!res || res->status != 200) return "";
  return parse_json(res->body).find("state")->as_string();
}

// Polls every 10 ms until the job's state is one of `states` or `timeout` passed; returns the
// last state seen.
inline std::string wait_for_state(httplib::Client& client, const std::string& id,
                                  const std::set<std::string>& states,
                                  std::chrono::seconds timeout = std::chrono::seconds(180)) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string state;
  while (std::chrono::steady_clock::now() < deadline) {
    state = job_state(client, id);
    if (states.count(state)) return state;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ADD_FAILURE() << "job " << id << " still " << state << " after " << timeout.count() << " s";
  return state;
}

inline std::string wait_for_end(httplib::Client& client, const std::string& id) {
  return wait_for_state(client, id, {"done", "failed", "cancelled"});
}

// A fresh directory under the system temp directory, removed at the end.
class ServeTestDir {
 public:
  explicit ServeTestDir(const std::string& tag) {
    path_ = fs::temp_directory_path() /
            ("ionflow_" + tag + "_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~ServeTestDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

}  // namespace ionflow::serve_test
