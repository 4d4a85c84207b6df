#include "io/spectrum_lookup.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <vector>

#include "io/decompression.hpp"
#include "io/spectrum_reader.hpp"

namespace ionflow {

std::optional<RawSpectrum> find_spectrum(const std::string& path, std::string_view native_id) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
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
  while (in.read(block.data(), static_cast<std::streamsize>(block.size())) || in.gcount() > 0) {
    const std::string_view bytes = decompressor.feed_view(
        std::string_view(block.data(), static_cast<size_t>(in.gcount())), scratch);
    if (bytes.empty()) continue;
    if (!reader) reader = make_spectrum_reader(detect_peak_list_format(bytes), name, 0);
    reader->feed(bytes, spectra);
    if (auto s = found()) return s;
  }
  if (in.bad()) throw std::runtime_error(path + ": read error");
  std::string rest;
  decompressor.finish(rest);
  if (!reader) return std::nullopt;  // an empty file
  if (!rest.empty()) reader->feed(rest, spectra);
  reader->finish(spectra);
  return found();
}

}  // namespace ionflow
