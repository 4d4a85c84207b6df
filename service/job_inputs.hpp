// Job inputs: the files a stored job reads, for the upload endpoint's rule that a file a
// queued or running job reads is not changed under it: PUT /v1/uploads/NAME refuses every piece
// of that name that would change the file (every piece of an unsized upload: a first piece would
// replace the file, a later one append to it, so the job's results would depend on when it
// started; the last piece of a staged upload, which renames the whole new file over it) until
// the job has ended. A staged upload's other pieces go to a file of their own and are accepted.
//
// A job's inputs are its effective parameters' "mzml_paths" (every spectra file) and
// "database.fasta" (absolute paths: service/job_message.hpp, effective_parameters). Paths are
// compared after std::filesystem::weakly_canonical, so that a symbolic link in either spelling
// of the uploads directory does not hide the match.
// The rule holds only if no job can become queued between a piece's check and its write:
// UploadGate makes the two one step, and the insertion of a job that reads uploaded files
// another, under one lock.
// Thread-safety: job_input_paths as JobStore; UnfinishedJobInputs is not thread-safe (UploadGate
// holds its lock around it); UploadGate is. UnfinishedJobInputs reads the store's queued, then
// its running jobs: a job claimed between the two reads is in both.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "service/job_store.hpp"

namespace ionflow {

// The files `job` reads, as its effective parameters name them; empty when they cannot be read
// (a record without effective parameters, or JSON that does not parse). Never throws.
std::vector<std::string> job_input_paths(const JobRecord& job);

// Which queued or running job reads a file, asked for every piece of an upload without reading
// every queued job's record each time: the inputs of the queued and running jobs are read once and
// kept until JobStore::changes() moves (a job submitted, started, ended, requeued or cancelled). A
// piece then costs one path resolution and a map look-up instead of a scan of the queue (measured
// 2026-12-06, 640 queued jobs of 20 inputs: 115 ms a scan, 7.6 us a piece from the kept
// inputs). The inputs are resolved (weakly_canonical) when read: a symbolic link on a job's
// input path changed later, with no change to the store, is seen at the store's next change.
class UnfinishedJobInputs {
 public:
  // The id of a queued or running job of `store` that reads `path`, or "" when none does.
  // Throws what JobStore::list throws (a store that cannot be read).
  std::string job_reading(const JobStore& store, const std::string& path);

 private:
  uint64_t changes_ = std::numeric_limits<uint64_t>::max();  // none read yet
  std::map<std::string, std::string> job_by_input_;          // comparable path -> a job id
};

// The one lock under which an upload piece is checked and written, and under which a job that
// reads uploaded files is inserted into the store, so that neither comes between the other's
// two steps. (Before it, a job submitted between a piece's check, "no queued or running job reads
// this file", and its write saw its input replaced or appended to while it was queued.)
//
// Lock order: the gate first; then whatever the caller takes while holding it (HttpApi's submit
// mutex), then JobStore's own mutex (taken inside the store's calls, which never call back).
// No lock holder here waits for the gate, so there is no cycle. The gate is held over one
// piece's check and write (at most --max-body-bytes written; the last piece of a staged upload
// also fdatasyncs the whole file before its rename, which for a large file can hold it for
// seconds: known, not yet moved outside the gate) or one job's insertion: never
// over parsing a job message or checking its inputs, and a job that reads no uploaded file does
// not take it at all.
// Thread-safety: all methods may be called from any thread.
class UploadGate {
 public:
  // `store` must outlive the gate. `uploads_directory`: where uploads are written (the same as
  // the upload endpoint's); "" = none, so that no job waits.
  UploadGate(const JobStore& store, std::string uploads_directory);
  UploadGate(const UploadGate&) = delete;
  UploadGate& operator=(const UploadGate&) = delete;

  // Under the gate: when `write` would change `path` (`changes_path`, asked under the gate; none
  // = it would), `path` exists and a queued or running job reads it, returns that job's id and
  // does not call `write`; otherwise calls `write` (one piece's write) and returns "". A path with
  // nothing at it is read by no job that can still start on it (a job's inputs are checked when
  // it is submitted), so it is not looked up; nor is one a piece leaves as it is (a staged
  // upload's piece before its last: UploadFiles::changes_file). Throws what JobStore::list
  // throws, and what `write` and `changes_path` throw.
  std::string write_unless_read(const std::string& path, const std::function<void()>& write,
                                const std::function<bool()>& changes_path = {});

  // The gate, for the caller to hold while it inserts a job reading `inputs` (absolute paths,
  // job_input_paths), when one of them lies in the uploads directory; a lock that holds nothing
  // otherwise. REQUIRES: the caller holds no lock that a holder of the gate may wait for
  // (HttpApi's submit mutex: taken after this, never before).
  std::unique_lock<std::mutex> hold_for_job(const std::vector<std::string>& inputs);

 private:
  const JobStore& store_;
  const std::string uploads_directory_;
  std::mutex mutex_;
  UnfinishedJobInputs unfinished_;  // under mutex_
};

}  // namespace ionflow
