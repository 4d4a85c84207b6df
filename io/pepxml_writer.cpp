// pepXML writer (Trans-Proteomic Pipeline, namespace http://regis-web.systemsbiology.net/pepXML,
// schema pepXML_v122.xsd).
//
// Layout: msms_pipeline_analysis -> one msms_run_summary per spectra file (also for files without
// PSMs) -> sample_enzyme, search_summary (search database, enzymatic constraint, the searched
// modifications, parameters) and one spectrum_query per (spectrum, charge) with one search_hit
// per PSM.
//
// Conventions (TPP / Comet / X! Tandem's Tandem2XML, as OpenMS and PeptideProphet read them):
//   search_engine="X! Tandem" - the schema enumerates engines and ionflow's scores are X!Tandem's
//     (hyperscore, expect); search_engine_version says "ionflow <version>".
//   spectrum="<stem>.<scan 5 digits>.<scan 5 digits>.<charge>", start_scan = end_scan = the scan
//     number (spectrum_index + 1 when the file has none); index counts queries from 1.
//   precursor_neutral_mass = Psm::expmass (Da); massdiff = expmass - calcmass (Da);
//   retention_time_sec in seconds.
//   modified_peptide: TPP notation, "n[43]M[147]EC[160]K" (result_common.hpp); the ProForma
//     string as <parameter name="proforma"> after the search scores.
//   mod_aminoacid_mass: position 1-based, mass = residue mass + every delta on that residue
//     (Da), with static= / variable= giving the deltas; mod_nterm_mass = H (1.00782503207) +
//     delta; mod_cterm_mass = OH (17.00273965) + delta - the masses of the terminal groups.
//   terminal_modification / aminoacid_modification masses follow the same rule.
//   search_score: hyperscore, nextscore (= hyperscore - delta_next), expect (E-value),
//     delta_next, spectrum_q, peptide_q, protein_q - shortest round-trip decimals.
#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "io/result_common.hpp"
#include "io/result_writer.hpp"
#include "io/text_output.hpp"
#include "io/xml_writer.hpp"
#include "scoring/mass.hpp"

namespace ionflow {

namespace {

namespace rf = result_format;

constexpr double kNTermGroupDa = mass::kHydrogen;                  // H on the free N-terminus
constexpr double kCTermGroupDa = mass::kOxygen + mass::kHydrogen;  // OH on the free C-terminus

std::string_view raw_data_extension(std::string_view path) {
  return rf::is_mgf(path) ? ".mgf" : ".mzML";
}

void search_score(TextOutput& out, std::string_view name, double value) {
  out.put("        <search_score");
  xml::put_attribute(out, "name", name);
  xml::put_attribute(out, "value", value);
  out.put("/>\n");
}

// aminoacid_modification / terminal_modification entries for one searched modification.
void write_search_modification(TextOutput& out, const Modification& mod, bool fixed) {
  const char* variable = fixed ? "N" : "Y";
  const bool terminal = mod.position != ModificationPosition::kAnywhere;
  const bool n_side = mod.position == ModificationPosition::kPeptideNTerm ||
                      mod.position == ModificationPosition::kProteinNTerm;
  const bool protein = mod.position == ModificationPosition::kProteinNTerm ||
                       mod.position == ModificationPosition::kProteinCTerm;
  // Mascot-style title, "Oxidation (M)", "Acetyl (Protein N-term)": the names OpenMS and the TPP
  // resolve against Unimod. One entry per residue, so built per residue below.
  auto description = [&](std::string_view site) {
    if (mod.name.empty()) return std::string();
    std::string text = mod.name;
    text.append(" (").append(site).push_back(')');
    return text;
  };
  const std::string_view terminus_site =
      mod.position == ModificationPosition::kProteinNTerm   ? "Protein N-term"
      : mod.position == ModificationPosition::kProteinCTerm ? "Protein C-term"
      : n_side                                              ? "N-term"
                                                            : "C-term";
  if (terminal && mod.residues.empty()) {
    out.put("    <terminal_modification");
    xml::put_attribute(out, "terminus", n_side ? "n" : "c");
    xml::put_attribute(out, "massdiff", mod.mass_delta_da);
    xml::put_attribute(out, "mass", (n_side ? kNTermGroupDa : kCTermGroupDa) + mod.mass_delta_da);
    xml::put_attribute(out, "variable", variable);
    xml::put_attribute(out, "protein_terminus", protein ? "Y" : "N");
    const std::string text = description(terminus_site);
    if (!text.empty()) xml::put_attribute(out, "description", text);
    out.put("/>\n");
    return;
  }
  for (char residue : mod.residues) {
    const double residue_mass = mass::residue_mass(residue);
    out.put("    <aminoacid_modification");
    xml::put_attribute(out, "aminoacid", std::string_view(&residue, 1));
    xml::put_attribute(out, "massdiff", mod.mass_delta_da);
    xml::put_attribute(out, "mass", (residue_mass > 0 ? residue_mass : 0.0) + mod.mass_delta_da);
    xml::put_attribute(out, "variable", variable);
    if (terminal) {
      xml::put_attribute(out, protein ? "protein_terminus" : "peptide_terminus",
                         n_side ? "n" : "c");
    }
    std::string site;
    if (terminal) site.append(terminus_site).push_back(' ');
    site.push_back(residue);
    const std::string text = description(site);
    if (!text.empty()) xml::put_attribute(out, "description", text);
    out.put("/>\n");
  }
}

std::string tolerance_text(const Tolerance& tolerance) {
  char buffer[128];
  std::snprintf(buffer, sizeof buffer, "%g..%g %s", tolerance.lower, tolerance.upper,
                tolerance.unit == Tolerance::Unit::kDa ? "Da" : "ppm");
  return buffer;
}

void parameter(TextOutput& out, std::string_view name, std::string_view value) {
  out.put("    <parameter");
  xml::put_attribute(out, "name", name);
  xml::put_attribute(out, "value", value);
  out.put("/>\n");
}

void write_run_header(TextOutput& out, std::string_view path, const SearchParameters& params,
                      const ResultContext& context) {
  const std::string base_name = rf::path_without_extensions(path);
  const EnzymeParameters& enzyme = params.database.enzyme;
  out.put(" <msms_run_summary");
  xml::put_attribute(out, "base_name", base_name);
  xml::put_attribute(out, "raw_data_type", raw_data_extension(path));
  xml::put_attribute(out, "raw_data", raw_data_extension(path));
  out.put(">\n  <sample_enzyme");
  xml::put_attribute(out, "name", enzyme.name.empty() ? std::string("custom") : enzyme.name);
  // Schema pattern for cut: [A,C-I,K-N,P-T,VWY]+ (no B, J, O, U, X, Z).
  std::string cut;
  for (char c : enzyme.cleave_at) {
    if (std::string_view("ACDEFGHIKLMNPQRSTVWY").find(c) != std::string_view::npos) cut += c;
  }
  const char* fidelity =
      cut.empty() ? "nonspecific" : (enzyme.semi_enzymatic ? "semispecific" : "specific");
  xml::put_attribute(out, "fidelity", fidelity);
  if (cut.empty()) {
    out.put("/>\n");
  } else {
    out.put(">\n   <specificity");
    xml::put_attribute(out, "sense", enzyme.c_terminal ? "C" : "N");
    xml::put_attribute(out, "cut", cut);
    if (!enzyme.restrict.empty()) xml::put_attribute(out, "no_cut", enzyme.restrict);
    out.put("/>\n  </sample_enzyme>\n");
  }

  out.put("  <search_summary");
  xml::put_attribute(out, "base_name", base_name);
  xml::put_attribute(out, "search_engine", "X! Tandem");
  xml::put_attribute(out, "search_engine_version",
                     "ionflow " + (context.software_version.empty() ? std::string("unknown")
                                                                    : context.software_version));
  xml::put_attribute(out, "precursor_mass_type", "monoisotopic");
  xml::put_attribute(out, "fragment_mass_type", "monoisotopic");
  xml::put_attribute(out, "search_id", int64_t{1});
  out.put(">\n   <search_database");
  xml::put_attribute(out, "local_path", context.fasta_path);
  xml::put_attribute(out, "type", "AA");
  out.put("/>\n   <enzymatic_search_constraint");
  xml::put_attribute(out, "enzyme", enzyme.name.empty() ? std::string("custom") : enzyme.name);
  xml::put_attribute(out, "max_num_internal_cleavages",
                     static_cast<int64_t>(std::max(0, enzyme.missed_cleavages)));
  xml::put_attribute(out, "min_number_termini",
                     int64_t{cut.empty() ? 0 : (enzyme.semi_enzymatic ? 1 : 2)});
  out.put("/>\n");
  for (const auto& mod : params.database.fixed_modifications) {
    write_search_modification(out, mod, true);
  }
  for (const auto& mod : params.database.variable_modifications) {
    write_search_modification(out, mod, false);
  }
  parameter(out, "precursor_tolerance", tolerance_text(params.precursor_tolerance));
  parameter(out, "fragment_tolerance", tolerance_text(params.fragment_tolerance));
  const std::string isotopes = rf::join_ints(params.isotope_errors, ',');
  parameter(out, "isotope_errors", isotopes);
  parameter(out, "precursor_charge",
            std::to_string(params.min_precursor_charge) + ".." +
                std::to_string(params.max_precursor_charge));
  parameter(out, "ion_types", params.ion_types);
  parameter(out, "max_variable_modifications",
            std::to_string(params.database.max_variable_modifications));
  parameter(out, "decoy_tag", params.database.decoy_tag);
  out.put("  </search_summary>\n");
}

void write_hit(TextOutput& out, const Psm& psm, const EnzymeParameters& enzyme) {
  PeptideEvidence first;
  if (!psm.evidence.empty()) first = psm.evidence.front();
  auto termini = [&](const PeptideEvidence& evidence) {
    const auto ends = rf::enzymatic_ends(psm, evidence, enzyme);
    return static_cast<int64_t>(ends.n_terminal) + static_cast<int64_t>(ends.c_terminal);
  };

  out.put("      <search_hit");
  xml::put_attribute(out, "hit_rank", static_cast<int64_t>(std::max(1, psm.rank)));
  xml::put_attribute(out, "peptide", psm.sequence);
  const char pre = first.pre == 0 ? '-' : first.pre;
  const char post = first.post == 0 ? '-' : first.post;
  xml::put_attribute(out, "peptide_prev_aa", std::string_view(&pre, 1));
  xml::put_attribute(out, "peptide_next_aa", std::string_view(&post, 1));
  xml::put_attribute(out, "protein", first.protein_accession);
  xml::put_attribute(out, "num_tot_proteins",
                     static_cast<int64_t>(std::max<std::size_t>(1, psm.evidence.size())));
  xml::put_attribute(out, "num_matched_ions", static_cast<int64_t>(std::max(0, psm.matched_peaks)));
  xml::put_attribute(out, "tot_num_ions", static_cast<int64_t>(std::max(0, psm.theoretical_peaks)));
  xml::put_attribute(out, "calc_neutral_pep_mass", psm.calcmass);
  xml::put_attribute(out, "massdiff", psm.expmass - psm.calcmass);
  xml::put_attribute(out, "num_tol_term", termini(first));
  xml::put_attribute(out, "num_missed_cleavages", static_cast<int64_t>(psm.missed_cleavages));
  xml::put_attribute(out, "num_matched_peptides", static_cast<int64_t>(psm.candidates));
  xml::put_attribute(out, "is_rejected", "0");
  out.put(">\n");
  for (std::size_t i = 1; i < psm.evidence.size(); ++i) {
    const PeptideEvidence& evidence = psm.evidence[i];
    out.put("        <alternative_protein");
    xml::put_attribute(out, "protein", evidence.protein_accession);
    xml::put_attribute(out, "num_tol_term", termini(evidence));
    const char alt_pre = evidence.pre == 0 ? '-' : evidence.pre;
    const char alt_post = evidence.post == 0 ? '-' : evidence.post;
    xml::put_attribute(out, "peptide_prev_aa", std::string_view(&alt_pre, 1));
    xml::put_attribute(out, "peptide_next_aa", std::string_view(&alt_post, 1));
    out.put("/>\n");
  }

  if (!psm.modifications.empty()) {
    const rf::ModifiedMasses m = rf::modified_masses(psm);
    out.put("        <modification_info");
    if (m.n_term_modified) xml::put_attribute(out, "mod_nterm_mass", m.n_term_mass_da);
    if (m.c_term_modified) xml::put_attribute(out, "mod_cterm_mass", m.c_term_mass_da);
    xml::put_attribute(out, "modified_peptide", rf::tpp_modified_peptide(psm));
    out.put(">\n");
    for (std::size_t i = 0; i < m.modified.size(); ++i) {
      if (!m.modified[i]) continue;
      out.put("          <mod_aminoacid_mass");
      xml::put_attribute(out, "position", static_cast<int64_t>(i + 1));
      xml::put_attribute(out, "mass", m.residue_mass_da[i]);
      if (m.fixed_delta_da[i] != 0.0) xml::put_attribute(out, "static", m.fixed_delta_da[i]);
      if (m.variable_delta_da[i] != 0.0) {
        xml::put_attribute(out, "variable", m.variable_delta_da[i]);
      }
      out.put("/>\n");
    }
    out.put("        </modification_info>\n");
  }
  search_score(out, "hyperscore", psm.hyperscore);
  search_score(out, "nextscore", psm.hyperscore - psm.delta_next);
  search_score(out, "expect", psm.evalue);
  search_score(out, "delta_next", psm.delta_next);
  search_score(out, "spectrum_q", psm.spectrum_q);
  search_score(out, "peptide_q", psm.peptide_q);
  search_score(out, "protein_q", psm.protein_q);
  // The ProForma 2.0 string (as results.tsv's peptide column), where no pepXML field holds it.
  out.put("        <parameter");
  xml::put_attribute(out, "name", "proforma");
  xml::put_attribute(out, "value", rf::proforma(psm));
  out.put("/>\n");
  out.put("      </search_hit>\n");
}

}  // namespace

void write_pepxml(std::ostream& out, const PsmSource& psms, const ResultContext& context) {
  const SearchParameters& params = rf::parameters(context);

  TextOutput text(out);
  text.put("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<msms_pipeline_analysis");
  xml::put_attribute(text, "date", rf::creation_time(context));
  xml::put_attribute(text, "xmlns", "http://regis-web.systemsbiology.net/pepXML");
  xml::put_attribute(text, "xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance");
  xml::put_attribute(text, "xsi:schemaLocation",
                     "http://regis-web.systemsbiology.net/pepXML pepXML_v122.xsd");
  xml::put_attribute(text, "summary_xml", context.output_path);
  text.put(">\n");

  // First pass: files referenced by PSMs but missing from the context still get a run summary.
  uint32_t file_count = static_cast<uint32_t>(context.spectra_paths.size());
  psms.for_each([&](const Psm& psm) { file_count = std::max(file_count, psm.file_index + 1); });

  // One msms_run_summary per file in [0, file_count), each with its spectra (files in order).
  uint32_t next_file = 0;  // files [0, next_file) have their run header written
  std::string stem;
  auto open_run = [&]() {
    if (next_file > 0) text.put(" </msms_run_summary>\n");
    std::string path(rf::spectra_path(context, next_file));
    if (path.empty()) path = "file" + std::to_string(next_file);
    stem = rf::file_stem(path);
    write_run_header(text, path, params, context);
    ++next_file;
  };

  uint64_t query_index = 0;
  std::vector<int> charges;
  rf::for_each_spectrum(psms, [&](const std::vector<Psm>& group) {
    const Psm& head = group.front();
    while (next_file <= head.file_index) open_run();
    charges.clear();
    for (const Psm& psm : group) {
      if (std::find(charges.begin(), charges.end(), psm.charge) == charges.end()) {
        charges.push_back(psm.charge);
      }
    }
    for (int z : charges) {
      const uint64_t scan = rf::scan_number(head);
      char spectrum[64];
      std::snprintf(spectrum, sizeof spectrum, ".%05llu.%05llu.%d",
                    static_cast<unsigned long long>(scan), static_cast<unsigned long long>(scan),
                    z);
      text.put("  <spectrum_query");
      xml::put_attribute(text, "spectrum", stem + spectrum);
      if (!head.native_id.empty()) xml::put_attribute(text, "spectrumNativeID", head.native_id);
      xml::put_attribute(text, "start_scan", static_cast<int64_t>(scan));
      xml::put_attribute(text, "end_scan", static_cast<int64_t>(scan));
      // All PSMs of one spectrum and charge share the experimental mass.
      const Psm* first_of_charge = nullptr;
      for (const Psm& psm : group) {
        if (psm.charge == z) {
          first_of_charge = &psm;
          break;
        }
      }
      xml::put_attribute(text, "precursor_neutral_mass", first_of_charge->expmass);
      xml::put_attribute(text, "assumed_charge", static_cast<int64_t>(std::max(0, z)));
      xml::put_attribute(text, "index", static_cast<int64_t>(++query_index));
      if (head.rt_seconds >= 0) xml::put_attribute(text, "retention_time_sec", head.rt_seconds);
      text.put(">\n    <search_result>\n");
      for (const Psm& psm : group) {
        if (psm.charge == z) write_hit(text, psm, params.database.enzyme);
      }
      text.put("    </search_result>\n  </spectrum_query>\n");
    }
  });
  while (next_file < file_count) open_run();
  if (next_file > 0) text.put(" </msms_run_summary>\n");
  text.put("</msms_pipeline_analysis>\n");
  text.finish();
}

void write_pepxml(std::ostream& out, const std::vector<Psm>& psms, const ResultContext& context) {
  write_pepxml(out, VectorPsmSource(psms), context);
}

}  // namespace ionflow
