#include "service/result_plots.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace ionflow {

namespace {

struct Columns {
  int label = -1, rank = -1, q = -1, hyperscore = -1, ppm = -1, rt = -1, charge = -1;
};

double value(const ResultsTable& t, size_t row, int col) {
  return col >= 0 && t.numeric(static_cast<size_t>(col)) ? t.number(row, static_cast<size_t>(col))
                                                         : std::nan("");
}

JsonValue numbers(const std::vector<double>& v) {
  JsonValue a = JsonValue::array();
  for (double x : v) a.push_back(x);
  return a;
}
JsonValue counts(const std::vector<uint64_t>& v) {
  JsonValue a = JsonValue::array();
  for (uint64_t x : v) a.push_back(x);
  return a;
}

// Equal-width bins from `lo` covering `values`; returns {"bin_lo", "bin_width"} plus one count
// array per series, named.
JsonValue histogram(const std::vector<std::pair<std::string, std::vector<double>>>& series,
                    double lo, double width, size_t bins) {
  JsonValue o = JsonValue::object();
  std::vector<double> edges(bins);
  for (size_t i = 0; i < bins; ++i) edges[i] = lo + width * static_cast<double>(i);
  o.set("bin_lo", numbers(edges));
  o.set("bin_width", width);
  for (const auto& [name, values] : series) {
    std::vector<uint64_t> n(bins, 0);
    for (double x : values) {
      auto i = static_cast<int64_t>(std::floor((x - lo) / width));
      i = std::clamp<int64_t>(i, 0, static_cast<int64_t>(bins) - 1);
      ++n[static_cast<size_t>(i)];
    }
    o.set(name, counts(n));
  }
  return o;
}

JsonValue score_plot(const std::vector<double>& target, const std::vector<double>& decoy) {
  double lo = INFINITY, hi = -INFINITY;
  for (const auto* v : {&target, &decoy}) {
    for (double x : *v) lo = std::min(lo, x), hi = std::max(hi, x);
  }
  if (!(hi >= lo)) lo = 0, hi = 1;
  const size_t bins = 40;
  const double width = hi > lo ? (hi - lo) / bins : 1.0;
  return histogram({{"target", target}, {"decoy", decoy}}, lo, width, bins);
}

JsonValue q_curve(std::vector<double> target_q) {
  std::sort(target_q.begin(), target_q.end());
  std::vector<double> q;
  std::vector<uint64_t> accepted;
  for (int i = 0; i <= 200; ++i) {
    const double threshold = 0.1 * i / 200.0;
    q.push_back(threshold);
    accepted.push_back(static_cast<uint64_t>(
        std::upper_bound(target_q.begin(), target_q.end(), threshold + 1e-12) - target_q.begin()));
  }
  JsonValue o = JsonValue::object();
  o.set("q", numbers(q));
  o.set("accepted", counts(accepted));
  return o;
}

JsonValue ppm_plot(const std::vector<double>& ppm) {
  double lo = 0, hi = 0;
  for (double x : ppm) lo = std::min(lo, x), hi = std::max(hi, x);
  double width = 0.5;
  lo = std::floor(lo / width) * width;
  hi = std::floor(hi / width) * width + width;
  while ((hi - lo) / width > 80) width *= 2;
  lo = std::floor(lo / width) * width;
  const auto bins = static_cast<size_t>(std::max(1.0, std::ceil((hi - lo) / width)));
  return histogram({{"count", ppm}}, lo, width, bins);
}

}  // namespace

JsonValue result_plots_json(const ResultsTable& t) {
  Columns c;
  c.label = t.column("label");
  c.rank = t.column("rank");
  c.q = t.column("spectrum_q");
  c.hyperscore = t.column("hyperscore");
  c.ppm = t.column("precursor_ppm");
  c.rt = t.column("rt");
  c.charge = t.column("charge");
  std::vector<double> target_scores, decoy_scores, target_q, accepted_ppm, rt, rt_ppm;
  std::map<int, std::pair<uint64_t, uint64_t>> charges;  // charge -> accepted, all
  for (size_t r = 0; r < t.rows(); ++r) {
    if (value(t, r, c.rank) != 1) continue;
    const bool target = value(t, r, c.label) == 1;
    const double score = value(t, r, c.hyperscore);
    if (!std::isnan(score)) (target ? target_scores : decoy_scores).push_back(score);
    const double q = value(t, r, c.q);
    const bool accepted = target && q <= 0.01;
    if (target && !std::isnan(q)) target_q.push_back(q);
    const double z = value(t, r, c.charge);
    if (!std::isnan(z)) {
      auto& n = charges[static_cast<int>(z)];
      n.second += 1;
      n.first += accepted ? 1 : 0;
    }
    if (!accepted) continue;
    const double ppm = value(t, r, c.ppm);
    if (std::isnan(ppm)) continue;
    accepted_ppm.push_back(ppm);
    const double minutes = value(t, r, c.rt);
    if (!std::isnan(minutes)) rt.push_back(minutes), rt_ppm.push_back(ppm);
  }
  JsonValue o = JsonValue::object();
  o.set("psms", static_cast<uint64_t>(t.rows()));
  o.set("accepted_psms", static_cast<uint64_t>(accepted_ppm.size()));
  o.set("score", score_plot(target_scores, decoy_scores));
  o.set("q_curve", q_curve(target_q));
  o.set("precursor_ppm", ppm_plot(accepted_ppm));
  const size_t stride = rt.size() > 4000 ? (rt.size() + 3999) / 4000 : 1;
  std::vector<double> rt_out, ppm_out;
  for (size_t i = 0; i < rt.size(); i += stride)
    rt_out.push_back(rt[i]), ppm_out.push_back(rt_ppm[i]);
  JsonValue scatter = JsonValue::object();
  scatter.set("rt_minutes", numbers(rt_out));
  scatter.set("ppm", numbers(ppm_out));
  o.set("ppm_vs_rt", std::move(scatter));
  JsonValue z = JsonValue::array();
  std::vector<uint64_t> accepted, all;
  for (const auto& [charge, n] : charges) {
    z.push_back(charge), accepted.push_back(n.first), all.push_back(n.second);
  }
  JsonValue by_charge = JsonValue::object();
  by_charge.set("charge", std::move(z));
  by_charge.set("accepted", counts(accepted));
  by_charge.set("all", counts(all));
  o.set("charges", std::move(by_charge));
  return o;
}

}  // namespace ionflow
