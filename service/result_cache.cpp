#include "service/result_cache.hpp"

#include <filesystem>

namespace ionflow {

std::shared_ptr<const ResultsTable> ResultCache::get(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const uint64_t bytes = fs::file_size(path, ec);
  const int64_t mtime =
      ec ? 0 : static_cast<int64_t>(fs::last_write_time(path, ec).time_since_epoch().count());
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->path != path) continue;
      if (it->bytes == bytes && it->mtime == mtime) {
        entries_.splice(entries_.begin(), entries_, it);
        return entries_.front().table;
      }
      entries_.erase(it);
      break;
    }
  }
  // Read outside the lock (a read of 100k PSMs takes a while): two first requests may both
  // read; the later insert wins.
  auto table = std::make_shared<const ResultsTable>(ResultsTable::read(path));
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.remove_if([&](const Entry& e) { return e.path == path; });
  entries_.push_front({path, bytes, mtime, table});
  while (entries_.size() > capacity_) entries_.pop_back();
  return table;
}

}  // namespace ionflow
