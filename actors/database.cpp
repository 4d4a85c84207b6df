// The database stage: reads the job's FASTA once and builds its peptide index
// (io/protein_database.hpp) while the other stages read, parse and sort the spectra; a
// narrow-window job's index waits for the sorter's QueryMasses and holds only the peptides the
// queries reach (scoring/search_plan.hpp). Then it checks the database is searchable, builds the
// fragment prefilter of an open search, registers the job's JobScoring for the scorers and sends
// IndexReady to the splitter and its StageReport to the writer (see pipeline.hpp).
// Detached: the builds are long computations on `build_threads` threads; the job's abort flag
// (JobContext::aborted) stops them.
#include <malloc.h>

#include <spdlog/spdlog.h>
#include <caf/all.hpp>

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

struct DatabaseState {
  static inline const char* name = "ionflow.database";
  JobPtr ctx;
  std::shared_ptr<JobRegistry> registry;
  caf::actor pool, splitter, writer, coordinator;
  int build_threads = 1;
  std::string fasta_sha256, cache_status;
  std::vector<std::string> fasta_warnings;  // repeated accessions, for the summary
  std::optional<DigestedDatabase> pending;  // digested, waiting for the queries' masses
  // QueryMasses that arrived before the load ran (a detached actor's self-sent load_atom can
  // queue behind the sorter's message on a small job): handled once the load is done.
  std::optional<QueryMasses> early_masses;
  bool loaded = false;
  StageStats stats;
  bool failed = false;
};

using DatabaseActor = caf::stateful_actor<DatabaseState>;

// Widens the stage's activity interval over its work since `busy_before` (its busy seconds
// then), which ended just now.
void note_database_work(DatabaseState& st, double busy_before) {
  const double end = st.ctx->elapsed_seconds();
  note_active(st.stats, end - (st.stats.busy_seconds - busy_before), end);
}

// Registers the scoring context of the job and tells the splitter and the writer. With remote
// scorer nodes accepted, also what they need to rebuild `index` (selected by `query_masses`, or
// the whole database when nullptr).
void publish_index(DatabaseActor* self, std::shared_ptr<const PeptideIndex> index,
                   const std::string& scope, const std::vector<double>* query_masses = nullptr) {
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
  st.registry->add(key, std::move(scoring));
  // The writer drops the index once every chunk is scored (JobContext::release_index): the
  // registry entry and each scorer's SpectrumScorer (ForgetJob). Weak pool handle: the
  // context must not keep an actor alive.
  st.ctx->set_index_release(
      [registry = st.registry, pool = caf::actor_addr(st.pool.address()), key] {
        registry->remove(key);
        if (auto p = caf::actor_cast<caf::actor>(pool)) caf::anon_send(p, ForgetJob{key});
      });
  StageReport report;
  report.job = key;
  report.from = Stage::kDatabase;
  report.stages[stage_name(Stage::kDatabase)] = st.stats;
  report.input_sha256[job.fasta_path] = st.fasta_sha256;
  report.peptides_in_index = index->size();
  report.index_cache = st.cache_status;
  report.fragment_index = prefilter.status;
  report.index_scope = scope;
  report.warnings = st.fasta_warnings;
  self->send(st.writer, std::move(report));
  self->send(st.splitter, IndexReady{key});
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
  st.stats.items = loaded.index ? loaded.index->size() : 0;
  st.stats.busy_seconds = timer.seconds();
  note_database_work(st, 0.0);
  if (loaded.index) {
    publish_index(self, std::move(loaded.index), "");
  } else {
    st.pending.emplace(std::move(*loaded.digested));
  }
}

// Builds and publishes the index of the peptides the queries' precursor windows reach.
void select(DatabaseActor* self, const QueryMasses& masses) {
  auto& st = self->state;
  const JobSpec& job = st.ctx->spec;
  const double busy_before = st.stats.busy_seconds;
  BusyTimer timer;
  SelectedIndex selected =
      build_selected_index(std::move(*st.pending), masses.neutral_masses_da, job.search,
                           job.fasta_path, st.build_threads, &st.ctx->aborted);
  st.pending.reset();
  st.stats.busy_seconds += timer.seconds();
  st.stats.items = selected.index->size();
  note_database_work(st, busy_before);
  publish_index(self, std::move(selected.index), selected.scope, &masses.neutral_masses_da);
  // The digested database (8-byte peptide ranges, 1.19 M on BSA) is freed: give its pages back
  // now, after IndexReady, so that the scorers need not wait for it.
  ::malloc_trim(0);
}

// Runs `step`; a failure fails the job, a cancelled build (the job was aborted) ends quietly.
template <class Step>
void guarded(DatabaseActor* self, Step step) {
  auto& st = self->state;
  if (st.failed || st.ctx->aborted) return;
  try {
    step();
  } catch (const BuildCancelled&) {
    st.failed = true;
  } catch (const std::exception& e) {
    st.failed = true;
    report_failure(st.coordinator, *st.ctx, e.what());
  }
}

caf::behavior database_actor(DatabaseActor* self, JobPtr ctx, std::shared_ptr<JobRegistry> registry,
                             caf::actor pool, caf::actor splitter, caf::actor writer,
                             caf::actor coordinator, int build_threads) {
  auto& st = self->state;
  st.ctx = std::move(ctx);
  st.registry = std::move(registry);
  st.pool = std::move(pool);
  st.splitter = std::move(splitter);
  st.writer = std::move(writer);
  st.coordinator = std::move(coordinator);
  st.build_threads = build_threads;
  self->send(self, load_atom::value);  // the load runs once the actor is up
  return {
      [self](load_atom) {
        auto& st = self->state;
        guarded(self, [self] { load(self); });
        st.loaded = true;
        if (st.early_masses && st.pending && !st.failed) {
          guarded(self, [self] { select(self, *self->state.early_masses); });
        }
        st.early_masses.reset();
      },
      [self](QueryMasses& masses) {
        auto& st = self->state;
        if (!st.loaded) {
          st.early_masses = std::move(masses);
          return;
        }
        if (!st.pending) return;
        guarded(self, [self, &masses] { select(self, masses); });
      },
  };
}

}  // namespace

caf::actor spawn_database(caf::actor_system& sys, JobPtr ctx, std::shared_ptr<JobRegistry> registry,
                          caf::actor pool, caf::actor splitter, caf::actor writer,
                          caf::actor coordinator, int build_threads) {
  return sys.spawn<caf::detached>(database_actor, std::move(ctx), std::move(registry),
                                  std::move(pool), std::move(splitter), std::move(writer),
                                  std::move(coordinator), build_threads);
}

}  // namespace ionflow
