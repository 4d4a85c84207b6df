// ionflow_score_check: the scorer alone on one core, with a checksum of everything it returns,
// for speed-ups of the scoring core that must not change a bit of its output:
//
//   ionflow_score_check SPECTRA FASTA [--decoy-tag TAG] [--suffix] [--isotope-errors 0,1]
//                       [--fragment-da X] [--precursor-ppm X] [--whole] [--repeat N]
//
// Reads the spectra, prepares the queries, builds the index a one-run job would (the peptides
// within the queries' precursor windows plus the null pool; --whole: every peptide), then scores
// every query with one SpectrumScorer in ascending neutral mass (the sorter's order) and prints
// the scorer's thread CPU seconds, queries per CPU second, PSMs, and the SHA-256 of every raw
// PSM as io/psm_codec encodes it (every field, doubles bit for bit). Two builds give the same
// checksum exactly when their scorers return the same PSMs. --repeat N scores N times and
// prints each time (the checksum must not change).
//
// Settings: the comparison's (perf/compare tools.py): trypsin, 1 missed cleavage,
// Carbamidomethyl (C) fixed (UNIMOD:4, +57.021464 Da), Oxidation (M) variable (UNIMOD:35,
// +15.994915 Da, at most 2), decoys from the FASTA (default tag "rev_" as a prefix), precursor
// ±10 ppm, fragment ±0.5 Da, isotope errors 0 and 1.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "io/fasta_reader.hpp"
#include "io/psm_codec.hpp"
#include "io/run_queue.hpp"
#include "io/sha256.hpp"
#include "io/spectrum_reader.hpp"
#include "perf/tool_search_setup.hpp"
#include "scoring/search.hpp"
#include "scoring/search_plan.hpp"

using namespace ionflow;

namespace {

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: %s SPECTRA FASTA [--decoy-tag TAG] [--suffix] [--isotope-errors 0,1] "
                 "[--fragment-da X] [--precursor-ppm X] [--whole] [--repeat N]\n",
                 argv[0]);
    return 2;
  }
  const std::string spectra_path = argv[1];
  const std::string fasta_path = argv[2];
  SearchParameters params = tool::comparison_parameters();
  bool whole = false;
  int repeat = 1;
  for (int i = 3; i < argc; ++i) {
    const std::string a = argv[i];
    if (tool::parse_common_flag(argc, argv, i, params)) continue;
    if (a == "--fragment-da" && i + 1 < argc) {
      const double x = std::stod(argv[++i]);
      params.fragment_tolerance = Tolerance::Da(-x, x);
    } else if (a == "--precursor-ppm" && i + 1 < argc) {
      const double x = std::stod(argv[++i]);
      params.precursor_tolerance = Tolerance::Ppm(-x, x);
    } else if (a == "--whole") {
      whole = true;
    } else if (a == "--repeat" && i + 1 < argc) {
      repeat = std::max(1, std::stoi(argv[++i]));
    } else {
      std::fprintf(stderr, "unknown argument %s\n", a.c_str());
      return 2;
    }
  }

  try {
    const std::vector<RawSpectrum> spectra = tool::read_spectra(spectra_path);
    std::vector<Query> queries;
    for (const RawSpectrum& s : spectra) {
      for (Query& q : prepare_spectrum(s, params).queries) queries.push_back(std::move(q));
    }
    std::sort(queries.begin(), queries.end(), query_order_less);
    std::vector<double> masses;
    for (const Query& q : queries) masses.push_back(q.neutral_mass);

    FastaOptions fasta_options{params.database.decoy_tag, params.database.decoy_tag_is_suffix};
    std::vector<Protein> proteins =
        parse_fasta(tool::read_file(fasta_path), fasta_path, fasta_options);
    PeptideIndexLimits limits;
    limits.threads = 2;
    std::shared_ptr<const PeptideIndex> index;
    if (whole) {
      index = build_peptide_index(std::move(proteins), params, nullptr, limits);
    } else {
      index = build_selected_index(digest_database(std::move(proteins), params, nullptr, limits),
                                   masses, params, fasta_path, 2, nullptr)
                  .index;
    }
    std::printf("queries %zu, peptides in the index %zu (%s)\n", queries.size(), index->size(),
                whole ? "whole" : "selected");
    for (int r = 0; r < repeat; ++r) {
      SpectrumScorer scorer(index, params);
      Sha256 sha;
      std::string encoded;
      uint64_t psms = 0;
      double cpu = 0.0;  // in score() only, not in the checksum
      for (const Query& q : queries) {
        const double cpu0 = thread_cpu_seconds();
        const std::vector<Psm> out = scorer.score(q);
        cpu += thread_cpu_seconds() - cpu0;
        for (const Psm& p : out) {
          encoded.clear();
          encode_psm(p, encoded);
          sha.update(encoded);
          ++psms;
        }
      }
      std::printf("score: %.3f CPU s, %.0f queries/s per core, %llu PSMs, sha256 %s\n", cpu,
                  static_cast<double>(queries.size()) / cpu, static_cast<unsigned long long>(psms),
                  sha.hex_digest().c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
