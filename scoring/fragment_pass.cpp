#include "scoring/fragment_pass.hpp"

#include <bit>
#include <cmath>
#include <vector>

#include "scoring/mass.hpp"

namespace ionflow {

namespace {

// Sums over fragments, kept in registers by the runs.
struct Totals {
  int64_t intensity_units = 0;
  double xcorr = 0.0;  // in fragment order, as XcorrSpectrum::score adds
  double summed_ppm = 0.0;
};

// One (type, charge) run of fragments: their matches and XCorr units added to `totals`;
// returns the fragments matched.
template <bool kWithPpm, int kCharge>
int score_run(const double* neutral, size_t count, int charge, const PeakTable::Lookup& table,
              const XcorrSpectrum::Bins& xcorr, Totals& totals) {
  const int z = kCharge > 0 ? kCharge : charge;
  const double proton_da = z * mass::kProton;
  int64_t intensity_units = totals.intensity_units;
  double xcorr_sum = totals.xcorr;
  double summed_ppm = totals.summed_ppm;
  int run = 0;
  for (size_t i = 0; i < count; ++i) {
    // fragment_ions()'s m/z: at z = 1 the division by 1 is exact and skipped.
    const double mz = z == 1 ? neutral[i] + proton_da : (neutral[i] + proton_da) / z;
    const uint16_t v = table.peak_index(mz);
    intensity_units += table.units[v];
    run += v != table.none;
    if constexpr (kWithPpm) {
      if (v != table.none) summed_ppm += std::abs(table.peaks[v].mz - mz) / mz * 1e6;
    }
    xcorr_sum += xcorr.first_value_at(mz);
  }
  totals.intensity_units = intensity_units;
  totals.xcorr = xcorr_sum;
  totals.summed_ppm = summed_ppm;
  return run;
}

template <bool kWithPpm>
void score_all_runs(const ModifiedResidues& residues, IonTypes types, int max_fragment_charge,
                    const PeakTable& table, const XcorrSpectrum& xcorr, FragmentScores& out) {
  const size_t per_run = residues.residue_da.size() - 1;
  thread_local std::vector<double> neutral;
  neutral.resize(per_run);
  const PeakTable::Lookup lookup = table.lookup();
  const XcorrSpectrum::Bins bins = xcorr.bins();
  Totals totals;
  for (int t = 0; t < kIonTypeCount; ++t) {
    const IonType type = static_cast<IonType>(t);
    if (!types.has(type)) continue;
    ion_neutral_masses(residues, type, neutral.data());
    int matched = 0;
    for (int z = 1; z <= max_fragment_charge; ++z) {
      matched += z == 1 ? score_run<kWithPpm, 1>(neutral.data(), per_run, z, lookup, bins, totals)
                        : score_run<kWithPpm, 0>(neutral.data(), per_run, z, lookup, bins, totals);
    }
    out.matches.matched[t] = matched;
    out.matches.total_matched += matched;
  }
  out.matches.summed_intensity = table.intensity_of_units(totals.intensity_units);
  out.matches.summed_abs_ppm = totals.summed_ppm;
  out.xcorr = totals.xcorr * 0.005;
}

}  // namespace

bool score_fragments(const ModifiedResidues& residues, IonTypes types, int max_fragment_charge,
                     const PeakTable& table, const XcorrSpectrum& xcorr, bool with_ppm,
                     FragmentScores& out) {
  const size_t n = residues.residue_da.size();
  if (max_fragment_charge < 1) max_fragment_charge = 1;
  const int type_count = std::popcount(static_cast<unsigned>(types.mask & 0x1Fu));
  const size_t count =
      n < 2 ? 0
            : (n - 1) * static_cast<size_t>(type_count) * static_cast<size_t>(max_fragment_charge);
  if (!table.exact_for(count)) return false;
  out = FragmentScores();
  out.fragments = static_cast<int>(count);
  if (count == 0) return true;  // no fragment: nothing matched, XCorr 0
  if (with_ppm) {
    score_all_runs<true>(residues, types, max_fragment_charge, table, xcorr, out);
  } else {
    score_all_runs<false>(residues, types, max_fragment_charge, table, xcorr, out);
  }
  return true;
}

}  // namespace ionflow
