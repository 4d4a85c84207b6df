// RunQueue: a job's queries cut into sorted runs as they are parsed, the runs served one after
// another, within a memory budget.
//
// The sorter actor add()s each query as it arrives. cut() ends the current run: its queries are
// sorted by query_order_less and queued in memory. While the queries in RAM (those held for the
// next run plus what is left of the queued in-memory runs) exceed the budget, add() cuts the held
// ones into a run and spills it to a private temp folder (zstd-compressed records of
// io/query_codec) instead. take() serves the runs in the order they were cut, each in sorted
// order (a spilled run read back sequentially, its file removed once read); it never crosses the
// end of the front run. So a job scores its first runs while later queries are still read, and
// memory stays flat in the number of queries. The caller sees each run's sorted queries once
// when it is cut (CutVisitor: the run's precursor masses for its peptide index, its chunk plan).
// The order of the queries never changes a job's results (tests/actors/search_runtime_test.cpp),
// only how soon scoring starts and how well consecutive queries share cache lines.
//
// The spill folder `<temp_directory>/ionflow-sort-<pid>-XXXXXX` is created on the first spill
// and removed with all its files by the destructor (also when an exception unwinds); the first
// spill also removes the folders there of processes that have died (kill -9).
// Thread-safety: none; one per job, used by one actor. Errors: std::runtime_error naming the
// spill file on I/O or zstd failure; std::logic_error for a call its REQUIRES forbid.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "scoring/query.hpp"

namespace ionflow {

// The order within a run: ascending neutral_mass, ties by file_index, spectrum_index, charge (a
// total order for the queries of one job). True if `a` comes before `b`.
bool query_order_less(const Query& a, const Query& b);

struct RunQueueStats {
  uint64_t queries = 0;            // added
  uint64_t runs = 0;               // cut (spilled ones included)
  uint64_t runs_spilled = 0;       // written to the spill folder
  uint64_t bytes_spilled = 0;      // compressed bytes written
  uint64_t peak_memory_bytes = 0;  // largest estimate of the queries in RAM (query_memory_bytes)
};

class RunQueue {
 public:
  // Called once per run when it is cut, with its queries in order (before they are spilled).
  using CutVisitor = std::function<void(const std::vector<Query>& sorted)>;

  // `memory_budget_bytes` bounds the queries in RAM (estimated by query_memory_bytes); at least
  // one query is always held. `zstd_level`: compression level of spills (1 = fastest).
  RunQueue(std::string temp_directory, uint64_t memory_budget_bytes, int zstd_level = 1);
  ~RunQueue();
  RunQueue(const RunQueue&) = delete;
  RunQueue& operator=(const RunQueue&) = delete;

  // Holds `query` for the next run; when the queries in RAM then exceed the budget, cuts the
  // held ones into a run and spills it (blocking file I/O), calling `on_cut` first. Returns
  // whether it cut a run.
  bool add(Query query, const CutVisitor& on_cut);
  // Cuts the held queries into a run kept in RAM, calling `on_cut`; false (nothing cut, no
  // call) when none are held.
  bool cut(const CutVisitor& on_cut);

  uint64_t held() const { return held_.size(); }  // queries not yet in a run
  size_t runs() const { return runs_.size(); }    // runs cut and not completely taken
  // Queries left in the front run (0 when no run is queued).
  uint64_t front_left() const;
  // Moves up to `max_count` next queries of the front run, in order, to the end of `out`; drops
  // the run once it is empty. Returns how many were moved (0 when no run is queued).
  size_t take(size_t max_count, std::vector<Query>& out);

  const RunQueueStats& stats() const { return stats_; }
  // The spill folder, "" before the first spill.
  const std::string& spill_directory() const { return spill_directory_; }

 private:
  class RunWriter;
  class RunReader;
  struct Run;

  void spill(const CutVisitor& on_cut);
  std::string new_run_path();
  void note_memory();

  std::string temp_directory_;
  uint64_t memory_budget_bytes_;
  int zstd_level_;
  std::string spill_directory_;
  std::vector<Query> held_;
  uint64_t held_bytes_ = 0;
  uint64_t run_bytes_ = 0;  // queries left in the in-memory runs
  std::deque<std::unique_ptr<Run>> runs_;
  uint64_t next_run_number_ = 0;
  RunQueueStats stats_;
};

}  // namespace ionflow
