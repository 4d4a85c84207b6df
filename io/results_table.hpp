// ResultsTable: a job's results.tsv (or results.tsv.zst) read back into memory so that the
// service can page, sort, filter and plot its PSMs without sending the file to a browser.
//
// The file is tab-separated with a header line (io/tsv_writer.cpp: Sage's column names). Every
// cell is kept as text (an offset into one buffer), and every column whose non-empty cells all
// parse as numbers (strtod, whole cell) also as doubles (NaN for an empty cell), so a sort or a
// filter on a numeric column compares numbers. Memory: the file's text plus 16 bytes per cell
// (about 45 MB for 100,000 PSMs of 25 columns).
// Errors: read() throws std::runtime_error naming the path (cannot open, not a results.tsv:
// no header) and ParseError (file, line) for a row with another cell count than the header.
// Thread-safety: immutable after read(); any number of threads may read it.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ionflow {

class ResultsTable {
 public:
  // Reads `path` (zstd or gzip compressed files are decompressed). Throws as above.
  static ResultsTable read(const std::string& path);
  // The same from text already in memory (for tests); `name` is used in errors.
  static ResultsTable parse(std::string text, const std::string& name);

  const std::vector<std::string>& columns() const { return columns_; }
  // The index of column `name`, or -1.
  int column(std::string_view name) const;
  size_t rows() const { return rows_; }
  std::string_view cell(size_t row, size_t column) const {
    const Cell& c = cells_[row * columns_.size() + column];
    return std::string_view(text_).substr(c.offset, c.length);
  }
  bool numeric(size_t column) const { return !numbers_[column].empty() || rows_ == 0; }
  // The cell as a number; NaN when empty. REQUIRES: numeric(column).
  double number(size_t row, size_t column) const {
    return rows_ == 0 ? std::nan("") : numbers_[column][row];
  }

 private:
  struct Cell {
    uint64_t offset = 0;
    uint32_t length = 0;
  };
  std::string text_;
  std::vector<std::string> columns_;
  size_t rows_ = 0;
  std::vector<Cell> cells_;                   // row-major
  std::vector<std::vector<double>> numbers_;  // per column; empty = not numeric
};

}  // namespace ionflow
