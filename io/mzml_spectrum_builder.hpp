// MzmlSpectrumBuilder: gathers the CV terms of one mzML <spectrum> (as the XML reader meets them,
// already sorted by context) and turns them into a RawSpectrum, or into a reason to skip it.
//
// Terms used (PSI-MS CV, psi-ms.obo; units from the Unit Ontology):
//   spectrum / scan   MS:1000511 ms level; MS:1000016 scan start time, unit UO:0000010 second,
//                     UO:0000031 minute (x60), UO:0000032 hour (x3600), UO:0000028 millisecond
//                     (x0.001); no unit is taken as seconds.
//   first precursor   isolationWindow MS:1000827 isolation window target m/z;
//                     first selectedIon MS:1000744 selected ion m/z, MS:1000041 charge state
//                     (0 = unknown), MS:1000633 possible charge state (repeatable, used when no
//                     charge state), MS:1000042 peak intensity; a charge value that is negative
//                     or not an integer skips the spectrum (peak_checks.hpp, as in every reader);
//   spectrum          MS:1000128 profile spectrum / MS:1000127 centroid spectrum → peak_mode();
//                     activation: see activation_name() below.
// The precursor m/z is the selected-ion m/z, or the isolation-window target when that is missing
// or 0. The scan number is N in a "scan=N" token of the native id (Thermo, Bruker, mzXML-derived
// ids), else N of an id that is exactly "spectrum=N" (MS:1000777 "spectrum identifier nativeID
// format", as in the OpenMS example files); otherwise -1.
//
// No exceptions for bad values: an unparsable number is treated as missing, except where a guess
// would search the spectrum as something the file does not say: an ms level that is not a whole
// number in 1-99 skips it (kSkipInvalidMsLevel, peak_checks.hpp), as does a selected ion m/z
// that is not empty and not a finite number >= 0 (kSkipInvalidPrecursorMz; the isolation target
// is not searched in its place). Plain state, reused for every spectrum of a file; not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/profile_spectrum.hpp"
#include "scoring/spectrum.hpp"

namespace ionflow {

// Short activation name for a PSI-MS dissociation-method accession (the number after "MS:"), or
// nullptr if the term is not a dissociation method: MS:1000133 CID, MS:1000433 low-energy CID
// and MS:1002472 trap-type CID → "CID"; MS:1000422 beam-type CID and MS:1002481 higher energy
// beam-type CID → "HCD"; MS:1000598 "ETD"; MS:1000250 "ECD"; MS:1002631 "EThcD"; MS:1000262
// "IRMPD"; MS:1000435 "PD" (photodissociation); MS:1000599 "PQD"; MS:1000136 "SID"; MS:1000242
// "BIRD". ETD together with MS:1002678 supplemental beam-type CID (or HCD) is "EThcD", with
// MS:1002679 supplemental CID (or CID) "ETciD".
const char* activation_name(int ms_accession);

// Scan number from a native id as described above, or -1.
int64_t scan_number_from_native_id(std::string_view native_id);

class MzmlSpectrumBuilder {
 public:
  // Starts a spectrum. `default_array_length` < 0 when the attribute is missing or invalid.
  void begin(std::string_view native_id, int64_t default_array_length);

  // Terms by context. Values are the cvParam@value text, units the @unitAccession text.
  void spectrum_term(int ms_accession, std::string_view value, std::string_view unit_accession);
  void isolation_window_term(int ms_accession, std::string_view value);
  void selected_ion_term(int ms_accession, std::string_view value);
  void activation_term(int ms_accession);
  void saw_precursor() { has_precursor_ = true; }

  // MS level, or 0 while unknown.
  int ms_level() const { return ms_level_; }
  // The current spectrum's id attribute (its native id).
  const std::string& native_id() const { return spectrum_.native_id; }
  int64_t default_array_length() const { return default_array_length_; }
  // What the spectrum's terms say about its peaks (kUnknown without either term).
  PeakMode peak_mode() const { return peak_mode_; }

  // The arrays are decoded straight into the spectrum being built.
  std::vector<double>& mz() { return spectrum_.mz; }
  std::vector<float>& intensity() { return spectrum_.intensity; }
  void saw_mz_array() { has_mz_ = true; }
  void saw_intensity_array() { has_intensity_ = true; }

  // Marks the spectrum malformed; the first reason is kept.
  void fail(std::string reason) {
    if (failure_.empty()) failure_ = std::move(reason);
  }
  bool failed() const { return !failure_.empty(); }

  // Ends the spectrum. Returns "" and moves the spectrum into `out` if it is a usable MS2
  // spectrum; otherwise returns the skip reason ("invalid MS level", "MS level 1", "no MS
  // level", "no precursor m/z", "no peaks", "no m/z array", "no intensity array", "m/z and
  // intensity lengths differ", or a reason given to fail()). A spectrum without an MS level but
  // with a precursor counts as MS2.
  std::string finish(RawSpectrum& out);

 private:
  void charge_term(std::string_view value, bool possible);
  RawSpectrum spectrum_;
  int64_t default_array_length_ = -1;
  int ms_level_ = 0;
  bool ms_level_invalid_ = false;  // an ms level term that is no MS level
  bool has_rt_ = false;
  bool has_precursor_ = false;
  bool has_mz_ = false;
  bool has_intensity_ = false;
  double selected_mz_ = 0.0;
  double isolation_target_mz_ = 0.0;
  int charge_ = 0;
  std::vector<int> possible_charges_;
  PeakMode peak_mode_ = PeakMode::kUnknown;
  const char* first_activation_ = nullptr;        // first dissociation term seen
  bool cid_ = false, hcd_ = false, etd_ = false;  // including the supplemental terms
  std::string failure_;
};

}  // namespace ionflow
