// mzXML reader (Pedrioli et al., Nat Biotechnol 2004;22:1459; schema revisions 1.x to 3.2 from
// sashimi.sourceforge.net), streaming from byte blocks with expat. See spectrum_reader.hpp for the
// block contract.
//
// What is read, per <scan> (scans nest: an MS2 scan may sit inside its MS1 scan, as mzXML 2.x and
// OpenMS FileConverter write; each is read on its own, in file order of their start tags):
//   @num → scan and native id "scan=N" (ProteoWizard's id for mzXML scans, MS:1000776);
//   @msLevel (a scan without one but with a precursorMz counts as MS2); @retentionTime, an
//   xs:duration ("PT1503.96S", "PT25M3.5S", "P1DT2H"; years and months are refused) → seconds;
//   @centroided ("0" marks a profile scan; see profile_spectrum.hpp); @peaksCount;
//   the first <precursorMz>: its text → precursor m/z, @precursorCharge and @possibleCharges
//   ("2,3", mzXML 3.2) → charges (peak_checks.hpp rules), @precursorIntensity,
//   @activationMethod (CID, HCD, ETD, ECD, ...);
//   the first <peaks> whose @contentType (3.x) or @pairOrder (1.x-2.x) is "m/z-int" or absent:
//   base64 text, @compressionType "none" or "zlib" (RFC 1950, 3.x), @precision 32 or 64 (bits),
//   @byteOrder "network" (big-endian, the only order the schemas allow).
// Skip reasons (ReadStats::skipped): "MS level 1" (any level but 2: "MS level N"), "no precursor
// m/z", "no peaks", "bad base64", "bad zlib data", "peaks length mismatch" (the decoded values do
// not number 2 x peaksCount), "unsupported peaks precision", "unsupported byteOrder",
// "unsupported compressionType", "bad retentionTime", "bad precursor charge", "negative
// precursor charge (negative mode is not searched)", "truncated at end of file".
// ParseError: XML that is not well-formed (file, byte offset, line), a root that is not <mzXML>
// or <msRun>, more than 64 nested elements. A file that ends early (all bytes well-formed so
// far) is not an error: the scans read are kept, an open scan is skipped as "truncated at end of
// file" and the problem "file ends early (truncated?)" is counted.
// Not thread-safe; one reader per file. Memory: the open scans plus one decoded peak array.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "io/spectrum_reader.hpp"

namespace ionflow {

std::unique_ptr<SpectrumReader> make_mzxml_reader(std::string file_name, uint32_t file_index);

// Seconds of an xs:duration (XML Schema Part 2, 3.2.6) such as "PT1503.96S" or "-PT1M"; false
// for text that is not one, or that has years or months (their length in seconds is unknown).
bool parse_xs_duration_seconds(std::string_view text, double& seconds);

}  // namespace ionflow
