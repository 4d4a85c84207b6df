// Header-only (the suite builds from *_test.cpp files only). Helpers for ionflow's end-to-end
// tests: run the real `ionflow` binary in a fresh temporary directory and read what it wrote
// (results.tsv by column name, results.json, any text file).
//
// Contract: every helper either returns the value or fails the current test through GoogleTest
// (ADD_FAILURE / FAIL-style exceptions are not used, so callers check `ok` flags where noted).
// Paths come from compile definitions set by tests/CMakeLists.txt: IONFLOW_BINARY_DIR (the
// binary is IONFLOW_BINARY_DIR "/service/ionflow"), IONFLOW_SOURCE_DIR, IONFLOW_EXAMPLES_DIR
// (Debian openms-doc examples) and IONFLOW_TEST_DATA_DIR (tests/data).
// Thread-safety: none needed; each test runs in its own process under ctest.
#pragma once

#include <gtest/gtest.h>

#include <stdlib.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "service/json_value.hpp"

namespace ionflow::e2e {

inline const std::string kIonflow = IONFLOW_BINARY_DIR "/service/ionflow";
inline const std::string kSourceDir = IONFLOW_SOURCE_DIR;
inline const std::string kExamplesDir = IONFLOW_EXAMPLES_DIR;
inline const std::string kTestDataDir = IONFLOW_TEST_DATA_DIR;
// The demo's spectra and FASTA (Debian openms-doc examples).
inline const std::string kBsa1Mzml = kExamplesDir + "/BSA/BSA1.mzML";
inline const std::string kBsaTargetDecoyFasta =
    kExamplesDir +
    "/TOPPAS/data/BSA_Identification/18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta";

inline std::string read_file(const std::string& path);  // defined below

// Outcome of one shell command: exit status (WEXITSTATUS, or -1 if it did not exit normally)
// and its captured stdout / stderr.
struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// A fresh directory under $TMPDIR (or /tmp), removed in the destructor unless keep() was called.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/ionflow-e2e-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (mkdtemp(buffer.data()) == nullptr) {
      ADD_FAILURE() << "mkdtemp failed for " << pattern;
      return;
    }
    path_ = buffer.data();
  }
  ~TempDir() {
    if (keep_ || path_.empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }
  void keep() { keep_ = true; }

 private:
  std::string path_;
  bool keep_ = false;
};

// Single-quotes `text` for /bin/sh.
inline std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

// Runs `command` through /bin/sh with stdout and stderr captured to files in `scratch`.
inline CommandResult run_command(const std::string& command, const TempDir& scratch) {
  static int serial = 0;
  ++serial;
  std::string out_path = scratch / ("cmd" + std::to_string(serial) + ".stdout");
  std::string err_path = scratch / ("cmd" + std::to_string(serial) + ".stderr");
  std::string full = command + " >" + shell_quote(out_path) + " 2>" + shell_quote(err_path);
  int status = std::system(full.c_str());
  CommandResult result;
  result.exit_code = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
  result.out = read_file(out_path);
  result.err = read_file(err_path);
  std::filesystem::remove(out_path);
  std::filesystem::remove(err_path);
  return result;
}

// Runs `ionflow <args>` (each arg quoted) and returns its exit code and output.
inline CommandResult run_ionflow(const std::vector<std::string>& args, const TempDir& scratch) {
  std::string command = shell_quote(kIonflow);
  for (const auto& arg : args) command.append(" ").append(shell_quote(arg));
  return run_command(command, scratch);
}

// Whole file as bytes; empty string and a test failure if it cannot be read.
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ADD_FAILURE() << "cannot read " << path;
    return {};
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline bool file_exists(const std::string& path) {
  return std::filesystem::exists(path);
}

inline std::vector<std::string> list_directory(const std::string& path) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// A tab-separated table with a header row; cell(row, "peptide") looks columns up by name.
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::map<std::string, size_t> column;
  const std::string& cell(size_t row, const std::string& name) const {
    static const std::string kMissing;
    auto it = column.find(name);
    if (it == column.end()) {
      ADD_FAILURE() << "no column " << name;
      return kMissing;
    }
    if (row >= rows.size() || it->second >= rows[row].size()) {
      ADD_FAILURE() << "no cell " << name << " in row " << row;
      return kMissing;
    }
    return rows[row][it->second];
  }
};

inline std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  while (true) {
    size_t tab = line.find('\t', start);
    fields.push_back(
        line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) break;
    start = tab + 1;
  }
  return fields;
}

inline Table read_tsv(const std::string& text) {
  Table table;
  std::istringstream in(text);
  std::string line;
  bool first = true;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (first) {
      table.header = split_tabs(line);
      for (size_t i = 0; i < table.header.size(); ++i) table.column[table.header[i]] = i;
      first = false;
    } else {
      table.rows.push_back(split_tabs(line));
    }
  }
  return table;
}

// results.json parsed; a test failure (and null) if it is not valid JSON.
inline JsonValue read_json_file(const std::string& path) {
  try {
    return parse_json(read_file(path));
  } catch (const std::exception& e) {
    ADD_FAILURE() << path << ": " << e.what();
    return JsonValue();
  }
}

// The value at a dotted path ("summary.psms_at_1pct_fdr") or null if absent.
inline const JsonValue& json_at(const JsonValue& root, const std::string& dotted) {
  static const JsonValue kNull;
  const JsonValue* node = &root;
  size_t start = 0;
  while (true) {
    size_t dot = dotted.find('.', start);
    std::string key =
        dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    node = node->is_object() ? node->find(key) : nullptr;
    if (node == nullptr) {
      ADD_FAILURE() << "no " << dotted << " in JSON";
      return kNull;
    }
    if (dot == std::string::npos) return *node;
    start = dot + 1;
  }
}

// Number of occurrences of `needle` in `haystack`.
inline size_t count_occurrences(const std::string& haystack, const std::string& needle) {
  size_t count = 0;
  for (size_t pos = haystack.find(needle); pos != std::string::npos;
       pos = haystack.find(needle, pos + needle.size())) {
    ++count;
  }
  return count;
}

// Fails the test if a tool the e2e tests need is not on PATH (they never skip).
inline void require_tool(const std::string& name) {
  std::string command = "command -v " + shell_quote(name) + " >/dev/null 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0)
      << name << " is not installed (scripts/install-deps.sh installs it); e2e tests never skip";
}

// Fails the test if an input file is missing (openms-doc not fetched, ionflow not built).
inline void require_file(const std::string& path) {
  ASSERT_TRUE(std::filesystem::exists(path))
      << path << " is missing (build `ionflow`, run scripts/fetch-data or install openms-doc)";
}

// Target PSMs accepted at 1% FDR in results.tsv: rank 1, label 1, spectrum_q <= 0.01.
inline size_t count_target_psms_at_1pct(const Table& table) {
  size_t count = 0;
  for (size_t r = 0; r < table.rows.size(); ++r) {
    if (table.cell(r, "rank") == "1" && table.cell(r, "label") == "1" &&
        std::stod(table.cell(r, "spectrum_q")) <= 0.01) {
      ++count;
    }
  }
  return count;
}

}  // namespace ionflow::e2e
