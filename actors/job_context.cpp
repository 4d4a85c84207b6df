#include "actors/job_context.hpp"

namespace ionflow {

JobContext::JobContext(uint64_t key_in, JobSpec spec_in, JobControl* control,
                       const std::atomic<int>* scorers, const std::atomic<int>* remote_scorers)
    : key(key_in),
      spec(std::move(spec_in)),
      start(std::chrono::steady_clock::now()),
      control_(control),
      scorers_(scorers),
      remote_scorers_(remote_scorers) {}

void JobContext::update_progress(const std::function<void(JobProgress&)>& update, bool force) {
  std::lock_guard<std::mutex> lock(progress_mutex_);
  update(progress_);
  JobControl* control = control_.load();
  if (!control || !control->on_progress) return;
  auto now = std::chrono::steady_clock::now();
  if (!force && now - last_report_ < std::chrono::milliseconds(100)) return;
  last_report_ = now;
  progress_.elapsed_seconds = elapsed_seconds();
  control->on_progress(progress_);
}

void JobContext::detach_control() {
  std::lock_guard<std::mutex> lock(progress_mutex_);
  control_ = nullptr;
}

void JobContext::set_index_release(std::function<void(uint32_t part)> release) {
  std::lock_guard<std::mutex> lock(release_mutex_);
  release_index_ = std::move(release);
}

void JobContext::release_index() {
  std::function<void(uint32_t)> release;
  {
    std::lock_guard<std::mutex> lock(release_mutex_);
    release.swap(release_index_);
  }
  if (release) release(kAllParts);
}

void JobContext::release_index_part(uint32_t part) {
  std::function<void(uint32_t)> release;
  {
    std::lock_guard<std::mutex> lock(release_mutex_);
    release = release_index_;
  }
  if (release) release(part);
}

void JobContext::set_slice_counters(std::shared_ptr<const FragmentSliceCounters> counters) {
  std::lock_guard<std::mutex> lock(slices_mutex_);
  slice_counters_ = std::move(counters);
}

std::shared_ptr<const FragmentSliceCounters> JobContext::slice_counters() const {
  std::lock_guard<std::mutex> lock(slices_mutex_);
  return slice_counters_;
}

void JobContext::note_committed(const std::vector<std::string>& paths) {
  std::lock_guard<std::mutex> lock(committed_mutex_);
  committed_.insert(committed_.end(), paths.begin(), paths.end());
}

std::vector<std::string> JobContext::committed() const {
  std::lock_guard<std::mutex> lock(committed_mutex_);
  return committed_;
}

void JobRegistry::add(uint64_t job, uint32_t part, std::shared_ptr<const JobScoring> scoring) {
  std::lock_guard<std::mutex> lock(mutex_);
  jobs_[{job, part}] = std::move(scoring);
}

void JobRegistry::remove(uint64_t job) {
  std::lock_guard<std::mutex> lock(mutex_);
  jobs_.erase(jobs_.lower_bound({job, 0}), jobs_.lower_bound({job + 1, 0}));
}

void JobRegistry::remove(uint64_t job, uint32_t part) {
  std::lock_guard<std::mutex> lock(mutex_);
  jobs_.erase({job, part});
}

std::shared_ptr<const JobScoring> JobRegistry::find(uint64_t job, uint32_t part) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = jobs_.find({job, part});
  return it == jobs_.end() ? nullptr : it->second;
}

void ScorerRoster::set(const ScorerNodeInfo& info) {
  std::lock_guard<std::mutex> lock(mutex_);
  nodes_[info.name] = info;
  int sum = 0;
  for (const auto& [name, node] : nodes_) sum += node.scorers;
  remote_scorers_ = sum;
}

void ScorerRoster::remove(const std::string& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  nodes_.erase(name);
  int sum = 0;
  for (const auto& [n, node] : nodes_) sum += node.scorers;
  remote_scorers_ = sum;
}

std::vector<ScorerNodeInfo> ScorerRoster::nodes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<ScorerNodeInfo> out;
  for (const auto& [name, node] : nodes_) out.push_back(node);
  return out;
}

}  // namespace ionflow
