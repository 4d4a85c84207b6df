// Data browser: the directory listings behind the web page's file chooser
// (GET /v1/files[?path=DIR]), limited to the server's data roots (--data-root) — the only
// places a job may read its inputs from.
//
// Without `path` (or with path ""), the answer lists the roots themselves. With a path, it must
// be absolute, contain no ".." component and lie inside a root both as written and after
// resolving symbolic links (as job inputs are checked, service/job_message.cpp); the answer lists
// its entries: directories first, then files, each by name, with "path" (absolute, as written
// under the root), "type" ("directory" or "file"), "bytes" (files) and "kind" ("spectra" for
// .mzML/.mgf, optionally .gz/.zst; "fasta" for .fasta/.fa/.faa, optionally compressed; "" else).
// Hidden entries (names starting with '.') are left out; at most 5000 entries (then
// "truncated": true).
// Answer: {"roots": [...], "path": DIR or "", "parent": DIR or "" (none above a root),
//   "entries": [...]}.
// Errors: DataBrowserError (400 for a bad or outside path, 404 for a missing directory).
// Thread-safety: a pure function (reads the file system).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "service/json_value.hpp"

namespace ionflow {

class DataBrowserError : public std::runtime_error {
 public:
  DataBrowserError(int status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

JsonValue list_data_directory(const std::vector<std::string>& roots, const std::string& path);

// "spectra", "fasta" or "" for a file name (see above).
std::string data_file_kind(const std::string& name);

}  // namespace ionflow
