#include "scoring/rescoring.hpp"

#include <array>
#include <cmath>

#include "scoring/fdr.hpp"

namespace ionflow {

namespace {

constexpr int kFeatures = 13;
using Features = std::array<double, kFeatures>;
constexpr double kTrainFdr = 0.01;
constexpr int kIterations = 3;
constexpr size_t kMinClass = 10;

Features features_of(const Psm& p) {
  const double fraction =
      p.theoretical_peaks > 0 ? double(p.matched_peaks) / p.theoretical_peaks : 0.0;
  return {p.score,
          p.hyperscore,
          p.xcorr,
          p.delta_next,
          double(p.matched_peaks),
          fraction,
          std::abs(p.precursor_ppm),
          p.fragment_ppm,
          double(p.charge),
          double(p.sequence.size()),
          double(p.missed_cleavages),
          double(std::abs(p.isotope_error)),
          std::log10(std::max(1, p.candidates))};
}

size_t accepted_targets(const std::vector<double>& scores, const std::vector<bool>& decoy) {
  const std::vector<double> q = target_decoy_q_values(scores, decoy);
  size_t n = 0;
  for (size_t i = 0; i < q.size(); ++i) n += !decoy[i] && q[i] <= kTrainFdr;
  return n;
}

// Solves A x = b (A symmetric positive definite after regularisation) by Gaussian elimination
// with partial pivoting. Returns false when singular.
bool solve(std::array<std::array<double, kFeatures>, kFeatures> a, Features b, Features& x) {
  for (int c = 0; c < kFeatures; ++c) {
    int pivot = c;
    for (int r = c + 1; r < kFeatures; ++r) {
      if (std::abs(a[r][c]) > std::abs(a[pivot][c])) pivot = r;
    }
    if (std::abs(a[pivot][c]) < 1e-12) return false;
    std::swap(a[c], a[pivot]);
    std::swap(b[c], b[pivot]);
    for (int r = c + 1; r < kFeatures; ++r) {
      const double f = a[r][c] / a[c][c];
      for (int k = c; k < kFeatures; ++k) a[r][k] -= f * a[c][k];
      b[r] -= f * b[c];
    }
  }
  for (int c = kFeatures; c-- > 0;) {
    double s = b[c];
    for (int k = c + 1; k < kFeatures; ++k) s -= a[c][k] * x[k];
    x[c] = s / a[c][c];
  }
  return true;
}

}  // namespace

bool rescore_psms(std::vector<Psm>& psms) {
  std::vector<size_t> rank1;
  for (size_t i = 0; i < psms.size(); ++i) {
    if (psms[i].rank == 1) rank1.push_back(i);
  }
  if (rank1.empty()) return false;
  const size_t n = rank1.size();

  // Standardise.
  std::vector<Features> x(n);
  Features mean{}, sd{};
  for (size_t k = 0; k < n; ++k) {
    x[k] = features_of(psms[rank1[k]]);
    for (int f = 0; f < kFeatures; ++f) mean[f] += x[k][f];
  }
  for (int f = 0; f < kFeatures; ++f) mean[f] /= n;
  for (size_t k = 0; k < n; ++k) {
    for (int f = 0; f < kFeatures; ++f) sd[f] += (x[k][f] - mean[f]) * (x[k][f] - mean[f]);
  }
  for (int f = 0; f < kFeatures; ++f) sd[f] = sd[f] > 0 ? std::sqrt(sd[f] / n) : 1.0;
  for (auto& row : x) {
    for (int f = 0; f < kFeatures; ++f) row[f] = (row[f] - mean[f]) / sd[f];
  }

  std::vector<bool> decoy(n);
  std::vector<double> scores(n);
  size_t decoys = 0;
  for (size_t k = 0; k < n; ++k) {
    decoy[k] = psms[rank1[k]].decoy;
    scores[k] = psms[rank1[k]].score;
    decoys += decoy[k];
  }
  if (decoys < kMinClass) return false;
  const size_t baseline = accepted_targets(scores, decoy);

  Features w{};
  bool trained = false;
  for (int iteration = 0; iteration < kIterations; ++iteration) {
    const std::vector<double> q = target_decoy_q_values(scores, decoy);
    std::vector<char> label(n, -1);  // 1 positive, 0 negative, -1 unused
    size_t positives = 0;
    for (size_t k = 0; k < n; ++k) {
      if (decoy[k]) {
        label[k] = 0;
      } else if (q[k] <= kTrainFdr) {
        label[k] = 1;
        ++positives;
      }
    }
    if (positives < kMinClass) break;
    std::array<Features, 2> mu{};
    std::array<double, 2> count{};
    for (size_t k = 0; k < n; ++k) {
      if (label[k] < 0) continue;
      count[label[k]] += 1;
      for (int f = 0; f < kFeatures; ++f) mu[label[k]][f] += x[k][f];
    }
    for (int c = 0; c < 2; ++c) {
      for (int f = 0; f < kFeatures; ++f) mu[c][f] /= count[c];
    }
    std::array<std::array<double, kFeatures>, kFeatures> sw{};
    for (size_t k = 0; k < n; ++k) {
      if (label[k] < 0) continue;
      const Features& m = mu[label[k]];
      for (int i = 0; i < kFeatures; ++i) {
        for (int j = 0; j < kFeatures; ++j) sw[i][j] += (x[k][i] - m[i]) * (x[k][j] - m[j]);
      }
    }
    const double total = count[0] + count[1];
    for (int i = 0; i < kFeatures; ++i) {
      for (int j = 0; j < kFeatures; ++j) sw[i][j] /= total;
      sw[i][i] += 1e-3;
    }
    Features diff;
    for (int f = 0; f < kFeatures; ++f) diff[f] = mu[1][f] - mu[0][f];
    if (!solve(sw, diff, w)) break;
    trained = true;
    for (size_t k = 0; k < n; ++k) {
      double s = 0;
      for (int f = 0; f < kFeatures; ++f) s += w[f] * x[k][f];
      scores[k] = s;
    }
  }
  if (!trained || accepted_targets(scores, decoy) < baseline) return false;

  for (Psm& p : psms) {
    const Features raw = features_of(p);
    double s = 0;
    for (int f = 0; f < kFeatures; ++f) s += w[f] * (raw[f] - mean[f]) / sd[f];
    p.score = s;
  }
  return true;
}

}  // namespace ionflow
