// Helpers shared by the result writers (results.tsv, .pin, mzIdentML, pepXML): PSM order,
// spectrum identifiers, file names, modified-peptide strings and enzymatic termini.
//
// Internal to io/ (the writers); stateless functions, thread-safe. None of them throws except
// std::bad_alloc.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "io/result_writer.hpp"
#include "scoring/psm.hpp"
#include "scoring/search_parameters.hpp"

namespace ionflow::result_format {

// Indices into `psms` in the writers' order (file_index, spectrum_index, rank). Identity when
// the vector is already in that order (the contract); a stable sort otherwise.
std::vector<std::size_t> ordered_indices(const std::vector<Psm>& psms);

// Calls visit(group) once per spectrum of `source` with its PSMs (same file_index and
// spectrum_index, consecutive in the writers' order), in order. The group is valid during the
// call only.
void for_each_spectrum(const PsmSource& source,
                       const std::function<void(const std::vector<Psm>&)>& visit);

// `context.params`, or a default SearchParameters when it is null.
const SearchParameters& parameters(const ResultContext& context);

// `context.creation_time`, or the current UTC time as "YYYY-MM-DDThh:mm:ssZ" (xs:dateTime).
std::string creation_time(const ResultContext& context);
// `unix_seconds` as "YYYY-MM-DDThh:mm:ssZ" (UTC, xs:dateTime; fractions dropped).
std::string utc_timestamp(double unix_seconds);

// "0,1" from {0, 1}.
std::string join_ints(const std::vector<int>& values, char separator);

// The spectra path of `file_index`, or "" when the context has no such entry.
std::string_view spectra_path(const ResultContext& context, uint32_t file_index);
// "dir/BSA1.mzML.gz" -> "BSA1.mzML.gz".
std::string_view file_name(std::string_view path);
// The spectra file as results.tsv's filename column names it: its file name without directory,
// or, when another of the job's spectra files has the same file name (d1/run.mzML and
// d2/run.mzML), the path as given, so that their rows stay apart.
std::string_view spectra_file_label(const ResultContext& context, uint32_t file_index);
// "dir/BSA1.mzML.gz" -> "BSA1" (drops .gz/.zst/.bz2/.xz, then .mzML/.mgf/.mzXML/.mzid...).
std::string file_stem(std::string_view path);
// "dir/BSA1.mzML.gz" -> "dir/BSA1" (the pepXML base_name: full path without extensions).
std::string path_without_extensions(std::string_view path);
// Whether the path names an MGF file (".mgf", case-insensitive, before a compression suffix).
bool is_mgf(std::string_view path);

// The spectrum's identifier in its file: the native id for mzML; for MGF "index=N" with N the
// 0-based spectrum position (PSI-MS MS:1000774 "multiple peak list nativeID format").
std::string spectrum_id(const Psm& psm, bool mgf);
// The native id when there is one, else "index=N" (results.tsv scannr).
std::string native_id_or_index(const Psm& psm);
// A scan number for formats that need an integer: Psm::scan when known, else spectrum_index + 1.
uint64_t scan_number(const Psm& psm);

// The PSM's ProForma string; built from sequence + modifications (UNIMOD:n, or +mass) when
// Psm::proforma is empty.
std::string proforma(const Psm& psm);
// A PSM's modifications as masses by site (pepXML's modification_info): the terminal groups
// with their deltas (H 1.00782503207 + N-terminal deltas, OH 17.00273965 + C-terminal ones)
// and, per residue, whether it is modified, its fixed and variable deltas and its total mass
// (residue + every delta on it), Da.
struct ModifiedMasses {
  bool n_term_modified = false;
  bool c_term_modified = false;
  double n_term_mass_da = 0.0;
  double c_term_mass_da = 0.0;
  std::vector<bool> modified;
  std::vector<double> fixed_delta_da;
  std::vector<double> variable_delta_da;
  std::vector<double> residue_mass_da;
};
ModifiedMasses modified_masses(const Psm& psm);

// The TPP's modified_peptide notation (pepXML; Comet, Tandem2XML, PeptideProphet): each modified
// residue followed by its total mass (residue + every delta on it) and an N- / C-terminal
// modification as "n[...]" before / "c[...]" after the sequence with the terminal group's mass
// (H 1.007825 + delta, OH 17.002740 + delta), each rounded to a whole Da:
// "n[43]M[147]EC[160]K". Unmodified peptides are their bare sequence.
std::string tpp_modified_peptide(const Psm& psm);
// The .pin Peptide column's core (without the flanks): mass deltas with 4 decimals after their
// residue, N-terminal ones before the first residue and C-terminal ones after the last, without
// ProForma's '-' ("[+42.0106]M[+15.9949]EK"), the form Comet's pins carry and Percolator and
// mokapot strip to the bare sequence.
std::string pin_peptide(const Psm& psm);

// Whether the peptide's N-terminal and C-terminal cleavages agree with the enzyme, from the
// flanking residues of `evidence` (Percolator's enzN / enzC features). A protein terminus ('-')
// counts as specific; so does an N-terminus after the protein's initial methionine. An enzyme
// without cleavage sites (cleave_at empty) is specific everywhere.
struct EnzymaticEnds {
  bool n_terminal = true;
  bool c_terminal = true;
};
EnzymaticEnds enzymatic_ends(const Psm& psm, const PeptideEvidence& evidence,
                             const EnzymeParameters& enzyme);

}  // namespace ionflow::result_format
