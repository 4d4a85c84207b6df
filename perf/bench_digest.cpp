// Digestion and peptide-index build on the E. coli K12 target-decoy FASTA (openms-doc examples).
// Counters: peptides/s (digested ranges per second) and index size. Run:
//   bench_digest --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "io/fasta_reader.hpp"
#include "io/spectrum_reader.hpp"
#include "scoring/digest.hpp"
#include "scoring/enzyme.hpp"
#include "scoring/peptide_index.hpp"
#include "scoring/precursor_selection.hpp"
#include "scoring/search.hpp"

namespace {

using namespace ionflow;

const std::vector<Protein>& ecoli() {
  static const std::vector<Protein> proteins = [] {
    const std::string path = std::string(IONFLOW_EXAMPLES_DIR) +
                             "/TOPPAS/data/Identification/"
                             "target_decoy_Ecoli_K12_TaxID_83333.proteomes.fasta";
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return parse_fasta(ss.str(), path);  // decoy tag "rev_"
  }();
  return proteins;
}

Modification carbamidomethyl() {
  return {"Carbamidomethyl", 4, 57.021464, ModificationPosition::kAnywhere, "C", true};
}
Modification oxidation() {
  return {"Oxidation", 35, 15.994915, ModificationPosition::kAnywhere, "M", false};
}

// Digest every target and decoy protein (trypsin, missed cleavages from the argument, lengths
// 7-50, Met clipping on).
void BM_DigestTrypsin(benchmark::State& state) {
  const auto& proteins = ecoli();
  EnzymeParameters params;
  const Enzyme trypsin(params);
  DigestOptions options;
  options.missed_cleavages = static_cast<int>(state.range(0));
  options.semi_specific = state.range(1) != 0;
  options.min_length = 7;
  options.max_length = 50;
  std::vector<DigestedPeptide> out;
  size_t peptides = 0;
  for (auto _ : state) {
    for (const auto& p : proteins) {
      out.clear();
      digest(p.sequence, trypsin, options, out);
      peptides += out.size();
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["peptides/s"] =
      benchmark::Counter(static_cast<double>(peptides), benchmark::Counter::kIsRate);
  state.counters["peptides"] =
      static_cast<double>(peptides) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_DigestTrypsin)
    ->Args({0, 0})
    ->Args({2, 0})
    ->Args({2, 1})
    ->Unit(benchmark::kMillisecond);

// Full index: trypsin, 2 missed cleavages, CAM fixed, Ox(M) variable (max 2), reversed-peptide
// decoys (the FASTA's own decoys replaced), 500-5000 Da.
void BM_BuildIndexEcoli(benchmark::State& state) {
  SearchParameters params;
  params.database.enzyme.missed_cleavages = 2;
  params.database.fixed_modifications = {carbamidomethyl()};
  params.database.variable_modifications = {oxidation()};
  size_t peptides = 0, occurrences = 0, bytes = 0;
  for (auto _ : state) {
    auto index = build_peptide_index(ecoli(), params);
    peptides = index->size();
    occurrences = index->occurrences().size();
    bytes = index->peptide_bytes();
  }
  state.counters["peptides"] = static_cast<double>(peptides);
  state.counters["occurrences"] = static_cast<double>(occurrences);
  state.counters["bytes_per_peptide"] = peptides ? static_cast<double>(bytes) / peptides : 0.0;
}
BENCHMARK(BM_BuildIndexEcoli)->Unit(benchmark::kMillisecond)->Iterations(3);

const std::vector<Protein>& bsa_target_decoy() {
  static const std::vector<Protein> proteins = [] {
    const std::string path = std::string(IONFLOW_EXAMPLES_DIR) +
                             "/TOPPAS/data/BSA_Identification/"
                             "18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta";
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    FastaOptions options;
    options.decoy_tag = "_rev";
    options.tag_is_suffix = true;
    return parse_fasta(ss.str(), path, options);
  }();
  return proteins;
}

SearchParameters bsa_demo_parameters() {
  SearchParameters params;
  params.database.decoy_tag = "_rev";
  params.database.decoy_tag_is_suffix = true;
  params.database.decoy_generation = DecoyGeneration::kNone;
  params.database.fixed_modifications = {carbamidomethyl()};
  params.database.variable_modifications = {oxidation()};
  return params;
}

// The first half of a narrow search's database stage (actors/search_runtime.cpp): digesting the
// BSA demo database with each occurrence's base mass and modification sites kept for the
// precursor selection (digest_database(..., for_selection = true)), on 1 and 2 threads.
// Counter: occurrences digested.
void BM_DigestDatabaseBsaForSelection(benchmark::State& state) {
  const SearchParameters params = bsa_demo_parameters();
  PeptideIndexLimits limits;
  limits.threads = static_cast<int>(state.range(0));
  uint64_t occurrences = 0;
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<Protein> proteins = bsa_target_decoy();
    state.ResumeTiming();
    DigestedDatabase digested = digest_database(std::move(proteins), params, nullptr, limits, true);
    occurrences = digested.occurrences();
  }
  state.counters["occurrences"] = static_cast<double>(occurrences);
}
BENCHMARK(BM_DigestDatabaseBsaForSelection)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The second half of a narrow search's database stage: the index of the peptides within BSA1's
// 1,119 queries' precursor windows (±10 ppm, isotope errors 0 and 1) plus the null pool, built
// from a digest made for the selection (the digest itself untimed), on 2 threads.
void BM_SelectedBuildBsa1(benchmark::State& state) {
  SearchParameters params = bsa_demo_parameters();
  params.precursor_tolerance = Tolerance::Ppm(-10.0, 10.0);
  params.isotope_errors = {0, 1};
  static const std::vector<double> masses = [&] {
    const std::string path = std::string(IONFLOW_EXAMPLES_DIR) + "/BSA/BSA1.mzML";
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    auto reader = make_spectrum_reader(PeakListFormat::kMzML, path, 0);
    std::vector<RawSpectrum> spectra;
    reader->feed(ss.str(), spectra);
    reader->finish(spectra);
    std::vector<double> out;
    for (const RawSpectrum& s : spectra) {
      for (const Query& q : prepare_spectrum(s, params).queries) out.push_back(q.neutral_mass);
    }
    return out;
  }();
  PeptideIndexLimits limits;
  limits.threads = 2;
  size_t peptides = 0;
  for (auto _ : state) {
    state.PauseTiming();
    DigestedDatabase digested = digest_database(bsa_target_decoy(), params, nullptr, limits, true);
    state.ResumeTiming();
    const PrecursorSelection selection(masses, params, params.database.peptide_max_mass_da + 1.0);
    auto index = build_peptide_index(std::move(digested), &selection, nullptr, limits);
    peptides = index->size();
  }
  state.counters["queries"] = static_cast<double>(masses.size());
  state.counters["peptides"] = static_cast<double>(peptides);
}
BENCHMARK(BM_SelectedBuildBsa1)->Unit(benchmark::kMillisecond)->UseRealTime();

// The demo job's index (examples/bsa_demo.json): the BSA target-decoy FASTA (18 878 entries,
// decoys from the FASTA, suffix "_rev"), trypsin, 1 missed cleavage, 5-50 residues,
// 500-5000 Da, CAM fixed, Ox(M) variable (max 2) — the database stage of the BSA comparison —
// on 1 and 2 threads.
void BM_BuildIndexBsaDemo(benchmark::State& state) {
  const std::vector<Protein>& proteins = bsa_target_decoy();
  const SearchParameters params = bsa_demo_parameters();
  PeptideIndexLimits limits;
  limits.threads = static_cast<int>(state.range(0));
  size_t peptides = 0;
  for (auto _ : state) {
    auto index = build_peptide_index(proteins, params, nullptr, limits);
    peptides = index->size();
  }
  state.counters["peptides"] = static_cast<double>(peptides);
  state.counters["peptides/s"] =
      benchmark::Counter(static_cast<double>(peptides) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}
BENCHMARK(BM_BuildIndexBsaDemo)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
