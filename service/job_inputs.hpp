// Job inputs: the files a stored job reads, for the upload endpoint's rule that a file a
// queued or running job reads is not changed under it: PUT /v1/uploads/NAME refuses every piece
// of that name (a first piece would replace the file, a later one append to it, so the job's
// results would depend on when it started) until the job has ended.
//
// A job's inputs are its effective parameters' "mzml_paths" (every spectra file) and
// "database.fasta" (absolute paths: service/job_message.hpp, effective_parameters). Paths are
// compared after std::filesystem::weakly_canonical, so that a symbolic link in either spelling
// of the uploads directory does not hide the match.
// Thread-safety: as JobStore (each call reads the store once).
#pragma once

#include <string>
#include <vector>

#include "service/job_store.hpp"

namespace ionflow {

// The files `job` reads, as its effective parameters name them; empty when they cannot be read
// (a record without effective parameters, or JSON that does not parse). Never throws.
std::vector<std::string> job_input_paths(const JobRecord& job);

// The id of a queued or running job of `store` that reads `path`, or "" when none does.
// Throws what JobStore::list throws (a store that cannot be read).
std::string unfinished_job_reading(const JobStore& store, const std::string& path);

}  // namespace ionflow
