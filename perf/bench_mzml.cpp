// Throughput of the streaming mzML reader on a real file (OpenMS example BSA1.mzML, 13.6 MB,
// 1684 spectra of which 1120 MS2), fed from memory in 1 MiB blocks as the reader actor does.
// Reports bytes/s of mzML text (Google Benchmark's SetBytesProcessed) and MS2 spectra/s, with
// and without the reader's own tokenizer for plain spectra.
// Baselines: expat alone with no handlers on the same bytes (the ceiling for an expat-based
// reader), and base64 decoding alone.
#include <benchmark/benchmark.h>
#include <expat.h>

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/base64.hpp"
#include "io/mzml_reader.hpp"

namespace {

const std::string& bsa1() {
  static const std::string data = [] {
    const std::string path = std::string(IONFLOW_EXAMPLES_DIR) + "/BSA/BSA1.mzML";
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }();
  return data;
}

void BM_MzmlReaderBsa1(benchmark::State& state) {
  const std::string& data = bsa1();
  const size_t block = static_cast<size_t>(state.range(0));
  std::vector<ionflow::RawSpectrum> out;
  size_t spectra = 0;
  for (auto _ : state) {
    out.clear();
    auto reader = ionflow::make_mzml_reader("BSA1.mzML", 0, state.range(1) != 0);
    for (size_t pos = 0; pos < data.size(); pos += block) {
      reader->feed(std::string_view(data).substr(pos, block), out);
    }
    reader->finish(out);
    spectra += out.size();
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * data.size()));
  state.counters["ms2_spectra"] = static_cast<double>(out.size());
  state.counters["spectra_per_s"] =
      benchmark::Counter(static_cast<double>(spectra), benchmark::Counter::kIsRate);
}
// Second argument: 1 = the reader's own tokenizer for plain spectra (the default), 0 = expat for
// everything (the reader before it had one).
BENCHMARK(BM_MzmlReaderBsa1)
    ->Args({1 << 20, 1})
    ->Args({1 << 20, 0})
    ->ArgNames({"block", "own_tokenizer"})
    ->Unit(benchmark::kMillisecond);

void BM_ExpatOnlyBsa1(benchmark::State& state) {
  const std::string& data = bsa1();
  const size_t block = static_cast<size_t>(state.range(0));
  for (auto _ : state) {
    XML_Parser parser = XML_ParserCreate(nullptr);
    for (size_t pos = 0; pos < data.size(); pos += block) {
      const std::string_view piece = std::string_view(data).substr(pos, block);
      XML_Parse(parser, piece.data(), static_cast<int>(piece.size()), XML_FALSE);
    }
    if (XML_Parse(parser, nullptr, 0, XML_TRUE) != XML_STATUS_OK) state.SkipWithError("XML error");
    XML_ParserFree(parser);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * data.size()));
}
BENCHMARK(BM_ExpatOnlyBsa1)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

void BM_Base64Decode(benchmark::State& state) {
  std::string raw(1 << 20, '\0');
  for (size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<char>(i * 2654435761u >> 13);
  const std::string text = ionflow::base64_encode(raw);
  std::string out;
  ionflow::Base64Decoder decoder;
  for (auto _ : state) {
    out.clear();
    decoder.reset();
    decoder.feed(text, out);
    decoder.finish(out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_Base64Decode)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
