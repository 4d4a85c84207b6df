// JobContext: what the actors of one job share in this process (never sent in messages): the
// job spec, the caller's JobControl, progress reporting, the abort flag, the hook that
// releases the job's peptide index after scoring and the fragment slices' build counters.
// JobRegistry: the scoring context (PeptideIndex + SearchParameters) of each running job, by job
// key, where the shared scorers look it up when a QueryChunk of that job arrives.
//
// Thread-safety: JobContext's spec and key are immutable after construction; update_progress()
// and the atomics may be used from any actor thread. JobRegistry is internally locked.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "actors/search_runtime.hpp"
#include "messages/job.hpp"
#include "messages/job_events.hpp"
#include "messages/pool_control.hpp"
#include "messages/scorer_node.hpp"
#include "scoring/fragment_index.hpp"
#include "scoring/fragment_slices.hpp"
#include "scoring/peptide_index.hpp"
#include "scoring/query.hpp"
#include "scoring/search_parameters.hpp"

namespace ionflow {

class JobContext {
 public:
  // `scorers`: the local pool's size; `remote_scorers`: the remote scorer nodes' (nullptr =
  // none). Both are read live for scorer_count().
  JobContext(uint64_t key, JobSpec spec, JobControl* control, const std::atomic<int>* scorers,
             const std::atomic<int>* remote_scorers = nullptr);

  const uint64_t key;
  const JobSpec spec;
  const std::chrono::steady_clock::time_point start;

  // Set by the coordinator when the job fails or is cancelled; stages and the shared scorers
  // (JobScoring::stop) stop early. A writer already past its commit still sends its summary,
  // and the job then ends finished (SearchRuntime::run): every chunk was scored by then.
  std::atomic<bool> aborted{false};
  bool cancel_requested() const {
    JobControl* control = control_.load();
    return control && control->cancel.load();
  }
  // Called by run() before it returns: no more progress calls or cancel reads on `control`.
  void detach_control();

  // The job's peptide index is needed only until its last chunk is scored; the writer then
  // releases it before finalizing, so finalizing's memory does not add to the index's. A job
  // indexed per sorted run (IndexPlan::kPerRun) releases each run's part as soon as its last
  // chunk is back (the splitter), so at most a few parts are held at once.
  // set_index_release: the runtime's way to drop the references it and the shared scorers hold
  // to part `part` (JobRegistry entry, each scorer's SpectrumScorer via ForgetJob), or to every
  // part with kAllParts. release_index: called by the writer once every chunk's PSMs have
  // arrived (no scorer still scores the job then; a scorer drops its SpectrumScorer only between
  // messages): runs the hook with kAllParts at most once. release_index_part: called by the
  // splitter once no chunk of `part` is outstanding or will be sent. Both are no-ops without a
  // hook (tests). Thread-safe.
  void set_index_release(std::function<void(uint32_t part)> release);
  void release_index();
  void release_index_part(uint32_t part);

  // The result files the writer renamed into place (so that a job cancelled or failed after
  // that removes its own files and no others). Thread-safe.
  void note_committed(const std::vector<std::string>& paths);
  std::vector<std::string> committed() const;

  // An open search over the fragment-index budget: the counters of its slices' builds (set by
  // the database stage; only the counters, so that the slices and the index are freed when
  // scoring ends), for the summary once the job is done. nullptr otherwise. Thread-safe.
  void set_slice_counters(std::shared_ptr<const FragmentSliceCounters> counters);
  std::shared_ptr<const FragmentSliceCounters> slice_counters() const;

  // Current scorer pool size, remote scorer nodes' scorers included (for
  // max_chunks_in_flight = 0 -> 2 * scorers).
  int scorer_count() const {
    return scorers_->load() + (remote_scorers_ ? remote_scorers_->load() : 0);
  }

  // Applies `update` to the job's progress and calls JobControl::on_progress, at most every
  // 100 ms unless `force` (stage changes). Serialised by a mutex.
  void update_progress(const std::function<void(JobProgress&)>& update, bool force = false);

  double elapsed_seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

 private:
  std::atomic<JobControl*> control_;
  const std::atomic<int>* scorers_;
  const std::atomic<int>* remote_scorers_;
  std::mutex release_mutex_;
  std::function<void(uint32_t)> release_index_;
  mutable std::mutex slices_mutex_;
  std::shared_ptr<const FragmentSliceCounters> slice_counters_;
  mutable std::mutex committed_mutex_;
  std::vector<std::string> committed_;
  std::mutex progress_mutex_;
  JobProgress progress_;
  std::chrono::steady_clock::time_point last_report_{};
};

struct JobScoring {
  std::shared_ptr<const PeptideIndex> index;
  // Built from `index` for wide precursor windows (open search), else null: the scorers' first
  // pass (SpectrumScorer, scoring/search.hpp).
  std::shared_ptr<const FragmentIndex> fragments;
  // Instead of `fragments` when the whole index would exceed the job's
  // fragment_index_budget_bytes: its slices, built on demand by the scorers that share them.
  std::shared_ptr<FragmentSlices> fragment_slices;
  SearchParameters params;
  // The job's JobContext::aborted (shares ownership of the JobContext, so it outlives the job
  // for a scorer still holding a chunk). Once true the job is cancelled or failed and its
  // results are discarded: the scorer stops between queries and replies with the queries
  // scored so far. Set for a finishing job only after its last chunk was scored (a cancel after
  // the writer's commit). nullptr = never stop early (tests).
  std::shared_ptr<const std::atomic<bool>> stop;
  // Tests only (fault injection): called by the scorer before each query is scored. A
  // std::exception is a scorer error (the scorer survives); anything else kills the scorer.
  std::function<void(const Query&)> before_score;
  // What a remote scorer node needs to rebuild this index (messages/scorer_node.hpp); set only
  // when the runtime accepts scorer nodes (JobRegistry::remote_scoring). nullptr = the job's
  // chunks stay in this process.
  std::shared_ptr<const RemoteJobSetup> remote_setup;
};

// The remote scorer nodes in the shared pool now, as the pool keeps them (for GET
// /v1/scorers); internally locked.
class ScorerRoster {
 public:
  // Adds or updates the node called `info.name`.
  void set(const ScorerNodeInfo& info);
  void remove(const std::string& name);
  std::vector<ScorerNodeInfo> nodes() const;
  // The sum of the nodes' scorers.
  const std::atomic<int>& remote_scorers() const { return remote_scorers_; }

 private:
  mutable std::mutex mutex_;
  std::map<std::string, ScorerNodeInfo> nodes_;
  std::atomic<int> remote_scorers_{0};
};

class JobRegistry {
 public:
  // A job's scoring context per part of its index (QueryChunk::part; 0 unless the job is indexed
  // per sorted run).
  void add(uint64_t job, uint32_t part, std::shared_ptr<const JobScoring> scoring);
  void add(uint64_t job, std::shared_ptr<const JobScoring> scoring) {
    add(job, 0, std::move(scoring));
  }
  // Removes every part of `job`, or only `part`.
  void remove(uint64_t job);
  void remove(uint64_t job, uint32_t part);
  // nullptr if the part is not (or no longer) registered.
  std::shared_ptr<const JobScoring> find(uint64_t job, uint32_t part = 0) const;
  // On when the runtime listens for remote scorer nodes: each job's database stage then also
  // prepares its JobScoring::remote_setup.
  void set_remote_scoring(bool on) { remote_scoring_ = on; }
  bool remote_scoring() const { return remote_scoring_.load(); }

 private:
  std::atomic<bool> remote_scoring_{false};
  mutable std::mutex mutex_;
  std::map<std::pair<uint64_t, uint32_t>, std::shared_ptr<const JobScoring>> jobs_;
};

// Seconds of a steady-clock interval, for stage busy times.
class BusyTimer {
 public:
  BusyTimer() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

// Adds the work `timer` measured (started at that work's beginning, read now) to `stats`:
// busy seconds and the activity interval, in `ctx`'s job-relative seconds.
inline void note_busy(StageStats& stats, const JobContext& ctx, const BusyTimer& timer) {
  const double busy = timer.seconds();
  const double end = ctx.elapsed_seconds();
  stats.busy_seconds += busy;
  note_active(stats, end - busy, end);
}

}  // namespace ionflow
