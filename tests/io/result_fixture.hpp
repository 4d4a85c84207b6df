// Hand-made PSMs shared by the result-writer tests: real BSA peptides (ALBU_BOVIN) with
// Carbamidomethyl C (fixed, UNIMOD:4), Oxidation M (variable, UNIMOD:35) and protein N-terminal
// Acetyl (variable, UNIMOD:1), targets and reversed-peptide decoys, over two spectra files (one
// mzML with Thermo native ids, one MGF with titles). Masses come from scoring/mass.hpp plus the
// Unimod monoisotopic deltas, so LVNELTEFAK is 1162.62339 Da as in every BSA digest table.
//
// Also: a scratch directory per test and a shell-command runner for the interop checks.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "io/result_writer.hpp"
#include "scoring/mass.hpp"
#include "scoring/psm.hpp"
#include "scoring/search_parameters.hpp"

namespace ionflow::result_testing {

inline constexpr double kCarbamidomethylDa = 57.021464;  // Unimod 4, monoisotopic
inline constexpr double kOxidationDa = 15.994915;        // Unimod 35
inline constexpr double kAcetylDa = 42.010565;           // Unimod 1

inline AppliedModification carbamidomethyl(int position) {
  return {position, 'C', kCarbamidomethylDa, "Carbamidomethyl", 4, true};
}
inline AppliedModification oxidation(int position) {
  return {position, 'M', kOxidationDa, "Oxidation", 35, false};
}
inline AppliedModification acetyl_n_term() {
  return {-1, 0, kAcetylDa, "Acetyl", 1, false};
}

inline SearchParameters fixture_parameters() {
  SearchParameters params;
  params.database.fixed_modifications = {
      {"Carbamidomethyl", 4, kCarbamidomethylDa, ModificationPosition::kAnywhere, "C", true}};
  params.database.variable_modifications = {
      {"Oxidation", 35, kOxidationDa, ModificationPosition::kAnywhere, "M", false},
      {"Acetyl", 1, kAcetylDa, ModificationPosition::kProteinNTerm, "", false}};
  params.database.decoy_tag = "rev_";
  params.precursor_tolerance = Tolerance::Ppm(-10, 10);
  params.fragment_tolerance = Tolerance::Da(-0.5, 0.5);
  params.isotope_errors = {0, 1};
  params.report_psms = 2;
  return params;
}

struct PsmSpec {
  uint32_t file;
  uint64_t spectrum;
  std::string native_id;
  int64_t scan;
  double rt_seconds;
  int charge;
  int rank;
  bool decoy;
  std::string sequence;
  std::string proforma;
  std::vector<AppliedModification> mods;
  std::vector<PeptideEvidence> evidence;
  double mass_error_da;  // expmass - calcmass
  double hyperscore, delta_next, evalue;
  int matched, theoretical;
  double spectrum_q, peptide_q, protein_q;
};

inline Psm make_psm(const PsmSpec& s) {
  Psm psm;
  psm.file_index = s.file;
  psm.spectrum_index = s.spectrum;
  psm.native_id = s.native_id;
  psm.scan = s.scan;
  psm.rt_seconds = s.rt_seconds;
  psm.charge = s.charge;
  psm.rank = s.rank;
  psm.decoy = s.decoy;
  psm.sequence = s.sequence;
  psm.proforma = s.proforma;
  psm.modifications = s.mods;
  psm.evidence = s.evidence;
  psm.calcmass = mass::peptide_mass(s.sequence);
  for (const auto& mod : s.mods) psm.calcmass += mod.mass_delta_da;
  psm.expmass = psm.calcmass + s.mass_error_da;
  psm.precursor_mz = mass::mz_from_neutral(psm.expmass, s.charge);
  psm.precursor_ppm = s.mass_error_da / psm.calcmass * 1e6;
  psm.fragment_ppm = 4.25;
  psm.hyperscore = s.hyperscore;
  psm.delta_next = s.delta_next;
  psm.evalue = s.evalue;
  psm.matched_peaks = s.matched;
  psm.theoretical_peaks = s.theoretical;
  psm.candidates = 321;
  psm.spectrum_q = s.spectrum_q;
  psm.peptide_q = s.peptide_q;
  psm.protein_q = s.protein_q;
  return psm;
}

inline const std::string kAlbumin = "sp|P02769|ALBU_BOVIN";
inline const std::string kDecoyAlbumin = "rev_sp|P02769|ALBU_BOVIN";
inline const std::string kFetuin = "sp|P12763|FETUA_BOVIN";

// Six PSMs on five spectra, in finalize_psms() order (file, spectrum, rank).
inline std::vector<Psm> fixture_psms() {
  std::vector<PsmSpec> specs = {
      {0,
       0,
       "controllerType=0 controllerNumber=1 scan=2",
       2,
       61.2,
       2,
       1,
       false,
       "LVNELTEFAK",
       "LVNELTEFAK",
       {},
       {{kAlbumin, 65, 'K', 'D', false}},
       0.0012,
       38.5,
       12.25,
       3.2e-7,
       14,
       36,
       0.001,
       0.002,
       0.0005},
      {0,
       0,
       "controllerType=0 controllerNumber=1 scan=2",
       2,
       61.2,
       2,
       2,
       true,
       "AFETLENVLK",
       "AFETLENVLK",
       {},
       {{kDecoyAlbumin, 10, 'R', 'E', true}},
       0.0012,
       26.25,
       1.5,
       0.031,
       8,
       36,
       0.5,
       0.6,
       0.7},
      {0,
       5,
       "controllerType=0 controllerNumber=1 scan=7",
       7,
       75.0,
       2,
       1,
       false,
       "YICDNQDTISSK",
       "YIC[UNIMOD:4]DNQDTISSK",
       {carbamidomethyl(2)},
       {{kAlbumin, 285, 'K', 'L', false}, {kFetuin, 100, 'R', 'A', false}},
       -0.0021,
       41.0,
       20.5,
       1.5e-9,
       17,
       44,
       0.001,
       0.002,
       0.0005},
      {1,
       0,
       "BSA2.2.2.3 File:BSA2",
       -1,
       120.5,
       3,
       1,
       false,
       "MKWVTFISLLLLFSSAYSR",
       "[UNIMOD:1]-M[UNIMOD:35]KWVTFISLLLLFSSAYSR",
       {acetyl_n_term(), oxidation(0)},
       {{kAlbumin, 0, '-', 'G', false}},
       0.0035,
       29.75,
       6.0,
       0.0042,
       11,
       72,
       0.004,
       0.004,
       0.0005},
      {1,
       3,
       "title with <&> \"quotes\"",
       44,
       130.25,
       2,
       1,
       false,
       "MPCTEDYLSLILNR",
       "M[UNIMOD:35]PC[UNIMOD:4]TEDYLSLILNR",
       {oxidation(0), carbamidomethyl(2)},
       {{kAlbumin, 568, 'K', 'L', false}},
       0.0,
       35.0,
       9.75,
       2.5e-6,
       15,
       52,
       0.002,
       0.003,
       0.0005},
      {1,
       4,
       "decoy spectrum",
       45,
       131.0,
       2,
       1,
       true,
       "SSITDQNDCIYK",
       "SSITDQNDC[UNIMOD:4]IYK",
       {carbamidomethyl(8)},
       {{kDecoyAlbumin, 300, 'R', 'T', true}},
       0.0081,
       18.5,
       0.25,
       0.85,
       6,
       44,
       0.8,
       0.8,
       0.9},
  };
  std::vector<Psm> psms;
  for (const auto& s : specs) psms.push_back(make_psm(s));
  return psms;
}

// A fresh directory under the system temp dir, removed when the object goes away.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& name) {
    path_ = std::filesystem::temp_directory_path() /
            ("ionflow_" + name + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

inline ResultContext fixture_context(const SearchParameters* params, const ScratchDir& dir) {
  ResultContext context;
  context.params = params;
  context.spectra_paths = {dir.file("BSA1.mzML"), dir.file("BSA2.mgf")};
  context.fasta_path = dir.file("bsa_target_decoy.fasta");
  context.software_version = "0.1.0";
  context.creation_time = "2026-11-30T08:00:00Z";
  return context;
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

// Runs `command` through the shell, capturing stdout + stderr.
inline CommandResult run_command(const std::string& command) {
  CommandResult result;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer;
  std::size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
    result.output.append(buffer.data(), n);
  }
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

// Splits on `separator`, keeping empty fields.
inline std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = text.find(separator, start);
    fields.push_back(
        text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return fields;
}

// Every value of attribute `name` on elements `<element ...>` in document order (a minimal scan,
// enough for the writers' own output: attributes in double quotes, no '>' inside values).
inline std::vector<std::string> attribute_values(const std::string& xml, const std::string& element,
                                                 const std::string& name) {
  std::vector<std::string> values;
  const std::string open = "<" + element + " ";
  for (std::size_t at = xml.find(open); at != std::string::npos; at = xml.find(open, at + 1)) {
    const std::size_t close = xml.find('>', at);
    const std::string tag = xml.substr(at, close - at);
    const std::string key = " " + name + "=\"";
    const std::size_t k = tag.find(key);
    if (k == std::string::npos) {
      values.emplace_back("<missing>");
      continue;
    }
    const std::size_t begin = k + key.size();
    values.push_back(tag.substr(begin, tag.find('"', begin) - begin));
  }
  return values;
}

inline const std::string kSchemasDir = "/usr/share/openms/SCHEMAS";

// xmllint's verdict on `path` against the XSD `schema` (file name under kSchemasDir).
inline CommandResult validate_xml(const std::string& path, const std::string& schema) {
  return run_command("xmllint --noout --schema " + kSchemasDir + "/" + schema + " '" + path + "'");
}

// One PeptideHit as OpenMS wrote it to idXML.
struct OpenMsHit {
  std::string sequence;  // OpenMS notation, ".(Acetyl)M(Oxidation)K..."
  double score = 0.0;
  int charge = 0;
  double rt_seconds = -1.0;  // of the enclosing PeptideIdentification
  std::map<std::string, std::string> user_params;
};

inline std::string attribute(const std::string& tag, const std::string& name) {
  const std::string key = " " + name + "=\"";
  const std::size_t k = tag.find(key);
  if (k == std::string::npos) return {};
  const std::size_t begin = k + key.size();
  return tag.substr(begin, tag.find('"', begin) - begin);
}

// Every PeptideHit of an idXML document.
inline std::vector<OpenMsHit> read_idxml_hits(const std::string& idxml) {
  std::vector<OpenMsHit> hits;
  double rt = -1.0;
  bool in_hit = false;
  std::size_t at = 0;
  for (;;) {
    const std::size_t open = idxml.find('<', at);
    if (open == std::string::npos) break;
    const std::size_t close = idxml.find('>', open);
    const std::string tag = idxml.substr(open, close - open);
    at = close;
    if (tag.rfind("<PeptideIdentification ", 0) == 0) {
      const std::string value = attribute(tag, "RT");
      rt = value.empty() ? -1.0 : std::stod(value);
    } else if (tag.rfind("<PeptideHit ", 0) == 0) {
      OpenMsHit hit;
      hit.sequence = attribute(tag, "sequence");
      hit.score = std::stod(attribute(tag, "score"));
      hit.charge = std::stoi(attribute(tag, "charge"));
      hit.rt_seconds = rt;
      hits.push_back(hit);
      in_hit = true;
    } else if (tag.rfind("</PeptideHit", 0) == 0) {
      in_hit = false;
    } else if (in_hit && tag.rfind("<UserParam ", 0) == 0) {
      hits.back().user_params[attribute(tag, "name")] = attribute(tag, "value");
    }
  }
  return hits;
}

}  // namespace ionflow::result_testing
