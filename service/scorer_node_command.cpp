#include "service/scorer_node_command.hpp"

#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "actors/scorer_node_runtime.hpp"
#include "io/index_checksum.hpp"
#include "io/protein_database.hpp"
#include "io/sha256.hpp"
#include "scoring/search_plan.hpp"
#include "service/job_message.hpp"
#include "service/memory_budget.hpp"
#include "service/scorer_handshake.hpp"

namespace ionflow {
namespace {

std::atomic<bool> g_stop{false};

extern "C" void on_stop_signal(int) {
  g_stop.store(true);  // lock-free atomic store: async-signal-safe
}

std::string default_node_name() {
  char host[256] = {};
  if (::gethostname(host, sizeof(host) - 1) != 0) host[0] = '\0';
  return fmt::format("{}:{}", host[0] ? host : "localhost", ::getpid());
}

int usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  return std::max(1u, std::thread::hardware_concurrency());
}

// The FASTA's bytes in a temporary file for load_database, removed when done.
class TemporaryFasta {
 public:
  explicit TemporaryFasta(const std::string& bytes) {
    path_ = (std::filesystem::temp_directory_path() / "ionflow-node-XXXXXX.fasta").string();
    const int fd = ::mkstemps(path_.data(), 6);
    if (fd < 0) throw std::runtime_error("cannot create a temporary FASTA in " + path_);
    FILE* f = ::fdopen(fd, "wb");
    const bool ok = f && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    if (f) std::fclose(f);
    if (!ok) throw std::runtime_error("cannot write the temporary FASTA " + path_);
  }
  ~TemporaryFasta() { std::remove(path_.c_str()); }
  TemporaryFasta(const TemporaryFasta&) = delete;
  TemporaryFasta& operator=(const TemporaryFasta&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace

std::shared_ptr<const JobScoring> rebuild_job_scoring(const RemoteJobSetup& setup,
                                                      int build_threads) {
  const std::string sha = sha256_hex(setup.fasta_bytes);
  if (sha != setup.fasta_sha256) {
    throw std::runtime_error(fmt::format("the FASTA's bytes have SHA-256 {}, the coordinator's {}",
                                         sha.substr(0, 16), setup.fasta_sha256.substr(0, 16)));
  }
  Unimod unimod;
  JobMessageOptions message_options;
  message_options.stored_job = true;  // the coordinator accepted the job
  message_options.check_inputs = false;
  JobSpec spec = parse_job_message(setup.effective_parameters_json, unimod, message_options).spec;
  TemporaryFasta fasta(setup.fasta_bytes);
  const bool selecting = !setup.query_neutral_masses_da.empty();
  LoadedDatabase loaded =
      load_database(fasta.path(), spec.search, selecting, "", build_threads, nullptr);
  std::shared_ptr<const PeptideIndex> index = loaded.index;
  if (!index) {
    index = build_selected_index(std::move(*loaded.digested), setup.query_neutral_masses_da,
                                 spec.search, fasta.path(), build_threads, nullptr)
                .index;
  }
  const std::string why =
      check_index_checksum(setup.job, setup.index_checksum, peptide_index_checksum(*index));
  if (!why.empty()) throw std::runtime_error(why);
  FragmentPrefilter prefilter = build_fragment_prefilter(
      index, spec.search, static_cast<size_t>(spec.fragment_index_budget_bytes), build_threads,
      nullptr, nullptr);
  auto scoring = std::make_shared<JobScoring>();
  scoring->index = index;
  scoring->fragments = std::move(prefilter.whole);
  scoring->fragment_slices = std::move(prefilter.slices);
  scoring->params = spec.search;
  return scoring;
}

int run_scorer_node_command(const ScorerNodeCommand& command) {
  limit_malloc_arenas();
  const auto colon = command.connect.rfind(':');
  int port = 0;
  try {
    if (colon != std::string::npos) port = std::stoi(command.connect.substr(colon + 1));
  } catch (const std::exception&) {
    port = 0;
  }
  if (colon == std::string::npos || colon == 0 || port < 1 || port > 65535) {
    fmt::print(stderr, "ionflow scorer-node: --connect: expected HOST:PORT, got {}\n",
               command.connect);
    return 2;
  }
  ScorerNodeOptions options;
  options.host = command.connect.substr(0, colon);
  options.port = static_cast<uint16_t>(port);
  options.scorers = command.scorers > 0 ? command.scorers : usable_cores();
  options.token = command.token;
  options.name = command.name.empty() ? default_node_name() : command.name;
  const int build_threads = usable_cores();
  options.build_job = [build_threads](const RemoteJobSetup& setup) {
    return rebuild_job_scoring(setup, build_threads);
  };
  options.stop = &g_stop;
  auto old_int = std::signal(SIGINT, on_stop_signal);
  auto old_term = std::signal(SIGTERM, on_stop_signal);
  spdlog::info("scorer node {}: connecting to {} with {} scorer(s)", options.name, command.connect,
               options.scorers);
  const int rc = run_scorer_node(options);
  std::signal(SIGINT, old_int);
  std::signal(SIGTERM, old_term);
  return rc;
}

}  // namespace ionflow
