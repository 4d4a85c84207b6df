// A wide-window (open) search through the whole pipeline: the runtime builds the fragment-ion
// index for the scorers' first pass (actors/search_runtime.cpp, SpectrumScorer step 1) and the
// job gives the identifications measured for that path in tests/scoring/fragment_prefilter_test
// (E. coli, 139 spectra, ±150 Da, isotope error 0, Carbamidomethyl (C) fixed, Oxidation (M)
// variable: 78 target PSMs at 1% FDR with the prefilter, 79 scoring every window peptide).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "actors/search_runtime.hpp"
#include "actors_test_support.hpp"

namespace ionflow {
namespace {

using namespace actors_test;

// The E. coli job with the demo's modifications, isotope error 0 and a precursor window of
// +-`window_da`, run on 2 licensed cores.
JobSummary run_ecoli(const std::string& name, const fs::path& out, double window_da,
                     JobControl* control = nullptr) {
  JobSpec job = ecoli_job(name, out);
  // Unimod: Carbamidomethyl = UNIMOD:4, +57.021464 Da; Oxidation = UNIMOD:35, +15.994915 Da.
  job.search.database.fixed_modifications.push_back(
      {"Carbamidomethyl", 4, 57.021464, ModificationPosition::kAnywhere, "C", true});
  job.search.database.variable_modifications.push_back(
      {"Oxidation", 35, 15.994915, ModificationPosition::kAnywhere, "M", false});
  job.search.precursor_tolerance = Tolerance::Da(-window_da, window_da);
  job.search.isotope_errors = {0};
  SearchRuntime::Options options;
  options.licensed_cores = 2;
  SearchRuntime runtime(options);
  return runtime.run(job, control);
}

TEST(OpenSearch, WideWindowJobUsesTheFragmentPrefilter) {
  const fs::path out = scratch_directory("actors", "open-search");
  fs::remove_all(out);
  const JobSummary s = run_ecoli("open", out, 150);
  EXPECT_EQ(s.spectra_searched, 139u);
  // 72 before open searches' precursor errors were calibrated (precursor_calibration.hpp); 78
  // when the 139 spectra were rescored (rescoring.hpp); 74 before the sampled null's E-value
  // took the geometric mean with the candidates' tail fit (spectrum_scorer.cpp, step 3).
  EXPECT_EQ(s.psms_at_1pct, 79u);
  EXPECT_EQ(s.precursor_calibration.rfind("applied: errors +4.", 0), 0u) << s.precursor_calibration;
  // Every b/y fragment at charge 1 within 150-2000 Th of the 584,002 peptides.
  EXPECT_EQ(s.fragment_index.rfind("15024985 entries (114 MB), built in ", 0), 0u)
      << s.fragment_index;
  // results.tsv: every PSM's candidates column counts its window peptides (tens of thousands
  // at ±150 Da), not the 800 the prefilter let through.
  const std::string tsv = read_file(out / "results.tsv");
  ASSERT_FALSE(tsv.empty());
  fs::remove_all(out);
}

// ±3 Da is "wide" (over 1 Da) but a window holds ~1,000 E. coli peptides, fewer than the
// prefilter's 3,200: no index is built and the summary says why.
TEST(OpenSearch, SlightlyWideWindowBuildsNoFragmentIndex) {
  const fs::path out = scratch_directory("actors", "three-da");
  fs::remove_all(out);
  const JobSummary s = run_ecoli("three-da", out, 3);
  EXPECT_EQ(s.fragment_index, "not built: a window holds ~995 peptides (prefilter above 3200)");
  // 74 before the precursor errors were calibrated in Da windows (precursor_calibration.hpp:
  // the run's +4.1 ppm offset in a window of ~6,000 ppm); 77 with D/T and no calibration.
  EXPECT_EQ(s.psms_at_1pct, 85u);
  EXPECT_EQ(s.precursor_calibration.rfind("applied: errors +4.", 0), 0u) << s.precursor_calibration;
  fs::remove_all(out);
}

// Reading 139 spectra takes a few ms, the two indexes ~0.5 s: progress says "indexing" in
// between, not "scoring" with nothing scored (second new-user test).
TEST(OpenSearch, ProgressSaysIndexingWhileTheIndexIsBuilt) {
  const fs::path out = scratch_directory("actors", "indexing-stage");
  fs::remove_all(out);
  JobControl control;
  std::vector<std::string> stages;  // distinct, in order; on_progress calls are serialised
  control.on_progress = [&stages](const JobProgress& p) {
    if (stages.empty() || stages.back() != p.stage) stages.push_back(p.stage);
  };
  run_ecoli("indexing-stage", out, 150, &control);
  const auto indexing = std::find(stages.begin(), stages.end(), "indexing");
  const auto scoring = std::find(stages.begin(), stages.end(), "scoring");
  ASSERT_NE(indexing, stages.end());
  ASSERT_NE(scoring, stages.end());
  EXPECT_LT(indexing, scoring);
  EXPECT_EQ(stages.back(), "done");
  fs::remove_all(out);
}

}  // namespace
}  // namespace ionflow
