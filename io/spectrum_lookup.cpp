#include "io/spectrum_lookup.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <vector>

#include "io/decompression.hpp"
#include "io/input_file.hpp"
#include "io/spectrum_reader.hpp"

namespace ionflow {

std::optional<RawSpectrum> find_spectrum(const std::string& path, std::string_view native_id) {
  // InputFile refuses a FIFO, directory or device without blocking: the file may have been
  // replaced since the job read it, and a FIFO would hang the HTTP thread asking for it.
  const InputFile in = InputFile::open(path);
  const std::string name = std::filesystem::path(path).filename().string();
  Decompressor decompressor(name);
  std::unique_ptr<SpectrumReader> reader;
  std::string block(1 << 20, '\0');
  std::string scratch;
  std::vector<RawSpectrum> spectra;
  auto found = [&]() -> std::optional<RawSpectrum> {
    for (RawSpectrum& s : spectra) {
      if (s.native_id == native_id) return std::move(s);
    }
    spectra.clear();
    return std::nullopt;
  };
  while (true) {
    const ssize_t n = ::read(in.fd(), block.data(), block.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(path + ": read error: " + std::strerror(errno));
    if (n == 0) break;
    const std::string_view bytes =
        decompressor.feed_view(std::string_view(block.data(), static_cast<size_t>(n)), scratch);
    if (bytes.empty()) continue;
    if (!reader) reader = make_spectrum_reader(detect_peak_list_format(bytes), name, 0);
    reader->feed(bytes, spectra);
    if (auto s = found()) return s;
  }
  std::string rest;
  decompressor.finish(rest);
  if (!reader) return std::nullopt;  // an empty file
  if (!rest.empty()) reader->feed(rest, spectra);
  reader->finish(spectra);
  return found();
}

}  // namespace ionflow
