// Write time and size of each result format for a job-sized set of PSMs (2000 by default:
// 1000 spectra x 2 ranks, over two files, with Carbamidomethyl / Oxidation / Acetyl and 10%
// decoys), plus results.tsv through the zstd stream at level 3.
//
// Output goes to an in-memory stream, so the numbers are formatting cost, not disk speed.
// Counters: bytes = size of one output, bytes_per_psm; items/s = PSMs written per second.
// Run: bench_writers [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <sstream>
#include <string>
#include <vector>

#include "io/result_writer.hpp"
#include "io/zstd_stream.hpp"
#include "scoring/mass.hpp"

namespace ionflow {
namespace {

// Tryptic BSA peptides, cycled.
const std::vector<std::string> kPeptides = {
    "LVNELTEFAK",    "YICDNQDTISSK",     "MPCTEDYLSLILNR", "HLVDEPQNLIK",    "KVPQVSTPTLVEVSR",
    "LGEYGFQNALIVR", "DAFLGSFLYEYSR",    "RHPEYAVSVLLR",   "ECCHGDLLECADDR", "QTALVELLK",
    "AEFVEVTK",      "LFTFHADICTLPDTEK", "SLHTLFGDELCK",   "TVMENFVAFVDK",   "GACLLPK"};

std::vector<Psm> make_psms(std::size_t count) {
  std::vector<Psm> psms;
  psms.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    Psm psm;
    const std::size_t spectrum = i / 2;
    psm.file_index = spectrum < count / 4 ? 0 : 1;
    psm.spectrum_index = spectrum;
    psm.scan = static_cast<int64_t>(spectrum * 3 + 2);
    psm.native_id = "controllerType=0 controllerNumber=1 scan=" + std::to_string(psm.scan);
    psm.rt_seconds = 600.0 + 1.7 * static_cast<double>(spectrum);
    psm.rank = static_cast<int>(i % 2) + 1;
    psm.charge = 2 + static_cast<int>(spectrum % 2);
    psm.decoy = i % 10 == 9;
    psm.sequence = kPeptides[i % kPeptides.size()];
    psm.calcmass = mass::peptide_mass(psm.sequence);
    std::string proforma;
    for (std::size_t r = 0; r < psm.sequence.size(); ++r) {
      proforma += psm.sequence[r];
      if (psm.sequence[r] == 'C') {
        psm.modifications.push_back(
            {static_cast<int>(r), 'C', 57.021464, "Carbamidomethyl", 4, true});
        psm.calcmass += 57.021464;
        proforma += "[UNIMOD:4]";
      } else if (psm.sequence[r] == 'M' && i % 3 == 0) {
        psm.modifications.push_back({static_cast<int>(r), 'M', 15.994915, "Oxidation", 35, false});
        psm.calcmass += 15.994915;
        proforma += "[UNIMOD:35]";
      }
    }
    if (i % 17 == 0) {
      psm.modifications.insert(psm.modifications.begin(), {-1, 0, 42.010565, "Acetyl", 1, false});
      psm.calcmass += 42.010565;
      proforma = "[UNIMOD:1]-" + proforma;
    }
    psm.proforma = proforma;
    const std::string accession = (psm.decoy ? "rev_" : "") + std::string("sp|P02769|ALBU_BOVIN");
    psm.evidence.push_back({accession, static_cast<uint32_t>(100 + i % 400), 'K', 'A', psm.decoy});
    if (i % 5 == 0) psm.evidence.push_back({"sp|P12763|FETUA_BOVIN", 50, 'R', 'G', false});
    psm.expmass = psm.calcmass + 0.0013 * static_cast<double>(i % 7);
    psm.precursor_mz = mass::mz_from_neutral(psm.expmass, psm.charge);
    psm.precursor_ppm = (psm.expmass - psm.calcmass) / psm.calcmass * 1e6;
    psm.fragment_ppm = 3.5 + static_cast<double>(i % 11) * 0.1;
    psm.hyperscore = 20.0 + static_cast<double>(i % 23);
    psm.delta_next = static_cast<double>(i % 9) * 0.75;
    psm.evalue = 1e-6 * static_cast<double>(1 + i % 1000);
    psm.matched_peaks = 8 + static_cast<int>(i % 12);
    psm.theoretical_peaks = 40;
    psm.candidates = 500;
    psm.spectrum_q = 0.001 * static_cast<double>(i % 50);
    psm.peptide_q = psm.spectrum_q;
    psm.protein_q = 0.0005;
    psms.push_back(std::move(psm));
  }
  return psms;
}

using WriteFunction = void (*)(std::ostream&, const std::vector<Psm>&, const ResultContext&);

void run(benchmark::State& state, WriteFunction write, bool compress) {
  const auto psms = make_psms(static_cast<std::size_t>(state.range(0)));
  SearchParameters params;
  ResultContext context;
  context.params = &params;
  context.spectra_paths = {"/data/BSA1.mzML", "/data/BSA2.mzML"};
  context.fasta_path = "/data/bsa.fasta";
  context.software_version = "0.1.0";
  context.creation_time = "2026-11-30T08:00:00Z";
  std::size_t bytes = 0;
  for (auto _ : state) {
    std::ostringstream out;
    if (compress) {
      ZstdOutputStream zstd(out);
      write(zstd, psms, context);
      zstd.close();
    } else {
      write(out, psms, context);
    }
    bytes = out.str().size();
    benchmark::DoNotOptimize(bytes);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * state.range(0));
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["bytes_per_psm"] =
      static_cast<double>(bytes) / static_cast<double>(state.range(0));
}

void BM_Tsv(benchmark::State& state) {
  run(state, write_tsv, false);
}
void BM_TsvZstd(benchmark::State& state) {
  run(state, write_tsv, true);
}
void BM_Pin(benchmark::State& state) {
  run(state, write_pin, false);
}
void BM_MzIdentMl(benchmark::State& state) {
  run(state, write_mzidentml, false);
}
void BM_MzIdentMlZstd(benchmark::State& state) {
  run(state, write_mzidentml, true);
}
void BM_PepXml(benchmark::State& state) {
  run(state, write_pepxml, false);
}

BENCHMARK(BM_Tsv)->Arg(2000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TsvZstd)->Arg(2000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Pin)->Arg(2000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MzIdentMl)->Arg(2000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MzIdentMlZstd)->Arg(2000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PepXml)->Arg(2000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ionflow

BENCHMARK_MAIN();
