// Result plots: the data of a job page's plots, computed from its results.tsv (ResultsTable) on
// the server (GET /v1/jobs/ID/plots), so a browser draws 100,000 PSMs from a few kB of JSON.
//
// "Accepted" = target (label 1), rank 1, spectrum_q <= 0.01 — the rule of results.json's
// psms_at_1pct_fdr (actors/job_results.hpp count_at_1pct), so "accepted_psms" equals it.
//   score:          hyperscore histogram of rank-1 targets and decoys, 40 equal bins over
//                   [min, max]: {"bin_lo": [...], "bin_width", "target": [...], "decoy": [...]}
//   q_curve:        accepted rank-1 targets against the q-value threshold, at most 201 points
//                   up to q = 0.1: {"q": [...], "accepted": [...]}
//   precursor_ppm:  histogram (0.5 ppm bins, or wider to keep at most 80) of the accepted PSMs'
//                   precursor_ppm: {"bin_lo", "bin_width", "count"}
//   ppm_vs_rt:      accepted PSMs' (rt minutes, precursor_ppm), at most 4000, an even stride
//                   when there are more: {"rt_minutes": [...], "ppm": [...]}
//   charges:        {"charge": [2, 3, ...], "accepted": [...], "all": [...]} (rank 1, targets
//                   and decoys in "all")
// plus "psms" (rows) and "accepted_psms".
// Thread-safety: a pure function over an immutable table.
#pragma once

#include "io/results_table.hpp"
#include "service/json_value.hpp"

namespace ionflow {

JsonValue result_plots_json(const ResultsTable& table);

}  // namespace ionflow
