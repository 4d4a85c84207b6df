// Spectrum view: one PSM shown as Mascot's peptide view does — the measured peaks, the
// theoretical fragment ions of the job's ion types (b/y by default) with the ones that matched
// labelled, each match's fragment error, and the peptide with its modifications
// (GET /v1/jobs/ID/spectrum?psm=N).
//
// The spectrum is read again from the job's input file (io/spectrum_lookup.hpp), prepared with
// the job's own parameters (prepare_spectrum: precursor removal, top-N, normalisation), and the
// most intense peaks of its query at the PSM's charge (select_hyperscore_peaks with
// hyperscore_peak_count: 50, or 100 for a high-resolution fragment window; what the
// hyperscore matches) are matched against the peptide's fragments (ion_series.hpp) by the
// scorer's rule (fragment_annotation.hpp), so the number of matches is results.tsv's
// matched_peaks. ProForma tags are given masses from the job's own modifications
// (proforma_tag() of each), or from the tag itself when it is a mass ("+15.9949").
// Answer: {"psm_id", "filename", "scannr", "scan", "rt_seconds", "precursor_mz", "charge",
//   "peptide", "sequence", "modifications": [{"position", "residue", "tag", "name",
//   "mass_delta_da"}], "ion_types", "fragment_charge", "fragment_tolerance": {"unit", "lower",
//   "upper"}, "peaks": {"mz": [...], "intensity": [...]} (every measured peak, intensity in % of
//   the base peak), "prepared_peaks": {"mz", "intensity"} (after preparation, base peak 100),
//   "scored_peaks" (the 50 of them fragments are matched against), "ions": [{"ion": "b3", "type",
//   "ordinal", "charge", "mz", "matched", and when matched "observed_mz", "intensity", "error_da",
//   "error_ppm"}], "matched_peaks"}.
// Errors: SpectrumViewError with an HTTP status: 404 the file is not one of the job's inputs
// or has no spectrum with that id, 410 the input file is gone, 422 the PSM cannot be rebuilt
// (unknown ProForma tag, a charge the spectrum was not searched at), 409 the input file's
// SHA-256 is not psm.input_sha256's (it changed after the job), or the spectrum matches another
// number of peaks than psm.matched_peaks (its id is not unique in the file).
// Thread-safety: a pure function (reads the input file).
#pragma once

#include <map>
#include <stdexcept>
#include <string>

#include "messages/job.hpp"
#include "service/json_value.hpp"

namespace ionflow {

class SpectrumViewError : public std::runtime_error {
 public:
  SpectrumViewError(int status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

struct PsmIdentity {
  std::string psm_id;
  std::string filename;  // results.tsv filename (no directory, or the path as given)
  std::string scannr;    // native id
  std::string peptide;   // ProForma
  int charge = 0;
  int matched_peaks = -1;                           // results.tsv matched_peaks; -1 when not known
  std::map<std::string, std::string> input_sha256;  // results.json inputs: path -> SHA-256
};

JsonValue spectrum_view_json(const JobSpec& spec, const PsmIdentity& psm);

}  // namespace ionflow
