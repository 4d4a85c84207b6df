// Micro-benchmarks of the scoring hot paths on real data: E. coli MS2 spectra
// (ID/Ecoli_MS2_small.mzML) against the E. coli K12 target-decoy FASTA of the openms-doc examples,
// demo settings (trypsin, 1 missed cleavage, Carbamidomethyl (C) fixed, Oxidation (M) variable, ±10
// ppm, ±0.5 Da). Counters: items/s = spectra (prepare), queries (score) or fragments (match).
//   bench_scoring --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "io/fasta_reader.hpp"
#include "io/spectrum_reader.hpp"
#include "scoring/hyperscore.hpp"
#include "scoring/ion_series.hpp"
#include "scoring/search.hpp"
#include "scoring/xcorr.hpp"

namespace {

using namespace ionflow;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const SearchParameters& params() {
  static const SearchParameters p = [] {
    SearchParameters s;
    s.database.decoy_generation = DecoyGeneration::kNone;  // decoys are in the FASTA ("rev_")
    s.database.fixed_modifications.push_back(
        {"Carbamidomethyl", 4, 57.021464, ModificationPosition::kAnywhere, "C", true});
    s.database.variable_modifications.push_back(
        {"Oxidation", 35, 15.994915, ModificationPosition::kAnywhere, "M", false});
    return s;
  }();
  return p;
}

const std::vector<RawSpectrum>& spectra() {
  static const std::vector<RawSpectrum> all = [] {
    const std::string path = std::string(IONFLOW_EXAMPLES_DIR) + "/ID/Ecoli_MS2_small.mzML";
    auto reader = make_spectrum_reader(PeakListFormat::kMzML, path, 0);
    std::vector<RawSpectrum> out;
    reader->feed(slurp(path), out);
    reader->finish(out);
    return out;
  }();
  return all;
}

const std::vector<Query>& queries() {
  static const std::vector<Query> all = [] {
    std::vector<Query> out;
    for (const RawSpectrum& s : spectra()) {
      for (Query& q : prepare_spectrum(s, params()).queries) out.push_back(std::move(q));
    }
    return out;
  }();
  return all;
}

std::shared_ptr<const PeptideIndex> ecoli_index() {
  static const std::shared_ptr<const PeptideIndex> index = [] {
    const std::string path = std::string(IONFLOW_EXAMPLES_DIR) +
                             "/TOPPAS/data/Identification/"
                             "target_decoy_Ecoli_K12_TaxID_83333.proteomes.fasta";
    return build_peptide_index(parse_fasta(slurp(path), path), params());
  }();
  return index;
}

void BM_PrepareSpectrum(benchmark::State& state) {
  const auto& all = spectra();
  size_t n = 0;
  for (auto _ : state) {
    for (const RawSpectrum& s : all) benchmark::DoNotOptimize(prepare_spectrum(s, params()));
    n += all.size();
  }
  state.SetItemsProcessed(n);
}
BENCHMARK(BM_PrepareSpectrum)->Unit(benchmark::kMillisecond);

// Whole scorer per query: candidates, hyperscore + XCorr, 1000-peptide null, three fits.
void BM_ScoreQuery(benchmark::State& state) {
  auto index = ecoli_index();
  const auto& all = queries();
  SpectrumScorer scorer(index, params());
  size_t n = 0;
  for (auto _ : state) {
    for (const Query& q : all) benchmark::DoNotOptimize(scorer.score(q));
    n += all.size();
  }
  state.SetItemsProcessed(n);
}
BENCHMARK(BM_ScoreQuery)->Unit(benchmark::kMillisecond);

// One candidate's inner loop: fragments of a 12-residue peptide, hyperscore match and XCorr.
void BM_ScoreOneCandidate(benchmark::State& state) {
  const Query& q = queries().front();
  Peptide p;
  p.sequence = "LVNELTEFAKTK";
  ModifiedResidues residues;
  std::vector<Fragment> fragments;
  fragments.reserve(256);
  XcorrSpectrum xcorr;
  xcorr.prepare(q.peaks, q.neutral_mass, params().fragment_tolerance);
  size_t n = 0;
  for (auto _ : state) {
    modified_residue_masses(p, {}, residues);
    fragment_ions(residues, IonTypes::parse("by"), 2, fragments);
    FragmentMatches m = match_fragments(q.peaks, fragments, params().fragment_tolerance);
    benchmark::DoNotOptimize(hyperscore(m));
    benchmark::DoNotOptimize(xcorr.score(fragments));
    n += fragments.size();
  }
  state.SetItemsProcessed(n);
}
BENCHMARK(BM_ScoreOneCandidate);

}  // namespace

BENCHMARK_MAIN();
