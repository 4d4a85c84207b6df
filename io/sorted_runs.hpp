// SortedRuns: an external sort of Queries by precursor neutral mass within a memory budget.
//
// The sorter actor add()s every query of a job; while the held queries exceed the budget they are
// sorted and spilled as one "run" to a private temp folder (zstd-compressed records of
// io/query_codec). finish() sorts the rest in memory; take()/next() then return all queries in
// order by a k-way merge of the runs and the in-memory rest, reading each run sequentially.
// Order: ascending neutral_mass, ties by file_index, spectrum_index, charge (a total order for
// the queries of one job, so the output never depends on the arrival order or the budget).
// With more than kMaxFanIn runs, finish() first merges runs into longer runs (cascade merge).
//
// The spill folder `<temp_directory>/ionflow-sort-<pid>-XXXXXX` is created on the first spill
// and removed with all its files by the destructor (also when an exception unwinds); the first
// spill also removes the folders there of processes that have died (kill -9).
// Thread-safety: none; one per job, used by one actor. Errors: std::runtime_error naming the
// spill file on I/O or zstd failure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "scoring/query.hpp"

namespace ionflow {

// The sorter's total order (see above): true if `a` comes before `b`.
bool query_order_less(const Query& a, const Query& b);

struct SortedRunsStats {
  uint64_t queries = 0;            // added
  uint64_t runs_spilled = 0;       // runs written by add() (not counting cascade merges)
  uint64_t bytes_spilled = 0;      // compressed bytes written, cascade merges included
  uint64_t peak_memory_bytes = 0;  // largest estimate of the queries held in RAM
};

class SortedRuns {
 public:
  static constexpr size_t kMaxFanIn = 64;

  // `memory_budget_bytes` bounds the queries held in RAM (estimated by query_memory_bytes);
  // at least one query is always held. `zstd_level` is the compression level of spills
  // (1 = fastest; zstd's documented range 1..19).
  SortedRuns(std::string temp_directory, uint64_t memory_budget_bytes, int zstd_level = 1);
  ~SortedRuns();
  SortedRuns(const SortedRuns&) = delete;
  SortedRuns& operator=(const SortedRuns&) = delete;

  // REQUIRES: finish() not yet called. May spill a run (blocking file I/O).
  void add(Query query);
  // Ends input and prepares the merge. REQUIRES: called once.
  void finish();
  // REQUIRES: finish() called. Appends up to `max_count` next queries in order to `out`; returns
  // how many were appended (0 once all queries were returned).
  size_t take(size_t max_count, std::vector<Query>& out);
  // REQUIRES: finish() called. The next query in order; false when exhausted.
  bool next(Query& out);

  const SortedRunsStats& stats() const { return stats_; }
  // The spill folder, "" before the first spill.
  const std::string& spill_directory() const { return spill_directory_; }

 private:
  class RunWriter;
  class RunReader;
  class Merger;

  void spill();
  std::string new_run_path();

  std::string temp_directory_;
  uint64_t memory_budget_bytes_;
  int zstd_level_;
  std::string spill_directory_;
  std::vector<Query> held_;
  uint64_t held_bytes_ = 0;
  std::vector<std::string> run_paths_;
  uint64_t next_run_number_ = 0;
  std::unique_ptr<Merger> merger_;
  bool finished_ = false;
  SortedRunsStats stats_;
};

}  // namespace ionflow
