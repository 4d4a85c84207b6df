// ionflow_core_search: single-threaded core search of one mzML/MGF file against a FASTA with the
// demo settings, for tuning identifications without the actor pipeline. The index build and the
// scorer are also timed in CPU seconds (CLOCK_PROCESS/THREAD_CPUTIME_ID, the "cpu:" line), so that
// scorer speed can be compared on a loaded shared machine, where wall time mostly measures the
// other processes.
//
//   ionflow_core_search SPECTRA FASTA [--decoy-tag TAG] [--suffix] [--isotope-errors 0,1]
//                       [--print N] [--list] [--tsv FILE]
//
// --print N lists the N best rank-1 PSMs (targets and decoys), --list every target PSM accepted
// at 1% FDR, --tsv writes all final PSMs with their features.
//
// Demo settings: trypsin, 1 missed cleavage, Carbamidomethyl (C) fixed, Oxidation (M) variable,
// precursor ±10 ppm, fragment ±0.5 Da, charges from the file (unknown -> 2..3), decoys taken
// from the FASTA (DecoyGeneration::kNone). Prints target PSMs / peptides / proteins / protein
// groups at 1% FDR, the same count for simpler scores (raw hyperscore, −log10 E-value without
// rescoring) and timings (spectra/s of the scorer).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <time.h>

#include "io/fasta_reader.hpp"
#include "io/spectrum_reader.hpp"
#include "perf/tool_search_setup.hpp"
#include "scoring/fdr.hpp"
#include "scoring/protein_groups.hpp"
#include "scoring/search.hpp"

using namespace ionflow;
using Clock = std::chrono::steady_clock;

namespace {

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Target rank-1 PSMs with q <= 0.01 when the spectra compete by `key` (one PSM per spectrum).
template <typename Key>
size_t accepted_by(const std::vector<Psm>& psms, Key key, double fdr = 0.01) {
  std::vector<double> scores;
  std::vector<bool> decoy;
  for (const Psm& p : psms) {
    if (p.rank != 1) continue;
    scores.push_back(key(p));
    decoy.push_back(p.decoy);
  }
  const std::vector<double> q = target_decoy_q_values(scores, decoy);
  size_t n = 0;
  for (size_t i = 0; i < q.size(); ++i) n += !decoy[i] && q[i] <= fdr;
  return n;
}

// Best PSM per spectrum by `key` from the raw scorer output (all charges).
template <typename Key>
std::vector<Psm> best_by(const std::vector<Psm>& raw, Key key) {
  std::vector<Psm> best;
  for (const Psm& p : raw) {
    if (p.rank != 1) continue;
    if (!best.empty() && best.back().file_index == p.file_index &&
        best.back().spectrum_index == p.spectrum_index) {
      if (key(p) > key(best.back())) best.back() = p;
    } else {
      best.push_back(p);
    }
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: %s SPECTRA FASTA [--decoy-tag TAG] [--suffix] [--isotope-errors 0,1] "
                 "[--print N] [--list] [--tsv FILE]\n",
                 argv[0]);
    return 2;
  }
  const std::string spectra_path = argv[1];
  const std::string fasta_path = argv[2];
  SearchParameters params = tool::comparison_parameters();
  int print = 0;
  bool list = false;
  std::string tsv;
  for (int i = 3; i < argc; ++i) {
    const std::string a = argv[i];
    if (tool::parse_common_flag(argc, argv, i, params)) continue;
    if (a == "--print" && i + 1 < argc) {
      print = std::stoi(argv[++i]);
    } else if (a == "--list") {
      list = true;
    } else if (a == "--tsv" && i + 1 < argc) {
      tsv = argv[++i];
    } else {
      std::fprintf(stderr, "unknown argument %s\n", a.c_str());
      return 2;
    }
  }

  try {
    auto t0 = Clock::now();
    timespec pc0{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &pc0);
    const std::string fasta = tool::read_file(fasta_path);
    FastaOptions fasta_options{params.database.decoy_tag, params.database.decoy_tag_is_suffix};
    std::vector<Protein> proteins = parse_fasta(fasta, fasta_path, fasta_options);
    const size_t n_proteins = proteins.size();
    auto index = build_peptide_index(std::move(proteins), params);
    const double t_index = seconds_since(t0);
    timespec pc1{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &pc1);
    const double cpu_index = (pc1.tv_sec - pc0.tv_sec) + (pc1.tv_nsec - pc0.tv_nsec) * 1e-9;

    t0 = Clock::now();
    const std::vector<RawSpectrum> spectra = tool::read_spectra(spectra_path);
    const double t_read = seconds_since(t0);

    t0 = Clock::now();
    std::vector<Query> queries;
    size_t skipped = 0;
    for (const RawSpectrum& s : spectra) {
      PreparedSpectrum prepared = prepare_spectrum(s, params);
      if (prepared.queries.empty()) ++skipped;
      for (Query& q : prepared.queries) queries.push_back(std::move(q));
    }
    const double t_prepare = seconds_since(t0);

    t0 = Clock::now();
    const double cpu0 = thread_cpu_seconds();
    SpectrumScorer scorer(index, params);
    std::vector<Psm> raw;
    for (const Query& q : queries) {
      std::vector<Psm> psms = scorer.score(q);
      for (Psm& p : psms) raw.push_back(std::move(p));
    }
    const double t_score = seconds_since(t0);
    const double cpu_score = thread_cpu_seconds() - cpu0;

    t0 = Clock::now();
    std::vector<Psm> final_psms = finalize_psms(raw, params);
    const double t_finalize = seconds_since(t0);

    size_t psms_1pct = 0;
    std::set<std::string> peptides, proteins_1pct;
    for (const Psm& p : final_psms) {
      if (p.rank != 1 || p.decoy) continue;
      if (p.spectrum_q <= 0.01) ++psms_1pct;
      if (p.peptide_q <= 0.01) peptides.insert(p.proforma);
    }
    auto psms_copy = final_psms;
    std::vector<ProteinScore> protein_scores = assign_protein_q_values(
        psms_copy, params.database.decoy_tag, params.database.decoy_tag_is_suffix);
    for (const ProteinScore& ps : protein_scores) {
      if (ps.picked && !ps.decoy && ps.q_value <= 0.01) proteins_1pct.insert(ps.accession);
    }
    std::vector<ProteinGroup> groups = build_protein_groups(final_psms, protein_scores, 0.01);
    size_t groups_1pct = 0;
    for (const ProteinGroup& g : groups) groups_1pct += !g.decoy && g.q_value <= 0.01;

    auto by_hyperscore = best_by(raw, [](const Psm& p) { return p.hyperscore; });
    auto by_evalue = best_by(raw, [](const Psm& p) { return p.score; });

    std::printf("spectra %zu (skipped %zu), queries %zu, proteins %zu, peptides in index %zu\n",
                spectra.size(), skipped, queries.size(), n_proteins, index->size());
    auto key_e = [](const Psm& p) { return p.score; };
    std::printf(
        "target PSMs at 1%% FDR: %zu  (by hyperscore only: %zu, by -log10 E: %zu; at 5%%: %zu, "
        "at 10%%: %zu)\n",
        psms_1pct, accepted_by(by_hyperscore, [](const Psm& p) { return p.hyperscore; }),
        accepted_by(by_evalue, key_e), accepted_by(by_evalue, key_e, 0.05),
        accepted_by(by_evalue, key_e, 0.10));
    std::printf("target peptides at 1%% FDR: %zu\n", peptides.size());
    std::printf("target proteins at 1%% picked FDR: %zu, protein groups: %zu\n",
                proteins_1pct.size(), groups_1pct);
    std::printf(
        "time: index %.2f s, read %.2f s, prepare %.3f s, score %.2f s (%.0f spectra/s, %.0f "
        "queries/s), finalize %.3f s\n",
        t_index, t_read, t_prepare, t_score, (spectra.size() - skipped) / t_score,
        queries.size() / t_score, t_finalize);

    std::printf("cpu: index %.2f s (process), score %.2f s (%.0f queries/s per core)\n", cpu_index,
                cpu_score, queries.size() / cpu_score);

    std::vector<const Psm*> top;
    for (const Psm& p : final_psms) {
      if (p.rank == 1) top.push_back(&p);
    }
    std::sort(top.begin(), top.end(),
              [](const Psm* a, const Psm* b) { return a->score > b->score; });
    for (int i = 0; i < static_cast<int>(top.size()); ++i) {
      const Psm& p = *top[i];
      const bool accepted = !p.decoy && p.spectrum_q <= 0.01;
      if (i >= print && !(list && accepted)) continue;
      std::printf("%4d %-8s scan %5lld z%d %-30s hs %6.2f E %9.2e score %7.3f q %.4f %s\n", i + 1,
                  p.decoy ? "DECOY" : "target", static_cast<long long>(p.scan), p.charge,
                  p.proforma.c_str(), p.hyperscore, p.evalue, p.score, p.spectrum_q,
                  p.evidence.empty() ? "" : p.evidence.front().protein_accession.c_str());
    }
    if (!tsv.empty()) {
      std::ofstream out(tsv);
      out << "spectrum_index\tscan\tcharge\tdecoy\tproforma\thyperscore\txcorr\tdelta_"
             "next\tevalue\t"
             "score\tmatched\ttheoretical\tcandidates\tprecursor_ppm\tisotope\tspectrum_q\t"
             "protein\n";
      for (const Psm& p : final_psms) {
        out << p.spectrum_index << '\t' << p.scan << '\t' << p.charge << '\t' << p.decoy << '\t'
            << p.proforma << '\t' << p.hyperscore << '\t' << p.xcorr << '\t' << p.delta_next << '\t'
            << p.evalue << '\t' << p.score << '\t' << p.matched_peaks << '\t' << p.theoretical_peaks
            << '\t' << p.candidates << '\t' << p.precursor_ppm << '\t' << p.isotope_error << '\t'
            << p.spectrum_q << '\t'
            << (p.evidence.empty() ? "" : p.evidence.front().protein_accession) << '\n';
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
