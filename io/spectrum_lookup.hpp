// Spectrum look-up: one MS2 spectrum of a peak-list file (mzML, mzXML, MGF or MS2, optionally gzip,
// zstd or bzip2 compressed) found by its native id, for showing one PSM (the service's spectrum
// view).
//
// The file is read sequentially in 1 MiB blocks through the same Decompressor and
// SpectrumReader a job uses, and reading stops at the spectrum: a spectrum near the start of a
// large file is found quickly, one at its end costs a read of the file (BSA1.mzML, 19 MB: ~0.2 s).
// `native_id` is results.tsv's `scannr` (mzML spectrum@id, MGF TITLE or "index=N").
// Errors: std::runtime_error naming the path when it cannot be opened or read, or is not a
// regular file (a FIFO, directory or device: refused at once, never waited on, see
// io/input_file.hpp — the file may have been replaced since the job read it); ParseError
// (file, byte offset) when it does not parse. Returns nullopt when no MS2 spectrum has that id.
// Thread-safety: a pure function (opens its own stream).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "scoring/spectrum.hpp"

namespace ionflow {

std::optional<RawSpectrum> find_spectrum(const std::string& path, std::string_view native_id);

}  // namespace ionflow
