#include "service/psm_page.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "scoring/edit_distance.hpp"

namespace ionflow {

namespace {

int64_t parse_integer(const std::string& field, const std::string& text, int64_t lo, int64_t hi) {
  int64_t value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || value < lo || value > hi) {
    throw PsmQueryError(field, "expected an integer from " + std::to_string(lo) + " to " +
                                   std::to_string(hi) + ", got " + text);
  }
  return value;
}

int required_column(const ResultsTable& table, const std::string& field, const std::string& name) {
  const int c = table.column(name);
  if (c >= 0) return c;
  throw PsmQueryError(
      field, "no column \"" + name + "\"" + did_you_mean(closest_name(name, table.columns())));
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool contains_ci(std::string_view haystack, const std::string& lower_needle) {
  if (lower_needle.size() > haystack.size()) return false;
  return lower(haystack).find(lower_needle) != std::string::npos;
}

}  // namespace

PsmQuery parse_psm_query(const std::map<std::string, std::string>& params) {
  PsmQuery q;
  for (const auto& [key, value] : params) {
    if (key == "offset") {
      q.offset = static_cast<size_t>(parse_integer(key, value, 0, 1'000'000'000));
    } else if (key == "limit") {
      q.limit = static_cast<size_t>(parse_integer(key, value, 1, 1000));
    } else if (key == "sort") {
      if (value.empty()) throw PsmQueryError(key, "empty column name");
      q.sort = value;
    } else if (key == "order") {
      if (value != "asc" && value != "desc") {
        throw PsmQueryError(key, "expected asc or desc, got " + value);
      }
      q.descending = value == "desc";
    } else if (key == "filter") {
      q.filter = value;
    } else if (key == "max_q") {
      char* end = nullptr;
      const double x = std::strtod(value.c_str(), &end);
      if (value.empty() || end != value.c_str() + value.size() || !(x >= 0.0 && x <= 1.0)) {
        throw PsmQueryError(key, "expected a q-value from 0 to 1, got " + value);
      }
      q.max_q = x;
    } else if (key == "label") {
      if (value != "target" && value != "decoy") {
        throw PsmQueryError(key, "expected target or decoy, got " + value);
      }
      q.label = value == "target" ? 1 : -1;
    } else if (key == "rank") {
      q.rank = static_cast<int>(parse_integer(key, value, 1, 100));
    } else if (key == "charge") {
      q.charge = static_cast<int>(parse_integer(key, value, 1, 100));
    } else {
      throw PsmQueryError(key,
                          "unknown parameter (known: offset, limit, sort, order, filter, "
                          "max_q, label, rank, charge)");
    }
  }
  return q;
}

std::vector<size_t> select_psms(const ResultsTable& table, const PsmQuery& query) {
  const int sort = required_column(table, "sort", query.sort);
  const int q_col = query.max_q ? required_column(table, "max_q", "spectrum_q") : -1;
  const int label_col = query.label ? required_column(table, "label", "label") : -1;
  const int rank_col = query.rank ? required_column(table, "rank", "rank") : -1;
  const int charge_col = query.charge ? required_column(table, "charge", "charge") : -1;
  std::vector<int> text_cols;
  for (const char* name : {"peptide", "proteins", "scannr"}) {
    if (int c = table.column(name); c >= 0) text_cols.push_back(c);
  }
  const std::string needle = lower(query.filter);
  auto equals = [&](size_t row, int col, int value) {
    return table.numeric(col) && table.number(row, col) == value;
  };
  std::vector<size_t> rows;
  rows.reserve(table.rows());
  for (size_t r = 0; r < table.rows(); ++r) {
    if (q_col >= 0 && !(table.numeric(q_col) && table.number(r, q_col) <= *query.max_q)) continue;
    if (label_col >= 0 && !equals(r, label_col, *query.label)) continue;
    if (rank_col >= 0 && !equals(r, rank_col, *query.rank)) continue;
    if (charge_col >= 0 && !equals(r, charge_col, *query.charge)) continue;
    if (!needle.empty()) {
      bool hit = false;
      for (int c : text_cols) hit = hit || contains_ci(table.cell(r, c), needle);
      if (!hit) continue;
    }
    rows.push_back(r);
  }
  const size_t col = static_cast<size_t>(sort);
  if (table.numeric(col)) {
    // Empty cells (NaN) last in either order.
    std::stable_sort(rows.begin(), rows.end(), [&](size_t a, size_t b) {
      const double x = table.number(a, col), y = table.number(b, col);
      if (std::isnan(x) || std::isnan(y)) return !std::isnan(x) && std::isnan(y);
      return query.descending ? x > y : x < y;
    });
  } else {
    std::stable_sort(rows.begin(), rows.end(), [&](size_t a, size_t b) {
      return query.descending ? table.cell(a, col) > table.cell(b, col)
                              : table.cell(a, col) < table.cell(b, col);
    });
  }
  return rows;
}

JsonValue psm_page_json(const ResultsTable& table, const PsmQuery& query,
                        const std::vector<size_t>& selected) {
  JsonValue o = JsonValue::object();
  o.set("total", static_cast<uint64_t>(table.rows()));
  o.set("matched", static_cast<uint64_t>(selected.size()));
  o.set("offset", static_cast<uint64_t>(query.offset));
  o.set("limit", static_cast<uint64_t>(query.limit));
  o.set("sort", query.sort);
  o.set("order", query.descending ? "desc" : "asc");
  JsonValue columns = JsonValue::array();
  for (const auto& c : table.columns()) columns.push_back(c);
  o.set("columns", std::move(columns));
  JsonValue rows = JsonValue::array();
  const size_t end = std::min(selected.size(), query.offset + query.limit);
  for (size_t i = query.offset; i < end; ++i) {
    JsonValue row = JsonValue::array();
    for (size_t c = 0; c < table.columns().size(); ++c) row.push_back(table.cell(selected[i], c));
    rows.push_back(std::move(row));
  }
  o.set("rows", std::move(rows));
  return o;
}

}  // namespace ionflow
