#include "io/results_table.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "io/decompression.hpp"
#include "io/parse_error.hpp"

namespace ionflow {

namespace {

// strtod over the whole cell; false for anything else (text, trailing characters).
bool parse_number(std::string_view cell, double& out) {
  if (cell.empty() || cell.size() > 63) return false;
  char buffer[64];
  std::memcpy(buffer, cell.data(), cell.size());
  buffer[cell.size()] = '\0';
  char* end = nullptr;
  out = std::strtod(buffer, &end);
  return end == buffer + cell.size();
}

}  // namespace

ResultsTable ResultsTable::read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
  Decompressor decompressor(path);
  std::string text;
  std::string block(1 << 20, '\0');
  while (in.read(block.data(), static_cast<std::streamsize>(block.size())) || in.gcount() > 0) {
    decompressor.feed(std::string_view(block.data(), static_cast<size_t>(in.gcount())), text);
  }
  if (in.bad()) throw std::runtime_error(path + ": read error");
  decompressor.finish(text);
  return parse(std::move(text), path);
}

ResultsTable ResultsTable::parse(std::string text, const std::string& name) {
  ResultsTable t;
  t.text_ = std::move(text);
  const std::string_view all(t.text_);
  size_t line_start = 0;
  uint64_t line = 0;
  std::vector<Cell> row;
  while (line_start < all.size()) {
    size_t line_end = all.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = all.size();
    ++line;
    size_t content_end = line_end;
    if (content_end > line_start && all[content_end - 1] == '\r') --content_end;
    row.clear();
    size_t cell_start = line_start;
    while (true) {
      size_t tab = all.find('\t', cell_start);
      if (tab == std::string_view::npos || tab > content_end) tab = content_end;
      row.push_back({cell_start, static_cast<uint32_t>(tab - cell_start)});
      if (tab == content_end) break;
      cell_start = tab + 1;
    }
    if (line == 1) {
      for (const Cell& c : row) t.columns_.emplace_back(all.substr(c.offset, c.length));
      if (t.columns_.size() < 2) {
        throw std::runtime_error(name + ": not a results.tsv (no tab-separated header line)");
      }
    } else if (content_end > line_start) {
      if (row.size() != t.columns_.size()) {
        throw ParseError(name, line_start, line,
                         std::to_string(row.size()) + " cells, the header has " +
                             std::to_string(t.columns_.size()));
      }
      t.cells_.insert(t.cells_.end(), row.begin(), row.end());
      ++t.rows_;
    }
    line_start = line_end + 1;
  }
  if (t.columns_.empty()) throw std::runtime_error(name + ": empty file, not a results.tsv");
  const size_t n = t.columns_.size();
  t.numbers_.assign(n, {});
  for (size_t c = 0; c < n && t.rows_ > 0; ++c) {
    std::vector<double> values(t.rows_);
    bool ok = true;
    for (size_t r = 0; r < t.rows_ && ok; ++r) {
      const std::string_view s = t.cell(r, c);
      if (s.empty()) {
        values[r] = std::nan("");
      } else {
        ok = parse_number(s, values[r]);
      }
    }
    if (ok) t.numbers_[c] = std::move(values);
  }
  return t;
}

int ResultsTable::column(std::string_view name) const {
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (columns_[i] == name) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace ionflow
