// Monoisotopic masses of the 20 standard amino-acid residues (plus U, O), water, the proton and
// the C13-C12 spacing, in Da (unified atomic mass units).
//
// Sources: residue masses from Unimod's amino-acid table (unimod.org, "Amino acids",
// monoisotopic), which derive from the element masses of the 2003 AME (Audi, Wapstra & Thibault);
// proton mass from CODATA 2018 (1.007276466621 u); H2O from 2*H (1.00782503207) + O
// (15.9949146196); C13-C12 = 13.0033548378 - 12 (AME 2003). Residues without a single defined mass
// (B, Z, X, J) return a negative value from residue_mass() so that digestion can skip peptides
// containing them.
#pragma once

#include <array>
#include <string_view>

namespace ionflow::mass {

inline constexpr double kProton = 1.007276466621;  // CODATA 2018
inline constexpr double kHydrogen = 1.00782503207;
inline constexpr double kOxygen = 15.9949146196;
inline constexpr double kCarbon = 12.0;
inline constexpr double kNitrogen = 14.0030740048;
inline constexpr double kWater = 2 * kHydrogen + kOxygen;  // 18.0105646837
inline constexpr double kAmmonia = kNitrogen + 3 * kHydrogen;
inline constexpr double kC13C12Spacing = 1.0033548378;  // 13C - 12C
inline constexpr double kCO = kCarbon + kOxygen;        // a = b - CO

namespace detail {
constexpr std::array<double, 26> make_residue_table() {
  std::array<double, 26> t{};
  for (auto& v : t) v = -1.0;
  t['A' - 'A'] = 71.037113805;
  t['R' - 'A'] = 156.101111050;
  t['N' - 'A'] = 114.042927470;
  t['D' - 'A'] = 115.026943065;
  t['C' - 'A'] = 103.009184505;
  t['E' - 'A'] = 129.042593135;
  t['Q' - 'A'] = 128.058577540;
  t['G' - 'A'] = 57.021463735;
  t['H' - 'A'] = 137.058911875;
  t['I' - 'A'] = 113.084064015;
  t['L' - 'A'] = 113.084064015;
  t['K' - 'A'] = 128.094963050;
  t['M' - 'A'] = 131.040484645;
  t['F' - 'A'] = 147.068413945;
  t['P' - 'A'] = 97.052763875;
  t['S' - 'A'] = 87.032028435;
  t['T' - 'A'] = 101.047678505;
  t['W' - 'A'] = 186.079312980;
  t['Y' - 'A'] = 163.063328575;
  t['V' - 'A'] = 99.068413945;
  t['U' - 'A'] = 150.953633405;  // selenocysteine
  t['O' - 'A'] = 237.147726925;  // pyrrolysine
  return t;
}
inline constexpr std::array<double, 26> kResidueTable = make_residue_table();
}  // namespace detail

// Monoisotopic residue mass (Da) of an upper-case one-letter code; < 0 if undefined (B, Z, X, J,
// or not a letter).
constexpr double residue_mass(char residue) {
  if (residue < 'A' || residue > 'Z') return -1.0;
  return detail::kResidueTable[residue - 'A'];
}

// Neutral monoisotopic mass of an unmodified peptide: sum of residues + H2O; < 0 if any residue
// is undefined.
constexpr double peptide_mass(std::string_view sequence) {
  double m = kWater;
  for (char c : sequence) {
    double r = residue_mass(c);
    if (r < 0) return -1.0;
    m += r;
  }
  return m;
}

// m/z of a neutral mass at charge z (z >= 1): (M + z * proton) / z.
constexpr double mz_from_neutral(double neutral_mass_da, int charge) {
  return (neutral_mass_da + charge * kProton) / charge;
}
// Neutral mass from an m/z at charge z: (mz - proton) * z.
constexpr double neutral_from_mz(double mz, int charge) {
  return (mz - kProton) * charge;
}

}  // namespace ionflow::mass
