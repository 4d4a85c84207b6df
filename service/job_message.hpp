// Job message: the JSON that describes one search, read into a JobSpec (messages/job.hpp).
// `ionflow search JOB.json` and `POST /v1/jobs` take the same JSON.
//
// A Sage configuration file (lazear/sage, crates/sage-cli/src/input.rs and DOCS.md) is a valid
// job message: the Sage keys ionflow implements mean what they mean in Sage; the Sage keys it does
// not implement (chimera, wide_window, quant, database.bucket_size, ...) are accepted and each
// produces a warning that names the key; any other unknown key is an error. ionflow's own keys
// (Unimod modification names, enzyme names, decoy generation, pipeline settings) sit beside the
// Sage keys. The README's "Job keys" table lists every key with its unit and default; `null` for
// any key means "not given" (the default), as in Sage.
//
// Contract: parse_job_message() either returns a fully resolved JobSpec (defaults filled,
// modifications resolved against Unimod, paths absolute, effective_parameters_json set) plus
// warnings, or throws JobMessageError whose key_path() names the offending key
// ("database.enzyme.missed_cleavages") and whose what() is "<key path>: <what is wrong>", e.g.
// "database.enzyme.missed_cleavages: expected unsigned integer, got string".
// Thread-safety: the functions are re-entrant; the Unimod passed in is only read.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "messages/job.hpp"
#include "scoring/unimod.hpp"
#include "service/json_value.hpp"

namespace ionflow {

class JobMessageError : public std::invalid_argument {
 public:
  JobMessageError(std::string key_path, const std::string& message)
      : std::invalid_argument(key_path.empty() ? message : key_path + ": " + message),
        key_path_(std::move(key_path)) {}
  // Dotted path of the key at fault, with [i] for array elements; "" for the message as a whole.
  const std::string& key_path() const { return key_path_; }

 private:
  std::string key_path_;
};

struct JobMessageOptions {
  // Require database.fasta and at least one spectra file, and check that each is a readable
  // regular file (error names the key: "database.fasta: file not found: /x/y.fasta").
  bool check_inputs = true;
  // Relative paths are resolved against this directory; "" = the current directory.
  std::string base_directory;
  // When non-empty (ionflow serve), every input path must lie inside one of these directories
  // and must not contain a ".." component; otherwise the path is rejected naming the key.
  std::vector<std::string> data_roots;
  // When non-empty (ionflow serve, with data_roots): the uploads directory, where an input at a
  // hidden name (an upload in progress, not a file yet: service/upload_file.hpp) is rejected
  // naming the key, as written and through symbolic links.
  std::string uploads_directory;
  // When non-empty (ionflow serve), results go here; a message's output_directory is then
  // ignored with a warning.
  std::string forced_output_directory;
  // When non-empty (ionflow serve), the peptide-index cache lives here for every job; a
  // message's index_cache_directory is then ignored with a warning.
  std::string forced_index_cache_directory;
  // Re-reading the effective parameters of a job accepted earlier (ionflow serve at job start
  // and in its spectrum view, a scorer node): the submission rules a version may add (the
  // fragment_tol bounds of +-2 Da / +-1000 ppm; variable modifications of 0 Da, given twice or
  // equal to a fixed one) are not applied again, so that a stored job of an earlier version
  // still runs and shows.
  bool stored_job = false;
};

struct ParsedJob {
  JobSpec spec;
  std::vector<std::string> warnings;  // each starts with the key it is about: "chimera: ..."
};

// Parses and resolves a job message. Throws JobMessageError (bad JSON, unknown key, wrong type,
// value out of range, bounds in the wrong order, unknown modification, missing file).
ParsedJob parse_job_message(std::string_view json_text, const Unimod& unimod,
                            const JobMessageOptions& options = {});
// The same for a message already parsed (and possibly edited, e.g. by command-line overrides).
ParsedJob read_job_message(const JsonValue& message, const Unimod& unimod,
                           const JobMessageOptions& options = {});

// Every key with its resolved value, as a JSON tree in ionflow's canonical form: Sage key names
// where Sage has the setting, modifications as resolved objects, paths absolute. The result is
// itself a valid job message that parses back to the same JobSpec.
JsonValue effective_parameters(const JobSpec& spec);
// effective_parameters() as pretty-printed JSON text (what JobSpec::effective_parameters_json
// holds).
std::string effective_parameters_json(const JobSpec& spec);

}  // namespace ionflow
