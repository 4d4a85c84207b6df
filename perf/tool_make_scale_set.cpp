// ionflow_make_scale_set: writes the scale set, a large search input made from real data, to
// measure ionflow (and peers) at the size of Mascot's published benchmark.
//
// Spectra: the real MS2 spectra of openms-doc (BSA1-3 and Ecoli_MS2_small by default; the
// FRACTIONS/ files are splits of BSA1-3 and would only repeat them) are replicated round-robin
// to --queries spectra (default 683,905), each copy after the first jittered by a few ppm in
// precursor and fragment m/z and ~10% in intensity (perf/scale/spectrum_jitter.hpp). One
// spectrum = one query (the seeds carry one charge each). Written as MGF and as indexed mzML
// with 32-bit base64 arrays (perf/scale/peak_list_writers.hpp).
// Database: the real target proteins (BSA 18-protein set with its Sorangium background, E. coli
// K-12), plus generated background proteins (perf/scale/protein_background.hpp) up to --proteins
// targets and about --residues target residues (default 20,000 and 11,000,000, human-proteome
// size), then every target reversed as a decoy tagged "rev_". Headers are ">ACCESSION
// description" / ">rev_ACCESSION ...".
//
// Deterministic: the same --seed and options give byte-identical files. Nothing is committed;
// see perf/README.md for usage and timings. Errors (unreadable input, parse error, unwritable
// output) print one line naming the file and exit with status 1; bad options exit with 2.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "io/fasta_reader.hpp"
#include "io/spectrum_reader.hpp"
#include "perf/scale/output_file.hpp"
#include "perf/scale/peak_list_writers.hpp"
#include "perf/scale/protein_background.hpp"
#include "perf/scale/random.hpp"
#include "perf/scale/spectrum_jitter.hpp"
#include "scoring/protein.hpp"
#include "scoring/spectrum.hpp"

namespace {

using namespace ionflow;
using namespace ionflow::scale;
namespace fs = std::filesystem;

struct FastaInput {
  std::string path;
  std::string decoy_tag;
  bool tag_is_suffix = false;
};

struct Options {
  uint64_t queries = 683905;     // Mascot's published benchmark size
  uint64_t proteins = 20000;     // target proteins in the database
  uint64_t residues = 11000000;  // target residues in the database (approximate)
  uint64_t seed = 1;
  std::string out = "data/scale";
  bool mgf = true;
  bool mzml = true;
  bool fasta = true;
  std::vector<std::string> spectra;
  std::vector<FastaInput> fastas;
  JitterSettings jitter;
};

const char* kUsage =
    "usage: ionflow_make_scale_set [options]\n"
    "  --queries N            spectra to write (default 683905)\n"
    "  --proteins N           target proteins in the database (default 20000)\n"
    "  --residues N           target residues in the database, approximate (default 11000000)\n"
    "  --seed N               random seed (default 1)\n"
    "  --out DIR              output directory (default data/scale)\n"
    "  --formats LIST         any of mgf,mzml,fasta (default all three)\n"
    "  --spectra A,B,...      seed mzML/MGF files (default openms-doc BSA1-3, Ecoli_MS2_small)\n"
    "  --fasta PATH:TAG:prefix|suffix   real protein FASTA and its decoy tag (repeatable;\n"
    "                         default the BSA and E. coli target-decoy FASTAs; decoys dropped)\n"
    "  --precursor-ppm-sd X   precursor m/z jitter, ppm (default 2)\n"
    "  --fragment-ppm-sd X    fragment m/z jitter, ppm (default 2)\n"
    "  --intensity-log-sd X   intensity jitter, sd of the natural log (default 0.1)\n";

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, sep)) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

[[noreturn]] void usage_error(const std::string& message) {
  std::cerr << "ionflow_make_scale_set: " << message << "\n" << kUsage;
  std::exit(2);
}

uint64_t parse_count(const std::string& flag, const std::string& v) {
  try {
    std::size_t used = 0;
    const unsigned long long n = std::stoull(v, &used);
    if (used != v.size()) throw std::invalid_argument(v);
    return n;
  } catch (const std::exception&) {
    usage_error(flag + ": expected a non-negative integer, got \"" + v + "\"");
  }
}

double parse_number(const std::string& flag, const std::string& v) {
  try {
    std::size_t used = 0;
    const double x = std::stod(v, &used);
    if (used != v.size() || x < 0) throw std::invalid_argument(v);
    return x;
  } catch (const std::exception&) {
    usage_error(flag + ": expected a non-negative number, got \"" + v + "\"");
  }
}

Options parse_options(int argc, char** argv) {
  Options o;
  const std::string examples = IONFLOW_EXAMPLES_DIR;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "-h" || flag == "--help") {
      std::cout << kUsage;
      std::exit(0);
    }
    if (i + 1 >= argc) usage_error(flag + ": missing value (or unknown option)");
    const std::string v = argv[++i];
    if (flag == "--queries") {
      o.queries = parse_count(flag, v);
    } else if (flag == "--proteins") {
      o.proteins = parse_count(flag, v);
    } else if (flag == "--residues") {
      o.residues = parse_count(flag, v);
    } else if (flag == "--seed") {
      o.seed = parse_count(flag, v);
    } else if (flag == "--out") {
      o.out = v;
    } else if (flag == "--formats") {
      o.mgf = o.mzml = o.fasta = false;
      for (const auto& f : split(v, ',')) {
        if (f == "mgf") {
          o.mgf = true;
        } else if (f == "mzml") {
          o.mzml = true;
        } else if (f == "fasta") {
          o.fasta = true;
        } else {
          usage_error("--formats: unknown format \"" + f + "\" (mgf, mzml, fasta)");
        }
      }
    } else if (flag == "--spectra") {
      o.spectra = split(v, ',');
    } else if (flag == "--fasta") {
      auto parts = split(v, ':');
      if (parts.size() != 3 || (parts[2] != "prefix" && parts[2] != "suffix")) {
        usage_error("--fasta: expected PATH:TAG:prefix|suffix, got \"" + v + "\"");
      }
      o.fastas.push_back({parts[0], parts[1], parts[2] == "suffix"});
    } else if (flag == "--precursor-ppm-sd") {
      o.jitter.precursor_ppm_sd = parse_number(flag, v);
    } else if (flag == "--fragment-ppm-sd") {
      o.jitter.fragment_ppm_sd = parse_number(flag, v);
    } else if (flag == "--intensity-log-sd") {
      o.jitter.intensity_log_sd = parse_number(flag, v);
    } else {
      usage_error("unknown option " + flag);
    }
  }
  if (o.spectra.empty()) {
    for (const char* f :
         {"BSA/BSA1.mzML", "BSA/BSA2.mzML", "BSA/BSA3.mzML", "ID/Ecoli_MS2_small.mzML"}) {
      o.spectra.push_back(examples + "/" + f);
    }
  }
  if (o.fastas.empty()) {
    o.fastas.push_back({examples + "/TOPPAS/data/BSA_Identification/"
                                   "18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta",
                        "_rev", true});
    o.fastas.push_back(
        {examples +
             "/TOPPAS/data/Identification/target_decoy_Ecoli_K12_TaxID_83333.proteomes.fasta",
         "rev_", false});
  }
  return o;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open");
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) throw std::runtime_error(path + ": read failed");
  return s.str();
}

struct Seed {
  RawSpectrum spectrum;
  std::string label;  // "BSA1.mzML spectrum=2442"
};

// Every MS2 spectrum with peaks and a precursor m/z, in file order, read with ionflow's readers.
std::vector<Seed> read_seeds(const std::vector<std::string>& paths) {
  std::vector<Seed> seeds;
  for (std::size_t f = 0; f < paths.size(); ++f) {
    const std::string content = read_file(paths[f]);
    auto reader =
        make_spectrum_reader(detect_peak_list_format(content), paths[f], static_cast<uint32_t>(f));
    std::vector<RawSpectrum> spectra;
    constexpr std::size_t kBlock = 4 << 20;
    for (std::size_t at = 0; at < content.size(); at += kBlock) {
      reader->feed(std::string_view(content).substr(at, kBlock), spectra);
    }
    reader->finish(spectra);
    const std::string name = fs::path(paths[f]).filename().string();
    for (auto& s : spectra) {
      if (s.mz.empty() || s.precursor_mz <= 0.0) continue;
      std::string label = name + " " + s.native_id;
      seeds.push_back({std::move(s), std::move(label)});
    }
  }
  return seeds;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

void write_spectra(const Options& o, const std::vector<Seed>& seeds, const std::string& stem) {
  const auto t0 = std::chrono::steady_clock::now();
  std::unique_ptr<MgfWriter> mgf;
  std::unique_ptr<IndexedMzmlWriter> mzml;
  if (o.mgf) mgf = std::make_unique<MgfWriter>(stem + ".mgf");
  if (o.mzml) mzml = std::make_unique<IndexedMzmlWriter>(stem + ".mzML", o.queries);
  double cycle_seconds = 60.0;
  for (const auto& s : seeds) cycle_seconds = std::max(cycle_seconds, s.spectrum.rt_seconds + 60.0);
  Random random(o.seed);
  ScaleSpectrum out;
  uint64_t peaks = 0;
  for (uint64_t k = 0; k < o.queries; ++k) {
    const uint64_t copy = k / seeds.size();
    const Seed& seed = seeds[k % seeds.size()];
    jitter_copy(seed.spectrum, o.jitter, copy > 0, random, out);
    out.scan = k + 1;
    out.seed = seed.label + " copy " + std::to_string(copy);
    out.rt_seconds =
        static_cast<double>(copy) * cycle_seconds + std::max(0.0, seed.spectrum.rt_seconds);
    peaks += out.mz.size();
    if (mgf) mgf->write(out);
    if (mzml) mzml->write(out);
  }
  if (mgf) mgf->close();
  if (mzml) mzml->close();
  std::printf("spectra: %llu queries from %zu real MS2 spectra (%llu peaks) in %.1f s\n",
              static_cast<unsigned long long>(o.queries), seeds.size(),
              static_cast<unsigned long long>(peaks), seconds_since(t0));
  if (mgf) std::printf("  %s.mgf\n", stem.c_str());
  if (mzml) std::printf("  %s.mzML\n", stem.c_str());
}

void write_fasta_entry(OutputFile& out, const std::string& accession,
                       const std::string& description, const std::string& sequence) {
  out.put('>');
  out.put(accession);
  if (!description.empty()) {
    out.put(' ');
    out.put(description);
  }
  out.put('\n');
  for (std::size_t i = 0; i < sequence.size(); i += 60) {
    out.put(std::string_view(sequence).substr(i, 60));
    out.put('\n');
  }
}

void write_database(const Options& o, const std::string& path) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<Protein> targets;
  for (const auto& f : o.fastas) {
    FastaOptions fo;
    fo.decoy_tag = f.decoy_tag;
    fo.tag_is_suffix = f.tag_is_suffix;
    for (auto& p : parse_fasta(read_file(f.path), f.path, fo)) {
      if (!p.is_decoy) targets.push_back(std::move(p));
    }
  }
  const std::size_t real = targets.size();
  const auto model = ProteinBackground::fit(targets);
  const uint64_t background = o.proteins > real ? o.proteins - real : 0;
  double length_scale = 1.0;
  if (background > 0 && o.residues > model.total_length()) {
    length_scale = static_cast<double>(o.residues - model.total_length()) /
                   (static_cast<double>(background) * model.mean_length());
  }
  Random random(o.seed ^ 0x5CA1E5E7DB0000ull);
  char name[32];
  for (uint64_t i = 0; i < background; ++i) {
    std::snprintf(name, sizeof(name), "BG%06llu", static_cast<unsigned long long>(i + 1));
    targets.push_back(
        {name, "ionflow scale-set background protein", model.sample(random, length_scale), false});
  }
  OutputFile out(path);
  uint64_t residues = 0;
  for (const auto& p : targets) {
    write_fasta_entry(out, p.accession, p.description, p.sequence);
    residues += p.sequence.size();
  }
  for (const auto& p : targets) {
    write_fasta_entry(out, "rev_" + p.accession, p.description,
                      std::string(p.sequence.rbegin(), p.sequence.rend()));
  }
  out.close();
  std::printf(
      "database: %zu targets (%zu real, %llu background, length scale %.3f), %llu target "
      "residues, + %zu reversed decoys (rev_) in %.1f s\n  %s\n",
      targets.size(), real, static_cast<unsigned long long>(background), length_scale,
      static_cast<unsigned long long>(residues), targets.size(), seconds_since(t0), path.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  try {
    fs::create_directories(o.out);
    const std::string seed = "_seed" + std::to_string(o.seed);
    if (o.mgf || o.mzml) {
      if (o.queries == 0) usage_error("--queries must be > 0");
      const auto seeds = read_seeds(o.spectra);
      if (seeds.empty())
        throw std::runtime_error("no MS2 spectra with peaks in the --spectra files");
      write_spectra(o, seeds, o.out + "/scale_" + std::to_string(o.queries) + seed);
    }
    if (o.fasta) {
      write_database(o, o.out + "/scale_db_" + std::to_string(o.proteins) + seed + ".fasta");
    }
  } catch (const std::exception& e) {
    std::cerr << "ionflow_make_scale_set: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
