#include "service/job_message.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ionflow {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

const std::string kExamples = IONFLOW_EXAMPLES_DIR;
const std::string kFasta =
    kExamples +
    "/TOPPAS/data/BSA_Identification/18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta";
const std::string kBsa1 = kExamples + "/BSA/BSA1.mzML";

const Unimod& unimod() {
  static Unimod u;
  return u;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Sage's README example configuration (lazear/sage DOCS.md, "Example configuration file"),
// without its comments and with local paths.
std::string sage_example() {
  return R"({
  "database": {
    "bucket_size": 32768,
    "enzyme": {"missed_cleavages": 2, "min_len": 5, "max_len": 50, "cleave_at": "KR",
               "restrict": "P", "c_terminal": true, "semi_enzymatic": false},
    "peptide_min_mass": 500.0,
    "peptide_max_mass": 5000.0,
    "ion_kinds": ["b", "y"],
    "min_ion_index": 2,
    "static_mods": {"^": 304.207, "K": 304.207, "C": 57.0215},
    "variable_mods": {"M": [15.9949], "^Q": [-17.026549], "^E": [-18.010565], "$": [49.2, 22.9],
                      "[": [42.0], "]": [111.0]},
    "max_variable_mods": 2,
    "decoy_tag": "rev_",
    "generate_decoys": false,
    "fasta": ")" +
         kFasta + R"("
  },
  "quant": {"tmt": "Tmt16", "tmt_settings": {"level": 3, "sn": false}, "lfq": true},
  "precursor_tol": {"da": [-500, 100]},
  "fragment_tol": {"ppm": [-10, 10]},
  "precursor_charge": [2, 4],
  "isotope_errors": [-1, 3],
  "deisotope": false,
  "chimera": false,
  "wide_window": false,
  "predict_rt": false,
  "min_peaks": 15,
  "max_peaks": 150,
  "min_matched_peaks": 6,
  "max_fragment_charge": 1,
  "report_psms": 1,
  "output_directory": "sage_out",
  "mzml_paths": [")" +
         kBsa1 + R"("]
})";
}

// The key path and message of the error a message produces.
std::string error_of(const std::string& json, const JobMessageOptions& options = {}) {
  try {
    parse_job_message(json, unimod(), options);
  } catch (const JobMessageError& e) {
    return e.what();
  }
  return "(no error)";
}

// A minimal valid message with `extra` members added at the top level.
std::string job(const std::string& extra = "") {
  std::string j =
      R"({"database": {"fasta": ")" + kFasta + R"("}, "mzml_paths": [")" + kBsa1 + R"("])";
  if (!extra.empty()) j += ", " + extra;
  return j + "}";
}

TEST(JobMessage, SageExampleConfigParsesToTheSameSettings) {
  ParsedJob parsed = parse_job_message(sage_example(), unimod());
  const SearchParameters& s = parsed.spec.search;
  const DatabaseParameters& d = s.database;

  EXPECT_EQ(d.enzyme.name, "trypsin");
  EXPECT_EQ(d.enzyme.cleave_at, "KR");
  EXPECT_EQ(d.enzyme.restrict, "P");
  EXPECT_TRUE(d.enzyme.c_terminal);
  EXPECT_FALSE(d.enzyme.semi_enzymatic);
  EXPECT_EQ(d.enzyme.missed_cleavages, 2);
  EXPECT_EQ(d.enzyme.min_length, 5);
  EXPECT_EQ(d.enzyme.max_length, 50);
  EXPECT_DOUBLE_EQ(d.peptide_min_mass_da, 500.0);
  EXPECT_DOUBLE_EQ(d.peptide_max_mass_da, 5000.0);
  EXPECT_EQ(d.max_variable_modifications, 2);
  EXPECT_EQ(d.decoy_tag, "rev_");
  EXPECT_FALSE(d.decoy_tag_is_suffix);
  EXPECT_EQ(d.decoy_generation, DecoyGeneration::kNone);  // generate_decoys: false
  EXPECT_EQ(s.ion_types, "by");

  // static_mods: "^" peptide N-term, K, C (in document order).
  ASSERT_EQ(d.fixed_modifications.size(), 3u);
  EXPECT_EQ(d.fixed_modifications[0].position, ModificationPosition::kPeptideNTerm);
  EXPECT_EQ(d.fixed_modifications[0].residues, "");
  EXPECT_NEAR(d.fixed_modifications[0].mass_delta_da, 304.207, 1e-9);
  EXPECT_EQ(d.fixed_modifications[1].position, ModificationPosition::kAnywhere);
  EXPECT_EQ(d.fixed_modifications[1].residues, "K");
  EXPECT_EQ(d.fixed_modifications[2].residues, "C");
  EXPECT_NEAR(d.fixed_modifications[2].mass_delta_da, 57.0215, 1e-9);
  for (const auto& m : d.fixed_modifications) EXPECT_TRUE(m.fixed);

  // variable_mods: M, ^Q, ^E, $ (two masses), [, ].
  ASSERT_EQ(d.variable_modifications.size(), 7u);
  const auto& v = d.variable_modifications;
  EXPECT_EQ(v[0].residues, "M");
  EXPECT_NEAR(v[0].mass_delta_da, 15.9949, 1e-9);
  EXPECT_EQ(v[1].position, ModificationPosition::kPeptideNTerm);
  EXPECT_EQ(v[1].residues, "Q");
  EXPECT_NEAR(v[1].mass_delta_da, -17.026549, 1e-9);
  EXPECT_EQ(v[2].residues, "E");
  EXPECT_EQ(v[3].position, ModificationPosition::kPeptideCTerm);
  EXPECT_NEAR(v[3].mass_delta_da, 49.2, 1e-9);
  EXPECT_NEAR(v[4].mass_delta_da, 22.9, 1e-9);
  EXPECT_EQ(v[5].position, ModificationPosition::kProteinNTerm);
  EXPECT_EQ(v[6].position, ModificationPosition::kProteinCTerm);
  for (const auto& m : v) EXPECT_FALSE(m.fixed);

  // Masses that are one Unimod entry at their sites get its name (0.0005 Da, unimod.hpp):
  // TMTpro 304.207146 (record 2016), Carbamidomethyl 57.021464 (4), Oxidation 15.994915 (35),
  // Gln->pyro-Glu -17.026549 (28), Glu->pyro-Glu -18.010565 (27); the others stay masses.
  std::vector<std::pair<std::string, int>> names;
  for (const auto* list : {&d.fixed_modifications, &v}) {
    for (const Modification& m : *list) names.emplace_back(m.name, m.unimod_accession);
  }
  EXPECT_EQ(names, (std::vector<std::pair<std::string, int>>{{"TMTpro", 2016},
                                                             {"TMTpro", 2016},
                                                             {"Carbamidomethyl", 4},
                                                             {"Oxidation", 35},
                                                             {"Gln->pyro-Glu", 28},
                                                             {"Glu->pyro-Glu", 27},
                                                             {"", 0},
                                                             {"", 0},
                                                             {"", 0},
                                                             {"", 0}}));
  EXPECT_NEAR(d.fixed_modifications[0].mass_delta_da, 304.207, 1e-9);  // the user's mass

  EXPECT_EQ(s.precursor_tolerance.unit, Tolerance::Unit::kDa);
  EXPECT_DOUBLE_EQ(s.precursor_tolerance.lower, -500.0);
  EXPECT_DOUBLE_EQ(s.precursor_tolerance.upper, 100.0);
  EXPECT_EQ(s.fragment_tolerance.unit, Tolerance::Unit::kPpm);
  EXPECT_DOUBLE_EQ(s.fragment_tolerance.lower, -10.0);
  EXPECT_DOUBLE_EQ(s.fragment_tolerance.upper, 10.0);
  EXPECT_EQ(s.min_precursor_charge, 2);
  EXPECT_EQ(s.max_precursor_charge, 4);
  EXPECT_THAT(s.isotope_errors, ElementsAre(-1, 0, 1, 2, 3));  // Sage's [lo, hi] range
  EXPECT_FALSE(s.deisotope);
  EXPECT_TRUE(s.infer_precursor_charge);  // ionflow's own key, on unless the job says false
  EXPECT_EQ(s.min_peaks, 15);
  EXPECT_EQ(s.max_peaks, 150);
  EXPECT_EQ(s.max_fragment_charge, 1);
  EXPECT_EQ(s.report_psms, 1);

  EXPECT_EQ(parsed.spec.fasta_path, kFasta);
  EXPECT_THAT(parsed.spec.spectra_paths, ElementsAre(kBsa1));
  EXPECT_EQ(parsed.spec.output_directory,
            (std::filesystem::current_path() / "sage_out").lexically_normal().string());
}

TEST(JobMessage, UnimplementedSageKeysWarnByName) {
  ParsedJob parsed = parse_job_message(sage_example(), unimod());
  std::vector<std::string> keys;
  for (const auto& w : parsed.warnings) keys.push_back(w.substr(0, w.find(':')));
  EXPECT_THAT(keys, ElementsAre("database.bucket_size", "database.min_ion_index", "quant",
                                "chimera", "wide_window", "predict_rt", "min_matched_peaks"));
  EXPECT_THAT(parsed.warnings[2], HasSubstr("not implemented"));
}

TEST(JobMessage, UnimodNamesResolveToKnownMasses) {
  ParsedJob parsed = parse_job_message(job(R"j("fixed_modifications": ["Carbamidomethyl (C)"],
             "variable_modifications": ["Oxidation (M)", "Acetyl (Protein N-term)"])j"),
                                       unimod());
  const auto& d = parsed.spec.search.database;
  ASSERT_EQ(d.fixed_modifications.size(), 1u);
  EXPECT_EQ(d.fixed_modifications[0].name, "Carbamidomethyl");
  EXPECT_EQ(d.fixed_modifications[0].unimod_accession, 4);
  EXPECT_NEAR(d.fixed_modifications[0].mass_delta_da, 57.021464, 1e-4);
  EXPECT_EQ(d.fixed_modifications[0].residues, "C");
  EXPECT_TRUE(d.fixed_modifications[0].fixed);
  ASSERT_EQ(d.variable_modifications.size(), 2u);
  EXPECT_EQ(d.variable_modifications[0].unimod_accession, 35);
  EXPECT_NEAR(d.variable_modifications[0].mass_delta_da, 15.994915, 1e-4);
  EXPECT_EQ(d.variable_modifications[1].position, ModificationPosition::kProteinNTerm);
  EXPECT_NEAR(d.variable_modifications[1].mass_delta_da, 42.010565, 1e-4);
  EXPECT_FALSE(d.variable_modifications[1].fixed);
}

TEST(JobMessage, DefaultsFollowTheContract) {
  ParsedJob parsed = parse_job_message(job(), unimod());
  const JobSpec& j = parsed.spec;
  EXPECT_TRUE(parsed.warnings.empty());
  EXPECT_EQ(j.search.database.enzyme.name, "trypsin");
  EXPECT_EQ(j.search.database.enzyme.missed_cleavages, 1);
  EXPECT_EQ(j.search.precursor_tolerance.unit, Tolerance::Unit::kPpm);
  EXPECT_DOUBLE_EQ(j.search.precursor_tolerance.lower, -10.0);
  EXPECT_EQ(j.search.fragment_tolerance.unit, Tolerance::Unit::kDa);
  EXPECT_DOUBLE_EQ(j.search.fragment_tolerance.upper, 0.5);
  EXPECT_THAT(j.search.isotope_errors, ElementsAre(0));
  EXPECT_EQ(j.search.database.decoy_tag, "rev_");
  EXPECT_EQ(j.search.database.decoy_generation, DecoyGeneration::kReversePeptide);
  EXPECT_THAT(j.output_formats, ElementsAre("tsv"));
  EXPECT_EQ(j.parsers, 1);
  EXPECT_EQ(j.chunk_size, 1000u);
  EXPECT_EQ(j.sorter_memory_budget_bytes, 64ull << 20);
}

// A job file saved by a Windows editor starts with a UTF-8 byte-order mark.
TEST(JobMessage, LeadingUtf8ByteOrderMarkIsSkipped) {
  ParsedJob parsed =
      parse_job_message("\xEF\xBB\xBF" + job(R"("output_directory": "/tmp/bom_out")"), unimod());
  EXPECT_EQ(parsed.spec.output_directory, "/tmp/bom_out");
  EXPECT_EQ(parsed.spec.fasta_path, kFasta);
  EXPECT_THAT(parsed.spec.spectra_paths, ElementsAre(kBsa1));
}

TEST(JobMessage, IonflowKeysAndAliases) {
  ParsedJob parsed = parse_job_message(R"({"database": {"fasta": ")" + kFasta +
                                           R"(", "decoy_tag": "_rev"},
          "spectra": [")" + kBsa1 + R"("], "enzyme": "Lys-C", "decoy_generation": "reverse_protein",
          "ion_types": "yb", "licensed_cores": 4, "scorers": 2, "parsers": 3, "chunk_size": 250,
          "output_formats": ["tsv", "mzid"], "write_pin": true, "zstd": true, "priority": 5,
          "sorter_memory_mb": 64, "max_fragment_charge": null, "infer_precursor_charge": false})",
                                       unimod());
  const JobSpec& j = parsed.spec;
  EXPECT_EQ(j.search.database.enzyme.name, "lys-c");
  EXPECT_FALSE(j.search.infer_precursor_charge);
  EXPECT_EQ(j.search.database.enzyme.cleave_at, "K");
  EXPECT_TRUE(j.search.database.decoy_tag_is_suffix);  // inferred from the leading '_'
  EXPECT_EQ(j.search.database.decoy_generation, DecoyGeneration::kReverseProtein);
  EXPECT_EQ(j.search.ion_types, "by");
  EXPECT_EQ(j.licensed_cores, 4);
  EXPECT_EQ(j.scorers, 2);
  EXPECT_EQ(j.parsers, 3);
  EXPECT_EQ(j.chunk_size, 250u);
  EXPECT_THAT(j.output_formats, ElementsAre("tsv", "mzid", "pin"));
  EXPECT_TRUE(j.zstd);
  EXPECT_EQ(j.priority, 5);
  EXPECT_EQ(j.sorter_memory_budget_bytes, 64ull << 20);
  EXPECT_EQ(j.search.max_fragment_charge, 0);  // null = default
  EXPECT_THAT(j.spectra_paths, ElementsAre(kBsa1));
}

TEST(JobMessage, IndexCacheDirectoryFromTheMessageOrForcedByTheServer) {
  const std::string message = R"({"database": {"fasta": ")" + kFasta + R"("}, "spectra": [")" +
                              kBsa1 + R"("], "index_cache_directory": "/tmp/ionflow-cache"})";
  EXPECT_EQ(parse_job_message(message, unimod()).spec.index_cache_directory, "/tmp/ionflow-cache");
  // ionflow serve keeps one cache for every job: the message's key is ignored, with a warning.
  JobMessageOptions serve;
  serve.forced_index_cache_directory = "/srv/ionflow/index-cache";
  ParsedJob parsed = parse_job_message(message, unimod(), serve);
  EXPECT_EQ(parsed.spec.index_cache_directory, "/srv/ionflow/index-cache");
  ASSERT_EQ(parsed.warnings.size(), 1u);
  EXPECT_EQ(parsed.warnings[0],
            "index_cache_directory: ignored; the server keeps its index cache in "
            "/srv/ionflow/index-cache");
}

TEST(JobMessage, SageEnzymeFieldsNameKnownRules) {
  auto name_of = [](const std::string& enzyme) {
    JobMessageOptions options;
    options.check_inputs = false;
    return parse_job_message(R"({"database": {"enzyme": )" + enzyme + "}}", unimod(), options)
        .spec.search.database.enzyme.name;
  };
  EXPECT_EQ(name_of(R"({"cleave_at": "RK"})"), "trypsin");
  EXPECT_EQ(name_of(R"({"cleave_at": "KR", "restrict": ""})"), "trypsin/p");
  EXPECT_EQ(name_of(R"({"cleave_at": ""})"), "no-enzyme");
  EXPECT_EQ(name_of(R"({"cleave_at": "$"})"), "no-cleavage");
  EXPECT_EQ(name_of(R"({"cleave_at": "K", "c_terminal": false, "restrict": ""})"), "lys-n");
  EXPECT_EQ(name_of(R"({"cleave_at": "DE"})"), "custom");
}

// A message with `database_extra` inside "database" and `extra` at the top level.
std::string job_db(const std::string& database_extra, const std::string& extra = "") {
  std::string j = R"({"database": {"fasta": ")" + kFasta + R"(", )" + database_extra +
                  R"(}, "mzml_paths": [")" + kBsa1 + R"("])";
  if (!extra.empty()) j += ", " + extra;
  return j + "}";
}

TEST(JobMessage, WrongTypesNameTheKeyPath) {
  EXPECT_EQ(error_of(job_db(R"("enzyme": {"missed_cleavages": "two"})")),
            "database.enzyme.missed_cleavages: expected unsigned integer, got string \"two\"");
  EXPECT_EQ(error_of(job_db(R"("enzyme": {"missed_cleavages": -1})")),
            "database.enzyme.missed_cleavages: expected unsigned integer, got integer -1");
  EXPECT_EQ(error_of(job(R"("zstd": "yes")")), "zstd: expected boolean, got string \"yes\"");
  EXPECT_EQ(error_of(job(R"("precursor_tol": {"ppm": 10})")),
            "precursor_tol.ppm: expected array, got integer 10");
  EXPECT_EQ(error_of(R"({"database": {"fasta": ")" + kFasta + R"("}, "mzml_paths": ["a", 1]})"),
            "mzml_paths[1]: expected string, got integer 1");
}

TEST(JobMessage, UnknownKeysAreErrorsWithASuggestion) {
  EXPECT_EQ(error_of(job(R"("fragment_tolerance": {"da": [-0.5, 0.5]})")),
            "fragment_tolerance: unknown key; did you mean \"fragment_tol\"?");
  EXPECT_EQ(error_of(job(R"("spectrum_files": ["a.mzML"])")), "spectrum_files: unknown key");
  EXPECT_EQ(error_of(job(R"("fragment_tl": {"da": [-0.5, 0.5]})")),
            "fragment_tl: unknown key; did you mean \"fragment_tol\"?");
  EXPECT_EQ(error_of(job_db(R"("enzyme": {"misssed_cleavages": 1})")),
            "database.enzyme.misssed_cleavages: unknown key; did you mean \"missed_cleavages\"?");
  EXPECT_EQ(error_of(job(R"("precursor_tol": {"mda": [-1, 1]})")),
            "precursor_tol.mda: unknown key; expected \"ppm\" or \"da\"");
  // A new user's catch: an enzyme key in "database", misspelt or not, got no suggestion.
  EXPECT_EQ(error_of(job_db(R"("missed_cleavage": 1)")),
            "database.missed_cleavage: unknown key; did you mean "
            "\"database.enzyme.missed_cleavages\"?");
  EXPECT_EQ(error_of(job_db(R"("semi_enzymatic": true)")),
            "database.semi_enzymatic: unknown key; did you mean "
            "\"database.enzyme.semi_enzymatic\"?");
  EXPECT_EQ(error_of(job_db(R"("decoy_tg": "rev_")")),
            "database.decoy_tg: unknown key; did you mean \"decoy_tag\"?");
}

TEST(JobMessage, BoundsInTheWrongOrderAreErrors) {
  EXPECT_THAT(error_of(job(R"("precursor_tol": {"ppm": [10, -10]})")),
              StartsWith("precursor_tol.ppm: lower 10.0 > upper -10.0"));
  EXPECT_THAT(error_of(job(R"("fragment_tol": {"da": [-0.5]})")),
              StartsWith("fragment_tol.da: expected [lower, upper]"));
  EXPECT_THAT(error_of(job(R"("isotope_errors": [1, 0])")),
              StartsWith("isotope_errors: lower 1 > upper 0"));
  EXPECT_THAT(error_of(job(R"("precursor_charge": [0, 3])")),
              StartsWith("precursor_charge[0]: must be between 1 and 10"));
  EXPECT_THAT(error_of(job_db(R"("enzyme": {"min_len": 30, "max_len": 7})")),
              StartsWith("database.enzyme.min_len: min_len 30 > max_len 7"));
  EXPECT_THAT(error_of(job_db(R"("peptide_min_mass": 6000)")),
              StartsWith("database.peptide_min_mass: peptide_min_mass 6000.0 > peptide_max_mass"));
  EXPECT_THAT(error_of(job(R"("min_peaks": 200)")),
              StartsWith("min_peaks: min_peaks 200 > max_peaks 150"));
  // A window that does not contain 0 is allowed (Sage warns too).
  ParsedJob parsed = parse_job_message(job(R"("precursor_tol": {"da": [1, 2]})"), unimod());
  ASSERT_EQ(parsed.warnings.size(), 1u);
  EXPECT_THAT(parsed.warnings[0],
              StartsWith("precursor_tol.da: the window [1.0, 2.0] does not contain 0"));
  // A new-user test: +-0.001 ppm fragments took gigabytes (XCorr bins of the window's width,
  // now at least 0.01 Da: xcorr.hpp); searched, with a warning. +-0.5 ppm is the narrowest
  // without one.
  parsed = parse_job_message(job(R"("fragment_tol": {"ppm": [-0.001, 0.001]})"), unimod());
  ASSERT_EQ(parsed.warnings.size(), 1u);
  EXPECT_EQ(parsed.warnings[0],
            "fragment_tol.ppm: the window [-0.001, 0.001] is narrower than any analyser's "
            "fragment accuracy; few fragments will match (high-resolution searches use 10-20 "
            "ppm or 0.02 Da)");
  EXPECT_THAT(parse_job_message(job(R"("fragment_tol": {"da": [-1e-6, 1e-6]})"), unimod()).warnings,
              ElementsAre(StartsWith("fragment_tol.da: the window [-1e-06, 1e-06] is narrower")));
  EXPECT_TRUE(
      parse_job_message(job(R"("fragment_tol": {"ppm": [-0.5, 0.5]})"), unimod()).warnings.empty());
}

// A new-user test: the same modification fixed and variable was accepted silently.
TEST(JobMessage, VariableModificationSameAsFixedNamesBothKeys) {
  EXPECT_EQ(error_of(job(R"j("fixed_modifications": ["Carbamidomethyl (C)"],
                              "variable_modifications": ["Oxidation (M)", "Carbamidomethyl (C)"])j")),
            "variable_modifications[1]: the same modification (Carbamidomethyl on C) as fixed "
            "fixed_modifications[0]: a site cannot be both fixed and variable; remove one");
  // Sage's mass maps, and a mass map against a name (57.021464 Da, Unimod record 4).
  EXPECT_EQ(error_of(job_db(R"("static_mods": {"C": 57.021464}, "variable_mods": {"M": [15.9949],
                                "C": [57.0215]})")),
            "database.variable_mods.C[0]: the same modification (57.021464 Da on C) as fixed "
            "database.static_mods.C: a site cannot be both fixed and variable; remove one");
  EXPECT_EQ(error_of(job_db(R"("static_mods": {"C": 57.021464})",
                            R"j("variable_modifications": ["Carbamidomethyl (CK)"])j")),
            "variable_modifications[0]: the same modification (57.021464 Da on C) as fixed "
            "database.static_mods.C: a site cannot be both fixed and variable; remove one");
  EXPECT_EQ(
      error_of(job(R"j("fixed_modifications": ["Acetyl (Protein N-term)"],
                       "variable_modifications": ["Acetyl (Protein N-term M)"])j")),
      "variable_modifications[0]: the same modification (Acetyl on protein_n_term M) as fixed "
      "fixed_modifications[0]: a site cannot be both fixed and variable; remove one");
  // Another site, position or mass is no conflict.
  const ParsedJob parsed = parse_job_message(job(R"j("fixed_modifications": ["Carbamidomethyl (C)"],
              "variable_modifications": ["Carbamidomethyl (K)", "Carbamidomethyl (N-term)",
                                         "Propionamide (C)"])j"),
                                             unimod());
  ASSERT_EQ(parsed.spec.search.database.variable_modifications.size(), 3u);
  EXPECT_EQ(parsed.spec.search.database.variable_modifications[2].unimod_accession, 24);
}

// A second hostile check: one variable modification given twice ({"M": [15.99], "m": [15.99]},
// or twice in a list) made each form twice and changed the results (24 PSMs at 1% against 21).
// "m" is refused as a residue now (LowerCaseModificationSitesAreRefusedInEveryForm); "M" twice
// in one list is the same modification given twice.
TEST(JobMessage, VariableModificationGivenTwiceNamesBothKeys) {
  EXPECT_EQ(error_of(job_db(R"("variable_mods": {"M": [15.9949], "m": [15.9949]})")),
            "database.variable_mods.m: invalid residue 'm' (use upper-case one-letter codes)");
  EXPECT_EQ(error_of(job_db(R"("variable_mods": {"M": [15.9949, 15.9949]})")),
            "database.variable_mods.M[1]: the same modification (15.9949 Da on M) as "
            "database.variable_mods.M[0]: given twice; remove one");
  EXPECT_EQ(error_of(job(R"j("variable_modifications": ["Oxidation (M)", "Phospho (ST)",
                                                       "Oxidation (M)"])j")),
            "variable_modifications[2]: the same modification (Oxidation on M) as "
            "variable_modifications[0]: given twice; remove one");
  EXPECT_EQ(error_of(job_db(R"("variable_mods": {"ST": [79.966331], "TS": [79.966331]})")),
            "database.variable_mods.TS[0]: the same modification (79.966331 Da on TS) as "
            "database.variable_mods.ST[0]: given twice; remove one");
  // A hostile check: a 0 Da variable modification made every form twice.
  EXPECT_EQ(error_of(job_db(R"("variable_mods": {"M": [0.0]})")),
            "database.variable_mods.M[0]: a variable modification of 0.0 Da: each modified form "
            "would be the unmodified peptide again, counted twice; remove it");
  // Another mass on the same residue is two modifications.
  const ParsedJob parsed =
      parse_job_message(job_db(R"("variable_mods": {"M": [15.9949, 31.9898]})"), unimod());
  EXPECT_EQ(parsed.spec.search.database.variable_modifications.size(), 2u);
}

// A new user's catch: Sage's key {"c": 57.02} was read as C without a word (as was "Carbamidomethyl
// (c)"), where a residue "c" in the object form was refused. Every form now refuses a lower-case
// residue alike, naming its key; lower-case terminus words, names and the terminus keys stay.
TEST(JobMessage, LowerCaseModificationSitesAreRefusedInEveryForm) {
  const std::string refused = "invalid residue '";
  const std::string hint = "' (use upper-case one-letter codes)";
  EXPECT_EQ(error_of(job_db(R"("static_mods": {"c": 57.02})")),
            "database.static_mods.c: " + refused + "c" + hint);
  EXPECT_EQ(error_of(job_db(R"("static_mods": {"^q": -17.026549})")),
            "database.static_mods.^q: " + refused + "q" + hint);
  EXPECT_EQ(error_of(job_db(R"("variable_mods": {"STy": [79.966331]})")),
            "database.variable_mods.STy: " + refused + "y" + hint);
  EXPECT_EQ(error_of(job_db(R"("variable_mods": {"m": 15.9949})")),
            "database.variable_mods.m: " + refused + "m" + hint);
  EXPECT_EQ(error_of(job(R"j("fixed_modifications": ["Carbamidomethyl (c)"])j")),
            "fixed_modifications[0]: " + refused + "c" + hint);
  EXPECT_EQ(error_of(job(R"j("variable_modifications": ["Oxidation (M)", "Phospho (sTY)"])j")),
            "variable_modifications[1]: " + refused + "s" + hint);
  EXPECT_EQ(error_of(job(R"j("variable_modifications": ["Gln->pyro-Glu (N-term q)"])j")),
            "variable_modifications[0]: " + refused + "q" + hint);
  EXPECT_EQ(error_of(job(R"j("variable_modifications": ["15.9949@m"])j")),
            "variable_modifications[0]: " + refused + "m" + hint);
  EXPECT_EQ(error_of(job(R"j("variable_modifications": ["UNIMOD:35 (m)"])j")),
            "variable_modifications[0]: " + refused + "m" + hint);
  EXPECT_EQ(error_of(job(R"j("variable_modifications": [{"mass_da": 15.9949, "residues": "m"}])j")),
            "variable_modifications[0].residues: " + refused + "m" + hint);
  // Still read: the terminus keys alone or with an upper-case residue, terminus words and names
  // in any case.
  const ParsedJob parsed = parse_job_message(
      job_db(R"("static_mods": {"^": 304.207, "C": 57.021464},
                "variable_mods": {"$": [0.984016], "[": [1.0], "]M": [1.0], "^Q": [-17.026549]})",
             R"j("variable_modifications": ["oxidation (M)", "Acetyl (protein n-term)",
                                           "Amidated (c-term)"])j"),
      unimod());
  const DatabaseParameters& db = parsed.spec.search.database;
  ASSERT_EQ(db.fixed_modifications.size(), 2u);
  ASSERT_EQ(db.variable_modifications.size(), 7u);
  auto has = [&](const std::string& name, ModificationPosition position, const std::string& res) {
    return std::any_of(db.variable_modifications.begin(), db.variable_modifications.end(),
                       [&](const Modification& m) {
                         return m.name == name && m.position == position && m.residues == res;
                       });
  };
  EXPECT_TRUE(has("Oxidation", ModificationPosition::kAnywhere, "M"));
  EXPECT_TRUE(has("Acetyl", ModificationPosition::kProteinNTerm, ""));
  EXPECT_TRUE(has("Amidated", ModificationPosition::kPeptideCTerm, ""));
}

TEST(JobMessage, BadModificationsAndEnzymesNameTheKey) {
  EXPECT_THAT(error_of(job(R"j("variable_modifications": ["Oxidation (M)", "Oxidaton (M)"])j")),
              StartsWith("variable_modifications[1]: "));
  EXPECT_THAT(error_of(job(R"j("variable_modifications": ["Oxidaton (M)"])j")),
              HasSubstr("Oxidaton"));
  // A new-user test: "Oxidation (M" was reported as having no site.
  EXPECT_EQ(error_of(job(R"j("fixed_modifications": ["Carbamidomethyl (C"])j")),
            "fixed_modifications[0]: modification 'Carbamidomethyl (C' is malformed: missing ')' "
            "after the site; write e.g. 'Oxidation (M)' or '15.9949@M'");
  EXPECT_EQ(error_of(job(R"j("variable_modifications": ["Oxidation (M)", "Oxidation (M"])j")),
            "variable_modifications[1]: modification 'Oxidation (M' is malformed: missing ')' "
            "after the site; write e.g. 'Oxidation (M)' or '15.9949@M'");
  EXPECT_THAT(error_of(job_db(R"("static_mods": {"B": 57.02})")),
              StartsWith("database.static_mods.B: invalid residue 'B'"));
  EXPECT_THAT(error_of(job_db(R"("static_mods": {"^1": 57.02})")),
              StartsWith("database.static_mods.^1: modification key '^1'"));
  EXPECT_THAT(error_of(job_db(R"("static_mods": {"C": [57.02]})")),
              StartsWith("database.static_mods.C: expected number (Da), got array"));
  EXPECT_THAT(
      error_of(job_db(R"("static_mods": {"C": 57.02})",
                      R"j("fixed_modifications": ["Carbamidomethyl (C)"])j")),
      StartsWith("fixed_modifications: two fixed modifications on the same site (anywhere C)"));
  EXPECT_THAT(error_of(job(R"("enzyme": "pepsin")")),
              StartsWith("enzyme: unknown enzyme \"pepsin\""));
  EXPECT_THAT(error_of(job_db(R"("enzyme": {"cleave_at": "K"})", R"("enzyme": "trypsin")")),
              StartsWith("database.enzyme.cleave_at: conflicts with enzyme \"trypsin\""));
  EXPECT_THAT(
      error_of(job_db(R"("generate_decoys": true)", R"("decoy_generation": "none")")),
      StartsWith("database.generate_decoys: true conflicts with decoy_generation \"none\""));
  EXPECT_THAT(error_of(job(R"("output_formats": ["tsv", "xlsx"])")),
              StartsWith("output_formats[1]: unknown format \"xlsx\""));
  // mzIdentML 1.2 is its own format; it and 1.1 would both be results.mzid.
  EXPECT_THAT(parse_job_message(job(R"("output_formats": ["tsv", "mzid1.2"])"), unimod())
                  .spec.output_formats,
              ElementsAre("tsv", "mzid1.2"));
  EXPECT_EQ(error_of(job(R"("output_formats": ["mzid", "pin", "mzid1.2"])")),
            "output_formats[2]: mzid and mzid1.2 both write results.mzid; give one");
  EXPECT_THAT(error_of(job(R"("ion_types": "bx")")),
              StartsWith("ion_types: unsupported ion type 'x'"));
  EXPECT_THAT(error_of(job(R"("parsers": 9)")),
              StartsWith("parsers: must be between 1 and 4, got 9"));
  EXPECT_THAT(error_of(job(R"("licensed_cores": 2, "scorers": 4)")),
              StartsWith("scorers: 4 exceeds licensed_cores 2"));
}

TEST(JobMessage, MissingAndForbiddenFilesNameTheKey) {
  EXPECT_EQ(error_of(R"({"mzml_paths": [")" + kBsa1 + R"("]})"),
            "database.fasta: required (the FASTA database to search)");
  EXPECT_EQ(error_of(R"({"database": {"fasta": "/nonexistent/x.fasta"}, "mzml_paths": [")" + kBsa1 +
                     R"("]})"),
            "database.fasta: file not found: /nonexistent/x.fasta");
  EXPECT_EQ(error_of(R"({"database": {"fasta": ")" + kFasta + R"("}, "spectra": [")" + kBsa1 +
                     R"(", "/nonexistent/a.mzML"]})"),
            "spectra[1]: file not found: /nonexistent/a.mzML");
  EXPECT_THAT(error_of(R"({"database": {"fasta": ")" + kFasta + R"("}})"),
              StartsWith("mzml_paths: no spectra files given"));
  EXPECT_EQ(error_of(R"({"database": {"fasta": "/tmp"}, "mzml_paths": [")" + kBsa1 + R"("]})"),
            "database.fasta: not a regular file: /tmp");
  // Not absence but the OS's reason (a new user's 5,000-character path was "file not found").
  const std::string long_name = "/tmp/" + std::string(5000, 'a') + ".fasta";
  EXPECT_EQ(error_of(R"({"database": {"fasta": ")" + long_name + R"("}, "mzml_paths": [")" + kBsa1 +
                     R"("]})"),
            "database.fasta: cannot read the file: " + long_name + ": File name too long");

  JobMessageOptions server;
  server.data_roots = {kExamples + "/BSA"};
  EXPECT_EQ(error_of(job(), server),
            "database.fasta: path outside the server's data roots: " + kFasta);
  EXPECT_EQ(error_of(R"({"database": {"fasta": ")" + kExamples +
                         R"(/BSA/../TOPPAS/x.fasta"}, "mzml_paths": []})",
                     server),
            "database.fasta: path contains \"..\": " + kExamples + "/BSA/../TOPPAS/x.fasta");
  server.data_roots.push_back(kExamples + "/TOPPAS");
  EXPECT_NO_THROW(parse_job_message(job(), unimod(), server));
}

// Found by a new-user test: residues without a mass in a "Name (residues)" string were accepted
// (and refused only when the server re-read the job), and a +-2e6 ppm window "succeeded" with 0
// PSMs after minutes.
TEST(JobMessage, SageKeysAtTheWrongLevelSuggestWhereTheyBelong) {
  EXPECT_EQ(error_of(R"({"fasta": "x.fasta"})"),
            "fasta: unknown key; did you mean \"database.fasta\"?");
  EXPECT_EQ(error_of(R"({"static_mods": {"C": 57.021464}})"),
            "static_mods: unknown key; did you mean \"database.static_mods\"?");
  EXPECT_EQ(error_of(R"({"missed_cleavages": 2})"),
            "missed_cleavages: unknown key; did you mean \"database.enzyme.missed_cleavages\"?");
}

TEST(JobMessage, ModificationResiduesAndToleranceBoundsAreCheckedAtOnce) {
  auto with = [](const std::string& extra) {
    return R"({"database": {"fasta": ")" + kFasta + R"("}, "mzml_paths": [")" + kBsa1 + R"("], )" +
           extra + "}";
  };
  EXPECT_EQ(error_of(with(R"j("variable_modifications": ["Phospho (XYZ)"])j")),
            "variable_modifications[0]: invalid residue 'X' (use upper-case one-letter codes)");
  EXPECT_EQ(error_of(with(R"("precursor_tol": {"ppm": [-2e6, 2e6]})")),
            "precursor_tol.ppm: bounds must lie within +-100000 ppm, got [-2e+06, 2e+06]");
  EXPECT_EQ(error_of(with(R"("precursor_tol": {"da": [-6000, 1]})")),
            "precursor_tol.da: bounds must lie within +-5000 Da, got [-6000.0, 1.0]");
  // A hostile check: +-1000 Da fragments were searched and every spectrum found nothing.
  EXPECT_EQ(error_of(with(R"("fragment_tol": {"da": [-1000, 1000]})")),
            "fragment_tol.da: bounds must lie within +-2 Da, got [-1000.0, 1000.0] (a wider "
            "fragment window matches every peak; ion-trap searches use 0.4-1.0 Da)");
  EXPECT_EQ(error_of(with(R"("fragment_tol": {"ppm": [-1500, 20]})")),
            "fragment_tol.ppm: bounds must lie within +-1000 ppm, got [-1500.0, 20.0] (a wider "
            "fragment window matches every peak; high-resolution searches use 10-20 ppm)");
  // A stored job of an earlier version (ionflow serve re-reads its effective parameters at job
  // start and in the spectrum view) keeps the rules it was accepted by.
  JobMessageOptions stored;
  stored.stored_job = true;
  EXPECT_NO_THROW(
      parse_job_message(with(R"("fragment_tol": {"da": [-10, 10]})"), unimod(), stored));
  EXPECT_NO_THROW(
      parse_job_message(job_db(R"("variable_mods": {"M": [0.0, 15.9949]})"), unimod(), stored));
  EXPECT_NO_THROW(
      parse_job_message(with(R"("fragment_tol": {"da": [-1.0005, 1.0005]})"), unimod()));
  EXPECT_NO_THROW(parse_job_message(with(R"("precursor_tol": {"da": [-500, 500]})"), unimod()));
  // Found by a new-user test: each ran a search that could match nothing, or another file.
  EXPECT_EQ(
      error_of(with(R"("fragment_tol": {"da": [0, 0]})")),
      "fragment_tol.da: lower and upper are both 0.0: a window of zero width matches nothing");
  EXPECT_EQ(error_of(with(R"j("variable_modifications": ["+1e300 (M)"])j")),
            "variable_modifications[0]: modification '+1e300 (M)': mass +1e300 Da is beyond "
            "+-10000 Da");
  EXPECT_EQ(error_of(R"({"database": {"fasta": ")" + kFasta +
                     R"(", "static_mods": {"K": -20000}}, "mzml_paths": [")" + kBsa1 + R"("]})"),
            "database.static_mods.K: modification 'K': mass -20000 Da is beyond +-10000 Da");
  // A NUL in a path would cut it there (another file opened than the one recorded); in a key
  // it cut the error message short. Refused by the JSON parser, values and keys alike.
  EXPECT_THAT(error_of(with(R"("output_directory": "out\u0000.txt")")),
              HasSubstr("a string or key contains a NUL character (\\u0000)"));
  EXPECT_THAT(error_of(with(R"("report_psms\u0000": 1)")),
              HasSubstr("a string or key contains a NUL character (\\u0000)"));
}

// A symbolic link inside a data root that points outside it is refused (found by a new-user
// test: a link to /etc/shadow given as spectra was read and its first line echoed in the
// error); serve ignores a message's temp_directory.
TEST(JobMessage, SymbolicLinksOutOfTheDataRootsAndTempDirectoryInServe) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("ionflow-roots-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root);
  fs::create_symlink(kBsa1, root / "linked.mzML");  // to a file outside the root
  fs::copy_file(kBsa1, root / "inside.mzML");
  fs::create_symlink(root / "inside.mzML", root / "ok.mzML");  // to a file inside: fine
  JobMessageOptions server;
  server.data_roots = {root.string(), fs::path(kFasta).parent_path().string()};
  server.forced_output_directory = (root / "out").string();
  auto message = [&](const std::string& spectra, const std::string& extra) {
    return R"({"database": {"fasta": ")" + kFasta + R"("}, "mzml_paths": [")" + spectra + R"("])" +
           extra + "}";
  };
  EXPECT_EQ(error_of(message((root / "linked.mzML").string(), ""), server),
            "mzml_paths[0]: path resolves (through a symbolic link) outside the server's data "
            "roots: " +
                (root / "linked.mzML").string() + " -> " + fs::canonical(kBsa1).string());
  ParsedJob ok = parse_job_message(
      message((root / "ok.mzML").string(), R"(, "temp_directory": "/tmp/elsewhere")"), unimod(),
      server);
  EXPECT_EQ(ok.spec.temp_directory, "");
  ASSERT_EQ(ok.warnings.size(), 1u);
  EXPECT_EQ(ok.warnings[0],
            "temp_directory: ignored; the server spills into " + (root / "out").string());
  // A loop of links inside a root was "resolves ... outside the server's data roots: loop1 -> "
  // (a new user's find); `ionflow search` says file not found.
  fs::create_symlink(root / "loop2", root / "loop1");
  fs::create_symlink(root / "loop1", root / "loop2");
  EXPECT_EQ(error_of(message((root / "loop1").string(), ""), server),
            "mzml_paths[0]: cannot resolve the path: " + (root / "loop1").string() +
                ": Too many levels of symbolic links");
  fs::remove_all(root);
}

TEST(JobMessage, NotJsonIsAnErrorForTheWholeMessage) {
  try {
    parse_job_message("{\"database\": ", unimod());
    FAIL();
  } catch (const JobMessageError& e) {
    EXPECT_EQ(e.key_path(), "");
    EXPECT_THAT(e.what(), StartsWith("not valid JSON: invalid JSON at byte"));
  }
  EXPECT_EQ(error_of("[1, 2]"), "a job message is a JSON object, got array");
  // Found by job_message_fuzzer: a broken null was not a JobMessageError but a simdjson_error.
  EXPECT_EQ(error_of(R"({"max_fragment_charge": null" d,eisotope": true})"),
            "not valid JSON: invalid JSON at byte 24 (line 1, column 25): invalid literal");
}

TEST(JobMessage, EffectiveParametersListEveryKeyAndParseBack) {
  ParsedJob first = parse_job_message(sage_example(), unimod());
  JsonValue effective = parse_json(first.spec.effective_parameters_json);
  for (const char* key : {"database",
                          "enzyme",
                          "decoy_tag_position",
                          "decoy_generation",
                          "fixed_modifications",
                          "variable_modifications",
                          "precursor_tol",
                          "fragment_tol",
                          "isotope_errors",
                          "precursor_charge",
                          "max_fragment_charge",
                          "ion_types",
                          "min_peaks",
                          "max_peaks",
                          "deisotope",
                          "infer_precursor_charge",
                          "report_psms",
                          "mzml_paths",
                          "output_directory",
                          "licensed_cores",
                          "scorers",
                          "parsers",
                          "chunk_size",
                          "sorter_memory_mb",
                          "output_formats",
                          "zstd",
                          "priority"}) {
    EXPECT_NE(effective.find(key), nullptr) << key;
  }
  EXPECT_EQ(to_json(*effective.find("isotope_errors")), "[-1,3]");
  EXPECT_EQ(to_json(*effective.find("precursor_tol")), R"({"da":[-500.0,100.0]})");
  EXPECT_EQ(effective.find("database")->find("enzyme")->find("missed_cleavages")->as_integer(), 2);

  ParsedJob second = parse_job_message(first.spec.effective_parameters_json, unimod());
  EXPECT_TRUE(second.warnings.empty());
  EXPECT_EQ(second.spec.effective_parameters_json, first.spec.effective_parameters_json);
  EXPECT_EQ(second.spec.search.database.variable_modifications.size(), 7u);
}

// Found by the job-message fuzzer: Sage's cleave_at "RK" names trypsin, but was written back as
// "RK" beside "enzyme": "trypsin", which then conflicted with trypsin's "KR" when parsed again.
TEST(JobMessage, AKnownRuleInAnotherOrderIsWrittenInItsOwnSpellingAndParsesBack) {
  ParsedJob first = parse_job_message(
      job_db(R"("enzyme": {"cleave_at": "RK", "restrict": "P", "semi_enzymatic": true})"),
      unimod());
  EXPECT_EQ(first.spec.search.database.enzyme.name, "trypsin");
  EXPECT_EQ(first.spec.search.database.enzyme.cleave_at, "KR");
  ParsedJob second = parse_job_message(first.spec.effective_parameters_json, unimod());
  EXPECT_EQ(second.spec.effective_parameters_json, first.spec.effective_parameters_json);
  // A name with Sage's fields in another order is the same rule, not a conflict.
  ParsedJob named = parse_job_message(
      job_db(R"("enzyme": {"cleave_at": "RK", "restrict": "P"})", R"("enzyme": "trypsin")"),
      unimod());
  EXPECT_EQ(named.spec.search.database.enzyme.name, "trypsin");
  EXPECT_EQ(named.spec.search.database.enzyme.cleave_at, "KR");
  EXPECT_THAT(error_of(job_db(R"("enzyme": {"cleave_at": "RKD"})", R"("enzyme": "trypsin")")),
              StartsWith("database.enzyme.cleave_at: conflicts with enzyme \"trypsin\""));
}

TEST(JobMessage, TheDemoJobParses) {
  JobMessageOptions options;
  options.base_directory = IONFLOW_SOURCE_DIR;
  options.check_inputs = false;
  ParsedJob parsed = parse_job_message(
      read_file(std::string(IONFLOW_SOURCE_DIR) + "/examples/bsa_demo.json"), unimod(), options);
  const auto& s = parsed.spec.search;
  EXPECT_TRUE(parsed.warnings.empty());
  EXPECT_EQ(s.database.decoy_tag, "_rev");
  EXPECT_TRUE(s.database.decoy_tag_is_suffix);
  EXPECT_EQ(s.database.decoy_generation, DecoyGeneration::kNone);
  EXPECT_EQ(s.database.enzyme.name, "trypsin");
  EXPECT_EQ(s.database.enzyme.missed_cleavages, 1);
  ASSERT_EQ(s.database.fixed_modifications.size(), 1u);
  EXPECT_NEAR(s.database.fixed_modifications[0].mass_delta_da, 57.021464, 1e-4);
  ASSERT_EQ(s.database.variable_modifications.size(), 1u);
  EXPECT_NEAR(s.database.variable_modifications[0].mass_delta_da, 15.994915, 1e-4);
  EXPECT_DOUBLE_EQ(s.precursor_tolerance.upper, 10.0);
  EXPECT_THAT(s.isotope_errors, ElementsAre(0, 1));
  EXPECT_EQ(s.fragment_tolerance.unit, Tolerance::Unit::kDa);
  EXPECT_DOUBLE_EQ(s.fragment_tolerance.upper, 0.5);
  EXPECT_EQ(parsed.spec.spectra_paths.at(0),
            std::string(IONFLOW_SOURCE_DIR) +
                "/data/openms-doc/usr/share/doc/openms/examples/BSA/BSA1.mzML");
}

}  // namespace
}  // namespace ionflow
