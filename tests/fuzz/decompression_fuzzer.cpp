// Fuzz target: the decompressors (io/decompression.hpp: gzip, zstd, bzip2 or pass-through, chosen
// by magic bytes). Contract checked: only ParseError is thrown; fed whole with feed() or in pieces
// of 1..97 bytes with feed_view(), the input either fails both times or gives the same bytes (a
// bomb refusal may come in one of the two only); uncompressed input passes through unchanged.
#include <cstddef>
#include <cstdint>

#include "io/decompression.hpp"
#include "io/parse_error.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

// The decompressed bytes, or "error: ..." (then `failed` is set).
std::string decompress(std::string_view input, bool whole, bool& failed,
                       ionflow::Compression& compression) {
  // A 1 MiB floor instead of 64 MiB: bombs (a few hundred bytes of bzip2 reach 100 MB) are
  // refused before they dominate the run time, and the refusal itself is fuzzed.
  ionflow::Decompressor decompressor("fuzz.gz", ionflow::DecompressionLimits{1u << 20, 1000});
  std::string out;
  failed = false;
  try {
    if (whole) {
      decompressor.feed(input, out);
    } else {
      ionflow::fuzz::Pieces pieces(input);
      std::string scratch;
      while (!pieces.done()) out += decompressor.feed_view(pieces.next(), scratch);
    }
    decompressor.finish(out);
  } catch (const ionflow::ParseError& e) {
    failed = true;
    return std::string("error: ") + e.what();
  }
  compression = decompressor.compression();
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  bool whole_failed = false, pieces_failed = false;
  ionflow::Compression compression = ionflow::Compression::kNone;
  const std::string whole = decompress(input, true, whole_failed, compression);
  const std::string pieces = decompress(input, false, pieces_failed, compression);
  // The bomb limit is checked after each decoder call, whose input and output depend on the
  // blocks: one of the two may be refused and the other not, never with other bytes.
  const bool bomb = whole.find("decompression bomb") != std::string::npos ||
                    pieces.find("decompression bomb") != std::string::npos;
  if (whole_failed != pieces_failed && !bomb) {
    ionflow::fuzz::fail("decompression fails only " +
                        std::string(whole_failed ? "whole: " + whole : "in pieces: " + pieces));
  }
  if (!whole_failed && !pieces_failed) {
    if (whole != pieces) ionflow::fuzz::fail("decompressed bytes differ whole vs in pieces");
    if (compression == ionflow::Compression::kNone && whole != input) {
      ionflow::fuzz::fail("uncompressed input not passed through unchanged");
    }
  }
  return 0;
}
