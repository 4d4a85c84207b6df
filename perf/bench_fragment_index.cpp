// Fragment-ion index (scoring/fragment_index.hpp) on the E. coli K12 target-decoy FASTA
// (openms-doc examples; decoys "rev_" in the FASTA, no generated decoys; trypsin, 2 missed
// cleavages, CAM fixed, Ox(M) variable) and the 139 spectra of ID/Ecoli_MS2_small.mzML prepared
// by prepare_spectrum (10 ppm precursor). Benchmarks:
//   BM_BuildFragmentIndex/<t>  whole index on t threads; counters entries, bytes, bytes/entry,
//                              entries/s (wall time)
//   BM_IndexSearch/<tol>/<B>   top-50 candidates of every query with the index of bucket size B
//   BM_BruteForceSearch/<tol>  the same top-50 by mass_range + matching each candidate's
//                              fragments (reused buffers, merge walk); `mismatches` counts
//                              queries whose top-50 differs from the index's (expected 0)
//   BM_SlicedSearch            build + search in 4+ slices (budget = 1/4 of the whole index)
//   BM_PrefilterRecall         SpectrumScorer's rank 1 within the index top-10/50/100
//   BM_IndexCacheRoundTrip     io/index_cache save + load of peptides and fragment index
// <tol>: 0 = 0.5 Da fragment tolerance, 1 = 20 ppm; 2 = 0.5 Da with a ±100 Da precursor window
// (open-search-like). Run: bench_fragment_index --benchmark_counters_tabular=true
// Measured 2026-11-30 (2 shared cores under load ~10; CPU time, one thread):
//   build: 937,152 peptides -> 25.85 M entries, 206.8 MB, 8.0001 bytes/entry, 2.9 s CPU
//          (8.8 M entries/s); sliced into 7 slices of <= 48 MB (budget 51.7 MB): 2.9 s CPU
//   queries/s (top-50)        B=8192   B=2048   B=512   B=128   brute force
//   10 ppm, 0.5 Da fragments   12.7k    26.4k    67.0k   98.3k   43.2k
//   10 ppm, 20 ppm fragments   23.8k    40.4k    99.2k  147.3k   33.0k
//   ±100 Da, 0.5 Da fragments  1065     691      577     374     29
//   (31.3 window candidates per query at 10 ppm, 52,294 at ±100 Da; 0 top-50 mismatches)
//   prefilter recall (SpectrumScorer rank 1 within the index top-K, 133 spectra with a PSM,
//   10 ppm, B=128): @10 97.7%, @50 100%, @100 100%
//   index cache (zstd level 1): 119 MB file, save 3.2 s, load 2.3 s wall (2.7 s CPU both)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "io/fasta_reader.hpp"
#include "io/index_cache.hpp"
#include "io/spectrum_reader.hpp"
#include "scoring/fragment_index.hpp"
#include "scoring/ion_series.hpp"
#include "scoring/search.hpp"

namespace {

using namespace ionflow;

constexpr size_t kTopK = 50;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

SearchParameters base_params() {
  SearchParameters params;
  params.database.enzyme.missed_cleavages = 2;
  params.database.fixed_modifications = {
      {"Carbamidomethyl", 4, 57.021464, ModificationPosition::kAnywhere, "C", true}};
  params.database.variable_modifications = {
      {"Oxidation", 35, 15.994915, ModificationPosition::kAnywhere, "M", false}};
  params.database.decoy_generation = DecoyGeneration::kNone;  // the FASTA's rev_ decoys
  params.precursor_tolerance = Tolerance::Ppm(-10, 10);
  return params;
}

SearchParameters params_for(int variant) {
  SearchParameters p = base_params();
  p.fragment_tolerance = variant == 1 ? Tolerance::Ppm(-20, 20) : Tolerance::Da(-0.5, 0.5);
  if (variant == 2) p.precursor_tolerance = Tolerance::Da(-100, 100);
  return p;
}

const std::shared_ptr<const PeptideIndex>& ecoli_shared() {
  static const std::shared_ptr<const PeptideIndex> index = [] {
    const std::string path = std::string(IONFLOW_EXAMPLES_DIR) +
                             "/TOPPAS/data/Identification/"
                             "target_decoy_Ecoli_K12_TaxID_83333.proteomes.fasta";
    return build_peptide_index(parse_fasta(read_file(path), path), base_params());
  }();
  return index;
}

const PeptideIndex& ecoli() {
  return *ecoli_shared();
}

// The whole E. coli fragment index for one bucket size (built once per size).
const FragmentIndex& ecoli_fragments(uint32_t bucket_size = 8192) {
  static std::map<uint32_t, FragmentIndex> built;
  auto it = built.find(bucket_size);
  if (it == built.end()) {
    FragmentIndexOptions options;
    options.bucket_size = bucket_size;
    it = built.emplace(bucket_size, FragmentIndex::build(ecoli(), base_params(), options)).first;
  }
  return it->second;
}

const std::vector<Query>& ecoli_queries() {
  static const std::vector<Query> queries = [] {
    const std::string path = std::string(IONFLOW_EXAMPLES_DIR) + "/ID/Ecoli_MS2_small.mzML";
    auto reader = make_spectrum_reader(PeakListFormat::kMzML, path, 0);
    std::vector<RawSpectrum> spectra;
    reader->feed(read_file(path), spectra);
    reader->finish(spectra);
    std::vector<Query> out;
    for (const RawSpectrum& s : spectra) {
      for (Query& q : prepare_spectrum(s, base_params()).queries) out.push_back(std::move(q));
    }
    return out;
  }();
  return queries;
}

void BM_BuildFragmentIndex(benchmark::State& state) {
  const PeptideIndex& peptides = ecoli();
  size_t entries = 0, bytes = 0;
  double per_entry = 0;
  FragmentIndexOptions options;
  options.build_threads = static_cast<unsigned>(state.range(0));
  for (auto _ : state) {
    FragmentIndex index = FragmentIndex::build(peptides, base_params(), options);
    entries = index.entries().size();
    bytes = index.bytes();
    per_entry = index.bytes_per_entry();
    benchmark::DoNotOptimize(index.entries().data());
  }
  state.counters["peptides"] = static_cast<double>(peptides.size());
  state.counters["entries"] = static_cast<double>(entries);
  state.counters["MB"] = static_cast<double>(bytes) / 1e6;
  state.counters["bytes/entry"] = per_entry;
  state.counters["entries/s"] = benchmark::Counter(
      static_cast<double>(entries) * state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_BuildFragmentIndex)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(2);

void BM_IndexSearch(benchmark::State& state) {
  const SearchParameters params = params_for(static_cast<int>(state.range(0)));
  const auto& queries = ecoli_queries();
  const FragmentIndex& index = ecoli_fragments(static_cast<uint32_t>(state.range(1)));
  FragmentSearcher searcher(ecoli(), params, kTopK);
  FragmentCandidates out;
  size_t candidates = 0;
  for (auto _ : state) {
    candidates = 0;
    for (const Query& q : queries) {
      searcher.search(index, q, out);
      candidates += out.window_candidates;
    }
  }
  state.counters["queries"] = static_cast<double>(queries.size());
  state.counters["window_cands/q"] = static_cast<double>(candidates) / queries.size();
  state.counters["queries/s"] = benchmark::Counter(
      static_cast<double>(queries.size()) * state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_IndexSearch)
    ->ArgsProduct({{0, 1, 2}, {8192, 2048, 512, 128}})
    ->Unit(benchmark::kMillisecond);

// Brute force as the scorer does candidate generation today: every peptide of the precursor
// windows, its fragments computed and merged against the peaks. Buffers reused.
class BruteForce {
 public:
  BruteForce(const PeptideIndex& peptides, const SearchParameters& params)
      : peptides_(peptides), params_(params), types_(IonTypes::parse(params.ion_types)) {}

  void search(const Query& q, FragmentCandidates& out) {
    out.top.clear();
    out.window_candidates = 0;
    all_.clear();
    precursor_windows(peptides_, params_, q, windows_);
    for (const PrecursorWindow& w : windows_) {
      out.window_candidates += w.last - w.first;
      for (size_t p = w.first; p < w.last; ++p) score(q, p, w.isotope_error);
    }
    const size_t keep = std::min(kTopK, all_.size());
    std::partial_sort(all_.begin(), all_.begin() + keep, all_.end(), ranks_before);
    out.top.assign(all_.begin(), all_.begin() + keep);
  }

 private:
  void score(const Query& q, size_t p, int isotope_error) {
    modified_residue_masses(peptides_.peptide(p), peptides_.modifications, residues_);
    fragment_ions(residues_, types_, 1, fragments_);
    mzs_.clear();
    for (const Fragment& f : fragments_) {
      if (f.mz >= 150.0 && f.mz <= 2000.0) mzs_.push_back(static_cast<float>(f.mz));
    }
    std::sort(mzs_.begin(), mzs_.end());
    FragmentCandidate c;
    c.peptide = static_cast<uint32_t>(p);
    c.isotope_error = static_cast<int8_t>(isotope_error);
    size_t j = 0;
    uint32_t matched = 0;
    for (const Peak& peak : q.peaks) {
      const auto [lo, hi] = bounds(peak.mz);
      while (j < mzs_.size() && static_cast<double>(mzs_[j]) < lo) ++j;
      if (j < mzs_.size() && static_cast<double>(mzs_[j]) <= hi) {
        ++matched;
        c.summed_intensity += peak.intensity;
      }
    }
    c.matched_peaks = static_cast<uint16_t>(matched);
    if (matched > 0) all_.push_back(c);
  }
  std::pair<double, double> bounds(double observed) const {
    const Tolerance& t = params_.fragment_tolerance;
    if (t.unit == Tolerance::Unit::kDa) return {observed - t.upper, observed - t.lower};
    return {observed / (1.0 + t.upper * 1e-6), observed / (1.0 + t.lower * 1e-6)};
  }

  const PeptideIndex& peptides_;
  SearchParameters params_;
  IonTypes types_;
  ModifiedResidues residues_;
  std::vector<Fragment> fragments_;
  std::vector<float> mzs_;
  std::vector<PrecursorWindow> windows_;
  std::vector<FragmentCandidate> all_;
};

bool same_top(const FragmentCandidates& a, const FragmentCandidates& b) {
  if (a.top.size() != b.top.size() || a.window_candidates != b.window_candidates) return false;
  for (size_t i = 0; i < a.top.size(); ++i) {
    if (a.top[i].peptide != b.top[i].peptide || a.top[i].matched_peaks != b.top[i].matched_peaks) {
      return false;
    }
  }
  return true;
}

void BM_BruteForceSearch(benchmark::State& state) {
  const SearchParameters params = params_for(static_cast<int>(state.range(0)));
  const auto& queries = ecoli_queries();
  BruteForce brute(ecoli(), params);
  FragmentSearcher searcher(ecoli(), params, kTopK);
  FragmentCandidates out, reference;
  size_t mismatches = 0;
  for (const Query& q : queries) {  // agreement with the index, outside the timed loop
    brute.search(q, out);
    searcher.search(ecoli_fragments(), q, reference);
    mismatches += same_top(out, reference) ? 0 : 1;
  }
  for (auto _ : state) {
    for (const Query& q : queries) brute.search(q, out);
    benchmark::DoNotOptimize(out.top.data());
  }
  state.counters["mismatches"] = static_cast<double>(mismatches);
  state.counters["queries/s"] = benchmark::Counter(
      static_cast<double>(queries.size()) * state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_BruteForceSearch)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_SlicedSearch(benchmark::State& state) {
  const SearchParameters params = params_for(0);
  FragmentIndexOptions options;
  options.memory_budget_bytes = ecoli_fragments().bytes() / 4;
  const auto& queries = ecoli_queries();
  SlicedSearchStats stats;
  for (auto _ : state) {
    auto results = search_in_slices(ecoli(), params, options, queries, kTopK, &stats);
    benchmark::DoNotOptimize(results.data());
  }
  state.counters["slices"] = static_cast<double>(stats.slices);
  state.counters["max_slice_MB"] = static_cast<double>(stats.max_slice_bytes) / 1e6;
}
BENCHMARK(BM_SlicedSearch)->Unit(benchmark::kMillisecond)->Iterations(1);

// Prefilter recall: how often the current SpectrumScorer's rank-1 PSM (10 ppm, 0.5 Da, all
// window candidates scored) is among the fragment index's top-K (charge-1 fragments only, as
// Sage's preliminary filter), for K = 10, 50, 100. Counters: scored spectra with a PSM,
// recall@K. Not timed (one iteration).
void BM_PrefilterRecall(benchmark::State& state) {
  const SearchParameters params = params_for(0);
  const auto& queries = ecoli_queries();
  const FragmentIndex& index = ecoli_fragments(128);
  SpectrumScorer scorer(ecoli_shared(), params);
  FragmentSearcher searcher(ecoli(), params, 100);
  FragmentCandidates out;
  size_t with_psm = 0, in10 = 0, in50 = 0, in100 = 0;
  for (auto _ : state) {
    for (const Query& q : queries) {
      const std::vector<Psm> psms = scorer.score(q);
      if (psms.empty()) continue;
      ++with_psm;
      searcher.search(index, q, out);
      for (size_t r = 0; r < out.top.size(); ++r) {
        const Peptide p = ecoli().peptide(out.top[r].peptide);
        if (p.sequence == psms[0].sequence &&
            std::abs(p.neutral_mass_da - psms[0].calcmass) < 1e-6) {
          in10 += r < 10;
          in50 += r < 50;
          in100 += 1;
          break;
        }
      }
    }
  }
  state.counters["with_psm"] = static_cast<double>(with_psm);
  state.counters["recall@10"] = static_cast<double>(in10) / std::max<size_t>(1, with_psm);
  state.counters["recall@50"] = static_cast<double>(in50) / std::max<size_t>(1, with_psm);
  state.counters["recall@100"] = static_cast<double>(in100) / std::max<size_t>(1, with_psm);
}
BENCHMARK(BM_PrefilterRecall)->Unit(benchmark::kMillisecond)->Iterations(1);

// io/index_cache: save (serialise + zstd level 1 + write) and load (read + decode + checks) of
// the E. coli peptide index with its B=8192 fragment index, in a temporary file.
void BM_IndexCacheRoundTrip(benchmark::State& state) {
  const std::string path = "/tmp/ionflow_bench_index_cache.idx";
  const std::string key = index_cache_key(std::string(64, 'a'), base_params(), {});
  double save_s = 0, load_s = 0, file_mb = 0;
  bool hit = false;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    save_index_cache(path, key, ecoli(), &ecoli_fragments());
    const auto t1 = std::chrono::steady_clock::now();
    const IndexCacheLoad load = load_index_cache(path, key);
    const auto t2 = std::chrono::steady_clock::now();
    hit = load.hit() && load.fragments != nullptr &&
          load.fragments->entries().size() == ecoli_fragments().entries().size();
    save_s = std::chrono::duration<double>(t1 - t0).count();
    load_s = std::chrono::duration<double>(t2 - t1).count();
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (f != nullptr) {
      std::fseek(f, 0, SEEK_END);
      file_mb = static_cast<double>(std::ftell(f)) / 1e6;
      std::fclose(f);
    }
  }
  std::remove(path.c_str());
  state.counters["save_s"] = save_s;
  state.counters["load_s"] = load_s;
  state.counters["file_MB"] = file_mb;
  state.counters["hit"] = hit ? 1 : 0;
}
BENCHMARK(BM_IndexCacheRoundTrip)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
