// Helpers shared by the io/ test files. Header-only: the suite compiles only *_test.cpp files.
#pragma once

#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "io/spectrum_reader.hpp"

namespace ionflow::io_testing {

// The whole file as bytes; a missing file is a test failure (and gives "").
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << path;
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// `bytes` as one RFC 1950 zlib stream (zlib's compress(), as mzML and mzXML writers use it).
inline std::string zlib_compress(const std::string& bytes) {
  uLongf size = compressBound(bytes.size());
  std::string out(size, '\0');
  EXPECT_EQ(compress(reinterpret_cast<Bytef*>(out.data()), &size,
                     reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()),
            Z_OK);
  out.resize(size);
  return out;
}

// `data` as one gzip member (RFC 1952) made with zlib's deflate at `level` (0: stored blocks).
inline std::string gzip(std::string_view data, int level = 6) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&zs, data.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

// A whole peak list read by the reader its content selects, fed in blocks of `block` bytes.
struct PeakListRead {
  std::vector<RawSpectrum> spectra;
  ReadStats stats;
};
inline PeakListRead read_peak_list(const std::string& text, const std::string& name,
                                   size_t block = size_t{1} << 20, uint32_t file_index = 0) {
  PeakListRead r;
  auto reader = make_spectrum_reader(detect_peak_list_format(text), name, file_index);
  for (size_t i = 0; i < text.size(); i += block) {
    reader->feed(std::string_view(text).substr(i, block), r.spectra);
  }
  reader->finish(r.spectra);
  r.stats = reader->stats();
  return r;
}

}  // namespace ionflow::io_testing
