// SearchRuntime: the actor system, the shared scorer pool, and run() as the coordinator of one
// job (spawns the job's actors, builds the peptide index meanwhile, waits for the JobSummary or a
// JobFailure, stops the actors and cleans up).
#include "actors/search_runtime.hpp"

#include <fcntl.h>
#include <malloc.h>
#include <sched.h>
#include <unistd.h>

#include <spdlog/spdlog.h>
#include <caf/all.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <thread>

#include "actors/pipeline.hpp"
#include "io/job_files.hpp"
#include "io/job_results.hpp"
#include "io/protein_database.hpp"
#include "messages/registration.hpp"
#include "scoring/fragment_index.hpp"
#include "scoring/fragment_slices.hpp"
#include "scoring/peptide_index.hpp"
#include "scoring/search.hpp"
#include "scoring/search_plan.hpp"

namespace ionflow {
namespace {

// "job <id>: " before a log line of a job run by `ionflow serve` (its log interleaves many
// jobs); nothing for `ionflow search` (kLocalJobId), whose process runs one job.
std::string log_prefix(const JobSpec& job) {
  return job.id == kLocalJobId ? std::string() : "job " + job.id + ": ";
}

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
// with itself for its q-value: a user rarely means that, so say it (benchmarks may mean it).
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

}  // namespace

struct SearchRuntime::Impl {
  Options options;
  int licensed = 1;
  caf::actor_system_config cfg;
  std::unique_ptr<caf::actor_system> sys;
  std::shared_ptr<JobRegistry> registry = std::make_shared<JobRegistry>();
  std::atomic<int> scorers{1};
  std::atomic<uint64_t> next_job{1};
  caf::actor pool;
};

SearchRuntime::SearchRuntime(Options options) : impl_(std::make_unique<Impl>()) {
  Impl& im = *impl_;
  im.options = options;
  int cores = usable_cores();
  im.licensed = options.licensed_cores > 0 ? options.licensed_cores : cores;
  int initial = options.scorers > 0 ? options.scorers : std::min(im.licensed, cores);
  initial = std::clamp(initial, 1, im.licensed);
  im.scorers = initial;
  register_message_types(im.cfg);
  int threads = options.scheduler_threads > 0 ? options.scheduler_threads : std::max(2, cores);
  im.cfg.set("scheduler.max-threads", threads);
  // Work sharing (one queue, workers sleep on a condition variable): the work-stealing default
  // polls for work, sleeping 50 us between polls, ~4,000 context switches in a 0.2 s BSA job
  // and ~10% of its CPU time; a job has few, coarse messages (chunks), so stealing buys nothing.
  im.cfg.set("scheduler.policy", caf::atom("sharing"));
  im.sys = std::make_unique<caf::actor_system>(im.cfg);
  im.pool = spawn_scorer_pool(*im.sys, im.registry, initial);
}

SearchRuntime::~SearchRuntime() {
  Impl& im = *impl_;
  caf::anon_send_exit(im.pool, caf::exit_reason::user_shutdown);
  im.pool = nullptr;
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

JobSummary SearchRuntime::run(const JobSpec& job_in, JobControl* control) {
  Impl& im = *impl_;
  JobSpec job = job_in;
  validate(job);
  warn_repeated_spectra_files(job);
  const uint64_t key = im.next_job++;
  auto ctx = std::make_shared<JobContext>(key, job, control, &im.scorers);

  caf::scoped_actor self{*im.sys};
  JobActors actors = spawn_job_pipeline(*im.sys, ctx, im.pool, caf::actor_cast<caf::actor>(self));
  std::vector<caf::actor> all = actors.all();
  for (const caf::actor& a : all) self->monitor(a);

  JobSummary summary;
  bool finished = false;
  bool cancelled = false;
  std::string error;
  size_t downs = 0;

  // The database is read and digested here while the actors read, parse and sort the spectra.
  // A narrow-window search builds its index when the sorter sends every query's mass
  // (QueryMasses, below); any other builds it at once. Chunks wait for IndexReady.
  const std::atomic<bool>* cancel_flag = control ? &control->cancel : nullptr;
  // The build is compute: it may use every licensed core (the scorers wait for it anyway).
  const int build_threads = std::max(1, std::min(im.licensed, usable_cores()));
  std::string fasta_sha, cache_status;
  StageStats database_stats;
  const bool selecting = selects_peptides(job.search, job.whole_index);
  std::optional<DigestedDatabase> pending;  // digested, waiting for the queries' masses
  // An open search over the fragment-index budget: its slices' builds, for the summary (the
  // counters alone, so that the slices and the peptide index are freed when scoring ends).
  std::shared_ptr<const FragmentSliceCounters> slice_counters;
  // Widens the database stage's activity interval over its work since `busy_before` (its busy
  // seconds then), which ended just now.
  auto note_database_work = [&](double busy_before) {
    const double end = ctx->elapsed_seconds();
    note_active(database_stats, end - (database_stats.busy_seconds - busy_before), end);
  };
  auto publish_index = [&](std::shared_ptr<const PeptideIndex> index, const std::string& scope) {
    StageStats& stats = database_stats;
    const double busy_before = stats.busy_seconds;
    check_searchable_database(job.fasta_path, job.search.database, *index);
    FragmentPrefilter prefilter = build_fragment_prefilter(
        index, job.search, static_cast<size_t>(job.fragment_index_budget_bytes), build_threads,
        cancel_flag, std::shared_ptr<const std::atomic<bool>>(ctx, &ctx->aborted));
    stats.busy_seconds += prefilter.build_seconds;
    if (!prefilter.info.empty()) spdlog::info("{}{}", log_prefix(job), prefilter.info);
    if (!prefilter.warning.empty()) spdlog::warn("{}{}", log_prefix(job), prefilter.warning);
    const std::string fragment_status = prefilter.status;
    if (prefilter.slices) slice_counters = prefilter.slices->counters();
    note_database_work(busy_before);
    auto scoring = std::make_shared<JobScoring>();
    scoring->index = index;
    scoring->fragments = std::move(prefilter.whole);
    scoring->fragment_slices = std::move(prefilter.slices);
    scoring->params = job.search;
    scoring->stop = std::shared_ptr<const std::atomic<bool>>(ctx, &ctx->aborted);
    im.registry->add(key, std::move(scoring));
    // The writer drops the index once every chunk is scored (JobContext::release_index): the
    // registry entry and each scorer's SpectrumScorer (ForgetJob). Weak pool handle: the
    // context must not keep an actor alive.
    ctx->set_index_release(
        [registry = im.registry, pool = caf::actor_addr(im.pool.address()), key] {
          registry->remove(key);
          if (auto p = caf::actor_cast<caf::actor>(pool)) caf::anon_send(p, ForgetJob{key});
        });
    StageReport database;
    database.job = key;
    database.from = "database";
    database.stages["database"] = stats;
    database.input_sha256[job.fasta_path] = fasta_sha;
    database.peptides_in_index = index->size();
    database.index_cache = cache_status;
    database.fragment_index = fragment_status;
    database.index_scope = scope;
    self->send(actors.writer, std::move(database));
    self->send(actors.splitter, IndexReady{key, index->size(), stats});
  };
  try {
    BusyTimer timer;
    LoadedDatabase loaded = load_database(job.fasta_path, job.search, selecting,
                                          job.index_cache_directory, build_threads, cancel_flag);
    fasta_sha = loaded.fasta_sha256;
    cache_status = loaded.cache_status;
    database_stats.bytes += loaded.bytes_read;
    database_stats.items = loaded.index ? loaded.index->size() : 0;
    database_stats.busy_seconds = timer.seconds();
    note_database_work(0.0);
    if (loaded.index) {
      publish_index(std::move(loaded.index), "");
    } else {
      pending.emplace(std::move(*loaded.digested));
    }
  } catch (const BuildCancelled&) {
    cancelled = true;
  } catch (const std::exception& e) {
    error = e.what();
  }

  while (!finished && !cancelled && error.empty()) {
    self->receive(
        [&](JobSummary& s) {
          summary = std::move(s);
          finished = true;
        },
        [&](JobFailure& f) {
          if (f.job != key) return;
          if (f.cancelled) {
            cancelled = true;
          } else {
            error = f.message;
          }
        },
        [&](QueryMasses& masses) {
          if (masses.job != key || !pending) return;
          try {
            const double busy_before = database_stats.busy_seconds;
            BusyTimer timer;
            SelectedIndex selected =
                build_selected_index(std::move(*pending), masses.neutral_masses_da, job.search,
                                     job.fasta_path, build_threads, cancel_flag);
            database_stats.busy_seconds += timer.seconds();
            database_stats.items = selected.index->size();
            pending.reset();
            note_database_work(busy_before);
            publish_index(std::move(selected.index), selected.scope);
            // The digested database (8-byte peptide ranges, 1.19 M on BSA) is freed: give its
            // pages back now, after IndexReady, so that the scorers need not wait for it.
            ::malloc_trim(0);
          } catch (const BuildCancelled&) {
            cancelled = true;
          } catch (const std::exception& e) {
            error = e.what();
          }
        },
        [&](caf::down_msg& down) {
          ++downs;
          error = "pipeline actor stopped unexpectedly: " + im.sys->render(down.reason);
        },
        caf::after(std::chrono::milliseconds(100)) >> [] {});
    if (!finished && control && control->cancel.load()) cancelled = true;
  }

  // Stop the job's actors and wait until they are gone (temp and spill files closed).
  if (!finished) ctx->aborted = true;
  for (const caf::actor& a : all) self->send_exit(a, caf::exit_reason::user_shutdown);
  bool waiting = true;
  while (waiting && downs < all.size()) {
    self->receive([&](caf::down_msg&) { ++downs; }, [&](JobFailure&) {}, [&](JobSummary&) {},
                  caf::after(std::chrono::seconds(120)) >> [&] { waiting = false; });
  }
  im.registry->remove(key);
  caf::anon_send(im.pool, ForgetJob{key});
  ctx->detach_control();

  if (finished) {
    for (const std::string& w : summary.warnings) spdlog::warn("{}{}", log_prefix(job), w);
    if (slice_counters) {
      // Known only now (results.json was written before): what the scorers' builds came to.
      const FragmentSliceStats st = slice_counters->snapshot();
      summary.fragment_index +=
          fmt::format("; {} builds ({} repeated after eviction), peak {} held", st.builds,
                      st.repeated_builds, megabytes(st.peak_held_bytes));
    }
    return summary;
  }
  remove_job_outputs(job, ctx->committed());
  if (cancelled) throw JobCancelled("job " + job.id + " cancelled");
  throw JobError(error);
}

}  // namespace ionflow
