// MS2 text reader (McDonald et al., "MS1, MS2, and SQT — three unified, compact, and easily
// parsed file formats for the storage of shotgun proteomic spectra and identifications", Rapid
// Commun Mass Spectrom 2004;18:2162; as Crux and Comet read it), line by line from byte blocks.
// See spectrum_reader.hpp for the block contract.
//
// Lines (fields separated by tabs or spaces; CRLF or LF):
//   H <key> <value>          header, before the first spectrum; ignored.
//   S <low> <high> <m/z>     starts a spectrum: scan numbers and precursor m/z. Native id
//                            "scan=<low>", scan <low>. Without the m/z field the precursor m/z
//                            comes from the first Z line: (M+H + (z-1) x proton) / z.
//   I RTime <minutes>        retention time in minutes (also "RetTime"), stored in seconds;
//   I ActivationType <name>  CID, HCD, ETD, ...; other I lines are ignored.
//   Z <charge> <M+H>         one candidate charge; two Z lines = two candidate charges.
//   D ...                    charge-dependent analysis; ignored.
//   <m/z> <intensity>        a peak.
// A spectrum without Z lines has unknown charge. Charges follow peak_checks.hpp ("0" unknown;
// negative, "2.5", "abc" skip the spectrum as "negative precursor charge (...)" / "bad
// precursor charge"). Skip reasons: "bad S line", "bad I line" (an RTime that is no number),
// "bad Z line", "bad peak line", "no peaks", "no precursor m/z", and those charge reasons. A peak
// line with only an m/z gets intensity 1 and is counted as "peak lines without an intensity
// (given intensity 1)" (ReadStats::problems); peaks with a NaN, infinite or non-positive m/z, or
// a NaN, infinite or negative intensity, are dropped and counted at their own line
// (peak_checks.hpp).
// ParseError (file, byte offset, line): a line before the first S line that is not an H line
// (the file is not MS2), or a line longer than 16 MiB. Not thread-safe; one reader per file.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "io/spectrum_reader.hpp"

namespace ionflow {

std::unique_ptr<SpectrumReader> make_ms2_reader(std::string file_name, uint32_t file_index);

}  // namespace ionflow
