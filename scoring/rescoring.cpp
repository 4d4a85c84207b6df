#include "scoring/rescoring.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "scoring/fdr.hpp"
#include "scoring/parallel.hpp"

namespace ionflow {

namespace {

constexpr int kFeatures = 13;
using Features = std::array<double, kFeatures>;
constexpr double kTrainFdr = 0.01;
constexpr int kIterations = 3;
constexpr double kMinClass = 10;
constexpr int kFolds = 3;
// Below this many rank-1 PSMs the learned score is not used (Psm::score is kept): measured with
// the entrapment check (perf/ident), the E. coli example (139 spectra) rescored put 15 PSMs of
// an appended proteome the sample cannot contain among 102 accepted at 1%; mokapot and
// Percolator warn that small sets overfit. 13 features want far more than a few hundred rows.
constexpr size_t kMinRescorePsms = 1000;

// log10 of a candidate count, from a table below 65,536 (std::log10's values, computed once).
double log10_count(int n) {
  static const std::vector<double> table = [] {
    std::vector<double> t(65536);
    for (size_t i = 0; i < t.size(); ++i) t[i] = std::log10(static_cast<double>(i));
    return t;
  }();
  return n >= 0 && static_cast<size_t>(n) < table.size() ? table[static_cast<size_t>(n)]
                                                         : std::log10(n);
}

Features features_of(const PsmFact& p) {
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
          double(p.sequence_length),
          double(p.missed_cleavages),
          double(std::abs(p.isotope_error)),
          log10_count(std::max(1, p.candidates))};
}

// The standardised features of the rank-1 PSMs, row k = (features_of(psms[rank1[k]]) − mean)
// / sd, computed when asked instead of stored: 13 doubles a row were 62 MB on the 684k-query
// scale set and made its peak memory. The same values as a stored matrix, to the bit.
class FeatureRows {
 public:
  FeatureRows(const std::vector<PsmFact>& psms, const std::vector<size_t>& rank1,
              const Features& mean, const Features& sd)
      : psms_(psms), rank1_(rank1), mean_(mean), sd_(sd) {}
  size_t size() const { return rank1_.size(); }
  Features operator[](size_t k) const {
    Features row = features_of(psms_[rank1_[k]]);
    for (int f = 0; f < kFeatures; ++f) row[f] = (row[f] - mean_[f]) / sd_[f];
    return row;
  }

 private:
  const std::vector<PsmFact>& psms_;
  const std::vector<size_t>& rank1_;
  const Features& mean_;
  const Features& sd_;
};

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

// Trains the iterative LDA on the rows with in_train[k]; `scores` are the initial scores (all
// rows). Returns false when a class is too small or the system is singular.
bool train_lda(const FeatureRows& x, const std::vector<bool>& decoy,
               const std::vector<char>& in_train, std::vector<double> scores, Features& w) {
  const size_t n = x.size();
  bool trained = false;
  for (int iteration = 0; iteration < kIterations; ++iteration) {
    std::vector<double> train_scores;
    std::vector<bool> train_decoy;
    std::vector<size_t> rows;
    for (size_t k = 0; k < n; ++k) {
      if (!in_train[k]) continue;
      rows.push_back(k);
      train_scores.push_back(scores[k]);
      train_decoy.push_back(decoy[k]);
    }
    const std::vector<double> q = target_decoy_q_values(train_scores, train_decoy);
    std::array<Features, 2> mu{};
    std::array<double, 2> count{};
    std::vector<int> label(rows.size(), -1);  // 1 positive, 0 negative, -1 unused
    for (size_t r = 0; r < rows.size(); ++r) {
      if (train_decoy[r]) {
        label[r] = 0;
      } else if (q[r] <= kTrainFdr) {
        label[r] = 1;
      }
    }
    for (size_t r = 0; r < rows.size(); ++r) {
      if (label[r] < 0) continue;
      count[label[r]] += 1;
      const Features row = x[rows[r]];
      for (int f = 0; f < kFeatures; ++f) mu[label[r]][f] += row[f];
    }
    if (count[0] < kMinClass || count[1] < kMinClass) break;
    for (int c = 0; c < 2; ++c) {
      for (int f = 0; f < kFeatures; ++f) mu[c][f] /= count[c];
    }
    std::array<std::array<double, kFeatures>, kFeatures> sw{};
    for (size_t r = 0; r < rows.size(); ++r) {
      if (label[r] < 0) continue;
      const Features& m = mu[label[r]];
      const Features row = x[rows[r]];
      for (int i = 0; i < kFeatures; ++i) {
        for (int j = 0; j < kFeatures; ++j) sw[i][j] += (row[i] - m[i]) * (row[j] - m[j]);
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
      const Features row = x[k];
      double s = 0;
      for (int f = 0; f < kFeatures; ++f) s += w[f] * row[f];
      scores[k] = s;
    }
  }
  return trained;
}

// Percolator's normalisation of a cross-validation fold: the fold's 1%-FDR threshold maps to 0
// and its median decoy to −1, so that folds scored by different models compare.
std::pair<double, double> fold_normalisation(const std::vector<double>& scores,
                                             const std::vector<bool>& decoy) {
  const std::vector<double> q = target_decoy_q_values(scores, decoy);
  double threshold = -1e300;
  bool any = false;
  std::vector<double> decoys;
  for (size_t k = 0; k < scores.size(); ++k) {
    if (decoy[k]) decoys.push_back(scores[k]);
    if (!decoy[k] && q[k] <= kTrainFdr && (!any || scores[k] < threshold)) {
      threshold = scores[k];
      any = true;
    }
  }
  if (decoys.empty()) return {0.0, 1.0};
  std::nth_element(decoys.begin(), decoys.begin() + decoys.size() / 2, decoys.end());
  const double median = decoys[decoys.size() / 2];
  if (!any) {
    threshold = *std::max_element(scores.begin(), scores.end());
  }
  const double spread = threshold - median;
  if (!(spread > 0)) return {median, 1.0};
  return {threshold, spread};  // s' = (s − threshold) / spread
}

// One cross-validation fold: trains on the rows of the other folds (train_lda), scores every
// row with the model, normalises with the training rows (fold_normalisation) and writes the
// normalised scores of this fold's rows into new_scores. Returns false when training fails.
// The normalisation comes from the training split: a test fold's own labels never shape its
// scores (normalising on them let each small fold cut just above its best decoy).
bool score_fold(const FeatureRows& x, const std::vector<bool>& decoy,
                const std::vector<double>& scores, const std::vector<int>& fold_of_row, int fold,
                Features& w, std::pair<double, double>& norm, std::vector<double>& new_scores) {
  const size_t n = x.size();
  std::vector<char> in_train(n);
  for (size_t k = 0; k < n; ++k) in_train[k] = fold_of_row[k] != fold;
  if (!train_lda(x, decoy, in_train, scores, w)) return false;
  std::vector<double> train_scores;
  std::vector<bool> train_decoy;
  for (size_t k = 0; k < n; ++k) {
    const Features row = x[k];
    double s = 0;
    for (int f = 0; f < kFeatures; ++f) s += w[f] * row[f];
    if (in_train[k]) {
      train_scores.push_back(s);
      train_decoy.push_back(decoy[k]);
    } else {
      new_scores[k] = s;
    }
  }
  norm = fold_normalisation(train_scores, train_decoy);
  for (size_t k = 0; k < n; ++k) {
    if (!in_train[k]) new_scores[k] = (new_scores[k] - norm.first) / norm.second;
  }
  return true;
}

}  // namespace

std::string describe(const RescoringOutcome& o) {
  if (!o.applied) return "not applied: " + o.not_applied;
  return "applied: linear discriminant over " + std::to_string(kFeatures) + " features, " +
         std::to_string(kFolds) + " cross-validation folds; " + std::to_string(o.accepted_before) +
         " -> " + std::to_string(o.accepted_after) + " target PSMs at 1% (D/T) on " +
         std::to_string(o.rank1_psms) + " rank-1 PSMs";
}

bool rescore_psms(std::vector<PsmFact>& psms, RescoringOutcome* outcome) {
  RescoringOutcome ignored;
  RescoringOutcome& out = outcome ? *outcome : ignored;
  out = RescoringOutcome{};
  std::vector<size_t> rank1;
  for (size_t i = 0; i < psms.size(); ++i) {
    if (psms[i].rank == 1) rank1.push_back(i);
  }
  out.rank1_psms = rank1.size();
  if (rank1.size() < kMinRescorePsms) {
    out.not_applied =
        std::to_string(rank1.size()) +
        (rank1.size() == 1 ? " rank-1 PSM, fewer than " : " rank-1 PSMs, fewer than ") +
        std::to_string(kMinRescorePsms) + " (small runs overfit)";
    return false;
  }
  const size_t n = rank1.size();

  // Standardise (unsupervised, so on all rank-1 PSMs).
  Features mean{}, sd{};
  for (size_t k = 0; k < n; ++k) {
    const Features raw = features_of(psms[rank1[k]]);
    for (int f = 0; f < kFeatures; ++f) mean[f] += raw[f];
  }
  for (int f = 0; f < kFeatures; ++f) mean[f] /= n;
  for (size_t k = 0; k < n; ++k) {
    const Features raw = features_of(psms[rank1[k]]);
    for (int f = 0; f < kFeatures; ++f) sd[f] += (raw[f] - mean[f]) * (raw[f] - mean[f]);
  }
  for (int f = 0; f < kFeatures; ++f) sd[f] = sd[f] > 0 ? std::sqrt(sd[f] / n) : 1.0;
  const FeatureRows x(psms, rank1, mean, sd);

  std::vector<bool> decoy(n);
  std::vector<double> scores(n);
  for (size_t k = 0; k < n; ++k) {
    decoy[k] = psms[rank1[k]].decoy;
    scores[k] = psms[rank1[k]].score;
  }
  const size_t baseline = accepted_targets(scores, decoy);
  out.accepted_before = baseline;

  // Cross-validation: fold = spectrum_index mod kFolds; each fold is scored by the model trained
  // on the others, then normalised. The folds are independent (each writes only its own rows of
  // new_scores), so they train on their own threads: the same numbers as one after another.
  auto fold_of = [&](const PsmFact& p) { return static_cast<int>(p.spectrum_index % kFolds); };
  std::vector<int> fold_of_row(n);
  for (size_t k = 0; k < n; ++k) fold_of_row[k] = fold_of(psms[rank1[k]]);
  std::array<Features, kFolds> w{};
  std::array<std::pair<double, double>, kFolds> norm{};
  std::array<char, kFolds> trained{};
  std::vector<double> new_scores(n);
  parallel_tasks(kFolds, kFolds, [&](size_t fold) {
    trained[fold] = score_fold(x, decoy, scores, fold_of_row, static_cast<int>(fold), w[fold],
                               norm[fold], new_scores);
  });
  for (int fold = 0; fold < kFolds; ++fold) {
    if (!trained[fold]) {
      out.not_applied = "a training split has fewer than " + std::to_string(int(kMinClass)) +
                        " confident targets or decoys, or its features are degenerate";
      return false;
    }
  }
  out.accepted_after = accepted_targets(new_scores, decoy);
  if (out.accepted_after < baseline) {
    // "by plain D/T": the summary's "at 1% FDR" line counts with the decoy tail bound (fdr.hpp),
    // so its figure differs (a new user read the two as a contradiction).
    out.not_applied = "the learned score accepts fewer targets at 1% by plain D/T (" +
                      std::to_string(out.accepted_after) + ") than the search statistic (" +
                      std::to_string(baseline) + ")";
    return false;
  }
  out.applied = true;

  for (PsmFact& p : psms) {
    const int fold = fold_of(p);
    const Features raw = features_of(p);
    double s = 0;
    for (int f = 0; f < kFeatures; ++f) s += w[fold][f] * (raw[f] - mean[f]) / sd[f];
    p.score = (s - norm[fold].first) / norm[fold].second;
  }
  return true;
}

bool rescore_psms(std::vector<Psm>& psms) {
  PsmFacts facts = facts_of(psms);
  if (!rescore_psms(facts.facts)) return false;
  for (size_t i = 0; i < psms.size(); ++i) psms[i].score = facts.facts[i].score;
  return true;
}

}  // namespace ionflow
