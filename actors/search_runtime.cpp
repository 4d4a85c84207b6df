// SearchRuntime: the actor system, the shared scorer pool, and run() as the coordinator of one
// job: validate it, spawn its actors (actors/pipeline.hpp; the database stage builds the index
// meanwhile), wait for the JobSummary or a JobFailure, stop the actors and clean up.
#include "actors/search_runtime.hpp"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <spdlog/spdlog.h>
#include <caf/all.hpp>
#include <caf/io/all.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <thread>

#include "actors/pipeline.hpp"
#include "io/job_files.hpp"
#include "io/job_results.hpp"
#include "messages/registration.hpp"
#include "messages/scorer_node_inspect.hpp"
#include "scoring/fragment_slices.hpp"
#include "scoring/search.hpp"
#include "scoring/search_plan.hpp"

namespace ionflow {
namespace {

int usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

// The same file twice (perhaps through another path) is searched twice, each spectrum competing
// with itself for its q-value: a user rarely means that, so say it (benchmarks may mean it) as
// the job starts. The same data under another name (a copy, X.mgf and X.mgf.gz) is only known
// once read: the reader adds identical_spectra_file_warnings() to the summary's warnings.
void warn_repeated_spectra_files(const JobSpec& job) {
  std::map<std::filesystem::path, size_t> first_of;  // real path -> first index given
  for (size_t i = 0; i < job.spectra_paths.size(); ++i) {
    std::error_code ec;
    const auto real = std::filesystem::weakly_canonical(job.spectra_paths[i], ec);
    if (ec) continue;
    auto [it, inserted] = first_of.emplace(real, i);
    if (!inserted) {
      spdlog::warn(
          "{}spectra file {} is given twice (also as {}): its spectra are searched "
          "twice",
          log_prefix(job), job.spectra_paths[i], job.spectra_paths[it->second]);
    }
  }
}

// JobError messages carry no job id, like the errors of a running job (a file and offset):
// `ionflow search` runs one job and printed "job local: ..." (a new user asked what "local"
// meant); `ionflow serve` stores the message with its job and logs "job <id>: failed: ...".
void validate(JobSpec& job) {
  if (job.spectra_paths.empty()) throw JobError("no spectra files");
  if (job.fasta_path.empty()) throw JobError("no FASTA file");
  if (job.parsers < 1 || job.parsers > 4) {
    throw JobError("parsers must be 1..4, got " + std::to_string(job.parsers));
  }
  if (job.chunk_size == 0) throw JobError("chunk_size must be >= 1");
  if (job.output_directory.empty()) job.output_directory = ".";
  try {
    result_file_names(job);  // rejects unknown formats
  } catch (const std::exception& e) {
    throw JobError(e.what());
  }
  std::error_code ec;
  std::filesystem::create_directories(job.output_directory, ec);
  if (ec) {
    throw JobError("cannot create output directory " + job.output_directory + ": " + ec.message());
  }
  // Probe now that files can be made there, rather than after the whole search.
  const std::string probe = output_probe_file(job.output_directory, ::getpid(), job.id);
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0) {
    throw JobError("output directory " + job.output_directory +
                   " is not writable: " + std::strerror(errno));
  }
  ::close(fd);
  ::unlink(probe.c_str());
  if (!job.temp_directory.empty()) std::filesystem::create_directories(job.temp_directory, ec);
}

// How a job's actors ended, as the coordinator saw it.
struct JobOutcome {
  JobSummary summary;
  bool finished = false;
  bool cancelled = false;
  std::string error;
  size_t downs = 0;  // down messages of the job's actors received
};

// Waits for the writer's JobSummary, a JobFailure, an actor's death or the caller's cancel
// (polled every 100 ms).
JobOutcome await_job(caf::scoped_actor& self, caf::actor_system& sys, uint64_t key,
                     const JobControl* control) {
  JobOutcome out;
  while (!out.finished && !out.cancelled && out.error.empty()) {
    self->receive(
        [&](JobSummary& s) {
          out.summary = std::move(s);
          out.finished = true;
        },
        [&](JobFailure& f) {
          if (f.job == key) out.error = f.message;
        },
        [&](caf::down_msg& down) {
          ++out.downs;
          out.error = "pipeline actor stopped unexpectedly: " + sys.render(down.reason);
        },
        caf::after(std::chrono::milliseconds(100)) >> [] {});
    if (!out.finished && control && control->cancel.load()) out.cancelled = true;
  }
  return out;
}

// Stops the job's actors and waits until they are gone (temp and spill files closed); an
// unfinished job is aborted first, so that its builds and scorers stop early. A summary that
// arrives meanwhile means the writer had committed the results before it saw the abort (it
// sends the summary only after the commit, and finishes its handler before it exits): the job
// is finished, and a cancel (or an actor's end) that came after the commit no longer removes
// those results.
void stop_job(caf::scoped_actor& self, JobContext& ctx, const std::vector<caf::actor>& all,
              JobOutcome& outcome) {
  if (!outcome.finished) ctx.aborted = true;
  for (const caf::actor& a : all) self->send_exit(a, caf::exit_reason::user_shutdown);
  bool waiting = true;
  while (waiting && outcome.downs < all.size()) {
    self->receive([&](caf::down_msg&) { ++outcome.downs; }, [&](JobFailure&) {},
                  [&](JobSummary& s) {
                    if (outcome.finished) return;
                    outcome.summary = std::move(s);
                    outcome.finished = true;
                    outcome.cancelled = false;
                    outcome.error.clear();
                  },
                  caf::after(std::chrono::seconds(120)) >> [&] { waiting = false; });
  }
}

// The summary of a finished job: its warnings logged, an open search's slice builds added
// (known only now; results.json was written before).
JobSummary finished_summary(const JobSpec& job, const JobContext& ctx, JobSummary summary) {
  for (const std::string& w : summary.warnings) spdlog::warn("{}{}", log_prefix(job), w);
  if (auto counters = ctx.slice_counters()) {
    const FragmentSliceStats st = counters->snapshot();
    summary.fragment_index +=
        fmt::format("; {} builds ({} repeated after eviction), peak {} held", st.builds,
                    st.repeated_builds, megabytes(st.peak_held_bytes));
  }
  return summary;
}

}  // namespace

struct SearchRuntime::Impl {
  Options options;
  int licensed = 1;
  caf::actor_system_config cfg;
  std::unique_ptr<caf::actor_system> sys;
  std::shared_ptr<JobRegistry> registry = std::make_shared<JobRegistry>();
  std::shared_ptr<ScorerRoster> roster = std::make_shared<ScorerRoster>();
  std::atomic<int> scorers{1};
  std::atomic<uint64_t> next_job{1};
  caf::actor pool;
  caf::actor gate;  // remote scorer nodes join here (Options::scorer_listen)
  uint16_t scorer_port = 0;
};

namespace {

// Publishes the gate of remote scorer nodes on `listen` (HOST:PORT); returns the bound port.
uint16_t listen_for_scorer_nodes(caf::actor_system& sys, const caf::actor& gate,
                                 const std::string& listen) {
  const auto colon = listen.rfind(':');
  const std::string host = listen.substr(0, colon);
  const int port = std::stoi(listen.substr(colon + 1));
  const bool any = host.empty() || host == "0.0.0.0" || host == "*";
  auto bound = sys.middleman().publish(gate, static_cast<uint16_t>(port),
                                       any ? nullptr : host.c_str(), true);
  if (!bound) {
    throw std::runtime_error("--scorer-listen " + listen +
                             ": cannot listen: " + sys.render(bound.error()));
  }
  spdlog::info("scorer nodes: listening on {}:{}", any ? "0.0.0.0" : host, *bound);
  return *bound;
}

}  // namespace

SearchRuntime::SearchRuntime(Options options) : impl_(std::make_unique<Impl>()) {
  Impl& im = *impl_;
  im.options = options;
  int cores = usable_cores();
  im.licensed = options.licensed_cores > 0 ? options.licensed_cores : cores;
  int initial = options.scorers > 0 ? options.scorers : std::min(im.licensed, cores);
  initial = std::clamp(initial, 1, im.licensed);
  im.scorers = initial;
  register_message_types(im.cfg);
  if (!options.scorer_listen.empty()) {
    register_scorer_node_types(im.cfg);
    im.cfg.load<caf::io::middleman>();
    im.registry->set_remote_scoring(true);
  }
  int threads = options.scheduler_threads > 0 ? options.scheduler_threads : std::max(2, cores);
  im.cfg.set("scheduler.max-threads", threads);
  // Work sharing (one queue, workers sleep on a condition variable): the work-stealing default
  // polls for work, sleeping 50 us between polls, ~4,000 context switches in a 0.2 s BSA job
  // and ~10% of its CPU time; a job has few, coarse messages (chunks), so stealing buys nothing.
  im.cfg.set("scheduler.policy", caf::atom("sharing"));
  im.sys = std::make_unique<caf::actor_system>(im.cfg);
  im.pool = spawn_scorer_pool(*im.sys, im.registry, im.roster, initial,
                              std::max(0, options.licensed_cores));
  if (!options.scorer_listen.empty()) {
    im.gate = spawn_scorer_gate(*im.sys, im.pool, options.check_scorer_node);
    try {
      im.scorer_port = listen_for_scorer_nodes(*im.sys, im.gate, options.scorer_listen);
    } catch (...) {
      caf::anon_send_exit(im.gate, caf::exit_reason::user_shutdown);
      caf::anon_send_exit(im.pool, caf::exit_reason::user_shutdown);
      im.gate = im.pool = nullptr;
      throw;
    }
  }
}

SearchRuntime::~SearchRuntime() {
  Impl& im = *impl_;
  if (im.gate) caf::anon_send_exit(im.gate, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(im.pool, caf::exit_reason::user_shutdown);
  im.pool = im.gate = nullptr;
  im.sys.reset();  // waits for every actor (the scorers stop with the pool)
}

int SearchRuntime::set_scorer_count(int count) {
  int n = std::clamp(count, 1, impl_->licensed);
  impl_->scorers = n;
  caf::anon_send(impl_->pool, ResizePool{n});
  return n;
}

int SearchRuntime::scorer_count() const {
  return impl_->scorers.load();
}
int SearchRuntime::licensed_cores() const {
  return impl_->licensed;
}
std::vector<ScorerNodeInfo> SearchRuntime::scorer_nodes() const {
  return impl_->roster->nodes();
}
int SearchRuntime::remote_scorer_count() const {
  return impl_->roster->remote_scorers().load();
}
uint16_t SearchRuntime::scorer_listen_port() const {
  return impl_->scorer_port;
}

JobSummary SearchRuntime::run(const JobSpec& job_in, JobControl* control) {
  Impl& im = *impl_;
  JobSpec job = job_in;
  validate(job);
  warn_repeated_spectra_files(job);
  const uint64_t key = im.next_job++;
  auto ctx =
      std::make_shared<JobContext>(key, job, control, &im.scorers, &im.roster->remote_scorers());
  caf::scoped_actor self{*im.sys};
  // The index build is compute: it may use every licensed core (the scorers wait for it).
  const int build_threads = std::max(1, std::min(im.licensed, usable_cores()));
  const std::vector<caf::actor> all =
      spawn_job_pipeline(*im.sys, ctx, im.registry, im.pool, caf::actor_cast<caf::actor>(self),
                         build_threads)
          .all();
  for (const caf::actor& a : all) self->monitor(a);
  JobOutcome outcome = await_job(self, *im.sys, key, control);
  stop_job(self, *ctx, all, outcome);
  im.registry->remove(key);
  caf::anon_send(im.pool, ForgetJob{key});
  ctx->detach_control();
  if (outcome.finished) return finished_summary(job, *ctx, std::move(outcome.summary));
  remove_job_outputs(job, ctx->committed());
  if (outcome.cancelled) throw JobCancelled("job " + job.id + " cancelled");
  throw JobError(outcome.error);
}

}  // namespace ionflow
