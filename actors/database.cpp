// The database stage: reads the job's FASTA once and digests it (io/protein_database.hpp) while
// the other stages read, parse and sort the spectra. A job that indexes the whole database
// (wide windows, the index cache, whole_index) builds it then, registers it as part 0 and
// answers the sorter's IndexOpen with IndexPlan::kWhole. A narrow-window job keeps the digest and
// answers IndexOpen with kPerRun (or kAllQueries when remote scorer nodes may score): each
// IndexRequest of the sorter then gets the index of only the peptides its queries' windows reach
// (scoring/search_plan.hpp), registered as that part, until the request marked `last`, which
// frees the digest. Each index is checked searchable; an open search's fragment prefilter is built
// with its index. The StageReport goes to the writer once the last index is registered (see
// pipeline.hpp).
// Detached: the builds are long computations on `build_threads` threads; the job's abort flag
// (JobContext::aborted) stops them.
#include <malloc.h>

#include <spdlog/spdlog.h>
#include <caf/all.hpp>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "actors/pipeline.hpp"
#include "io/index_checksum.hpp"
#include "io/protein_database.hpp"
#include "messages/registration.hpp"
#include "scoring/search_plan.hpp"

namespace ionflow {
namespace {

using load_atom = caf::atom_constant<caf::atom("load")>;

// What the parts built so far say about the job's index, for its StageReport.
struct PartsBuilt {
  uint32_t count = 0;
  uint64_t max_peptides = 0;
  uint64_t queries = 0;
  uint64_t min_queries = UINT64_MAX, max_queries = 0;
  double min_covered = 1.0, max_covered = 0.0;
  std::string first_scope;  // the scope of the first part (the whole scope of a one-part job)
};

struct DatabaseState {
  static inline const char* name = "ionflow.database";
  JobPtr ctx;
  std::shared_ptr<JobRegistry> registry;
  caf::actor pool, writer, coordinator;
  int build_threads = 1;
  std::string fasta_sha256, cache_status, fragment_status;
  std::vector<std::string> fasta_warnings;  // repeated accessions, for the summary
  std::optional<DigestedDatabase> pending;  // digested, building the queries' indexes
  uint64_t occurrences = 0;                 // digested peptide occurrences (pending's)
  IndexPlan plan = IndexPlan::kWhole;
  // IndexOpen requests that arrived before the load ran (a detached actor's self-sent load_atom
  // can queue behind the sorter's message): answered once the load is done.
  std::vector<caf::typed_response_promise<IndexReady>> early_opens;
  bool loaded = false;
  bool release_set = false;
  bool reported = false;
  PartsBuilt parts;
  StageStats stats;
  bool failed = false;
  std::string failure;
};

using DatabaseActor = caf::stateful_actor<DatabaseState>;

// Widens the stage's activity interval over its work since `busy_before` (its busy seconds
// then), which ended just now.
void note_database_work(DatabaseState& st, double busy_before) {
  const double end = st.ctx->elapsed_seconds();
  note_active(st.stats, end - (st.stats.busy_seconds - busy_before), end);
}

// The writer and the shared scorers drop the job's parts through JobContext::release_index /
// release_index_part: the registry entries and each scorer's SpectrumScorer (ForgetJob). Weak
// pool handle: the context must not keep an actor alive.
void set_index_release(DatabaseState& st) {
  if (st.release_set) return;
  st.release_set = true;
  st.ctx->set_index_release([registry = st.registry, pool = caf::actor_addr(st.pool.address()),
                             key = st.ctx->key](uint32_t part) {
    if (part == kAllParts) {
      registry->remove(key);
    } else {
      registry->remove(key, part);
    }
    if (auto p = caf::actor_cast<caf::actor>(pool)) caf::anon_send(p, ForgetJob{key, part});
  });
}

// Registers `index` as part `part` of the job's scoring context (after the checks, with an open
// search's fragment prefilter). With remote scorer nodes accepted, also what they need to rebuild
// `index` (selected by `query_masses`, or the whole database when nullptr).
void publish_index(DatabaseActor* self, std::shared_ptr<const PeptideIndex> index, uint32_t part,
                   const std::vector<double>* query_masses = nullptr) {
  auto& st = self->state;
  const JobSpec& job = st.ctx->spec;
  const uint64_t key = st.ctx->key;
  const double busy_before = st.stats.busy_seconds;
  check_searchable_database(job.fasta_path, job.search.database, *index);
  auto stop = std::shared_ptr<const std::atomic<bool>>(st.ctx, &st.ctx->aborted);
  FragmentPrefilter prefilter = build_fragment_prefilter(
      index, job.search, static_cast<size_t>(job.fragment_index_budget_bytes), st.build_threads,
      &st.ctx->aborted, stop);
  st.stats.busy_seconds += prefilter.build_seconds;
  if (!prefilter.info.empty()) spdlog::info("{}{}", log_prefix(job), prefilter.info);
  if (!prefilter.warning.empty()) spdlog::warn("{}{}", log_prefix(job), prefilter.warning);
  if (prefilter.slices) st.ctx->set_slice_counters(prefilter.slices->counters());
  st.fragment_status = prefilter.status;
  note_database_work(st, busy_before);
  auto scoring = std::make_shared<JobScoring>();
  scoring->index = index;
  scoring->fragments = std::move(prefilter.whole);
  scoring->fragment_slices = std::move(prefilter.slices);
  scoring->params = job.search;
  scoring->stop = stop;
  if (st.registry->remote_scoring()) {
    std::string why;
    scoring->remote_setup = remote_job_setup(key, job, st.fasta_sha256, *index, query_masses, &why);
    if (!scoring->remote_setup) {
      spdlog::warn("{}scored by this process only: {}", log_prefix(job), why);
    }
  }
  st.parts.max_peptides = std::max<uint64_t>(st.parts.max_peptides, index->size());
  st.registry->add(key, part, std::move(scoring));
  set_index_release(st);
}

// The index scope of a job indexed per sorted run (JobSummary::index_scope).
std::string per_run_scope(const DatabaseState& st) {
  const PartsBuilt& p = st.parts;
  if (p.count <= 1) return p.first_scope;
  return fmt::format(
      "selected per sorted run: {} runs of {}-{} queries ({} in all), each indexing the peptides "
      "within its queries' precursor windows ({:.2f}-{:.2f}% of the mass range) and the null "
      "sample (1 in {} sequences) of {} digested peptide occurrences; the largest run index "
      "holds {} peptide forms",
      p.count, p.min_queries, p.max_queries, p.queries, 100.0 * p.min_covered,
      100.0 * p.max_covered, null_pool_stride(st.occurrences), st.occurrences, p.max_peptides);
}

void send_report(DatabaseActor* self, const std::string& scope) {
  auto& st = self->state;
  if (st.reported) return;
  st.reported = true;
  st.stats.items = st.parts.max_peptides;
  StageReport report;
  report.job = st.ctx->key;
  report.from = Stage::kDatabase;
  report.stages[stage_name(Stage::kDatabase)] = st.stats;
  report.input_sha256[st.ctx->spec.fasta_path] = st.fasta_sha256;
  report.peptides_in_index = st.parts.max_peptides;
  report.index_cache = st.cache_status;
  report.fragment_index = st.fragment_status;
  report.index_scope = scope;
  report.warnings = st.fasta_warnings;
  self->send(st.writer, std::move(report));
}

// Reads the FASTA; builds and publishes the whole index, or keeps the digested database.
void load(DatabaseActor* self) {
  auto& st = self->state;
  const JobSpec& job = st.ctx->spec;
  BusyTimer timer;
  LoadedDatabase loaded = load_database(
      job.fasta_path, job.search, selects_peptides(job.search, job.whole_index),
      job.index_cache_directory, st.build_threads, &st.ctx->aborted, job.max_memory_bytes);
  st.fasta_sha256 = loaded.fasta_sha256;
  st.cache_status = loaded.cache_status;
  st.fasta_warnings = std::move(loaded.warnings);
  st.stats.bytes += loaded.bytes_read;
  st.stats.busy_seconds = timer.seconds();
  note_database_work(st, 0.0);
  if (loaded.index) {
    st.plan = IndexPlan::kWhole;
    publish_index(self, std::move(loaded.index), 0);
    send_report(self, "");
  } else {
    st.occurrences = loaded.digested->occurrences();
    st.pending.emplace(std::move(*loaded.digested));
    st.plan = st.registry->remote_scoring() ? IndexPlan::kAllQueries : IndexPlan::kPerRun;
  }
}

// Builds and publishes the index of the peptides `request`'s queries' precursor windows reach;
// the last request consumes the digest (a job of one run builds exactly one index from it).
void select(DatabaseActor* self, IndexRequest& request) {
  auto& st = self->state;
  const JobSpec& job = st.ctx->spec;
  if (!st.pending) throw std::logic_error("index requested after the last one");
  const bool build = request.part != kNoIndexPart || st.parts.count == 0;
  if (build) {
    const uint32_t part = request.part == kNoIndexPart ? 0 : request.part;
    const double busy_before = st.stats.busy_seconds;
    BusyTimer timer;
    SelectedIndex selected =
        request.last
            ? build_selected_index(std::move(*st.pending), request.neutral_masses_da, job.search,
                                   job.fasta_path, st.build_threads, &st.ctx->aborted)
            : build_run_index(*st.pending, request.neutral_masses_da, job.search, job.fasta_path,
                              st.build_threads, &st.ctx->aborted);
    st.stats.busy_seconds += timer.seconds();
    note_database_work(st, busy_before);
    PartsBuilt& p = st.parts;
    const uint64_t n = request.neutral_masses_da.size();
    if (p.count++ == 0) p.first_scope = selected.scope;
    p.queries += n;
    p.min_queries = std::min(p.min_queries, n);
    p.max_queries = std::max(p.max_queries, n);
    p.min_covered = std::min(p.min_covered, selected.covered_fraction);
    p.max_covered = std::max(p.max_covered, selected.covered_fraction);
    publish_index(self, std::move(selected.index), part, &request.neutral_masses_da);
  }
  if (request.last) {
    st.pending.reset();
    send_report(self, per_run_scope(st));
    // The digested database (8-byte peptide ranges, 1.19 M on BSA) is freed: give its pages
    // back now, after its last index is registered, so that the scorers need not wait for it.
    ::malloc_trim(0);
  }
}

// Runs `step`; a failure fails the job, a cancelled build (the job was aborted) ends quietly.
// Returns false when the job failed (now or before).
template <class Step>
bool guarded(DatabaseActor* self, Step step) {
  auto& st = self->state;
  if (st.failed || st.ctx->aborted) return false;
  try {
    step();
    return true;
  } catch (const BuildCancelled&) {
    st.failed = true;
    st.failure = "the job was cancelled";
  } catch (const std::exception& e) {
    st.failed = true;
    st.failure = e.what();
    report_failure(st.coordinator, *st.ctx, e.what());
  }
  return false;
}

caf::error failed_error(const DatabaseState& st) {
  return caf::make_error(caf::sec::runtime_error,
                         "database stage failed" + (st.failure.empty() ? "" : ": " + st.failure));
}

caf::behavior database_actor(DatabaseActor* self, JobPtr ctx, std::shared_ptr<JobRegistry> registry,
                             caf::actor pool, caf::actor writer, caf::actor coordinator,
                             int build_threads) {
  auto& st = self->state;
  st.ctx = std::move(ctx);
  st.registry = std::move(registry);
  st.pool = std::move(pool);
  st.writer = std::move(writer);
  st.coordinator = std::move(coordinator);
  st.build_threads = build_threads;
  self->send(self, load_atom::value);  // the load runs once the actor is up
  return {
      [self](load_atom) {
        auto& st = self->state;
        guarded(self, [self] { load(self); });
        st.loaded = true;
        for (auto& promise : st.early_opens) {
          if (st.failed) {
            promise.deliver(failed_error(st));
          } else {
            promise.deliver(IndexReady{st.ctx->key, 0, st.plan});
          }
        }
        st.early_opens.clear();
      },
      [self](IndexOpen&) -> caf::result<IndexReady> {
        auto& st = self->state;
        if (!st.loaded) {
          st.early_opens.push_back(self->make_response_promise<IndexReady>());
          return st.early_opens.back();
        }
        if (st.failed) return failed_error(st);
        return IndexReady{st.ctx->key, 0, st.plan};
      },
      [self](IndexRequest& request) -> caf::result<IndexReady> {
        auto& st = self->state;
        if (!guarded(self, [self, &request] { select(self, request); })) return failed_error(st);
        return IndexReady{st.ctx->key, request.part, st.plan};
      },
  };
}

}  // namespace

caf::actor spawn_database(caf::actor_system& sys, JobPtr ctx, std::shared_ptr<JobRegistry> registry,
                          caf::actor pool, caf::actor writer, caf::actor coordinator,
                          int build_threads) {
  return sys.spawn<caf::detached>(database_actor, std::move(ctx), std::move(registry),
                                  std::move(pool), std::move(writer), std::move(coordinator),
                                  build_threads);
}

}  // namespace ionflow
