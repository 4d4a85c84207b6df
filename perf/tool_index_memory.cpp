// ionflow_index_memory: the peptide-index memory estimate (scoring/index_memory.hpp) against
// the real build's peak RSS, for one FASTA and one setting, in one process:
//
//   ionflow_index_memory FASTA [--semi] [--missed N] [--mods N] [--max-mods N] [--decoys]
//                        [--threads N] [--estimate-only]
//
// --mods N takes the first N of: Oxidation (M), Phospho (STY), Deamidated (NQ), Acetyl
// (peptide N-term), Methyl (KR) as variable modifications (Carbamidomethyl C always fixed);
// --decoys generates reversed-peptide decoys (else the FASTA's "rev_" decoys are used).
// Prints the estimate (phases, occurrences, forms), then builds the whole index and prints the
// built forms and the process's peak RSS (getrusage ru_maxrss, which
// includes the FASTA text and the process's own ~10 MB).
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "io/fasta_reader.hpp"
#include "scoring/index_memory.hpp"
#include "scoring/peptide_index.hpp"

using namespace ionflow;

namespace {

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024.0;  // KiB on Linux
}

std::vector<Modification> variable_mods(int n) {
  const std::vector<Modification> all = {
      {"Oxidation", 35, 15.994915, ModificationPosition::kAnywhere, "M", false},
      {"Phospho", 21, 79.966331, ModificationPosition::kAnywhere, "STY", false},
      {"Deamidated", 7, 0.984016, ModificationPosition::kAnywhere, "NQ", false},
      {"Acetyl", 1, 42.010565, ModificationPosition::kPeptideNTerm, "", false},
      {"Methyl", 34, 14.01565, ModificationPosition::kAnywhere, "KR", false},
  };
  return {all.begin(), all.begin() + std::min<size_t>(static_cast<size_t>(n), all.size())};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: ionflow_index_memory FASTA [--semi] [--missed N] [--mods N] "
                 "[--max-mods N] [--decoys] [--threads N] [--estimate-only]\n");
    return 2;
  }
  SearchParameters params;
  params.database.decoy_generation = DecoyGeneration::kNone;
  params.database.fixed_modifications.push_back(
      {"Carbamidomethyl", 4, 57.021464, ModificationPosition::kAnywhere, "C", true});
  int threads = 1, mods = 1;
  bool estimate_only = false;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::atoi(argv[++i]) : 0; };
    if (a == "--semi") {
      params.database.enzyme.semi_enzymatic = true;
    } else if (a == "--missed") {
      params.database.enzyme.missed_cleavages = next();
    } else if (a == "--mods") {
      mods = next();
    } else if (a == "--max-mods") {
      params.database.max_variable_modifications = next();
    } else if (a == "--decoys") {
      params.database.decoy_generation = DecoyGeneration::kReversePeptide;
    } else if (a == "--threads") {
      threads = next();
    } else if (a == "--estimate-only") {
      estimate_only = true;
    } else {
      std::fprintf(stderr, "unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  params.database.variable_modifications = variable_mods(mods);
  std::vector<Protein> proteins;
  {
    std::ifstream in(argv[1], std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    proteins = parse_fasta(ss.str(), argv[1], FastaOptions{"rev_", false});
  }  // the text is freed, as a job frees its FASTA image after parsing
  const auto t0 = std::chrono::steady_clock::now();
  const IndexMemoryEstimate e = estimate_index_memory(proteins, params, true);
  const double estimate_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("estimate: %s peak (digest %s, index %s); %llu occurrences, ~%llu forms; %.2f s\n",
              memory_size_text(e.peak_bytes()).c_str(), memory_size_text(e.digest_bytes).c_str(),
              memory_size_text(e.index_bytes).c_str(),
              static_cast<unsigned long long>(e.occurrences),
              static_cast<unsigned long long>(e.peptide_forms), estimate_s);
  std::fflush(stdout);
  if (estimate_only) return 0;
  PeptideIndexLimits limits;
  limits.threads = threads;
  limits.max_peptide_forms = 1ull << 40;
  const auto t1 = std::chrono::steady_clock::now();
  auto index = build_peptide_index(std::move(proteins), params, nullptr, limits);
  const double build_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  std::printf("built: %zu forms in %.2f s; peak RSS %.0f MiB; estimate / peak %.2f\n",
              index->size(), build_s, peak_rss_mib(),
              static_cast<double>(e.peak_bytes()) / (peak_rss_mib() * 1024 * 1024));
  return 0;
}
