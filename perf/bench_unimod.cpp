// Micro-benchmarks of the Unimod start-up cost every `ionflow search` job pays: construct
// ionflow::Unimod over the real /usr/share/openms/CHEMISTRY/unimod.xml (IONFLOW_UNIMOD_XML,
// 2.4 MB, ~1500 <umod:mod> entries) and resolve the two modifications of a typical job,
// "Carbamidomethyl (C)" (Unimod 4) and "Oxidation (M)" (Unimod 35), which are Unimod titles.
// Also timed: the whole-file parse that full names, alternative names, "UNIMOD:n" accessions
// and unknown names still need, and one title look-up on an already constructed instance.
//
// Run: bench_unimod [--benchmark_filter=Job]
#include <benchmark/benchmark.h>

#include "scoring/unimod.hpp"

namespace ionflow {
namespace {

// What a job does: construct, then resolve its fixed and variable modifications.
void BM_UnimodJobStart(benchmark::State& state) {
  for (auto _ : state) {
    Unimod unimod;
    benchmark::DoNotOptimize(unimod.resolve("Carbamidomethyl (C)", true));
    benchmark::DoNotOptimize(unimod.resolve("Oxidation (M)", false));
  }
}
BENCHMARK(BM_UnimodJobStart)->Unit(benchmark::kMillisecond);

void BM_UnimodConstruct(benchmark::State& state) {
  for (auto _ : state) {
    Unimod unimod;
    benchmark::DoNotOptimize(&unimod);
  }
}
BENCHMARK(BM_UnimodConstruct)->Unit(benchmark::kMillisecond);

// The slow path: a name that is not a title ("Oxidation or Hydroxylation" is record 35's
// full name) needs the whole file parsed.
void BM_UnimodConstructAndFullName(benchmark::State& state) {
  for (auto _ : state) {
    Unimod unimod;
    benchmark::DoNotOptimize(unimod.lookup("Oxidation or Hydroxylation"));
  }
}
BENCHMARK(BM_UnimodConstructAndFullName)->Unit(benchmark::kMillisecond);

// One title look-up on a constructed instance (the per-name cost of the fast path).
void BM_UnimodLookupTitle(benchmark::State& state) {
  const Unimod unimod;
  for (auto _ : state) benchmark::DoNotOptimize(unimod.lookup("Phospho"));
}
BENCHMARK(BM_UnimodLookupTitle)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace ionflow

BENCHMARK_MAIN();
