// RawSpectrum: one spectrum as read from a peak list (mzML, mzXML, MGF or MS2), before preparation.
//
// Produced by the io/ readers, consumed by scoring/spectrum_preparation. Plain value type.
// Units: m/z in Th, retention time in seconds, intensities as in the file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ionflow {

struct RawSpectrum {
  uint32_t file_index = 0;      // position of the input file in the job's spectra list
  uint64_t spectrum_index = 0;  // 0-based order among the MS2 spectra emitted from that file
  std::string native_id;        // mzML spectrum@id, or the MGF TITLE (empty if none)
  int64_t scan = -1;  // scan number when known (mzML "scan=N" in the id, MGF SCANS), else -1
  int ms_level = 2;
  double rt_seconds = -1.0;   // retention time, < 0 when unknown
  double precursor_mz = 0.0;  // selected-ion m/z, or isolation-window target when that is missing
  std::vector<int> precursor_charges;  // empty = unknown; MGF "2+ and 3+" gives {2, 3}
  double precursor_intensity = 0.0;    // 0 when unknown
  std::string activation;              // "CID", "HCD", "ETD", ... or empty when unknown
  std::vector<double> mz;              // ascending is not guaranteed by readers
  std::vector<float> intensity;        // same length as mz
  // Where the spectrum starts in its file, for messages about it (0: not known). A reader sets
  // one: the line of MGF's BEGIN IONS, of MS2's S line or of mzXML's <scan>; the byte offset of
  // mzML's <spectrum> (counting the decompressed bytes of a compressed file).
  uint64_t source_line = 0;
  uint64_t source_byte = 0;
};

}  // namespace ionflow
