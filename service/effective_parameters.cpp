// effective_parameters (service/job_message.hpp): every resolved key of a JobSpec as the
// canonical job message echoed into results.json.
#include "service/job_message.hpp"

#include <string>

#include "scoring/enzyme.hpp"
#include "service/job_message_detail.hpp"

namespace ionflow {

using namespace job_message_detail;

namespace {

JsonValue modification_json(const Modification& m) {
  JsonValue o = JsonValue::object();
  if (!m.name.empty()) o.set("name", m.name);
  if (m.unimod_accession != 0) o.set("unimod_accession", m.unimod_accession);
  o.set("mass_da", m.mass_delta_da);
  o.set("position", std::string(position_name(m.position)));
  if (!m.residues.empty()) o.set("residues", m.residues);
  return o;
}

}  // namespace

JsonValue effective_parameters(const JobSpec& spec) {
  const auto& s = spec.search;
  const auto& d = s.database;
  const auto& e = d.enzyme;

  JsonValue enzyme = JsonValue::object();
  enzyme.set("missed_cleavages", e.missed_cleavages);
  enzyme.set("min_len", e.min_length);
  enzyme.set("max_len", e.max_length);
  enzyme.set("cleave_at", e.cleave_at);
  enzyme.set("restrict", e.restrict);
  enzyme.set("c_terminal", e.c_terminal);
  enzyme.set("semi_enzymatic", e.semi_enzymatic);

  JsonValue database = JsonValue::object();
  database.set("fasta", spec.fasta_path);
  database.set("enzyme", std::move(enzyme));
  database.set("peptide_min_mass", d.peptide_min_mass_da);
  database.set("peptide_max_mass", d.peptide_max_mass_da);
  database.set("max_variable_mods", d.max_variable_modifications);
  database.set("decoy_tag", d.decoy_tag);
  database.set("generate_decoys", d.decoy_generation != DecoyGeneration::kNone);

  JsonValue root = JsonValue::object();
  root.set("database", std::move(database));
  // A custom rule is fully described by database.enzyme; a named one also by its name.
  if (find_enzyme_rule(e.name)) root.set("enzyme", e.name);
  root.set("decoy_tag_position", d.decoy_tag_is_suffix ? "suffix" : "prefix");
  root.set("decoy_generation", std::string(decoy_generation_name(d.decoy_generation)));
  root.set("clip_n_terminal_methionine", d.clip_n_terminal_methionine);
  JsonValue fixed = JsonValue::array(), variable = JsonValue::array();
  for (const auto& m : d.fixed_modifications) fixed.push_back(modification_json(m));
  for (const auto& m : d.variable_modifications) variable.push_back(modification_json(m));
  root.set("fixed_modifications", std::move(fixed));
  root.set("variable_modifications", std::move(variable));
  root.set("precursor_tol", tolerance_json(s.precursor_tolerance));
  root.set("fragment_tol", tolerance_json(s.fragment_tolerance));
  int iso_lo = 0, iso_hi = 0;
  if (!s.isotope_errors.empty()) {
    iso_lo = *std::min_element(s.isotope_errors.begin(), s.isotope_errors.end());
    iso_hi = *std::max_element(s.isotope_errors.begin(), s.isotope_errors.end());
  }
  root.set("isotope_errors", JsonValue::Array{JsonValue(iso_lo), JsonValue(iso_hi)});
  root.set("precursor_charge",
           JsonValue::Array{JsonValue(s.min_precursor_charge), JsonValue(s.max_precursor_charge)});
  root.set("max_fragment_charge", s.max_fragment_charge);
  root.set("ion_types", s.ion_types);
  root.set("min_peaks", s.min_peaks);
  root.set("max_peaks", s.max_peaks);
  root.set("remove_precursor_peak", s.remove_precursor_peak);
  root.set("deisotope", s.deisotope);
  root.set("infer_precursor_charge", s.infer_precursor_charge);
  root.set("report_psms", s.report_psms);
  JsonValue spectra = JsonValue::array();
  for (const auto& p : spec.spectra_paths) spectra.push_back(p);
  root.set("mzml_paths", std::move(spectra));
  root.set("output_directory", spec.output_directory);
  root.set("licensed_cores", spec.licensed_cores);
  root.set("scorers", spec.scorers);
  root.set("parsers", spec.parsers);
  root.set("chunk_size", spec.chunk_size);
  root.set("block_size_bytes", spec.block_size_bytes);
  root.set("max_blocks_in_flight", spec.max_blocks_in_flight);
  root.set("max_chunks_in_flight", spec.max_chunks_in_flight);
  root.set("sorter_memory_mb", static_cast<uint64_t>(spec.sorter_memory_budget_bytes >> 20));
  root.set("fragment_index_memory_mb",
           static_cast<uint64_t>(spec.fragment_index_budget_bytes >> 20));
  // Where the sorter spills: the output directory unless temp_directory is given.
  root.set("temp_directory",
           spec.temp_directory.empty() ? spec.output_directory : spec.temp_directory);
  if (!spec.index_cache_directory.empty()) {
    root.set("index_cache_directory", spec.index_cache_directory);
  }
  JsonValue formats = JsonValue::array();
  for (const auto& f : spec.output_formats) formats.push_back(f);
  root.set("output_formats", std::move(formats));
  root.set("zstd", spec.zstd);
  root.set("priority", spec.priority);
  return root;
}

std::string effective_parameters_json(const JobSpec& spec) {
  return to_json(effective_parameters(spec), 2);
}

}  // namespace ionflow
