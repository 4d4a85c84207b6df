// PSM pages: one page of a job's PSMs (ResultsTable rows) after filtering and sorting, for the
// web page's PSM table (GET /v1/jobs/ID/psms). Computed on the server so that a browser showing
// a job of 100,000 PSMs receives only the rows it draws.
//
// Query (URL parameters, all optional):
//   offset (0), limit (50, 1..1000): the page;
//   sort: a results.tsv column (default psm_id), order: asc (default) or desc — numeric
//     columns compare as numbers (empty cells last), others as text; ties keep file order;
//   filter: text, case-insensitive, found in peptide, proteins or scannr;
//   max_q: keep PSMs with spectrum_q <= max_q (e.g. 0.01);
//   label: target or decoy; rank: keep this rank (e.g. 1); charge: keep this charge.
// Answer: {"total": rows in the file, "matched": rows passing the filters, "offset", "limit",
//   "sort", "order", "columns": [names], "rows": [[cells as text], ...]}.
// Errors: PsmQueryError naming the parameter ("sort: no column \"hyperscor\"; did you mean
// \"hyperscore\"?", "limit: expected an integer from 1 to 1000, got x").
// Thread-safety: pure functions over an immutable table.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/results_table.hpp"
#include "service/json_value.hpp"

namespace ionflow {

class PsmQueryError : public std::invalid_argument {
 public:
  PsmQueryError(std::string field, const std::string& message)
      : std::invalid_argument(field + ": " + message), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

struct PsmQuery {
  size_t offset = 0;
  size_t limit = 50;
  std::string sort = "psm_id";
  bool descending = false;
  std::string filter;
  std::optional<double> max_q;
  std::optional<int> label;  // 1 target, -1 decoy
  std::optional<int> rank;
  std::optional<int> charge;
};

// Reads a PsmQuery from URL parameters (name -> value). Throws PsmQueryError.
PsmQuery parse_psm_query(const std::map<std::string, std::string>& params);

// The rows of `table` passing the query's filters, sorted; throws PsmQueryError for an unknown
// sort column or a filter on a column the table lacks.
std::vector<size_t> select_psms(const ResultsTable& table, const PsmQuery& query);

// The JSON answer (see above) for the selected rows.
JsonValue psm_page_json(const ResultsTable& table, const PsmQuery& query,
                        const std::vector<size_t>& selected);

}  // namespace ionflow
