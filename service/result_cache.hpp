// ResultCache: the last few results.tsv files read into ResultsTables, so that the web page's
// paging, sorting, plots and spectrum look-ups do not re-read a 100,000-PSM file per request.
// An entry is keyed by path and checked against the file's size and modification time at every
// get(), so a file rewritten in place is read again. Least recently used entries are dropped
// beyond `capacity`.
// Thread-safety: get() may be called from any thread (reads of new files are serialised, so
// concurrent first requests read a file once); tables are shared immutable.
// Errors: get() throws what ResultsTable::read throws.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>

#include "io/results_table.hpp"

namespace ionflow {

class ResultCache {
 public:
  explicit ResultCache(size_t capacity = 2) : capacity_(capacity < 1 ? 1 : capacity) {}
  std::shared_ptr<const ResultsTable> get(const std::string& path);

 private:
  struct Entry {
    std::string path;
    uint64_t bytes = 0;
    int64_t mtime = 0;
    std::shared_ptr<const ResultsTable> table;
  };
  // The entry for `path` if it is cached with this size and modification time, else nullptr.
  std::shared_ptr<const ResultsTable> find(const std::string& path, uint64_t bytes, int64_t mtime);

  size_t capacity_;
  std::mutex mutex_;          // guards entries_
  std::mutex load_mutex_;     // one ResultsTable::read at a time
  std::list<Entry> entries_;  // most recently used first
};

}  // namespace ionflow
