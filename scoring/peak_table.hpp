// PeakTable: a per-query lookup table from fragment m/z to the peak that match_fragments
// (hyperscore.hpp) would pick, so that matching one fragment is one table read instead of a walk
// over the peak list. Same results as match_fragments, bit for bit (tests compare them).
//
// Rule reproduced (hyperscore.hpp): a fragment of m/z f matches the most intense peak whose m/z
// lies in fragment_tolerance.bounds(f) (ties: the lowest m/z); summed intensity, per-type counts
// and the ppm sum are accumulated in fragment order.
//
// Layout: m/z axis cut into cells of width (upper − lower)/16 Th (a Da tolerance only). For each
// cell the table stores the best peak when every fragment m/z inside the cell sees the same set
// of peaks, "none" when no peak can match, or kAmbiguous when a peak lies within a safety margin
// (1e-3 Th, far above double/float rounding of m/z < 1e5) of the window edge of some m/z in the
// cell; an ambiguous cell falls back to scanning the peaks with match_fragments' comparisons. A
// peak makes at most two cells ambiguous, so fallbacks are rare. ppm tolerances (window width
// proportional to m/z) always scan.
//
// The matched intensities are summed as integers (exact_units.hpp) when that gives the same
// double as adding them in fragment order, which it does for every real spectrum (the fallback
// adds doubles).
// Cost: prepare() is O(cells + peaks × 16); the table takes 2 bytes per cell (about 64 KB for
// fragments up to 2000 Th at ±0.5 Da). Thread-safety: one PeakTable per thread (scratch).
// Errors: none; more than 65,000 peaks makes every lookup scan (still exact).
#pragma once

#include <cstdint>
#include <vector>

#include "scoring/exact_units.hpp"
#include "scoring/hyperscore.hpp"
#include "scoring/ion_series.hpp"
#include "scoring/query.hpp"
#include "scoring/tolerance.hpp"

namespace ionflow {

class PeakTable {
 public:
  // Builds the table for `peaks` (ascending m/z; the vector must stay unchanged and alive while
  // match() is used).
  void prepare(const std::vector<Peak>& peaks, const Tolerance& fragment_tolerance);

  // match_fragments(peaks, fragments, fragment_tolerance) of the prepared peaks; when `with_ppm`
  // is false summed_abs_ppm is left 0 (it costs a division per matched fragment).
  FragmentMatches match(const std::vector<Fragment>& fragments, bool with_ppm) const;

  // The peak one fragment of m/z `mz` matches (match_fragments' choice), or nullptr. For callers
  // that generate fragments on the fly; match() is this per fragment plus the sums.
  // For loops that match fragments as they make them (fragment_pass.hpp): whether the table
  // answers every lookup and sums `count` intensities exactly as integers; then, with the
  // Lookup of the table, peak_index() is the index of best(mz) in the peaks (none for no
  // match) and units[index] its intensity in units of intensity_of_units().
  bool exact_for(size_t count) const { return use_table_ && intensity_units_.exact_for(count); }
  struct Lookup {
    const PeakTable* table;
    const uint16_t* cells;
    double inverse_cell_width;
    double last_cell;
    const int64_t* units;
    const Peak* peaks;
    uint16_t none;
    uint16_t peak_index(double mz) const {
      const double x = mz * inverse_cell_width;
      uint16_t v = cells[static_cast<size_t>(x >= 0.0 && x < last_cell ? x : last_cell)];
      if (v == kAmbiguous) [[unlikely]] {
        const Peak* p = table->scan(mz);
        v = p == nullptr ? none : static_cast<uint16_t>(p - peaks);
      }
      return v;
    }
  };
  // REQUIRES: exact_for() true for some count (the table is in use).
  Lookup lookup() const {
    return {this,
            cells_.data(),
            inverse_cell_width_,
            static_cast<double>(cells_.size() - 1),
            intensity_units_.data(),
            peaks_->data(),
            none_};
  }
  double intensity_of_units(int64_t units) const { return intensity_units_.to_double(units); }

  const Peak* best(double mz) const {
    if (use_table_) {
      const double x = mz * inverse_cell_width_;
      if (x >= 0.0) {
        const size_t c = static_cast<size_t>(x);
        if (c >= cells_.size()) return nullptr;
        const uint16_t v = cells_[c];
        if (v == none_) return nullptr;
        if (v != kAmbiguous) return peaks_->data() + v;
      }
    }
    return peaks_ == nullptr ? nullptr : scan(mz);
  }

 private:
  static constexpr uint16_t kAmbiguous = 0xFFFE;
  static constexpr int kCellsPerWindow = 16;
  static constexpr double kMarginTh = 1e-3;

  const Peak* scan(double mz) const;
  template <bool kWithPpm>
  FragmentMatches match_exact(const std::vector<Fragment>& fragments) const;

  const std::vector<Peak>* peaks_ = nullptr;
  Tolerance tolerance_;
  bool use_table_ = false;
  double inverse_cell_width_ = 0.0;
  // A cell holds the index of its peak, none_ (= the number of peaks) or kAmbiguous; the last
  // cell is always none_. intensities_[none_] is 0, so that match() adds without a branch.
  std::vector<uint16_t> cells_;
  uint16_t none_ = 0;
  std::vector<float> intensities_;
  ExactUnits intensity_units_;  // intensities_ as integers: match()'s sum without a double chain
};

}  // namespace ionflow
