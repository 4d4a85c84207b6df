// Micro-benchmarks of the text readers: MGF parsing, FASTA parsing and gzip/zstd decompression,
// reported as bytes/s of the (decompressed) text. Inputs are real data: the committed MGF excerpt
// of Ecoli_MS2_small.mzML repeated to ~48 MB (larger than the last-level cache), and the
// openms-doc example FASTA databases. The compressed inputs are the excerpt compressed once and
// concatenated as independent gzip members / zstd frames, so the ratio is that of real spectra
// (~2.4x) and not of a repeated text.
//
// Run: bench_mgf_fasta [--benchmark_filter=Mgf]
#include <benchmark/benchmark.h>
#include <malloc.h>
#include <zlib.h>
#include <zstd.h>

#include <fstream>
#include <iterator>
#include <stdexcept>

#include "io/decompression.hpp"
#include "io/fasta_reader.hpp"
#include "io/mgf_reader.hpp"

namespace ionflow {
namespace {

constexpr size_t kBlockBytes = 1 << 20;  // the reader actor's block size order of magnitude

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The 5-spectrum excerpt's blocks repeated until the text is at least 48 MB.
const std::string& large_mgf() {
  static const std::string text = [] {
    std::string excerpt = read_file(IONFLOW_TEST_DATA_DIR "/ecoli_ms2_small_first5.mgf");
    std::string blocks = excerpt.substr(excerpt.find("BEGIN IONS"));
    std::string out;
    while (out.size() < (48u << 20)) out += blocks;
    return out;
  }();
  return text;
}

std::string gzip(std::string_view data) {
  z_stream zs{};
  deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&zs, data.size()), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

std::string zstd(std::string_view data) {
  std::string out(ZSTD_compressBound(data.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 3));
  return out;
}

void BM_MgfParse(benchmark::State& state) {
  const std::string& text = large_mgf();
  size_t spectra = 0;
  for (auto _ : state) {
    auto reader = make_mgf_reader("bench.mgf", 0);
    std::vector<RawSpectrum> out;
    for (size_t i = 0; i < text.size(); i += kBlockBytes) {
      reader->feed(std::string_view(text).substr(i, kBlockBytes), out);
      spectra += out.size();
      out.clear();  // as the parser actor does after sending a batch on
    }
    reader->finish(out);
    spectra += out.size();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["spectra/s"] =
      benchmark::Counter(static_cast<double>(spectra), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MgfParse)->Unit(benchmark::kMillisecond);

// `cold_heap`: after each parse the freed heap is handed back to the kernel (malloc_trim, not
// timed), so every parse faults in fresh pages as the first parse of a search job does; without
// it the allocator recycles warm memory from the previous iteration.
void fasta_bench(benchmark::State& state, const std::string& path, const FastaOptions& options,
                 bool cold_heap) {
  const std::string content = read_file(path);
  size_t proteins = 0;
  for (auto _ : state) {
    {
      std::vector<Protein> parsed = parse_fasta(content, path, options);
      proteins += parsed.size();
      benchmark::DoNotOptimize(parsed.data());
      if (cold_heap) state.PauseTiming();  // the destruction is not part of the parse
    }
    if (cold_heap) {
      malloc_trim(0);
      state.ResumeTiming();
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * content.size()));
  state.counters["proteins/s"] =
      benchmark::Counter(static_cast<double>(proteins), benchmark::Counter::kIsRate);
}

constexpr const char* kEcoliFasta = IONFLOW_EXAMPLES_DIR
    "/TOPPAS/data/Identification/target_decoy_Ecoli_K12_TaxID_83333.proteomes.fasta";
constexpr const char* kSoCeFasta = IONFLOW_EXAMPLES_DIR
    "/TOPPAS/data/BSA_Identification/18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta";

void BM_FastaParseEcoli(benchmark::State& state) {
  fasta_bench(state, kEcoliFasta, FastaOptions{}, false);
}
BENCHMARK(BM_FastaParseEcoli)->Unit(benchmark::kMillisecond);

void BM_FastaParseSoCeTargetDecoy(benchmark::State& state) {
  fasta_bench(state, kSoCeFasta, FastaOptions{"_rev", true}, false);
}
BENCHMARK(BM_FastaParseSoCeTargetDecoy)->Unit(benchmark::kMillisecond);

void BM_FastaParseSoCeTargetDecoyColdHeap(benchmark::State& state) {
  fasta_bench(state, kSoCeFasta, FastaOptions{"_rev", true}, true);
}
BENCHMARK(BM_FastaParseSoCeTargetDecoyColdHeap)->Unit(benchmark::kMillisecond);

// Decompression throughput, counted in decompressed bytes.
void decompress_bench(benchmark::State& state, const std::string& packed) {
  const std::string& text = large_mgf();
  std::string out;
  out.reserve(kBlockBytes * 16);
  for (auto _ : state) {
    Decompressor d("bench");
    for (size_t i = 0; i < packed.size(); i += kBlockBytes) {
      out.clear();
      d.feed(std::string_view(packed).substr(i, kBlockBytes), out);
      benchmark::DoNotOptimize(out.data());
    }
    out.clear();
    d.finish(out);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["ratio"] = static_cast<double>(text.size()) / static_cast<double>(packed.size());
}

// large_mgf() as concatenated compressed copies of its repeated unit.
template <typename Compress>
std::string packed_mgf(Compress compress) {
  std::string excerpt = read_file(IONFLOW_TEST_DATA_DIR "/ecoli_ms2_small_first5.mgf");
  std::string blocks = excerpt.substr(excerpt.find("BEGIN IONS"));
  std::string one = compress(blocks);
  std::string out;
  for (size_t n = 0; n < large_mgf().size(); n += blocks.size()) out += one;
  return out;
}

void BM_GzipDecompressMgf(benchmark::State& state) {
  static const std::string packed = packed_mgf(gzip);
  decompress_bench(state, packed);
}
BENCHMARK(BM_GzipDecompressMgf)->Unit(benchmark::kMillisecond);

void BM_ZstdDecompressMgf(benchmark::State& state) {
  static const std::string packed = packed_mgf(zstd);
  decompress_bench(state, packed);
}
BENCHMARK(BM_ZstdDecompressMgf)->Unit(benchmark::kMillisecond);

// The whole text path for a compressed MGF: decompress, then parse.
void BM_ZstdMgfDecompressAndParse(benchmark::State& state) {
  static const std::string packed = packed_mgf(zstd);
  const std::string& text = large_mgf();
  std::string out;
  for (auto _ : state) {
    Decompressor d("bench.mgf.zst");
    auto reader = make_mgf_reader("bench.mgf.zst", 0);
    std::vector<RawSpectrum> spectra;
    for (size_t i = 0; i < packed.size(); i += kBlockBytes) {
      out.clear();
      d.feed(std::string_view(packed).substr(i, kBlockBytes), out);
      reader->feed(out, spectra);
      spectra.clear();
    }
    out.clear();
    d.finish(out);
    reader->feed(out, spectra);
    reader->finish(spectra);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ZstdMgfDecompressAndParse)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ionflow

BENCHMARK_MAIN();
