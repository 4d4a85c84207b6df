#include "io/result_common.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <ctime>
#include <numeric>
#include <vector>

#include "scoring/mass.hpp"

namespace ionflow::result_format {

namespace {

bool ends_with_ci(std::string_view text, std::string_view suffix) {
  if (suffix.size() > text.size()) return false;
  auto tail = text.substr(text.size() - suffix.size());
  for (std::size_t i = 0; i < suffix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(tail[i])) !=
        std::tolower(static_cast<unsigned char>(suffix[i]))) {
      return false;
    }
  }
  return true;
}

std::string_view drop_compression_suffix(std::string_view path) {
  for (std::string_view suffix : {".gz", ".zst", ".bz2", ".xz"}) {
    if (ends_with_ci(path, suffix)) return path.substr(0, path.size() - suffix.size());
  }
  return path;
}

std::string_view drop_data_suffix(std::string_view path) {
  for (std::string_view suffix :
       {".mzML", ".mgf", ".mzXML", ".mzid", ".pep.xml", ".pepXML", ".xml", ".raw", ".d"}) {
    if (ends_with_ci(path, suffix)) return path.substr(0, path.size() - suffix.size());
  }
  return path;
}

void append_delta(std::string& out, double delta) {
  char text[64];
  if (delta >= 0) out.push_back('+');
  auto r = std::to_chars(text, text + sizeof text, delta, std::chars_format::fixed, 4);
  out.append(text, r.ptr);
}

// Builds a ProForma-like string; `unimod` chooses "UNIMOD:n" tags when known.
// ProForma-like string: UNIMOD:n (when `unimod` and known) or +mass tags; with `hyphens`
// ProForma's "[...]-" / "-[...]" around terminal tags, without them the tags stand directly
// before the first / after the last residue.
std::string build_modified(const Psm& psm, bool unimod, bool hyphens) {
  const int length = static_cast<int>(psm.sequence.size());
  auto tag = [&](const AppliedModification& mod) {
    std::string t = "[";
    if (unimod && mod.unimod_accession > 0) {
      t += "UNIMOD:" + std::to_string(mod.unimod_accession);
    } else {
      append_delta(t, mod.mass_delta_da);
    }
    t += ']';
    return t;
  };
  std::string out;
  for (const auto& mod : psm.modifications) {
    if (mod.position < 0) out += tag(mod);
  }
  if (!out.empty() && hyphens) out += '-';
  for (int i = 0; i < length; ++i) {
    out += psm.sequence[static_cast<std::size_t>(i)];
    for (const auto& mod : psm.modifications) {
      if (mod.position == i) out += tag(mod);
    }
  }
  std::string c_term;
  for (const auto& mod : psm.modifications) {
    if (mod.position >= length) c_term += tag(mod);
  }
  if (!c_term.empty()) out += (hyphens ? "-" : "") + c_term;
  return out;
}

// "[160]": a mass in the TPP's modified_peptide notation, rounded to a whole dalton.
void put_tpp_mass(std::string& out, double mass_da) {
  out += '[';
  out += std::to_string(std::lround(mass_da));
  out += ']';
}

}  // namespace

std::vector<std::size_t> ordered_indices(const std::vector<Psm>& psms) {
  std::vector<std::size_t> order(psms.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  auto less = [&](std::size_t a, std::size_t b) {
    const Psm& x = psms[a];
    const Psm& y = psms[b];
    if (x.file_index != y.file_index) return x.file_index < y.file_index;
    if (x.spectrum_index != y.spectrum_index) return x.spectrum_index < y.spectrum_index;
    return x.rank < y.rank;
  };
  if (!std::is_sorted(order.begin(), order.end(), less)) {
    std::stable_sort(order.begin(), order.end(), less);
  }
  return order;
}

void for_each_spectrum(const PsmSource& source,
                       const std::function<void(const std::vector<Psm>&)>& visit) {
  std::vector<Psm> group;
  source.for_each([&](const Psm& psm) {
    if (!group.empty() && (group.front().file_index != psm.file_index ||
                           group.front().spectrum_index != psm.spectrum_index)) {
      visit(group);
      group.clear();
    }
    group.push_back(psm);
  });
  if (!group.empty()) visit(group);
}

const SearchParameters& parameters(const ResultContext& context) {
  static const SearchParameters kDefaults;
  return context.params != nullptr ? *context.params : kDefaults;
}

std::string creation_time(const ResultContext& context) {
  if (!context.creation_time.empty()) return context.creation_time;
  return utc_timestamp(static_cast<double>(std::time(nullptr)));
}

std::string utc_timestamp(double unix_seconds) {
  const auto t = static_cast<std::time_t>(unix_seconds);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string join_ints(const std::vector<int>& values, char separator) {
  std::string text;
  for (int value : values) {
    if (!text.empty()) text.push_back(separator);
    text.append(std::to_string(value));
  }
  return text;
}

std::string_view spectra_path(const ResultContext& context, uint32_t file_index) {
  if (file_index >= context.spectra_paths.size()) return {};
  return context.spectra_paths[file_index];
}

std::string_view file_name(std::string_view path) {
  auto slash = path.find_last_of("/\\");
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string_view spectra_file_label(const ResultContext& context, uint32_t file_index) {
  const std::string_view path = spectra_path(context, file_index);
  const std::string_view name = file_name(path);
  for (size_t i = 0; i < context.spectra_paths.size(); ++i) {
    if (i != file_index && file_name(context.spectra_paths[i]) == name) return path;
  }
  return name;
}

std::string file_stem(std::string_view path) {
  return std::string(drop_data_suffix(drop_compression_suffix(file_name(path))));
}

std::string path_without_extensions(std::string_view path) {
  return std::string(drop_data_suffix(drop_compression_suffix(path)));
}

bool is_mgf(std::string_view path) {
  return ends_with_ci(drop_compression_suffix(path), ".mgf");
}

std::string spectrum_id(const Psm& psm, bool mgf) {
  if (mgf || psm.native_id.empty()) return "index=" + std::to_string(psm.spectrum_index);
  return psm.native_id;
}

std::string native_id_or_index(const Psm& psm) {
  if (!psm.native_id.empty()) return psm.native_id;
  return "index=" + std::to_string(psm.spectrum_index);
}

uint64_t scan_number(const Psm& psm) {
  return psm.scan >= 0 ? static_cast<uint64_t>(psm.scan) : psm.spectrum_index + 1;
}

std::string proforma(const Psm& psm) {
  if (!psm.proforma.empty()) return psm.proforma;
  return build_modified(psm, /*unimod=*/true, /*hyphens=*/true);
}

std::string pin_peptide(const Psm& psm) {
  return build_modified(psm, /*unimod=*/false, /*hyphens=*/false);
}

ModifiedMasses modified_masses(const Psm& psm) {
  const std::size_t length = psm.sequence.size();
  ModifiedMasses m;
  m.modified.assign(length, false);
  m.fixed_delta_da.assign(length, 0.0);
  m.variable_delta_da.assign(length, 0.0);
  double n_delta = 0.0;
  double c_delta = 0.0;
  for (const AppliedModification& mod : psm.modifications) {
    if (mod.position < 0) {
      n_delta += mod.mass_delta_da;
      m.n_term_modified = true;
    } else if (static_cast<std::size_t>(mod.position) >= length) {
      c_delta += mod.mass_delta_da;
      m.c_term_modified = true;
    } else {
      const auto i = static_cast<std::size_t>(mod.position);
      (mod.fixed ? m.fixed_delta_da : m.variable_delta_da)[i] += mod.mass_delta_da;
      m.modified[i] = true;
    }
  }
  m.n_term_mass_da = mass::kHydrogen + n_delta;
  m.c_term_mass_da = (mass::kOxygen + mass::kHydrogen) + c_delta;
  m.residue_mass_da.resize(length);
  for (std::size_t i = 0; i < length; ++i) {
    const double residue_mass = mass::residue_mass(psm.sequence[i]);
    m.residue_mass_da[i] =
        (residue_mass > 0 ? residue_mass : 0.0) + m.fixed_delta_da[i] + m.variable_delta_da[i];
  }
  return m;
}

std::string tpp_modified_peptide(const Psm& psm) {
  const ModifiedMasses m = modified_masses(psm);
  std::string out;
  if (m.n_term_modified) {
    out += 'n';
    put_tpp_mass(out, m.n_term_mass_da);
  }
  for (std::size_t i = 0; i < psm.sequence.size(); ++i) {
    out += psm.sequence[i];
    if (m.modified[i]) put_tpp_mass(out, m.residue_mass_da[i]);
  }
  if (m.c_term_modified) {
    out += 'c';
    put_tpp_mass(out, m.c_term_mass_da);
  }
  return out;
}

EnzymaticEnds enzymatic_ends(const Psm& psm, const PeptideEvidence& evidence,
                             const EnzymeParameters& enzyme) {
  EnzymaticEnds ends;
  if (enzyme.cleave_at.empty() || psm.sequence.empty()) return ends;
  auto sites = [&](char c) { return enzyme.cleave_at.find(c) != std::string::npos; };
  auto blocks = [&](char c) { return enzyme.restrict.find(c) != std::string::npos; };
  const char first = psm.sequence.front();
  const char last = psm.sequence.back();
  const bool protein_n = evidence.pre == '-' || (evidence.start == 1 && evidence.pre == 'M');
  const bool protein_c = evidence.post == '-';
  if (enzyme.c_terminal) {
    // Cleaves after a site residue unless the next residue is restricted (trypsin: K/R not P).
    ends.n_terminal = protein_n || (sites(evidence.pre) && !blocks(first));
    ends.c_terminal = protein_c || (sites(last) && !blocks(evidence.post));
  } else {
    // Cleaves before a site residue unless the previous residue is restricted (Lys-N, Asp-N).
    ends.n_terminal = protein_n || (sites(first) && !blocks(evidence.pre));
    ends.c_terminal = protein_c || (sites(evidence.post) && !blocks(last));
  }
  return ends;
}

}  // namespace ionflow::result_format

namespace ionflow {

VectorPsmSource::VectorPsmSource(const std::vector<Psm>& psms)
    : psms_(psms), order_(result_format::ordered_indices(psms)) {}

void VectorPsmSource::for_each(const std::function<void(const Psm&)>& visit) const {
  for (std::size_t index : order_) visit(psms_[index]);
}

}  // namespace ionflow
