#include "service/search_command.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "actors/search_runtime.hpp"
#include "io/job_results.hpp"
#include "service/job_message.hpp"
#include "service/memory_budget.hpp"
#include "service/progress_reporter.hpp"
#include "service/scorer_handshake.hpp"
#include "service/summary_report.hpp"

namespace ionflow {

namespace {

std::atomic<bool>* g_cancel = nullptr;  // the running job's JobControl::cancel

extern "C" void on_interrupt(int) {
  if (g_cancel) g_cancel->store(true);  // lock-free atomic store: async-signal-safe
}

bool read_text_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return static_cast<bool>(in) || in.eof();
}

// The first input (spectra, then FASTA) that `job` would replace or remove: a file of its
// output directory with a result file's name (io/job_results.hpp), or "". Results are renamed
// into place at the end, so such an input was read whole and then lost.
std::string input_replaced_by_results(const JobSpec& job) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (job.output_directory.empty()) return "";
  const fs::path out = fs::weakly_canonical(job.output_directory, ec);
  if (ec) return "";
  const std::vector<std::string> names = result_file_names_touched();
  auto replaced = [&](const std::string& path) {
    const fs::path in = fs::weakly_canonical(path, ec);
    return !ec && in.parent_path() == out &&
           std::find(names.begin(), names.end(), in.filename().string()) != names.end();
  };
  for (const std::string& path : job.spectra_paths) {
    if (replaced(path)) return path;
  }
  return replaced(job.fasta_path) ? job.fasta_path : "";
}

}  // namespace

void set_job_key(JsonValue& message, const std::string& key_path, JsonValue value) {
  JsonValue* node = &message;
  size_t start = 0;
  while (true) {
    size_t dot = key_path.find('.', start);
    std::string key =
        key_path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!node->is_null() && !node->is_object()) {
      throw JobMessageError(key_path.substr(0, start == 0 ? 0 : start - 1),
                            "expected object, got " + std::string(json_type_name(node->type())));
    }
    if (dot == std::string::npos) {
      node->set(key, std::move(value));
      return;
    }
    JsonValue* child = node->find(key);
    if (!child || child->is_null()) child = &node->set(key, JsonValue::object());
    node = child;
    start = dot + 1;
  }
}

int run_search_command(const SearchCommand& command) {
  // One job in a short-lived process: freed memory is kept for reuse instead of going back to
  // the kernel and being faulted in again (glibc unmaps a freed block of 128 KiB or more, such
  // as each 1 MiB reader block, and trims the heap top past 128 KiB): BSA2 15.5k -> 11.8k page
  // faults. Blocks of 4 MiB and more are still mapped and unmapped: kept in the heap, the
  // build's growing vectors stayed resident after each reallocation (the 100k scale set's peak
  // 200 -> 213 MiB with a 32 MiB threshold). The job still gives memory back where its
  // footprint shrinks (malloc_trim after the index build and before the PSMs are finalized).
  // `ionflow serve` keeps glibc's defaults.
  ::mallopt(M_MMAP_THRESHOLD, 4 << 20);
  ::mallopt(M_TRIM_THRESHOLD, 256 << 20);
  ::mallopt(M_TOP_PAD, 16 << 20);
  std::string text;
  if (!read_text_file(command.job_path, text)) {
    fmt::print(stderr, "ionflow search: cannot read job file {}\n", command.job_path);
    return 2;
  }
  ParsedJob parsed;
  try {
    JsonValue message;
    try {
      message = parse_json(text);
    } catch (const JsonSyntaxError& e) {
      throw JobMessageError("", std::string("not valid JSON: ") + e.what());
    }
    if (!message.is_object()) throw JobMessageError("", "a job message is a JSON object");
    for (const auto& [key, value] : command.overrides) {
      if (key == "mzml_paths") message.erase("spectra");  // the command line replaces both
      set_job_key(message, key, value);
    }
    Unimod unimod;
    parsed = read_job_message(message, unimod);
  } catch (const JobMessageError& e) {
    // A key a command-line flag set is the flag's fault, not the job file's.
    std::string source = command.job_path;
    for (const auto& [key, value] : command.overrides) {
      const std::string& k = e.key_path();
      if (!k.empty() && (k == key || k.rfind(key + ".", 0) == 0 || k.rfind(key + "[", 0) == 0)) {
        source = "command line (" + key + ")";
      }
    }
    fmt::print(stderr, "ionflow search: {}: {}\n", source, e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "ionflow search: {}\n", e.what());
    return 2;
  }
  if (!command.scorer_listen.empty()) {
    if (std::string why = check_scorer_listen(command.scorer_listen, command.scorer_token);
        !why.empty()) {
      fmt::print(stderr, "ionflow search: {}\n", why);
      return 2;
    }
  }
  for (const auto& w : parsed.warnings) spdlog::warn("{}", w);
  JobSpec& job = parsed.spec;
  job.id = kLocalJobId;
  try {
    job.max_memory_bytes = command.max_memory.empty() ? default_max_memory_bytes(1)
                                                      : parse_memory_size(command.max_memory);
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "ionflow search: --max-memory: {}\n", e.what());
    return 2;
  }

  if (const std::string input = input_replaced_by_results(job); !input.empty()) {
    fmt::print(stderr,
               "ionflow search: input {} would be replaced by this job's results in {}: choose "
               "another output directory (-o)\n",
               input, job.output_directory);
    return 2;
  }

  if (command.dry_run) {
    fmt::print("{}\n", job.effective_parameters_json);
    return 0;
  }

  spdlog::info("searching {} spectra file(s) against {}", job.spectra_paths.size(), job.fasta_path);
  ProgressReporter progress(
      stderr, command.quiet ? ProgressReporter::Style::kNone : ProgressReporter::style_for(stderr));
  JobControl control;
  control.on_progress = [&progress](const JobProgress& p) { progress.update(p); };
  g_cancel = &control.cancel;
  auto old_int = std::signal(SIGINT, on_interrupt);
  auto old_term = std::signal(SIGTERM, on_interrupt);
  int exit_code = 0;
  try {
    SearchRuntime::Options options;
    options.licensed_cores = job.licensed_cores;
    options.scorers = job.scorers;
    accept_scorer_nodes(options, command.scorer_listen, command.scorer_token);
    SearchRuntime runtime(options);
    spdlog::info("{} scorer(s), {} licensed core(s)", runtime.scorer_count(),
                 runtime.licensed_cores());
    JobSummary summary = runtime.run(job, &control);
    progress.finish();
    fmt::print(stderr, "ionflow search: done\n{}", format_job_summary(summary));
  } catch (const JobCancelled&) {
    progress.finish();
    // Its what() only repeats the job id ("job local cancelled"); say what the user needs.
    fmt::print(stderr, "ionflow search: cancelled; no results were written{}\n",
               job.output_directory.empty() ? "" : " to " + job.output_directory);
    exit_code = 130;
  } catch (const JobError& e) {
    progress.finish();
    fmt::print(stderr, "ionflow search: job failed: {}\n", e.what());
    exit_code = 1;
  } catch (const std::exception& e) {
    progress.finish();
    fmt::print(stderr, "ionflow search: error: {}\n", e.what());
    exit_code = 1;
  }
  std::signal(SIGINT, old_int);
  std::signal(SIGTERM, old_term);
  g_cancel = nullptr;
  return exit_code;
}

}  // namespace ionflow
