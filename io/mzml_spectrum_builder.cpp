#include "io/mzml_spectrum_builder.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "io/number_text.hpp"
#include "io/peak_checks.hpp"

namespace ionflow {
namespace {

// PSI-MS accessions (psi-ms.obo), the number after "MS:".
constexpr int kMsLevel = 1000511;
constexpr int kScanStartTime = 1000016;
constexpr int kIsolationWindowTarget = 1000827;
constexpr int kSelectedIonMz = 1000744;
constexpr int kChargeState = 1000041;
constexpr int kPossibleChargeState = 1000633;
constexpr int kPeakIntensity = 1000042;
constexpr int kCentroidSpectrum = 1000127;
constexpr int kProfileSpectrum = 1000128;
constexpr int kSupplementalBeamTypeCid = 1002678;
constexpr int kSupplementalCid = 1002679;

struct ActivationTerm {
  int accession;
  const char* name;
};
constexpr ActivationTerm kActivationTerms[] = {
    {1000133, "CID"}, {1000433, "CID"}, {1002472, "CID"},   {1000422, "HCD"},   {1002481, "HCD"},
    {1000598, "ETD"}, {1000250, "ECD"}, {1002631, "EThcD"}, {1000262, "IRMPD"}, {1000435, "PD"},
    {1000599, "PQD"}, {1000136, "SID"}, {1000242, "BIRD"},
};

bool parse_double(std::string_view text, double& out) {
  return parse_whole_double(text, out);
}

// Seconds per unit of a UO time unit accession; 1 when missing or unknown.
double seconds_per_unit(std::string_view unit_accession) {
  if (unit_accession == "UO:0000031") return 60.0;    // minute
  if (unit_accession == "UO:0000032") return 3600.0;  // hour
  if (unit_accession == "UO:0000028") return 0.001;   // millisecond
  return 1.0;                                         // UO:0000010 second
}

}  // namespace

const char* activation_name(int ms_accession) {
  for (const auto& term : kActivationTerms) {
    if (term.accession == ms_accession) return term.name;
  }
  return nullptr;
}

int64_t scan_number_from_native_id(std::string_view id) {
  auto digits_at = [&](size_t pos) -> int64_t {
    size_t end = pos;
    while (end < id.size() && id[end] >= '0' && id[end] <= '9') ++end;
    int64_t n = -1;
    if (end == pos || (end < id.size() && id[end] != ' ')) return -1;
    std::from_chars(id.data() + pos, id.data() + end, n);
    return n;
  };
  for (size_t pos = id.find("scan="); pos != std::string_view::npos;
       pos = id.find("scan=", pos + 1)) {
    if (pos == 0 || id[pos - 1] == ' ') return digits_at(pos + 5);
  }
  constexpr std::string_view kSpectrum = "spectrum=";
  if (id.substr(0, kSpectrum.size()) == kSpectrum) return digits_at(kSpectrum.size());
  return -1;
}

void MzmlSpectrumBuilder::begin(std::string_view native_id, int64_t default_array_length) {
  spectrum_ = RawSpectrum{};
  spectrum_.native_id.assign(native_id);
  default_array_length_ = default_array_length;
  ms_level_ = 0;
  ms_level_invalid_ = false;
  has_rt_ = has_precursor_ = has_mz_ = has_intensity_ = false;
  selected_mz_ = isolation_target_mz_ = 0.0;
  charge_ = 0;
  possible_charges_.clear();
  first_activation_ = nullptr;
  cid_ = hcd_ = etd_ = false;
  peak_mode_ = PeakMode::kUnknown;
  failure_.clear();
}

void MzmlSpectrumBuilder::spectrum_term(int ms_accession, std::string_view value,
                                        std::string_view unit_accession) {
  if (ms_accession == kMsLevel) {
    ms_level_invalid_ = !parse_ms_level(value, ms_level_);
  } else if (ms_accession == kScanStartTime && !has_rt_) {
    double t = 0.0;
    if (parse_double(value, t)) {
      spectrum_.rt_seconds = t * seconds_per_unit(unit_accession);
      has_rt_ = true;
    }
  } else if (ms_accession == kProfileSpectrum) {
    peak_mode_ = PeakMode::kProfile;
  } else if (ms_accession == kCentroidSpectrum) {
    peak_mode_ = PeakMode::kCentroid;
  }
}

void MzmlSpectrumBuilder::charge_term(std::string_view value, bool possible) {
  int z = 0;
  const ChargeText kind = classify_precursor_charge(value, z);
  if (const char* reason = charge_skip_reason(kind); reason != nullptr) fail(reason);
  if (kind != ChargeText::kCharge) return;
  if (!possible) {
    charge_ = z;
  } else if (std::find(possible_charges_.begin(), possible_charges_.end(), z) ==
             possible_charges_.end()) {
    possible_charges_.push_back(z);
  }
}

void MzmlSpectrumBuilder::isolation_window_term(int ms_accession, std::string_view value) {
  if (ms_accession == kIsolationWindowTarget) parse_double(value, isolation_target_mz_);
}

void MzmlSpectrumBuilder::selected_ion_term(int ms_accession, std::string_view value) {
  switch (ms_accession) {
    case kSelectedIonMz:
      // Not taken as missing when invalid: the isolation target would be searched in its place.
      if (!parse_precursor_mz(value, selected_mz_)) fail(kSkipInvalidPrecursorMz);
      break;
    case kChargeState:
      charge_term(value, false);
      break;
    case kPossibleChargeState:
      charge_term(value, true);
      break;
    case kPeakIntensity:
      parse_double(value, spectrum_.precursor_intensity);
      break;
    default:
      break;
  }
}

void MzmlSpectrumBuilder::activation_term(int ms_accession) {
  if (ms_accession == kSupplementalBeamTypeCid) {
    hcd_ = true;
    return;
  }
  if (ms_accession == kSupplementalCid) {
    cid_ = true;
    return;
  }
  const char* name = activation_name(ms_accession);
  if (name == nullptr) return;
  if (first_activation_ == nullptr) first_activation_ = name;
  const std::string_view n = name;
  cid_ |= n == "CID";
  hcd_ |= n == "HCD";
  etd_ |= n == "ETD";
}

std::string MzmlSpectrumBuilder::finish(RawSpectrum& out) {
  if (ms_level_invalid_) return kSkipInvalidMsLevel;
  int level = ms_level_;
  if (level == 0) {
    if (!has_precursor_) return "no MS level";
    level = 2;
  }
  if (level != 2) return "MS level " + std::to_string(level);
  if (!failure_.empty()) return failure_;

  spectrum_.ms_level = level;
  spectrum_.scan = scan_number_from_native_id(spectrum_.native_id);
  spectrum_.precursor_mz = selected_mz_ > 0.0 ? selected_mz_ : isolation_target_mz_;
  if (!(spectrum_.precursor_mz > 0.0)) return "no precursor m/z";
  if (charge_ > 0) {
    spectrum_.precursor_charges.assign(1, charge_);
  } else {
    spectrum_.precursor_charges = possible_charges_;
  }
  if (etd_) {
    spectrum_.activation = hcd_ ? "EThcD" : cid_ ? "ETciD" : "ETD";
  } else if (hcd_) {
    spectrum_.activation = "HCD";
  } else if (cid_) {
    spectrum_.activation = "CID";
  } else if (first_activation_ != nullptr) {
    spectrum_.activation = first_activation_;
  }

  if (default_array_length_ == 0 && !has_mz_ && !has_intensity_) return "no peaks";
  if (!has_mz_) return "no m/z array";
  if (!has_intensity_) return "no intensity array";
  if (spectrum_.mz.size() != spectrum_.intensity.size()) return "m/z and intensity lengths differ";
  if (spectrum_.mz.empty()) return "no peaks";
  out = std::move(spectrum_);
  return {};
}

}  // namespace ionflow
