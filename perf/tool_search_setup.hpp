// What the single-process developer tools (ionflow_core_search, ionflow_score_check) share: the
// comparison's search settings, their common command-line flags, and reading a file or a peak
// list whole. Header-only; for perf/ tools, not for the service.
//
// Settings (perf/compare tools.py): trypsin, 1 missed cleavage, Carbamidomethyl (C) fixed
// (UNIMOD:4, +57.021464 Da), Oxidation (M) variable (UNIMOD:35, +15.994915 Da), decoys from the
// FASTA (tag "rev_" as a prefix), isotope errors 0 and 1; the rest SearchParameters' defaults.
#pragma once

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "io/spectrum_reader.hpp"
#include "scoring/search_parameters.hpp"

namespace ionflow::tool {

inline SearchParameters comparison_parameters() {
  SearchParameters params;
  params.database.decoy_generation = DecoyGeneration::kNone;
  params.database.decoy_tag = "rev_";
  params.database.decoy_tag_is_suffix = false;
  params.isotope_errors = {0, 1};
  params.database.fixed_modifications.push_back(
      {"Carbamidomethyl", 4, 57.021464, ModificationPosition::kAnywhere, "C", true});
  params.database.variable_modifications.push_back(
      {"Oxidation", 35, 15.994915, ModificationPosition::kAnywhere, "M", false});
  return params;
}

// If argv[i] is one of the common flags (--decoy-tag TAG, --suffix, --isotope-errors 0,1),
// applies it to `params`, advances i past its value and returns true; false otherwise.
inline bool parse_common_flag(int argc, char** argv, int& i, SearchParameters& params) {
  const std::string a = argv[i];
  if (a == "--decoy-tag" && i + 1 < argc) {
    params.database.decoy_tag = argv[++i];
  } else if (a == "--suffix") {
    params.database.decoy_tag_is_suffix = true;
  } else if (a == "--isotope-errors" && i + 1 < argc) {
    params.isotope_errors.clear();
    std::stringstream ss(argv[++i]);
    for (std::string t; std::getline(ss, t, ',');) params.isotope_errors.push_back(std::stoi(t));
  } else {
    return false;
  }
  return true;
}

// The whole file. Throws std::runtime_error naming the path when it cannot be opened.
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every spectrum of a peak list (format by content), fed to its reader in 1 MiB blocks as the
// service's reader does. Throws what the reader throws.
inline std::vector<RawSpectrum> read_spectra(const std::string& path) {
  const std::string content = read_file(path);
  auto reader = make_spectrum_reader(detect_peak_list_format(content.substr(0, 4096)), path, 0);
  std::vector<RawSpectrum> spectra;
  constexpr size_t kBlock = 1 << 20;
  for (size_t off = 0; off < content.size(); off += kBlock) {
    reader->feed(std::string_view(content).substr(off, kBlock), spectra);
  }
  reader->finish(spectra);
  return spectra;
}

}  // namespace ionflow::tool
