// PsmSpill: a job's PSMs on disk instead of in RAM, so that the writer's memory does not grow
// with the number of queries.
//
// PsmSpill: the writer add()s each scored chunk's PSMs (chunk sequence number `seq`, PSMs in the
// scorer's order) as they arrive, in any seq order. Records (io/psm_codec, prefixed by seq and
// position) are buffered up to `run_bytes` of encoded bytes, then sorted by (file_index,
// spectrum_index, arrival) and appended to the spill file as one "run" (one zstd frame). Only the
// run boundaries stay in RAM. finish() writes the rest (or, when no run was written, keeps the
// PSMs in RAM as the only run: a small job never touches the file) and numbers every PSM by its
// *arrival*:
// its position in the concatenation of all chunks by ascending seq (the order the writer used
// when it kept every PSM in a vector). Then scan() reads every PSM once, run by run (cheap, no
// order), and merge() returns them by a k-way merge of the runs in (file_index,
// spectrum_index, arrival) order.
//
// Files: `<temp_directory>/ionflow-psms-XXXXXX` (mkstemp), unlinked at once after creation; the
// open descriptor keeps the data until the object is destroyed, so no file is left behind after
// success, an exception, a cancelled job or a killed process. Compression: zstd level 1 by
// default, window 2^17 bytes (so each run being merged costs ~0.3 MiB of decoder state).
// Errors: std::runtime_error "PSM spill <path>: <cause>" (cannot create the file, a full disk,
// a short read, a corrupt frame). Thread-safety: none; one object per job, used by one actor.
// scan()/merge() are const and may run several times after finish().
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "scoring/psm.hpp"

namespace ionflow {

class PsmSpill {
 public:
  static constexpr uint64_t kDefaultRunBytes = uint64_t{16} << 20;  // encoded bytes per run

  // Creates the (unlinked) spill file in `temp_directory` ("" = "."). Throws std::runtime_error
  // naming the path when it cannot be created.
  explicit PsmSpill(const std::string& temp_directory, uint64_t run_bytes = kDefaultRunBytes,
                    int zstd_level = 1);
  ~PsmSpill();
  PsmSpill(const PsmSpill&) = delete;
  PsmSpill& operator=(const PsmSpill&) = delete;

  // Adds the PSMs of chunk `seq` (each seq at most once). REQUIRES: finish() not called. May
  // write a run (blocking file I/O).
  void add(uint64_t seq, const std::vector<Psm>& psms);
  // Writes the buffered rest and numbers the PSMs by arrival. REQUIRES: called once.
  void finish();

  // REQUIRES: finish() called. Every PSM once, in file order (not sorted): visit(arrival, psm).
  void scan(const std::function<void(uint64_t arrival, Psm& psm)>& visit) const;
  // REQUIRES: finish() called. Every PSM once, ordered by (file_index, spectrum_index, arrival).
  void merge(const std::function<void(uint64_t arrival, Psm& psm)>& visit) const;

  uint64_t size() const { return count_; }                   // PSMs added
  size_t runs() const { return runs_.size(); }               // runs written (0: kept in RAM)
  uint64_t bytes_written() const { return bytes_written_; }  // compressed bytes on disk
  const std::string& path() const { return path_; }

 private:
  struct Entry {
    uint32_t file_index;
    uint64_t spectrum_index;
    uint64_t seq;
    uint32_t position;
    size_t offset;  // of the record in pending_
    size_t length;
  };
  struct Run {
    uint64_t begin = 0, end = 0;  // byte range of the frame in the file
  };
  void sort_entries();
  void write_run();
  void visit_in_memory(const std::function<void(uint64_t, Psm&)>& visit) const;
  uint64_t arrival(uint64_t seq, uint32_t position) const;

  std::string path_;
  int fd_ = -1;
  uint64_t run_bytes_;
  int zstd_level_;
  std::string pending_;  // encoded records not yet written
  std::vector<Entry> entries_;
  std::vector<Run> runs_;
  std::vector<std::pair<uint64_t, uint64_t>> chunk_counts_;  // (seq, PSMs); sorted, prefix sums
  uint64_t count_ = 0;
  uint64_t bytes_written_ = 0;
  bool finished_ = false;
  bool in_memory_ = false;  // finished with nothing spilled: pending_ and entries_ are the run
};

}  // namespace ionflow
