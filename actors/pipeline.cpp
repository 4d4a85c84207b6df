// spawn_job_pipeline: every stage of one job, spawned and wired as pipeline.hpp draws them.
#include <caf/all.hpp>

#include <algorithm>

#include "actors/pipeline.hpp"
#include "messages/registration.hpp"

namespace ionflow {

void report_failure(const caf::actor& coordinator, const JobContext& ctx,
                    const std::string& message) {
  caf::anon_send(coordinator, JobFailure{ctx.key, message});
}

std::string log_prefix(const JobSpec& job) {
  return job.id == kLocalJobId ? std::string() : "job " + job.id + ": ";
}

std::vector<caf::actor> JobActors::all() const {
  std::vector<caf::actor> out{database, reader};
  out.insert(out.end(), parsers.begin(), parsers.end());
  out.push_back(sorter);
  out.push_back(splitter);
  out.push_back(writer);
  return out;
}

JobActors spawn_job_pipeline(caf::actor_system& sys, JobPtr ctx,
                             std::shared_ptr<JobRegistry> registry, caf::actor pool,
                             caf::actor coordinator, int build_threads) {
  JobActors a;
  const int parsers = std::clamp(ctx->spec.parsers, 1, 4);
  a.writer = spawn_writer(sys, ctx, coordinator);
  a.database =
      spawn_database(sys, ctx, std::move(registry), pool, a.writer, coordinator, build_threads);
  a.sorter = spawn_sorter(sys, ctx, a.writer, coordinator, a.database);
  a.splitter = spawn_splitter(sys, ctx, a.sorter, pool, a.writer, coordinator);
  for (int i = 0; i < parsers; ++i)
    a.parsers.push_back(spawn_parser(sys, ctx, a.sorter, coordinator));
  a.reader = spawn_reader(sys, ctx, a.parsers, a.sorter, a.writer, coordinator);
  return a;
}

}  // namespace ionflow
