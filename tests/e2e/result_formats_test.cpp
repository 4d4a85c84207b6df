// End-to-end: the standard result formats on the BSA demo search, twice: tests/data/
// bsa_formats_job.json (modifications by Unimod name, mzIdentML 1.1) and bsa_mods_by_mass_job.json
// (the same modifications by mass, Sage style, mzIdentML 1.2). Each run of the demo job plus the
// variable "Acetyl (Protein N-term)" and all four output formats must write an mzIdentML and a
// pepXML 1.22 file that validate against the schemas Debian's OpenMS ships, that OpenMS 2.6's
// IDFileConverter reads back with the same PSMs (count, sequences with modifications, E-values)
// as results.tsv, and a Percolator .pin with one row per PSM; every modified PSM's modifications
// appear with the right masses and positions in each format.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "e2e_support.hpp"

namespace ionflow::e2e {
namespace {

const std::string kBsa1 = kExamplesDir + "/BSA/BSA1.mzML";
const std::string kBsaFasta =
    kExamplesDir +
    "/TOPPAS/data/BSA_Identification/18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta";
const std::string kSchemas = "/usr/share/openms/SCHEMAS";

// One modification of a ProForma peptide: 1-based residue position (0 = N-terminus), the residue
// ('\0' for the N-terminus) and its Unimod accession.
struct SiteMod {
  int position = 0;
  char residue = '\0';
  int unimod = 0;
};

// Monoisotopic mass deltas (Unimod): 1 Acetyl 42.010565, 4 Carbamidomethyl 57.021464,
// 35 Oxidation 15.994915.
double unimod_delta(int accession) {
  switch (accession) {
    case 1:
      return 42.010565;
    case 4:
      return 57.021464;
    case 35:
      return 15.994915;
  }
  ADD_FAILURE() << "unexpected UNIMOD:" << accession;
  return 0.0;
}

// Monoisotopic residue masses (Unimod) of the residues that carry the job's modifications.
double residue_mass(char residue) {
  switch (residue) {
    case 'C':
      return 103.009185;
    case 'M':
      return 131.040485;
  }
  ADD_FAILURE() << "unexpected modified residue " << residue;
  return 0.0;
}

// Parses the TSV's ProForma ("[UNIMOD:1]-M[UNIMOD:35]EELEK") into a bare sequence and its mods.
std::pair<std::string, std::vector<SiteMod>> parse_proforma(const std::string& proforma) {
  std::string sequence;
  std::vector<SiteMod> mods;
  size_t i = 0;
  while (i < proforma.size()) {
    if (proforma[i] == '[') {
      size_t close = proforma.find(']', i);
      int accession = std::stoi(proforma.substr(i + 8, close - i - 8));  // after "[UNIMOD:"
      if (sequence.empty()) {
        mods.push_back({0, '\0', accession});
        i = close + 2;  // skip "]-"
      } else {
        mods.push_back({static_cast<int>(sequence.size()), sequence.back(), accession});
        i = close + 1;
      }
    } else {
      sequence += proforma[i++];
    }
  }
  return {sequence, mods};
}

// OpenMS's notation for the same peptide: ".(Acetyl)PAMSK", "LC(Carbamidomethyl)VLHEK".
std::string openms_sequence(const std::string& proforma) {
  auto [sequence, mods] = parse_proforma(proforma);
  std::string out;
  auto name = [](int accession) -> std::string {
    return accession == 1 ? "Acetyl" : accession == 4 ? "Carbamidomethyl" : "Oxidation";
  };
  for (const auto& mod : mods) {
    if (mod.position == 0) out.append(".(").append(name(mod.unimod)).append(")");
  }
  for (size_t i = 0; i < sequence.size(); ++i) {
    out += sequence[i];
    for (const auto& mod : mods) {
      if (mod.position == static_cast<int>(i + 1))
        out.append("(").append(name(mod.unimod)).append(")");
    }
  }
  return out;
}

std::string attribute(const std::string& element, const std::string& name) {
  std::string key = " " + name + "=\"";
  size_t at = element.find(key);
  if (at == std::string::npos) return {};
  at += key.size();
  return element.substr(at, element.find('"', at) - at);
}

// (sequence, score) of every <PeptideHit> of an idXML file.
std::vector<std::pair<std::string, double>> idxml_hits(const std::string& idxml) {
  std::vector<std::pair<std::string, double>> hits;
  for (size_t at = idxml.find("<PeptideHit "); at != std::string::npos;
       at = idxml.find("<PeptideHit ", at + 1)) {
    std::string element = idxml.substr(at, idxml.find('>', at) - at);
    hits.emplace_back(attribute(element, "sequence"), std::stod(attribute(element, "score")));
  }
  std::sort(hits.begin(), hits.end());
  return hits;
}

// True if some mzIdentML <Peptide> with this sequence carries exactly these modifications.
bool mzid_has_peptide(const std::string& mzid, const std::string& sequence,
                      const std::vector<SiteMod>& mods) {
  const std::string open = "<PeptideSequence>" + sequence + "</PeptideSequence>";
  for (size_t at = mzid.find(open); at != std::string::npos; at = mzid.find(open, at + 1)) {
    std::string peptide = mzid.substr(at, mzid.find("</Peptide>", at) - at);
    if (count_occurrences(peptide, "<Modification ") != mods.size()) continue;
    bool all = true;
    for (const auto& mod : mods) {
      // Its location, a mass delta within 1e-4 Da of Unimod's (a job may give 15.9949 for
      // Oxidation's 15.994915), its residue and its Unimod cvParam.
      const std::string tag = "<Modification location=\"" + std::to_string(mod.position) + "\"";
      bool found = false;
      for (size_t m = peptide.find(tag); m != std::string::npos && !found;
           m = peptide.find(tag, m + 1)) {
        const std::string element = peptide.substr(m, peptide.find("</Modification>", m) - m);
        const std::string delta = attribute(element, "monoisotopicMassDelta");
        found = !delta.empty() && std::fabs(std::stod(delta) - unimod_delta(mod.unimod)) < 1e-4 &&
                (mod.residue == '\0' ||
                 attribute(element, "residues") == std::string(1, mod.residue)) &&
                element.find("accession=\"UNIMOD:" + std::to_string(mod.unimod) + "\"") !=
                    std::string::npos;
      }
      all = all && found;
    }
    if (all) return true;
  }
  return false;
}

// True if some pepXML <search_hit> of this sequence has these modifications: residue mods as
// mod_aminoacid_mass (residue + delta, 1-based position), N-terminal ones as mod_nterm_mass
// (delta + H 1.007825), each within 1e-4 Da.
bool pepxml_has_hit(const std::string& pepxml, const std::string& sequence,
                    const std::vector<SiteMod>& mods) {
  const std::string open = "<search_hit hit_rank=\"1\" peptide=\"" + sequence + "\"";
  for (size_t at = pepxml.find(open); at != std::string::npos; at = pepxml.find(open, at + 1)) {
    std::string hit = pepxml.substr(at, pepxml.find("</search_hit>", at) - at);
    if (count_occurrences(hit, "<mod_aminoacid_mass ") +
            count_occurrences(hit, "mod_nterm_mass=") !=
        mods.size()) {
      continue;
    }
    bool all = true;
    for (const auto& mod : mods) {
      if (mod.position == 0) {
        std::string nterm = attribute(hit, "mod_nterm_mass");
        all = all && !nterm.empty() &&
              std::fabs(std::stod(nterm) - (unimod_delta(mod.unimod) + 1.007825)) < 1e-4;
        continue;
      }
      bool found = false;
      const std::string tag =
          "<mod_aminoacid_mass position=\"" + std::to_string(mod.position) + "\"";
      for (size_t m = hit.find(tag); m != std::string::npos; m = hit.find(tag, m + 1)) {
        std::string element = hit.substr(m, hit.find('>', m) - m);
        double mass = std::stod(attribute(element, "mass"));
        found = found ||
                std::fabs(mass - (residue_mass(mod.residue) + unimod_delta(mod.unimod))) < 1e-4;
      }
      all = all && found;
    }
    if (all) return true;
  }
  return false;
}

// xmllint validates `file` against the XSD at path `schema` (it prints "<file> validates").
void expect_valid(const std::string& file, const std::string& schema, const TempDir& dir) {
  CommandResult lint =
      run_command("xmllint --noout --schema " + shell_quote(schema) + " " + shell_quote(file), dir);
  EXPECT_EQ(lint.exit_code, 0) << file << ": " << lint.err.substr(0, 2000);
  EXPECT_NE(lint.err.find("validates"), std::string::npos) << lint.err.substr(0, 2000);
}

// mzIdentML 1.2 against the schema: Debian ships only mzIdentML1.1.0.xsd, from which 1.2.0's
// differs in the namespace, the version pattern and cardinalities the writer meets either way
// (tests/io/mzidentml_writer_test.cpp, MzIdentMl12WriterTest): the document moved to the 1.1
// namespace must validate against 1.1.0.
void expect_valid_mzid_1_2(const std::string& file, const TempDir& dir) {
  std::string text = read_file(file);
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"mzIdentML/1.2", "mzIdentML/1.1"},
           {"mzIdentML1.2.0.xsd", "mzIdentML1.1.0.xsd"},
           {"version=\"1.2.0\"", "version=\"1.1.0\""}}) {
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
      text.replace(at, from.size(), to);
    }
  }
  const std::string moved = dir / "as_1_1.mzid";
  std::ofstream(moved) << text;
  expect_valid(moved, kSchemas + "/mzIdentML1.1.0.xsd", dir);
}

// FileInfo's "Modification count (top-hits only): Acetyl 1, Carbamidomethyl (C) 3, ..." line
// for an idXML file.
std::string openms_modification_counts(const std::string& idxml, const TempDir& dir) {
  CommandResult info = run_command("FileInfo -in " + shell_quote(idxml), dir);
  EXPECT_EQ(info.exit_code, 0) << info.err << info.out;
  const std::string key = "Modification count (top-hits only): ";
  const size_t at = info.out.find(key);
  if (at == std::string::npos) return "(no modification count in FileInfo's output)";
  return info.out.substr(at + key.size(), info.out.find('\n', at) - at - key.size());
}

// The same line from results.tsv's ProForma column (rank-1 PSMs), OpenMS's names and order.
std::string tsv_modification_counts(const Table& tsv) {
  size_t acetyl = 0, carbamidomethyl = 0, oxidation = 0;
  for (size_t r = 0; r < tsv.rows.size(); ++r) {
    if (tsv.cell(r, "rank") != "1") continue;
    const std::string& peptide = tsv.cell(r, "peptide");
    acetyl += count_occurrences(peptide, "[UNIMOD:1]");
    carbamidomethyl += count_occurrences(peptide, "C[UNIMOD:4]");
    oxidation += count_occurrences(peptide, "M[UNIMOD:35]");
  }
  return "Acetyl " + std::to_string(acetyl) + ", Carbamidomethyl (C) " +
         std::to_string(carbamidomethyl) + ", Oxidation (M) " + std::to_string(oxidation);
}

// Runs the BSA demo search with `job` (tests/data) and checks every result format: schemas,
// OpenMS's read-back (same PSMs, sequences with Unimod names, E-values, modification counts),
// the pin layout, and each modified PSM's modifications with masses and positions.
void check_bsa_formats(const std::string& job, bool mzid_1_2) {
  ASSERT_NO_FATAL_FAILURE(require_file(kIonflow));
  ASSERT_NO_FATAL_FAILURE(require_file(kBsa1));
  ASSERT_NO_FATAL_FAILURE(require_file(kBsaFasta));
  ASSERT_NO_FATAL_FAILURE(require_file(kSchemas + "/mzIdentML1.1.0.xsd"));
  ASSERT_NO_FATAL_FAILURE(require_file(kSchemas + "/pepXML_v122.xsd"));
  for (const char* tool : {"xmllint", "IDFileConverter"}) {
    ASSERT_NO_FATAL_FAILURE(require_tool(tool));
  }
  TempDir dir;
  const std::string out = dir / "out";
  CommandResult run = run_ionflow(
      {"search", kSourceDir + "/tests/data/" + job, kBsa1, "-f", kBsaFasta, "-o", out, "-q"}, dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(list_directory(out),
            (std::vector<std::string>{"results.json", "results.mzid", "results.pep.xml",
                                      "results.pin", "results.tsv"}));
  Table tsv = read_tsv(read_file(out + "/results.tsv"));
  ASSERT_GT(tsv.rows.size(), 800u);  // one PSM for nearly every one of the 1119 searched spectra
  JsonValue results = read_json_file(out + "/results.json");
  EXPECT_EQ(static_cast<size_t>(json_at(results, "summary.psms").as_integer()), tsv.rows.size());
  EXPECT_EQ(json_at(results, "output_files").as_array().size(), 5u);

  // Schema validation (xmllint prints "<file> validates" on success).
  if (mzid_1_2) {
    EXPECT_NE(read_file(out + "/results.mzid").find("version=\"1.2.0\""), std::string::npos);
    expect_valid_mzid_1_2(out + "/results.mzid", dir);
  } else {
    expect_valid(out + "/results.mzid", kSchemas + "/mzIdentML1.1.0.xsd", dir);
  }
  expect_valid(out + "/results.pep.xml", kSchemas + "/pepXML_v122.xsd", dir);

  // What the TSV says: (OpenMS-notation sequence, E-value) of every PSM.
  std::vector<std::pair<std::string, double>> expected;
  for (size_t r = 0; r < tsv.rows.size(); ++r) {
    expected.emplace_back(openms_sequence(tsv.cell(r, "peptide")),
                          std::stod(tsv.cell(r, "evalue")));
  }
  std::sort(expected.begin(), expected.end());

  // OpenMS reads each format back with the same PSMs; its PeptideHit score is the E-value
  // (mzid MS:1001330 X!Tandem:expect, pepXML search_score "expect"). The TSV prints 4 significant
  // digits, so scores agree to 5e-4 relative.
  for (const auto& [file, idxml] : std::vector<std::pair<std::string, std::string>>{
           {"results.mzid", "from_mzid.idXML"}, {"results.pep.xml", "from_pepxml.idXML"}}) {
    std::string command = "IDFileConverter -in " + shell_quote(out + "/" + file) + " -out " +
                          shell_quote(dir / idxml);
    if (file == "results.pep.xml") command += " -mz_file " + shell_quote(kBsa1);
    CommandResult convert = run_command(command, dir);
    ASSERT_EQ(convert.exit_code, 0) << file << ": " << convert.err << convert.out;
    std::vector<std::pair<std::string, double>> hits = idxml_hits(read_file(dir / idxml));
    ASSERT_EQ(hits.size(), expected.size()) << file;
    size_t sequence_mismatches = 0;
    size_t score_mismatches = 0;
    for (size_t i = 0; i < hits.size(); ++i) {
      if (hits[i].first != expected[i].first) {
        if (++sequence_mismatches <= 5) {
          ADD_FAILURE() << file << ": " << hits[i].first << " vs TSV " << expected[i].first;
        }
      } else if (std::fabs(hits[i].second - expected[i].second) >
                 5e-4 * std::fabs(expected[i].second) + 1e-12) {
        if (++score_mismatches <= 5) {
          ADD_FAILURE() << file << ": " << hits[i].first << " E-value " << hits[i].second
                        << " vs TSV " << expected[i].second;
        }
      }
    }
    EXPECT_EQ(sequence_mismatches, 0u) << file;
    EXPECT_EQ(score_mismatches, 0u) << file;
    // FileInfo counts the same modifications under their Unimod names.
    EXPECT_EQ(openms_modification_counts(dir / idxml, dir), tsv_modification_counts(tsv)) << file;
  }

  // Percolator input: the expected header, one row per PSM, same labels as the TSV.
  Table pin = read_tsv(read_file(out + "/results.pin"));
  EXPECT_EQ(
      pin.header,
      (std::vector<std::string>{
          "SpecId",     "Label",        "ScanNr",           "ExpMass",       "CalcMass",
          "hyperscore", "delta_next",   "neg_log10_evalue", "matched_peaks", "matched_fraction",
          "abs_ppm",    "fragment_ppm", "Charge1",          "Charge2",       "Charge3",
          "Charge4",    "Charge5",      "Charge6",          "peptide_len",   "missed_cleavages",
          "enzN",       "enzC",         "Peptide",          "Proteins"}));
  ASSERT_EQ(pin.rows.size(), tsv.rows.size());
  size_t pin_targets = 0;
  size_t tsv_targets = 0;
  for (size_t r = 0; r < tsv.rows.size(); ++r) {
    // Percolator's format: a PSM's proteins are the last columns, one per column.
    EXPECT_GE(pin.rows[r].size(), pin.header.size()) << "pin row " << r;
    EXPECT_EQ(
        pin.rows[r].size() - pin.header.size() + 1,
        static_cast<size_t>(
            std::count(tsv.cell(r, "proteins").begin(), tsv.cell(r, "proteins").end(), ';') + 1))
        << "pin row " << r << " vs TSV proteins " << tsv.cell(r, "proteins");
    pin_targets += pin.cell(r, "Label") == "1";
    // Peptide: "K.PEPTIDE.R" with mass tags, N-terminal ones right before the first residue.
    const std::string& peptide = pin.cell(r, "Peptide");
    EXPECT_TRUE(peptide.size() > 4 && peptide[1] == '.' && peptide[peptide.size() - 2] == '.')
        << peptide;
    EXPECT_EQ(peptide.find("]-"), std::string::npos) << peptide;
    tsv_targets += tsv.cell(r, "label") == "1";
  }
  EXPECT_EQ(pin_targets, tsv_targets);

  // Modifications with masses and positions in every format: each modified PSM accepted at
  // 1% FDR, and every PSM with an N-terminal acetyl.
  const std::string mzid = read_file(out + "/results.mzid");
  const std::string pepxml = read_file(out + "/results.pep.xml");
  // Every modification has its Unimod accession (given by name or by mass).
  EXPECT_EQ(count_occurrences(mzid, "unknown modification"), 0u);
  EXPECT_EQ(count_occurrences(read_file(out + "/results.tsv"), "[+"), 0u);
  size_t checked = 0;
  size_t acetylated = 0;
  size_t carbamidomethylated = 0;
  for (size_t r = 0; r < tsv.rows.size(); ++r) {
    const std::string& proforma = tsv.cell(r, "peptide");
    bool acetyl = proforma.rfind("[UNIMOD:1]-", 0) == 0;
    bool accepted = tsv.cell(r, "rank") == "1" && tsv.cell(r, "label") == "1" &&
                    std::stod(tsv.cell(r, "spectrum_q")) <= 0.01;
    if (proforma.find('[') == std::string::npos || !(acetyl || accepted)) continue;
    auto [sequence, mods] = parse_proforma(proforma);
    EXPECT_TRUE(mzid_has_peptide(mzid, sequence, mods)) << "mzid lacks " << proforma;
    EXPECT_TRUE(pepxml_has_hit(pepxml, sequence, mods)) << "pepXML lacks " << proforma;
    ++checked;
    acetylated += acetyl;
    carbamidomethylated += proforma.find("C[UNIMOD:4]") != std::string::npos;
  }
  EXPECT_GE(acetylated, 1u) << "no N-terminal acetyl PSM to check";
  EXPECT_GE(carbamidomethylated, 10u);
  // A known case spelled out: LCVLHEK (BSA) with carbamidomethyl C at residue 2.
  EXPECT_NE(mzid.find("<PeptideSequence>LCVLHEK</PeptideSequence>\n      <Modification "
                      "location=\"2\" monoisotopicMassDelta=\"57.021464\" residues=\"C\">"),
            std::string::npos);
  EXPECT_NE(pepxml.find("<mod_aminoacid_mass position=\"2\" mass=\"160.03064"), std::string::npos);
  // TPP notation in modified_peptide, the ProForma string as the hit's parameter.
  EXPECT_NE(pepxml.find("modified_peptide=\"LC[160]VLHEK\""), std::string::npos);
  EXPECT_NE(pepxml.find("<parameter name=\"proforma\" value=\"LC[UNIMOD:4]VLHEK\"/>"),
            std::string::npos);
  EXPECT_GE(count_occurrences(read_file(out + "/results.pin"), "\tR.LC[+57.0215]VLHEK.T\t"), 1u);
  EXPECT_GE(count_occurrences(read_file(out + "/results.tsv"), "\tLC[UNIMOD:4]VLHEK\t"), 1u);
  EXPECT_GT(checked, 20u);
}

TEST(ResultFormats, BsaDemoWritesValidMzidPepxmlPinThatOpenmsReadsBack) {
  check_bsa_formats("bsa_formats_job.json", /*mzid_1_2=*/false);
}

// The same search with every modification given by mass, Sage style (static_mods
// {"C": 57.021464}, variable_mods {"M": [15.9949], "[": [42.010565]}) and mzIdentML 1.2: each
// is named by its Unimod entry, so results.tsv says C[UNIMOD:4], the mzid carries UNIMOD:4 /
// 35 / 1 cvParams (never "unknown modification") and OpenMS reads mzid and pepXML back with
// Carbamidomethyl, Oxidation and Acetyl.
TEST(ResultFormats, ModsByMassAreNamedByUnimodInEveryFormat) {
  check_bsa_formats("bsa_mods_by_mass_job.json", /*mzid_1_2=*/true);
}

}  // namespace
}  // namespace ionflow::e2e
