// ExactUnits: a table of float values held as integer multiples of one power-of-two unit, so
// that a sum of them is integer addition and yet the same double, to the bit, as adding their
// doubles one by one in any order.
//
// Why it holds: let every nonzero value have |v| >= 2^e_min (normal floats). A float v with
// 2^e <= |v| < 2^(e+1) is an integer multiple of 2^(e-23), so every value is a multiple of the
// unit U = 2^(e_min-23). A sum of `count` values, and every partial sum on the way in any order,
// is then a multiple of U no larger than count * max|v|; while that is below 2^53 U, every
// partial sum is a double exactly, so each double addition is exact and the result is the exact
// sum, whatever the order (IEEE 754: an exactly representable result is returned unrounded).
// The hyperscore's matched intensity (30-300 values per peptide in fragment order) was a chain
// of dependent double additions, four cycles each; as int64 they are one-cycle additions, and
// the candidates' and null peptides' matches share one loop (peak_table.hpp, fragment_pass.hpp;
// tests/scoring/exact_units_test.cpp).
//
// Thread-safety: a plain value; const use from many threads. Errors: none; exact_for() is false
// (callers keep their double sums) when the values span too many binades for one unit or are
// not finite normal floats.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace ionflow {

class ExactUnits {
 public:
  // Units of values[0, n), and a 0 at index n (for lookups that find nothing). Subnormal or
  // non-finite values make the table unusable (exact_for() false).
  void assign(const float* values, size_t n) {
    units_.assign(n + 1, 0);
    max_count_ = 0;
    // Biased exponents of the floats (1..254 for normal numbers, 0 subnormal, 255 not finite).
    int e_min = 255, e_max = 0;
    for (size_t i = 0; i < n; ++i) {
      uint32_t bits;
      std::memcpy(&bits, &values[i], sizeof bits);
      if ((bits & 0x7fffffffu) == 0) continue;  // ±0
      const int e = static_cast<int>((bits >> 23) & 0xffu);
      e_min = e < e_min ? e : e_min;
      e_max = e > e_max ? e : e_max;
    }
    if (e_max == 0) {  // all zero: any count sums exactly
      unit_ = 1.0;
      max_count_ = std::numeric_limits<size_t>::max();
      return;
    }
    // Subnormal or not finite; or |v| / U < 2^(24 + e_max - e_min) would not leave an int64
    // room for the sums.
    if (e_min == 0 || e_max == 255 || e_max - e_min > 28) return;
    const int shift = 23 - (e_min - 127);  // v / U = v * 2^shift, an integer
    unit_ = std::ldexp(1.0, -shift);
    const double scale = std::ldexp(1.0, shift);  // multiplying by a power of two is exact
    int64_t max_units = 0;
    for (size_t i = 0; i < n; ++i) {
      const auto u = static_cast<int64_t>(static_cast<double>(values[i]) * scale);
      units_[i] = u;
      max_units = max(max_units, u < 0 ? -u : u);
    }
    max_count_ = static_cast<size_t>((int64_t{1} << 53) / (max_units + 1));
  }

  int64_t operator[](size_t i) const { return units_[i]; }
  const int64_t* data() const { return units_.data(); }
  // True if any `count` of the values sum exactly (count * max|v| < 2^53 U): then
  // to_double(Σ units) equals Σ double(v) added in any order.
  bool exact_for(size_t count) const { return count <= max_count_; }
  // The value of `units` units; exact for |units| < 2^53.
  double to_double(int64_t units) const { return static_cast<double>(units) * unit_; }

 private:
  static int64_t max(int64_t a, int64_t b) { return a > b ? a : b; }
  std::vector<int64_t> units_;
  double unit_ = 1.0;
  size_t max_count_ = 0;
};

}  // namespace ionflow
