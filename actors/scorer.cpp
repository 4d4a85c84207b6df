// A scorer: scores each QueryChunk of any job with the job's SpectrumScorer over its shared,
// read-only PeptideIndex, looked up by job key in a JobRegistry (see pipeline.hpp). The same
// actor scores in the coordinator's pool (actors/scorer_pool.cpp) and on a remote scorer node
// (actors/scorer_node.cpp), each with its own registry; each chunk names the part of the job's
// index it is scored against (QueryChunk::part). It checks the job's stop flag
// (JobScoring::stop) between queries, so a cancelled or failed job's chunks stop within one
// query instead of being scored to the end.
#include <caf/all.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "actors/pipeline.hpp"
#include "messages/registration.hpp"
#include "scoring/search.hpp"

namespace ionflow {
namespace {

// A job as one scorer knows it: the JobScoring of the part of its index the last chunk named,
// looked up at the part's first chunk here (kept, so that chunks still queued after the job
// ended see its stop flag), and a SpectrumScorer holding that shared, read-only PeptideIndex.
// A chunk of another part replaces both (a job indexed per sorted run sends its parts in
// order).
struct ScorerJob {
  uint32_t part = 0;
  std::shared_ptr<const JobScoring> scoring;
  std::unique_ptr<SpectrumScorer> scorer;
};

struct ScorerState {
  static inline const char* name = "ionflow.scorer";
  std::shared_ptr<JobRegistry> registry;
  std::map<uint64_t, ScorerJob> jobs;  // until ForgetJob
};

using ScorerActor = caf::stateful_actor<ScorerState>;

caf::behavior scorer_actor(ScorerActor* self, std::shared_ptr<JobRegistry> registry) {
  self->state.registry = std::move(registry);
  return {
      [self](QueryChunk& chunk) -> caf::result<PsmBatch> {
        auto& st = self->state;
        BusyTimer timer;
        auto it = st.jobs.find(chunk.job);
        if (it != st.jobs.end() && it->second.part != chunk.part) {
          st.jobs.erase(it);
          it = st.jobs.end();
        }
        if (it == st.jobs.end()) {
          std::shared_ptr<const JobScoring> job = st.registry->find(chunk.job, chunk.part);
          if (!job) {
            return caf::make_error(caf::sec::runtime_error,
                                   "job " + std::to_string(chunk.job) + " part " +
                                       std::to_string(chunk.part) + " is not registered");
          }
          try {
            auto scorer = std::make_unique<SpectrumScorer>(job->index, job->params, job->fragments,
                                                           job->fragment_slices);
            it = st.jobs.emplace(chunk.job, ScorerJob{chunk.part, job, std::move(scorer)}).first;
          } catch (const std::exception& e) {
            return caf::make_error(caf::sec::runtime_error, std::string(e.what()));
          }
        }
        const JobScoring& job = *it->second.scoring;
        PsmBatch batch;
        batch.job = chunk.job;
        batch.seq = chunk.seq;
        for (const Query& q : chunk.queries) {
          // A cancelled or failed job: stop here. The partial batch goes only to that job,
          // whose results are discarded (the flag is never set for a job that finishes).
          if (job.stop && job.stop->load(std::memory_order_relaxed)) break;
          try {
            if (job.before_score) job.before_score(q);  // tests: may throw anything
            std::vector<Psm> psms = it->second.scorer->score(q);
            for (Psm& p : psms) batch.psms.push_back(std::move(p));
          } catch (const std::exception& e) {
            return caf::make_error(caf::sec::runtime_error,
                                   "scoring file " + std::to_string(q.file_index) + " spectrum " +
                                       std::to_string(q.spectrum_index) + " (" + q.native_id +
                                       ") charge " + std::to_string(q.charge) + ": " + e.what());
          }
          ++batch.queries_scored;
        }
        batch.scorer_busy_seconds = timer.seconds();
        return batch;
      },
      [self](ForgetJob& forget) {
        auto& jobs = self->state.jobs;
        auto it = jobs.find(forget.job);
        if (it != jobs.end() && (forget.part == kAllParts || forget.part == it->second.part)) {
          jobs.erase(it);
        }
      },
  };
}

}  // namespace

caf::actor spawn_scorer(caf::actor_system& sys, std::shared_ptr<JobRegistry> registry) {
  return sys.spawn<caf::detached>(scorer_actor, std::move(registry));
}

}  // namespace ionflow
