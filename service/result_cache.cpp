#include "service/result_cache.hpp"

#include <filesystem>

namespace ionflow {

std::shared_ptr<const ResultsTable> ResultCache::get(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const uint64_t bytes = fs::file_size(path, ec);
  const int64_t mtime =
      ec ? 0 : static_cast<int64_t>(fs::last_write_time(path, ec).time_since_epoch().count());
  if (auto hit = find(path, bytes, mtime)) return hit;
  // One read at a time: the job page asks for its PSMs and its plots at once, and both need
  // the same table; the second request waits and finds it cached instead of reading it again.
  std::lock_guard<std::mutex> loading(load_mutex_);
  if (auto hit = find(path, bytes, mtime)) return hit;
  auto table = std::make_shared<const ResultsTable>(ResultsTable::read(path));
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.remove_if([&](const Entry& e) { return e.path == path; });
  entries_.push_front({path, bytes, mtime, table});
  while (entries_.size() > capacity_) entries_.pop_back();
  return table;
}

std::shared_ptr<const ResultsTable> ResultCache::find(const std::string& path, uint64_t bytes,
                                                      int64_t mtime) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->path != path) continue;
    if (it->bytes != bytes || it->mtime != mtime) {
      entries_.erase(it);  // the file changed: read it again
      return nullptr;
    }
    entries_.splice(entries_.begin(), entries_, it);
    return entries_.front().table;
  }
  return nullptr;
}

}  // namespace ionflow
