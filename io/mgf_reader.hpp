// MGF (Mascot generic format) reader, line-oriented, from byte blocks. See spectrum_reader.hpp
// for the block contract. Format source: Matrix Science, "Mascot generic format (MGF)" in the
// Mascot help ("Data file format"), as written by msconvert, OpenMS and Mascot Distiller.
//
// Rules:
// - A spectrum is the lines between BEGIN IONS and END IONS (case-insensitive). Every field is
//   reset at BEGIN IONS. A UTF-8 BOM is skipped. Lines are trimmed; CRLF and LF both work; blank
//   lines and comment lines (first character '#', ';', '!' or '/') are ignored everywhere.
// - Parameters are KEY=value, split at the first '=' (keys case-insensitive). TITLE → native_id.
//   PEPMASS=m/z [intensity] → precursor_mz (Th), precursor_intensity (0 when absent).
//   CHARGE=2+ | 2 | +2 | "2+ and 3+" | "2+,3+" → precursor_charges, one entry per charge in
//   file order; each value is read by the rules every reader shares (peak_checks.hpp): 0 means
//   unknown, a negative-mode charge (3-) skips the spectrum as "negative precursor charge
//   (negative mode is not searched)", "2.5" or "abc" as "bad precursor charge"; no CHARGE → the
//   file-level CHARGE, else empty (unknown). RTINSECONDS → rt_seconds; for a range "a-b" or a
//   list "a,b" the first value (start) is taken. SCANS=N → scan; a range "10-12" (Mascot) or a
//   list "7,9" takes the first number. A SCANS value that does not start with a digit (-1, as
//   OpenMS FileConverter writes when the native id has no scan number; empty; text) means "no
//   scan number", as does an absent SCANS: the spectrum is kept, and a "scan=N" inside TITLE
//   (msconvert and OpenMS titles) gives the scan, else it is -1. Other keys are ignored.
// - File-level parameters are the KEY=value lines before the first BEGIN IONS, whatever the key
//   (Mascot's MASS=, ITOL=; Mascot Distiller's _DISTILLER_MDRO_VERSION=...,
//   _DISTILLER_RAWFILE[0]=(1)C:\...\run.raw; lower-case or underscore keys of other writers):
//   only CHARGE (the default charge) matters to the reader, the others are ignored, never an
//   error. A header line that is neither a parameter, a comment nor a marker means the file is
//   not MGF: ParseError.
// - Peak lines: "m/z intensity" separated by spaces or tabs, numbers in decimal or exponent
//   notation (1.5e3); a third column that is a fragment charge (Mascot's "2+"; "+2", "2", "0",
//   "1-", at most 10) is understood and not used (the search sets fragment charges); anything
//   else after the intensity (a third column that is no charge, "300" or an annotation, a fourth
//   column) is ignored and counted in ReadStats::problems ("peak lines with columns other than
//   m/z, intensity and fragment charge (ignored)", at the first one's line), the peak kept. A
//   line with only an m/z gets intensity 1 (the format makes the intensity optional; equal
//   intensities favour no peak) and is counted in ReadStats::problems ("peak lines without an
//   intensity (given intensity 1)"). A peak with a NaN, infinite or non-positive m/z, or a NaN,
//   infinite or negative intensity, is dropped and counted (peak_checks.hpp) at its own line.
//   Comment lines inside a block are accepted too, though Mascot allows them only outside.
// - Malformed spectra are skipped, not emitted, and counted in stats().skipped under a reason:
//   "bad peak line", "bad PEPMASS", "bad precursor charge", "bad RTINSECONDS", "bad SCANS" (a value
//   that starts with a digit but is not a number, range or list: "12x", "10-", an overflow),
//   "missing PEPMASS", "no peaks", "nested BEGIN IONS (END IONS missing)" (the open spectrum is
//   dropped, the new one is read), "END IONS without BEGIN IONS" (content after an END IONS that
//   an END IONS closes: a spectrum whose BEGIN IONS is missing) and "truncated at end of file"
//   (EOF inside a block: the partial spectrum is dropped, no ParseError, and the problem "file
//   ends early (truncated?)" is counted, as the mzML and mzXML readers do). Invariant:
//   spectra_seen == spectra_emitted + sum of skipped. The first spectrum of each reason is named
//   by a line (ReadStats::first_skipped_at): the line that made it malformed (a bad value, a
//   nested BEGIN IONS, an END IONS without BEGIN IONS, the file's last line when cut), or, for
//   an entry that lacks something ("missing PEPMASS", "no peaks", a file-level CHARGE that
//   skips it), its BEGIN IONS line. Every spectrum's BEGIN IONS line is its source_line.
// - Content outside blocks that no END IONS closes (a stray line after END IONS, before the next
//   BEGIN IONS or the end of the file), and an END IONS with no content since the last one (or
//   the file's start), are no spectrum: not counted in spectra_seen, but counted in
//   ReadStats::problems as "lines outside BEGIN IONS/END IONS ignored" (a count of lines, the
//   first one's line number as where).
// - ParseError (file, byte offset, line) only for input that is not MGF at all: a bad header
//   line, a bad file-level CHARGE, or a line longer than 16 MiB.
// Every spectrum has ms_level 2 and an empty activation (MGF does not state them).
// Not thread-safe; one reader per file. Memory: the spectrum being read plus one partial line.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "io/spectrum_reader.hpp"

namespace ionflow {

std::unique_ptr<SpectrumReader> make_mgf_reader(std::string file_name, uint32_t file_index);

}  // namespace ionflow
