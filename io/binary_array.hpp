// BinaryArrayDecoder: turns the bytes of one mzML binaryDataArray (already base64-decoded) into
// numbers, following the array's CV terms (mzML 1.1 spec, "binaryDataArray"; PSI-MS CV):
//   precision   MS:1000521 32-bit float, MS:1000523 64-bit float,
//               MS:1000519 32-bit integer, MS:1000522 64-bit integer (little-endian, as mzML says)
//   compression MS:1000576 none, MS:1000574 zlib (RFC 1950 stream),
//               MS-Numpress (Teleman et al., Mol Cell Proteomics 2014;13:1537) linear prediction
//               MS:1002312, positive integer MS:1002313, short logged float MS:1002314, and the
//               numpress-then-zlib terms MS:1002746 / MS:1002747 / MS:1002748 (decoded zlib first).
// Numpress arrays decode to 64-bit floats whatever precision term they carry.
//
// decode() checks the number of values against the expected array length (binaryDataArray
// @arrayLength or spectrum @defaultArrayLength) and reports a short reason on any failure; it
// never throws for bad data. Scratch buffers are kept between calls, so decoding a stream of
// arrays allocates only when an array is larger than any before. Not thread-safe; one per reader.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ionflow {

enum class BinaryPrecision { kUnknown, kFloat32, kFloat64, kInt32, kInt64 };
enum class Numpress { kNone, kLinear, kPic, kSlof };

struct BinaryArrayEncoding {
  BinaryPrecision precision = BinaryPrecision::kUnknown;
  bool zlib = false;
  Numpress numpress = Numpress::kNone;

  // Applies one PSI-MS term (the number after "MS:") of the binaryDataArray. Returns true if the
  // term is one of the precision or compression terms above. Other compression terms (e.g.
  // newer truncation schemes) are not recognised: such arrays fail as "array length mismatch".
  bool apply_cv_term(int ms_accession);
};

class BinaryArrayDecoder {
 public:
  BinaryArrayDecoder();
  ~BinaryArrayDecoder();
  BinaryArrayDecoder(const BinaryArrayDecoder&) = delete;
  BinaryArrayDecoder& operator=(const BinaryArrayDecoder&) = delete;

  // Decodes `bytes` into `out` (replaced; capacity is reused). Expects exactly `expected_count`
  // values. Returns nullptr on success, else a static reason such as "array length mismatch",
  // "bad zlib data", "bad numpress data", "no binary precision", or kSkipTooManyPeaks
  // (peak_checks.hpp) when expected_count is above kMaxPeaksPerSpectrum (nothing is allocated).
  const char* decode(const BinaryArrayEncoding& encoding, std::string_view bytes,
                     size_t expected_count, std::vector<double>& out);
  const char* decode(const BinaryArrayEncoding& encoding, std::string_view bytes,
                     size_t expected_count, std::vector<float>& out);

 private:
  template <typename T>
  const char* decode_impl(const BinaryArrayEncoding& encoding, std::string_view bytes,
                          size_t expected_count, std::vector<T>& out);
  template <typename T>
  const char* decode_numpress(Numpress numpress, std::string_view bytes, size_t expected_count,
                              std::vector<T>& out);

  struct Inflater;
  std::unique_ptr<Inflater> inflater_;
  std::string inflated_;              // zlib output
  std::string padded_;                // numpress input with zero padding after the end
  std::vector<double> numpress_out_;  // numpress output before conversion to float
};

}  // namespace ionflow
