// mzIdentML 1.1.0 and 1.2.0 writer (HUPO-PSI, namespaces http://psidev.info/psi/pi/mzIdentML/1.1
// and /1.2; schemas mzIdentML1.1.0.xsd and mzIdentML1.2.0.xsd). Layout, in schema order:
//   cvList (PSI-MS, UNIMOD, UO) - AnalysisSoftwareList (ionflow) - SequenceCollection (one
//   DBSequence per referenced protein, one Peptide per distinct modified peptide, one
//   PeptideEvidence per (peptide, protein)) - AnalysisCollection - AnalysisProtocolCollection
//   (search type, mass types, modifications, enzyme, tolerances, threshold) - DataCollection
//   (SourceFile-free Inputs: SearchDatabase with the decoy rule, one SpectraData per spectra file;
//   AnalysisData: one SpectrumIdentificationResult per spectrum, one SpectrumIdentificationItem
//   per PSM; ProteinDetectionList with one ProteinAmbiguityGroup per protein with target PSMs).
//
// PSI-MS accessions (checked against psi-ms.obo 4.1.28 as shipped by openms-common):
//   MS:1001083 ms-ms search; MS:1001211 parent mass type mono; MS:1001256 fragment mass type
//   mono; MS:1001412 / MS:1001413 search tolerance plus / minus value; MS:1002354 PSM-level
//   q-value; MS:1001868 distinct peptide-level q-value; MS:1001869 protein-level q-value;
//   MS:1001331 X!Tandem:hyperscore; MS:1001330 X!Tandem:expect; MS:1001121 number of matched
//   peaks; MS:1000894 retention time (on the result, seconds); MS:1001115 scan number(s);
//   MS:1000796 spectrum title (MGF); MS:1001460 unknown modification; MS:1001189 / MS:1001190
//   modification specificity peptide N-/C-term; MS:1002057 / MS:1002058 ... protein N-/C-term;
//   MS:1001348 FASTA format; MS:1001073 database type amino acid; MS:1001197 DB composition
//   target+decoy; MS:1001283 decoy DB accession regexp; MS:1001195 decoy DB type reverse;
//   MS:1000584 mzML format; MS:1001062 Mascot MGF format; MS:1000768 Thermo nativeID format;
//   MS:1000776 scan number only nativeID format; MS:1000774 multiple peak list nativeID format;
//   MS:1000777 spectrum identifier nativeID format; MS:1001530 mzML unique identifier;
//   enzymes: MS:1001251 Trypsin, MS:1001313 Trypsin/P, MS:1001309 Lys-C, MS:1001303 Arg-C,
//   MS:1001304 Asp-N, MS:1001917 glutamyl endopeptidase, MS:1001306 Chymotrypsin,
//   MS:1001956 unspecific cleavage; units UO:0000221 dalton, UO:0000169 parts per million,
//   UO:0000010 second. Modifications carry UNIMOD:<accession> with cvRef UNIMOD.
//
// 1.2.0 (specification 1.2.0, sections 4.3, 5.2.1 and 5.2.6) is the same document in the 1.2
// namespace plus the CV terms 1.2 makes mandatory: MS:1002490 peptide-level scoring in
// AdditionalSearchParams and MS:1001868 in the protocol's Threshold; on every
// SpectrumIdentificationItem MS:1002520 peptide group ID (n of the Peptide id Pep_<n>) and
// MS:1002500 peptide passes threshold ("1" / "0": peptide_q <= pass_threshold_q); MS:1002401
// leading protein on every ProteinDetectionHypothesis (one per group), MS:1002415 protein group
// passes threshold on every ProteinAmbiguityGroup and MS:1002404 count of identified proteins
// (groups that pass) on the ProteinDetectionList.
//
// Modifications: UNIMOD:<n> with the Unimod title when the job's modification has an accession
// (given by name, or by mass and named by scoring/unimod.hpp's named_by_mass), else MS:1001460
// unknown modification with the mass as value.
//
// Without PSMs the document is well-formed but cannot be schema-valid: the XSD requires at least
// one SpectrumIdentificationResult per SpectrumIdentificationList.
//
// Numbers: masses as the shortest round-trip double; positions: Modification location 0 =
// peptide N-terminus, 1..n residues, n+1 = C-terminus (spec 1.1.0 §6.42); PeptideEvidence
// start/end 1-based inclusive. passThreshold = spectrum_q <= ResultContext::pass_threshold_q.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "io/result_common.hpp"
#include "io/result_writer.hpp"
#include "io/text_output.hpp"
#include "io/xml_writer.hpp"
#include "scoring/mass.hpp"

namespace ionflow {

namespace {

namespace rf = result_format;

struct Unit {
  std::string_view accession;
  std::string_view name;
};
constexpr Unit kDalton{"UO:0000221", "dalton"};
constexpr Unit kPpm{"UO:0000169", "parts per million"};
constexpr Unit kSecond{"UO:0000010", "second"};

// <cvParam cvRef="PSI-MS" accession=".." name=".." [value=".."] [unit..]/>
void cv_param(TextOutput& out, std::string_view indent, std::string_view accession,
              std::string_view name, std::string_view value = {}, const Unit* unit = nullptr,
              std::string_view cv_ref = "PSI-MS") {
  out.put(indent);
  out.put("<cvParam");
  xml::put_attribute(out, "cvRef", cv_ref);
  xml::put_attribute(out, "accession", accession);
  xml::put_attribute(out, "name", name);
  if (!value.empty()) xml::put_attribute(out, "value", value);
  if (unit != nullptr) {
    xml::put_attribute(out, "unitCvRef", "UO");
    xml::put_attribute(out, "unitAccession", unit->accession);
    xml::put_attribute(out, "unitName", unit->name);
  }
  out.put("/>\n");
}

// xs:double text of `value` (shortest round-trip form, NaN / INF / -INF).
std::string shortest(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value < 0 ? "-INF" : "INF";
  char buffer[64];
  auto r = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, r.ptr);
}

void cv_param_double(TextOutput& out, std::string_view indent, std::string_view accession,
                     std::string_view name, double value, const Unit* unit = nullptr) {
  cv_param(out, indent, accession, name, shortest(value), unit);
}

void user_param(TextOutput& out, std::string_view indent, std::string_view name,
                std::string_view value, std::string_view type = {}) {
  out.put(indent);
  out.put("<userParam");
  xml::put_attribute(out, "name", name);
  if (!value.empty()) xml::put_attribute(out, "value", value);
  if (!type.empty()) xml::put_attribute(out, "type", type);
  out.put("/>\n");
}

// The modification's Unimod cvParam, or MS:1001460 "unknown modification" for mass-only ones.
void modification_cv(TextOutput& out, std::string_view indent, int unimod_accession,
                     std::string_view name, double mass_delta_da) {
  if (unimod_accession > 0) {
    const std::string accession = "UNIMOD:" + std::to_string(unimod_accession);
    cv_param(out, indent, accession, name.empty() ? std::string_view(accession) : name, {}, nullptr,
             "UNIMOD");
  } else {
    cv_param(out, indent, "MS:1001460", "unknown modification", shortest(mass_delta_da));
  }
}

struct EnzymeCv {
  std::string_view accession;  // "" when the CV has no term (lys-n, custom)
  std::string_view name;
};

EnzymeCv enzyme_cv(const EnzymeParameters& enzyme) {
  std::string name = enzyme.name;
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (name == "trypsin") return {"MS:1001251", "Trypsin"};
  if (name == "trypsin/p") return {"MS:1001313", "Trypsin/P"};
  if (name == "lys-c") return {"MS:1001309", "Lys-C"};
  if (name == "arg-c") return {"MS:1001303", "Arg-C"};
  if (name == "asp-n") return {"MS:1001304", "Asp-N"};
  if (name == "glu-c") return {"MS:1001917", "glutamyl endopeptidase"};
  if (name == "chymotrypsin") return {"MS:1001306", "Chymotrypsin"};
  if (name == "no-enzyme" || enzyme.cleave_at.empty()) {
    return {"MS:1001956", "unspecific cleavage"};
  }
  return {"", ""};
}

// Perl-compatible cleavage-site regexp as the PSI-MS enzyme terms give them, e.g.
// "(?<=[KR])(?!P)" for trypsin.
std::string site_regexp(const EnzymeParameters& enzyme) {
  if (enzyme.cleave_at.empty()) return "(?<=[A-Z])";
  // One residue stands alone, several form a class: "(?<=K)(?!P)", "(?<=[KR])(?!P)".
  auto residue_class = [](const std::string& residues) {
    if (residues.size() <= 1) return residues;
    std::string text = "[";
    text.append(residues).push_back(']');
    return text;
  };
  const std::string sites = residue_class(enzyme.cleave_at);
  const std::string restrict = residue_class(enzyme.restrict);
  if (enzyme.c_terminal) {
    return "(?<=" + sites + ")" + (restrict.empty() ? "" : "(?!" + restrict + ")");
  }
  return (restrict.empty() ? "" : "(?<!" + restrict + ")") + "(?=" + sites + ")";
}

// A spectra file's nativeID format from the ids seen in it.
std::pair<std::string_view, std::string_view> native_id_format(std::string_view sample_id,
                                                               bool mgf) {
  if (mgf) return {"MS:1000774", "multiple peak list nativeID format"};
  if (sample_id.find("controllerType=") != std::string_view::npos) {
    return {"MS:1000768", "Thermo nativeID format"};
  }
  if (sample_id.rfind("scan=", 0) == 0) return {"MS:1000776", "scan number only nativeID format"};
  if (sample_id.rfind("index=", 0) == 0) {
    return {"MS:1000774", "multiple peak list nativeID format"};
  }
  if (sample_id.rfind("spectrum=", 0) == 0) {
    return {"MS:1000777", "spectrum identifier nativeID format"};
  }
  return {"MS:1001530", "mzML unique identifier"};
}

std::string regex_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

// Everything the SequenceCollection and ProteinDetectionList need, gathered in a first pass over
// the PSMs (unique peptides, proteins and evidences: much fewer than PSMs); the second pass
// looks each PSM's ids up again (evidence_ids) instead of keeping them per PSM.
struct Catalogue {
  std::vector<std::string> proteins;  // accession per DBSequence
  std::unordered_map<std::string, uint32_t> protein_index;
  struct Peptide {
    std::string sequence;  // of the first PSM with this ProForma
    std::vector<AppliedModification> modifications;
  };
  std::vector<Peptide> peptides;
  std::unordered_map<std::string, uint32_t> peptide_index;  // ProForma -> Peptide
  struct Evidence {
    uint32_t peptide = 0;
    uint32_t protein = 0;
    PeptideEvidence where;
  };
  std::vector<Evidence> evidences;
  std::unordered_map<uint64_t, uint32_t> evidence_index;  // (peptide << 32 | protein)
  std::vector<std::string> sample_ids;  // per spectra file: the first non-empty native id
};

// The schema wants >= 1 PeptideEvidenceRef per item: a PSM without proteins (never made by the
// search) gets one to an "unknown" protein rather than an invalid document.
const std::vector<PeptideEvidence>& evidences_of(const Psm& psm) {
  static const std::vector<PeptideEvidence> kUnknownTarget = {{"unknown", 0, '?', '?', false}};
  static const std::vector<PeptideEvidence> kUnknownDecoy = {{"unknown", 0, '?', '?', true}};
  return !psm.evidence.empty() ? psm.evidence : (psm.decoy ? kUnknownDecoy : kUnknownTarget);
}

Catalogue catalogue(const PsmSource& psms, std::size_t spectra_files) {
  Catalogue c;
  c.sample_ids.resize(spectra_files);
  psms.for_each([&](const Psm& psm) {
    if (psm.file_index < c.sample_ids.size() && c.sample_ids[psm.file_index].empty()) {
      c.sample_ids[psm.file_index] = psm.native_id;
    }
    auto [pep_it, new_peptide] =
        c.peptide_index.emplace(rf::proforma(psm), static_cast<uint32_t>(c.peptides.size()));
    if (new_peptide) c.peptides.push_back({psm.sequence, psm.modifications});
    const uint32_t peptide = pep_it->second;
    for (const PeptideEvidence& evidence : evidences_of(psm)) {
      auto [prot_it, new_protein] = c.protein_index.emplace(
          evidence.protein_accession, static_cast<uint32_t>(c.proteins.size()));
      if (new_protein) c.proteins.push_back(evidence.protein_accession);
      const uint32_t protein = prot_it->second;
      const uint64_t key = (static_cast<uint64_t>(peptide) << 32) | protein;
      auto [ev_it, new_evidence] =
          c.evidence_index.emplace(key, static_cast<uint32_t>(c.evidences.size()));
      if (new_evidence) c.evidences.push_back({peptide, protein, evidence});
    }
  });
  return c;
}

// The Peptide of `psm` and its PeptideEvidence ids (in evidence order), from the catalogue.
uint32_t peptide_id(const Catalogue& c, const Psm& psm) {
  return c.peptide_index.at(rf::proforma(psm));
}
void evidence_ids(const Catalogue& c, const Psm& psm, uint32_t peptide,
                  std::vector<uint32_t>& out) {
  out.clear();
  for (const PeptideEvidence& evidence : evidences_of(psm)) {
    const uint32_t protein = c.protein_index.at(evidence.protein_accession);
    out.push_back(c.evidence_index.at((static_cast<uint64_t>(peptide) << 32) | protein));
  }
}

// pre / post as the schema allows them: [A-Z], '-' (protein terminus) or '?' (unknown).
char flank_residue(char c) {
  if (c == 0) return '-';
  if ((c >= 'A' && c <= 'Z') || c == '-' || c == '?') return c;
  return '?';
}

std::string dbsequence_id(const Catalogue& c, uint32_t protein) {
  return xml::make_id("DBSeq_" + std::to_string(protein + 1) + "_", c.proteins[protein]);
}

// The two versions written: namespace, schema and version attribute; 1.2 adds the CV terms its
// specification makes mandatory (file header).
struct Version {
  bool v1_2 = false;
  std::string_view namespace_uri() const {
    return v1_2 ? "http://psidev.info/psi/pi/mzIdentML/1.2"
                : "http://psidev.info/psi/pi/mzIdentML/1.1";
  }
  std::string_view schema() const {
    return v1_2 ? "http://www.psidev.info/files/mzIdentML1.2.0.xsd"
                : "http://www.psidev.info/files/mzIdentML1.1.0.xsd";
  }
  std::string_view number() const { return v1_2 ? "1.2.0" : "1.1.0"; }
};

void write_header(TextOutput& out, const ResultContext& context, Version version) {
  out.put("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<MzIdentML");
  xml::put_attribute(out, "xmlns", version.namespace_uri());
  xml::put_attribute(out, "xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance");
  xml::put_attribute(out, "xsi:schemaLocation",
                     std::string(version.namespace_uri()) + " " + std::string(version.schema()));
  xml::put_attribute(out, "id", "ionflow_results");
  xml::put_attribute(out, "version", version.number());
  xml::put_attribute(out, "creationDate", rf::creation_time(context));
  out.put(">\n");
  out.put(
      "  <cvList>\n"
      "    <cv id=\"PSI-MS\" fullName=\"PSI-MS\" version=\"4.1.28\" "
      "uri=\"https://raw.githubusercontent.com/HUPO-PSI/psi-ms-CV/master/psi-ms.obo\"/>\n"
      "    <cv id=\"UNIMOD\" fullName=\"UNIMOD\" uri=\"http://www.unimod.org/obo/unimod.obo\"/>\n"
      "    <cv id=\"UO\" fullName=\"UNIT-ONTOLOGY\" "
      "uri=\"https://raw.githubusercontent.com/bio-ontology-research-group/unit-ontology/master/"
      "unit.obo\"/>\n"
      "  </cvList>\n");
  out.put("  <AnalysisSoftwareList>\n    <AnalysisSoftware id=\"AS_ionflow\" name=\"ionflow\"");
  xml::put_attribute(out, "version",
                     context.software_version.empty() ? "unknown" : context.software_version);
  out.put(">\n      <SoftwareName>\n");
  user_param(out, "        ", "ionflow", "");
  out.put("      </SoftwareName>\n    </AnalysisSoftware>\n  </AnalysisSoftwareList>\n");
}

void write_sequence_collection(TextOutput& out, const Catalogue& c) {
  if (c.proteins.empty()) return;  // optional element; the schema wants >= 1 DBSequence inside
  out.put("  <SequenceCollection>\n");
  for (uint32_t p = 0; p < c.proteins.size(); ++p) {
    out.put("    <DBSequence");
    xml::put_attribute(out, "id", dbsequence_id(c, p));
    xml::put_attribute(out, "accession", c.proteins[p]);
    xml::put_attribute(out, "searchDatabase_ref", "SDB_1");
    out.put("/>\n");
  }
  for (uint32_t p = 0; p < c.peptides.size(); ++p) {
    const Catalogue::Peptide& psm = c.peptides[p];
    const int length = static_cast<int>(psm.sequence.size());
    out.put("    <Peptide id=\"Pep_");
    out.put_uint(p + 1);
    out.put("\">\n      <PeptideSequence>");
    xml::put_escaped(out, psm.sequence);
    out.put("</PeptideSequence>\n");
    for (const AppliedModification& mod : psm.modifications) {
      const int location =
          mod.position < 0 ? 0 : (mod.position >= length ? length + 1 : mod.position + 1);
      out.put("      <Modification");
      xml::put_attribute(out, "location", static_cast<int64_t>(location));
      xml::put_attribute(out, "monoisotopicMassDelta", mod.mass_delta_da);
      if (mod.position >= 0 && mod.position < length) {
        xml::put_attribute(
            out, "residues",
            std::string_view(&psm.sequence[static_cast<std::size_t>(mod.position)], 1));
      }
      out.put(">\n");
      modification_cv(out, "        ", mod.unimod_accession, mod.name, mod.mass_delta_da);
      out.put("      </Modification>\n");
    }
    out.put("    </Peptide>\n");
  }
  for (uint32_t e = 0; e < c.evidences.size(); ++e) {
    const auto& ev = c.evidences[e];
    const Catalogue::Peptide& psm = c.peptides[ev.peptide];
    out.put("    <PeptideEvidence id=\"PE_");
    out.put_uint(e + 1);
    out.put("\" peptide_ref=\"Pep_");
    out.put_uint(ev.peptide + 1);
    out.put('"');
    xml::put_attribute(out, "dBSequence_ref", dbsequence_id(c, ev.protein));
    xml::put_attribute(out, "start", static_cast<int64_t>(ev.where.start) + 1);
    xml::put_attribute(out, "end", static_cast<int64_t>(ev.where.start + psm.sequence.size()));
    const char pre = flank_residue(ev.where.pre);
    const char post = flank_residue(ev.where.post);
    xml::put_attribute(out, "pre", std::string_view(&pre, 1));
    xml::put_attribute(out, "post", std::string_view(&post, 1));
    xml::put_attribute_bool(out, "isDecoy", ev.where.decoy);
    out.put("/>\n");
  }
  out.put("  </SequenceCollection>\n");
}

void write_search_modification(TextOutput& out, const Modification& mod) {
  out.put("        <SearchModification");
  xml::put_attribute_bool(out, "fixedMod", mod.fixed);
  xml::put_attribute(out, "massDelta", mod.mass_delta_da);
  xml::put_attribute(
      out, "residues", mod.residues.empty() ? std::string(".") : [&] {
        std::string spaced;  // listOfChars: space-separated residues
        for (char r : mod.residues) {
          if (!spaced.empty()) spaced += ' ';
          spaced += r;
        }
        return spaced;
      }());
  out.put(">\n");
  std::string_view rule_accession;
  std::string_view rule_name;
  switch (mod.position) {
    case ModificationPosition::kPeptideNTerm:
      rule_accession = "MS:1001189";
      rule_name = "modification specificity peptide N-term";
      break;
    case ModificationPosition::kPeptideCTerm:
      rule_accession = "MS:1001190";
      rule_name = "modification specificity peptide C-term";
      break;
    case ModificationPosition::kProteinNTerm:
      rule_accession = "MS:1002057";
      rule_name = "modification specificity protein N-term";
      break;
    case ModificationPosition::kProteinCTerm:
      rule_accession = "MS:1002058";
      rule_name = "modification specificity protein C-term";
      break;
    case ModificationPosition::kAnywhere:
      break;
  }
  if (!rule_accession.empty()) {
    out.put("          <SpecificityRules>\n");
    cv_param(out, "            ", rule_accession, rule_name);
    out.put("          </SpecificityRules>\n");
  }
  modification_cv(out, "          ", mod.unimod_accession, mod.name, mod.mass_delta_da);
  out.put("        </SearchModification>\n");
}

void write_tolerance(TextOutput& out, std::string_view element, const Tolerance& tolerance) {
  const Unit* unit = tolerance.unit == Tolerance::Unit::kDa ? &kDalton : &kPpm;
  out.put("      <");
  out.put(element);
  out.put(">\n");
  // Plus / minus values are magnitudes (spec: "search tolerance plus value").
  cv_param_double(out, "        ", "MS:1001412", "search tolerance plus value",
                  std::max(0.0, tolerance.upper), unit);
  cv_param_double(out, "        ", "MS:1001413", "search tolerance minus value",
                  std::max(0.0, -tolerance.lower), unit);
  out.put("      </");
  out.put(element);
  out.put(">\n");
}

void write_protocols(TextOutput& out, const SearchParameters& params, const ResultContext& context,
                     Version version) {
  const DatabaseParameters& db = params.database;
  out.put(
      "  <AnalysisCollection>\n"
      "    <SpectrumIdentification id=\"SI_1\" spectrumIdentificationProtocol_ref=\"SIP_1\" "
      "spectrumIdentificationList_ref=\"SIL_1\">\n");
  for (std::size_t f = 0; f < context.spectra_paths.size(); ++f) {
    out.put("      <InputSpectra spectraData_ref=\"SD_");
    out.put_uint(f + 1);
    out.put("\"/>\n");
  }
  out.put(
      "      <SearchDatabaseRef searchDatabase_ref=\"SDB_1\"/>\n"
      "    </SpectrumIdentification>\n"
      "    <ProteinDetection id=\"PD_1\" proteinDetectionProtocol_ref=\"PDP_1\" "
      "proteinDetectionList_ref=\"PDL_1\">\n"
      "      <InputSpectrumIdentifications spectrumIdentificationList_ref=\"SIL_1\"/>\n"
      "    </ProteinDetection>\n"
      "  </AnalysisCollection>\n"
      "  <AnalysisProtocolCollection>\n"
      "    <SpectrumIdentificationProtocol id=\"SIP_1\" analysisSoftware_ref=\"AS_ionflow\">\n"
      "      <SearchType>\n");
  cv_param(out, "        ", "MS:1001083", "ms-ms search");
  out.put("      </SearchType>\n      <AdditionalSearchParams>\n");
  cv_param(out, "        ", "MS:1001211", "parent mass type mono");
  cv_param(out, "        ", "MS:1001256", "fragment mass type mono");
  // 1.2 (spec section 4.3, Table 1): one of its processing terms is mandatory; ionflow reports
  // distinct peptide-level q-values (MS:1001868), so "peptide-level scoring".
  if (version.v1_2) cv_param(out, "        ", "MS:1002490", "peptide-level scoring");
  auto user_int = [&](std::string_view name, int64_t value) {
    user_param(out, "        ", name, std::to_string(value), "xsd:int");
  };
  user_int("min_precursor_charge", params.min_precursor_charge);
  user_int("max_precursor_charge", params.max_precursor_charge);
  user_int("max_fragment_charge", params.max_fragment_charge);
  const std::string isotopes = rf::join_ints(params.isotope_errors, ',');
  user_param(out, "        ", "isotope_errors", isotopes.empty() ? "0" : isotopes, "xsd:string");
  user_param(out, "        ", "ion_types", params.ion_types, "xsd:string");
  user_int("max_variable_modifications", db.max_variable_modifications);
  user_int("min_peaks", params.min_peaks);
  user_int("max_peaks", params.max_peaks);
  user_int("report_psms", params.report_psms);
  out.put("      </AdditionalSearchParams>\n");

  if (!db.fixed_modifications.empty() || !db.variable_modifications.empty()) {
    out.put("      <ModificationParams>\n");
    for (const auto& mod : db.fixed_modifications) {
      Modification fixed = mod;
      fixed.fixed = true;
      write_search_modification(out, fixed);
    }
    for (const auto& mod : db.variable_modifications) {
      Modification variable = mod;
      variable.fixed = false;
      write_search_modification(out, variable);
    }
    out.put("      </ModificationParams>\n");
  }

  const EnzymeParameters& enzyme = db.enzyme;
  out.put("      <Enzymes independent=\"false\">\n        <Enzyme id=\"ENZ_1\"");
  xml::put_attribute(out, "missedCleavages", static_cast<int64_t>(enzyme.missed_cleavages));
  xml::put_attribute_bool(out, "semiSpecific", enzyme.semi_enzymatic);
  out.put(" cTermGain=\"OH\" nTermGain=\"H\">\n          <SiteRegexp><![CDATA[");
  out.put(site_regexp(enzyme));
  out.put("]]></SiteRegexp>\n          <EnzymeName>\n");
  const EnzymeCv cv = enzyme_cv(enzyme);
  if (!cv.accession.empty()) {
    cv_param(out, "            ", cv.accession, cv.name);
  } else {
    user_param(out, "            ", enzyme.name, "");
  }
  out.put("          </EnzymeName>\n        </Enzyme>\n      </Enzymes>\n");
  write_tolerance(out, "FragmentTolerance", params.fragment_tolerance);
  write_tolerance(out, "ParentTolerance", params.precursor_tolerance);
  out.put("      <Threshold>\n");
  cv_param_double(out, "        ", "MS:1002354", "PSM-level q-value", context.pass_threshold_q);
  // 1.2 section 5.2.6: the Threshold may state the peptide-level one ("peptide passes threshold").
  if (version.v1_2) {
    cv_param_double(out, "        ", "MS:1001868", "distinct peptide-level q-value",
                    context.pass_threshold_q);
  }
  out.put(
      "      </Threshold>\n"
      "    </SpectrumIdentificationProtocol>\n"
      "    <ProteinDetectionProtocol id=\"PDP_1\" analysisSoftware_ref=\"AS_ionflow\">\n"
      "      <Threshold>\n");
  cv_param(out, "        ", "MS:1001494", "no threshold");
  out.put(
      "      </Threshold>\n"
      "    </ProteinDetectionProtocol>\n"
      "  </AnalysisProtocolCollection>\n");
}

void write_inputs(TextOutput& out, const Catalogue& c, const SearchParameters& params,
                  const ResultContext& context) {
  const DatabaseParameters& db = params.database;
  out.put("  <DataCollection>\n    <Inputs>\n      <SearchDatabase id=\"SDB_1\"");
  xml::put_attribute(out, "location", context.fasta_path);
  out.put(">\n        <FileFormat>\n");
  cv_param(out, "          ", "MS:1001348", "FASTA format");
  out.put("        </FileFormat>\n        <DatabaseName>\n");
  // name and value both carry the file name: readers differ in which one they take.
  user_param(out, "          ", rf::file_name(context.fasta_path),
             rf::file_name(context.fasta_path));
  out.put("        </DatabaseName>\n");
  cv_param(out, "        ", "MS:1001073", "database type amino acid");
  cv_param(out, "        ", "MS:1001197", "DB composition target+decoy");
  std::string regexp = regex_escape(db.decoy_tag);
  if (db.decoy_tag_is_suffix) {
    regexp.push_back('$');
  } else {
    regexp.insert(regexp.begin(), '^');
  }
  cv_param(out, "        ", "MS:1001283", "decoy DB accession regexp", regexp);
  cv_param(out, "        ", "MS:1001195", "decoy DB type reverse");
  out.put("      </SearchDatabase>\n");

  // A sample native id per file (Catalogue::sample_ids) decides its nativeID format.
  for (std::size_t f = 0; f < context.spectra_paths.size(); ++f) {
    const std::string& path = context.spectra_paths[f];
    const bool mgf = rf::is_mgf(path);
    out.put("      <SpectraData id=\"SD_");
    out.put_uint(f + 1);
    out.put('"');
    xml::put_attribute(out, "location", path);
    xml::put_attribute(out, "name", rf::file_name(path));
    out.put(">\n        <FileFormat>\n");
    if (mgf) {
      cv_param(out, "          ", "MS:1001062", "Mascot MGF format");
    } else {
      cv_param(out, "          ", "MS:1000584", "mzML format");
    }
    out.put("        </FileFormat>\n        <SpectrumIDFormat>\n");
    const auto [accession, name] = native_id_format(c.sample_ids[f], mgf);
    cv_param(out, "          ", accession, name);
    out.put("        </SpectrumIDFormat>\n      </SpectraData>\n");
  }
  out.put("    </Inputs>\n");
}

void write_item(TextOutput& out, const Psm& psm, std::size_t item, uint32_t peptide,
                const std::vector<uint32_t>& evidences, const ResultContext& context,
                Version version) {
  out.put("        <SpectrumIdentificationItem id=\"SII_");
  out.put_uint(item);
  out.put('"');
  xml::put_attribute(out, "rank", static_cast<int64_t>(psm.rank));
  xml::put_attribute(out, "chargeState", static_cast<int64_t>(psm.charge));
  const int charge = psm.charge > 0 ? psm.charge : 1;
  const double experimental_mz =
      psm.precursor_mz > 0 ? psm.precursor_mz : mass::mz_from_neutral(psm.expmass, charge);
  xml::put_attribute(out, "experimentalMassToCharge", experimental_mz);
  xml::put_attribute(out, "calculatedMassToCharge", mass::mz_from_neutral(psm.calcmass, charge));
  xml::put_attribute_bool(out, "passThreshold", psm.spectrum_q <= context.pass_threshold_q);
  out.put(" peptide_ref=\"Pep_");
  out.put_uint(peptide + 1);
  out.put("\">\n");
  for (uint32_t e : evidences) {
    out.put("          <PeptideEvidenceRef peptideEvidence_ref=\"PE_");
    out.put_uint(e + 1);
    out.put("\"/>\n");
  }
  const std::string_view indent = "          ";
  cv_param_double(out, indent, "MS:1001330", "X!Tandem:expect", psm.evalue);
  cv_param_double(out, indent, "MS:1001331", "X!Tandem:hyperscore", psm.hyperscore);
  cv_param_double(out, indent, "MS:1002354", "PSM-level q-value", psm.spectrum_q);
  cv_param_double(out, indent, "MS:1001868", "distinct peptide-level q-value", psm.peptide_q);
  cv_param(out, indent, "MS:1001121", "number of matched peaks", std::to_string(psm.matched_peaks));
  if (version.v1_2) {
    // Peptide-level scoring (1.2 section 5.2.6): the group is the Peptide element (one per
    // ProForma, the peptide form the peptide-level q-value is computed over; its number, as
    // "Pep_<n>" is its id) and whether it passes, as xsd:boolean's "1" / "0": OpenMS 2.6 reads
    // every SpectrumIdentificationItem cvParam value as a number and refuses "true" or "Pep_1".
    cv_param(out, indent, "MS:1002520", "peptide group ID", std::to_string(peptide + 1));
    cv_param(out, indent, "MS:1002500", "peptide passes threshold",
             psm.peptide_q <= context.pass_threshold_q ? "1" : "0");
  }
  user_param(out, indent, "delta_next", shortest(psm.delta_next), "xsd:double");
  user_param(out, indent, "precursor_ppm", shortest(psm.precursor_ppm), "xsd:double");
  user_param(out, indent, "fragment_ppm", shortest(psm.fragment_ppm), "xsd:double");
  user_param(out, indent, "isotope_error", std::to_string(psm.isotope_error), "xsd:int");
  user_param(out, indent, "missed_cleavages", std::to_string(psm.missed_cleavages), "xsd:int");
  out.put("        </SpectrumIdentificationItem>\n");
}

void write_result_params(TextOutput& out, const Psm& psm, bool mgf) {
  const std::string_view indent = "        ";
  if (psm.rt_seconds >= 0) {
    cv_param_double(out, indent, "MS:1000894", "retention time", psm.rt_seconds, &kSecond);
  }
  if (psm.scan >= 0)
    cv_param(out, indent, "MS:1001115", "scan number(s)", std::to_string(psm.scan));
  if (mgf && !psm.native_id.empty())
    cv_param(out, indent, "MS:1000796", "spectrum title", psm.native_id);
}

void write_document(std::ostream& out, const PsmSource& psms, const ResultContext& context,
                    Version version) {
  const SearchParameters& params = rf::parameters(context);
  const Catalogue c = catalogue(psms, context.spectra_paths.size());  // first pass

  TextOutput text(out);
  write_header(text, context, version);
  write_sequence_collection(text, c);
  write_protocols(text, params, context, version);
  write_inputs(text, c, params, context);

  // Per protein: (evidence, item) pairs of target PSMs and the best protein q-value.
  struct Hypothesis {
    std::vector<std::pair<uint32_t, std::size_t>> refs;
    double protein_q = 1.0;
  };
  std::vector<Hypothesis> hypotheses(c.proteins.size());

  text.put("    <AnalysisData>\n      <SpectrumIdentificationList id=\"SIL_1\">\n");
  std::size_t item = 0;
  std::size_t result = 0;
  std::vector<uint32_t> evidences;
  rf::for_each_spectrum(psms, [&](const std::vector<Psm>& group) {  // second pass
    const Psm& first = group.front();
    const bool mgf = rf::is_mgf(rf::spectra_path(context, first.file_index));
    text.put("      <SpectrumIdentificationResult id=\"SIR_");
    text.put_uint(++result);
    text.put('"');
    xml::put_attribute(text, "spectrumID", rf::spectrum_id(first, mgf));
    text.put(" spectraData_ref=\"SD_");
    text.put_uint(static_cast<uint64_t>(first.file_index) + 1);
    text.put("\">\n");
    for (const Psm& psm : group) {
      const uint32_t peptide = peptide_id(c, psm);
      evidence_ids(c, psm, peptide, evidences);
      write_item(text, psm, ++item, peptide, evidences, context, version);
      if (!psm.decoy) {
        for (uint32_t e : evidences) {
          const auto& ev = c.evidences[e];
          if (ev.where.decoy) continue;
          hypotheses[ev.protein].refs.emplace_back(e, item);
          hypotheses[ev.protein].protein_q =
              std::min(hypotheses[ev.protein].protein_q, psm.protein_q);
        }
      }
    }
    write_result_params(text, first, mgf);
    text.put("      </SpectrumIdentificationResult>\n");
  });
  text.put("      </SpectrumIdentificationList>\n      <ProteinDetectionList id=\"PDL_1\">\n");
  std::size_t groups_passing = 0;
  for (uint32_t p = 0; p < hypotheses.size(); ++p) {
    Hypothesis& h = hypotheses[p];
    if (h.refs.empty()) continue;
    std::stable_sort(h.refs.begin(), h.refs.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    text.put("        <ProteinAmbiguityGroup id=\"PAG_");
    text.put_uint(p + 1);
    text.put("\">\n          <ProteinDetectionHypothesis id=\"PDH_");
    text.put_uint(p + 1);
    text.put('"');
    xml::put_attribute(text, "dBSequence_ref", dbsequence_id(c, p));
    xml::put_attribute_bool(text, "passThreshold", h.protein_q <= context.pass_threshold_q);
    text.put(">\n");
    for (std::size_t r = 0; r < h.refs.size();) {
      const uint32_t evidence = h.refs[r].first;
      text.put("            <PeptideHypothesis peptideEvidence_ref=\"PE_");
      text.put_uint(evidence + 1);
      text.put("\">\n");
      for (; r < h.refs.size() && h.refs[r].first == evidence; ++r) {
        text.put(
            "              <SpectrumIdentificationItemRef spectrumIdentificationItem_ref=\"SII_");
        text.put_uint(h.refs[r].second);
        text.put("\"/>\n");
      }
      text.put("            </PeptideHypothesis>\n");
    }
    cv_param_double(text, "            ", "MS:1001869", "protein-level q-value", h.protein_q);
    const bool passes = h.protein_q <= context.pass_threshold_q;
    groups_passing += passes;
    if (version.v1_2) {
      // 1.2 section 5.2.1: every hypothesis is leading or not (one protein per group here: it
      // leads), every group says whether it passes, the list counts the groups that pass.
      cv_param(text, "            ", "MS:1002401", "leading protein");
      text.put("          </ProteinDetectionHypothesis>\n");
      cv_param(text, "          ", "MS:1002415", "protein group passes threshold",
               passes ? "true" : "false");
      text.put("        </ProteinAmbiguityGroup>\n");
    } else {
      text.put("          </ProteinDetectionHypothesis>\n        </ProteinAmbiguityGroup>\n");
    }
  }
  if (version.v1_2) {
    cv_param(text, "        ", "MS:1002404", "count of identified proteins",
             std::to_string(groups_passing));
  }
  text.put(
      "      </ProteinDetectionList>\n    </AnalysisData>\n  </DataCollection>\n"
      "</MzIdentML>\n");
  text.finish();
}

}  // namespace

void write_mzidentml(std::ostream& out, const PsmSource& psms, const ResultContext& context) {
  write_document(out, psms, context, Version{false});
}

void write_mzidentml_1_2(std::ostream& out, const PsmSource& psms, const ResultContext& context) {
  write_document(out, psms, context, Version{true});
}

void write_mzidentml(std::ostream& out, const std::vector<Psm>& psms,
                     const ResultContext& context) {
  write_mzidentml(out, VectorPsmSource(psms), context);
}

void write_mzidentml_1_2(std::ostream& out, const std::vector<Psm>& psms,
                         const ResultContext& context) {
  write_mzidentml_1_2(out, VectorPsmSource(psms), context);
}

}  // namespace ionflow
