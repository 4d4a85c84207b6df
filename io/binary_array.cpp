#include "io/binary_array.hpp"

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdint>
#include <cstring>
#include <libmsnumpress/MSNumpress.hpp>

#include "io/peak_checks.hpp"

namespace ionflow {

static_assert(std::endian::native == std::endian::little,
              "mzML binary arrays are little-endian; add byte swapping for this host");

namespace {

size_t width_of(BinaryPrecision p) {
  switch (p) {
    case BinaryPrecision::kFloat32:
    case BinaryPrecision::kInt32:
      return 4;
    case BinaryPrecision::kFloat64:
    case BinaryPrecision::kInt64:
      return 8;
    case BinaryPrecision::kUnknown:
      break;
  }
  return 0;
}

// Converts `n` little-endian values of type Src at `src` into `dst`.
template <typename Src, typename T>
void convert(const char* src, size_t n, T* dst) {
  if (n == 0) return;  // dst is null for an empty vector, and memcpy(nullptr, ...) is undefined
  if constexpr (std::is_same_v<Src, T>) {
    std::memcpy(dst, src, n * sizeof(T));
  } else {
    for (size_t i = 0; i < n; ++i) {
      Src v;
      std::memcpy(&v, src + i * sizeof(Src), sizeof(Src));
      dst[i] = static_cast<T>(v);
    }
  }
}

// Numpress decoders need this many readable bytes after the end of corrupt input (they read a
// few half-bytes ahead before noticing the end).
constexpr size_t kNumpressPadding = 16;

}  // namespace

bool BinaryArrayEncoding::apply_cv_term(int ms_accession) {
  switch (ms_accession) {
    case 1000521:
      precision = BinaryPrecision::kFloat32;
      return true;
    case 1000523:
      precision = BinaryPrecision::kFloat64;
      return true;
    case 1000519:
      precision = BinaryPrecision::kInt32;
      return true;
    case 1000522:
      precision = BinaryPrecision::kInt64;
      return true;
    case 1000576:
      return true;  // no compression
    case 1000574:
      zlib = true;
      return true;
    case 1002312:
      numpress = Numpress::kLinear;
      return true;
    case 1002313:
      numpress = Numpress::kPic;
      return true;
    case 1002314:
      numpress = Numpress::kSlof;
      return true;
    case 1002746:
      numpress = Numpress::kLinear;
      zlib = true;
      return true;
    case 1002747:
      numpress = Numpress::kPic;
      zlib = true;
      return true;
    case 1002748:
      numpress = Numpress::kSlof;
      zlib = true;
      return true;
    default:
      return false;
  }
}

// Reusable zlib inflate stream (zlib's inflateReset keeps the 32 KiB window allocation).
struct BinaryArrayDecoder::Inflater {
  z_stream stream{};
  bool ok = false;
  Inflater() { ok = inflateInit(&stream) == Z_OK; }
  ~Inflater() {
    if (ok) inflateEnd(&stream);
  }

  enum class Result { kOk, kCorrupt, kTooLarge };

  // Inflates all of `in` into `out`, growing it from `size_hint` up to `max_size` bytes.
  Result inflate_all(std::string_view in, size_t size_hint, size_t max_size, std::string& out) {
    if (!ok || in.size() > UINT_MAX) return Result::kCorrupt;
    if (inflateReset(&stream) != Z_OK) return Result::kCorrupt;
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    stream.avail_in = static_cast<uInt>(in.size());
    out.resize(std::max<size_t>(std::min(size_hint, max_size), 64));
    size_t produced = 0;
    for (;;) {
      stream.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
      stream.avail_out = static_cast<uInt>(std::min<size_t>(out.size() - produced, UINT_MAX));
      const uInt before = stream.avail_out;
      const int rc = inflate(&stream, Z_NO_FLUSH);
      produced += before - stream.avail_out;
      if (rc == Z_STREAM_END) break;
      if (rc != Z_OK && rc != Z_BUF_ERROR) return Result::kCorrupt;
      if (stream.avail_out == 0) {
        if (out.size() >= max_size) return Result::kTooLarge;
        out.resize(std::min(max_size, out.size() * 2));
      } else if (stream.avail_in == 0) {
        return Result::kCorrupt;  // stream ended before its end marker
      }
    }
    out.resize(produced);
    return Result::kOk;
  }
};

BinaryArrayDecoder::BinaryArrayDecoder() : inflater_(std::make_unique<Inflater>()) {}
BinaryArrayDecoder::~BinaryArrayDecoder() = default;

const char* BinaryArrayDecoder::decode(const BinaryArrayEncoding& encoding, std::string_view bytes,
                                       size_t expected_count, std::vector<double>& out) {
  return decode_impl(encoding, bytes, expected_count, out);
}

const char* BinaryArrayDecoder::decode(const BinaryArrayEncoding& encoding, std::string_view bytes,
                                       size_t expected_count, std::vector<float>& out) {
  return decode_impl(encoding, bytes, expected_count, out);
}

template <typename T>
const char* BinaryArrayDecoder::decode_impl(const BinaryArrayEncoding& encoding,
                                            std::string_view bytes, size_t expected_count,
                                            std::vector<T>& out) {
  out.clear();
  const size_t width = width_of(encoding.precision);
  if (encoding.numpress == Numpress::kNone && width == 0) return "no binary precision";
  if (expected_count > kMaxPeaksPerSpectrum) return kSkipTooManyPeaks;

  std::string_view data = bytes;
  if (encoding.zlib) {
    // Plain arrays inflate to exactly count * width bytes; numpress output is smaller than
    // 8 bytes a value plus its header, whatever the scheme.
    const size_t exact = expected_count * width;
    const size_t hint = encoding.numpress == Numpress::kNone ? exact + 1 : expected_count * 4 + 16;
    const size_t max_size =
        encoding.numpress == Numpress::kNone ? exact + 1 : expected_count * 10 + 64;
    switch (inflater_->inflate_all(bytes, hint, max_size, inflated_)) {
      case Inflater::Result::kOk:
        break;
      case Inflater::Result::kCorrupt:
        return "bad zlib data";
      case Inflater::Result::kTooLarge:
        return "array length mismatch";
    }
    data = inflated_;
  }

  if (encoding.numpress != Numpress::kNone) {
    return decode_numpress(encoding.numpress, data, expected_count, out);
  }
  if (data.size() != expected_count * width) return "array length mismatch";
  out.resize(expected_count);
  switch (encoding.precision) {
    case BinaryPrecision::kFloat32:
      convert<float>(data.data(), expected_count, out.data());
      break;
    case BinaryPrecision::kFloat64:
      convert<double>(data.data(), expected_count, out.data());
      break;
    case BinaryPrecision::kInt32:
      convert<int32_t>(data.data(), expected_count, out.data());
      break;
    case BinaryPrecision::kInt64:
      convert<int64_t>(data.data(), expected_count, out.data());
      break;
    case BinaryPrecision::kUnknown:
      break;
  }
  return nullptr;
}

template <typename T>
const char* BinaryArrayDecoder::decode_numpress(Numpress numpress, std::string_view bytes,
                                                size_t expected_count, std::vector<T>& out) {
  namespace np = ms::numpress::MSNumpress;
  if (bytes.empty()) return expected_count == 0 ? nullptr : "array length mismatch";
  // Upper bounds on the number of values from MSNumpress.hpp: linear <= (n - 8) * 2,
  // pic <= n * 2, slof == (n - 8) / 2. Linear and slof start with an 8-byte fixed point.
  size_t bound = 0;
  switch (numpress) {
    case Numpress::kLinear:
      if (bytes.size() < 8) return "bad numpress data";
      bound = (bytes.size() - 8) * 2;
      break;
    case Numpress::kPic:
      bound = bytes.size() * 2;
      break;
    case Numpress::kSlof:
      if (bytes.size() < 8) return "bad numpress data";
      bound = (bytes.size() - 8) / 2;
      break;
    case Numpress::kNone:
      return "bad numpress data";
  }
  padded_.assign(bytes.data(), bytes.size());
  padded_.append(kNumpressPadding, '\0');
  const auto* in = reinterpret_cast<const unsigned char*>(padded_.data());

  std::vector<double>& target = numpress_out_;
  target.resize(bound + 2);
  size_t n = 0;
  try {
    switch (numpress) {
      case Numpress::kLinear:
        n = np::decodeLinear(in, bytes.size(), target.data());
        break;
      case Numpress::kPic:
        n = np::decodePic(in, bytes.size(), target.data());
        break;
      case Numpress::kSlof:
        n = np::decodeSlof(in, bytes.size(), target.data());
        break;
      case Numpress::kNone:
        break;
    }
  } catch (...) {  // MSNumpress throws const char* on corrupt input
    return "bad numpress data";
  }
  if (n > bound + 2) return "bad numpress data";  // includes the (size_t)-1 error return
  if (n != expected_count) return "array length mismatch";
  out.resize(n);
  std::transform(target.begin(), target.begin() + static_cast<std::ptrdiff_t>(n), out.begin(),
                 [](double v) { return static_cast<T>(v); });
  return nullptr;
}

}  // namespace ionflow
