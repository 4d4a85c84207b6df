// Fragment-ion index: layout, counts against hand-derived fragment matches, precursor-window
// filtering (with isotope errors), slicing equal to no slicing, and the index equal to the
// brute-force path on a real BSA digest and real spectra (BSA1 excerpt).
//
// Hand values: PEPTIDE b/y 1+ (see ion_series_test.cpp) b1 98.0600 and y1 148.0604 fall below
// 150 Th, leaving b2..b6 and y2..y6 = 10 fragments. PETPIDE (same composition, same mass
// 799.3600 Da) shares b2 (PE), b4 (PETP ~ PEPT), b5, b6, y2 (DE), y3 (IDE), y5 (TPIDE ~ PTIDE),
// y6 (ETPIDE ~ EPTIDE) = 8 of them. PEPTIDEK (927.4549 Da) shares b2..b6 = 5.
#include "scoring/fragment_index.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "io/fasta_reader.hpp"
#include "io/spectrum_reader.hpp"
#include "scoring/ion_series.hpp"
#include "scoring/mass.hpp"
#include "scoring/search.hpp"
#include "scoring_test_support.hpp"

namespace ionflow {
namespace {

using scoring_test::read_file;

// A PeptideIndex of unmodified target peptides, sorted by mass (ties: sequence).
PeptideIndex hand_index(std::vector<std::string> sequences) {
  std::sort(sequences.begin(), sequences.end(), [](const std::string& a, const std::string& b) {
    const double ma = mass::peptide_mass(a), mb = mass::peptide_mass(b);
    return ma != mb ? ma < mb : a < b;
  });
  PeptideIndex index;
  for (const std::string& s : sequences) {
    Peptide p;
    p.neutral_mass_da = mass::peptide_mass(s);
    p.sequence = s;
    index.append(p);
  }
  return index;
}

uint32_t id_of(const PeptideIndex& index, const std::string& sequence) {
  for (size_t i = 0; i < index.size(); ++i) {
    if (index.peptide(i).sequence == sequence && index.peptide(i).modifications.empty()) {
      return static_cast<uint32_t>(i);
    }
  }
  ADD_FAILURE() << sequence << " not in the index";
  return 0;
}

// A query whose peaks are the b/y 1+ fragments (intensity 1) of `peptide` plus `extra` m/z.
Query synthetic_query(const PeptideIndex& index, uint32_t peptide, int charge,
                      std::vector<float> extra = {}) {
  ModifiedResidues residues;
  modified_residue_masses(index.peptide(peptide), index.modifications, residues);
  std::vector<Fragment> fragments;
  fragment_ions(residues, IonTypes::parse("by"), 1, fragments);
  Query q;
  q.charge = charge;
  q.neutral_mass = index.peptide(peptide).neutral_mass_da;
  q.precursor_mz = mass::mz_from_neutral(q.neutral_mass, charge);
  for (const Fragment& f : fragments) q.peaks.push_back({static_cast<float>(f.mz), 1.0f});
  for (float mz : extra) q.peaks.push_back({mz, 0.5f});
  std::sort(q.peaks.begin(), q.peaks.end(),
            [](const Peak& a, const Peak& b) { return a.mz < b.mz; });
  return q;
}

SearchParameters narrow_params() {
  SearchParameters p;
  p.precursor_tolerance = Tolerance::Ppm(-10, 10);
  p.fragment_tolerance = Tolerance::Da(-0.02, 0.02);
  return p;
}

void expect_same(const FragmentCandidates& a, const FragmentCandidates& b,
                 const std::string& what) {
  EXPECT_EQ(a.window_candidates, b.window_candidates) << what;
  ASSERT_EQ(a.top.size(), b.top.size()) << what;
  for (size_t i = 0; i < a.top.size(); ++i) {
    EXPECT_EQ(a.top[i].peptide, b.top[i].peptide) << what << " rank " << i;
    EXPECT_EQ(a.top[i].matched_peaks, b.top[i].matched_peaks) << what << " rank " << i;
    EXPECT_EQ(a.top[i].isotope_error, b.top[i].isotope_error) << what << " rank " << i;
    EXPECT_EQ(a.top[i].summed_intensity, b.top[i].summed_intensity) << what << " rank " << i;
  }
}

TEST(FragmentIndex, ThreePeptidesLayout) {
  const PeptideIndex peptides = hand_index({"PEPTIDEK", "PETPIDE", "PEPTIDE"});
  FragmentIndexOptions options;
  options.bucket_size = 2;
  const FragmentIndex index = FragmentIndex::build(peptides, narrow_params(), options);
  // 10 + 10 + 12 (PEPTIDEK: b2..b7, y2..y7; y1 = K 147.1128 dropped).
  EXPECT_EQ(index.entries().size(), 32u);
  ASSERT_EQ(index.buckets().size(), 2u);
  EXPECT_EQ(index.buckets()[0].min_peptide, 0u);
  EXPECT_EQ(index.buckets()[0].max_peptide, 1u);
  EXPECT_EQ(index.buckets()[0].count, 20u);
  EXPECT_EQ(index.buckets()[1].min_peptide, 2u);
  EXPECT_EQ(index.buckets()[1].max_peptide, 2u);
  EXPECT_EQ(index.buckets()[1].offset, 20u);
  EXPECT_EQ(index.buckets()[1].count, 12u);
  EXPECT_EQ(index.first_peptide(), 0u);
  EXPECT_EQ(index.last_peptide(), 3u);
  EXPECT_EQ(index.bytes(), 32u * 8u + 2u * sizeof(FragmentBucket));
  EXPECT_DOUBLE_EQ(index.bytes_per_entry(), (32.0 * 8 + 2 * sizeof(FragmentBucket)) / 32.0);
  for (const FragmentBucket& b : index.buckets()) {
    for (uint32_t i = 1; i < b.count; ++i) {
      EXPECT_LE(index.entries()[b.offset + i - 1].mz, index.entries()[b.offset + i].mz);
    }
  }
  // The lowest entry of bucket 0 is b2 of PEPTIDE/PETPIDE, 227.1026 Th.
  EXPECT_NEAR(index.entries()[0].mz, 227.102633, 1e-4);
  EXPECT_EQ(estimate_fragment_index_bytes(peptides, narrow_params(), options, 0, 3),
            (12u + 12u + 14u) * 8u + 2u * sizeof(FragmentBucket));
}

// A cancelled job stops the build at the next bucket (checked before each, on every thread).
TEST(FragmentIndex, BuildStopsWhenCancelled) {
  const PeptideIndex peptides = hand_index({"PEPTIDEK", "PETPIDE", "PEPTIDE"});
  std::atomic<bool> cancel{true};
  FragmentIndexOptions options;
  options.bucket_size = 1;
  options.build_threads = 2;
  options.cancel = &cancel;
  EXPECT_THROW(FragmentIndex::build(peptides, SearchParameters{}, options), BuildCancelled);
  cancel = false;
  EXPECT_EQ(FragmentIndex::build(peptides, SearchParameters{}, options).buckets().size(), 3u);
}

TEST(FragmentIndex, PeptideSpectrumRanksPeptideFirst) {
  const PeptideIndex peptides = hand_index({"PEPTIDEK", "PETPIDE", "PEPTIDE"});
  const SearchParameters params = narrow_params();
  const FragmentIndex index = FragmentIndex::build(peptides, params, {});
  const Query q = synthetic_query(peptides, id_of(peptides, "PEPTIDE"), 2, {300.5f, 900.25f});
  EXPECT_NEAR(q.neutral_mass, 799.359964, 1e-4);
  FragmentSearcher searcher(peptides, params, 50);
  FragmentCandidates out;
  searcher.search(index, q, out);
  EXPECT_EQ(out.window_candidates, 2u);  // PEPTIDE and PETPIDE; PEPTIDEK is 128 Da heavier
  ASSERT_EQ(out.top.size(), 2u);
  EXPECT_EQ(out.top[0].peptide, id_of(peptides, "PEPTIDE"));
  EXPECT_EQ(out.top[0].matched_peaks, 10);
  EXPECT_FLOAT_EQ(out.top[0].summed_intensity, 10.0f);  // the two noise peaks match nothing
  EXPECT_EQ(out.top[0].isotope_error, 0);
  EXPECT_EQ(out.top[1].peptide, id_of(peptides, "PETPIDE"));
  EXPECT_EQ(out.top[1].matched_peaks, 8);

  // top_k 1 keeps PEPTIDE only; a wide window (±200 Da) adds PEPTIDEK with b2..b6 = 5.
  FragmentSearcher one(peptides, params, 1);
  one.search(index, q, out);
  ASSERT_EQ(out.top.size(), 1u);
  EXPECT_EQ(out.top[0].peptide, id_of(peptides, "PEPTIDE"));
  SearchParameters wide = params;
  wide.precursor_tolerance = Tolerance::Da(-200, 200);
  FragmentSearcher open(peptides, wide, 50);
  open.search(index, q, out);
  EXPECT_EQ(out.window_candidates, 3u);
  ASSERT_EQ(out.top.size(), 3u);
  EXPECT_EQ(out.top[2].peptide, id_of(peptides, "PEPTIDEK"));
  EXPECT_EQ(out.top[2].matched_peaks, 5);
}

TEST(FragmentIndex, EachPeakCountsOncePerPeptide) {
  // A wide tolerance lets one peak cover several fragments; it still counts once.
  const PeptideIndex peptides = hand_index({"PEPTIDE"});
  SearchParameters params = narrow_params();
  params.fragment_tolerance = Tolerance::Da(-60, 60);  // every peak reaches several fragments
  const FragmentIndex index = FragmentIndex::build(peptides, params, {});
  Query q = synthetic_query(peptides, 0, 2);
  FragmentSearcher searcher(peptides, params, 5);
  FragmentCandidates out;
  searcher.search(index, q, out);
  ASSERT_EQ(out.top.size(), 1u);
  // b1 (98.06) and y1 (148.06) have no indexed fragment within 60 Da (the lowest is b2 227.10);
  // the other 10 peaks each reach up to 3 fragments but count once: 10, not the 20+ hits.
  EXPECT_EQ(out.top[0].matched_peaks, 10);
}

TEST(FragmentIndex, WindowsFilterByPrecursorMassAndIsotopeError) {
  const PeptideIndex peptides = hand_index({"PEPTIDEK", "PETPIDE", "PEPTIDE"});
  SearchParameters params = narrow_params();
  params.isotope_errors = {0, 1};
  const FragmentIndex index = FragmentIndex::build(peptides, params, {});
  // Observed mass one 13C above PEPTIDE: reached only through isotope error 1.
  Query q = synthetic_query(peptides, id_of(peptides, "PEPTIDE"), 2);
  q.neutral_mass += mass::kC13C12Spacing;
  FragmentSearcher searcher(peptides, params, 50);
  FragmentCandidates out;
  searcher.search(index, q, out);
  EXPECT_EQ(out.window_candidates, 2u);
  ASSERT_EQ(out.top.size(), 2u);
  EXPECT_EQ(out.top[0].peptide, id_of(peptides, "PEPTIDE"));
  EXPECT_EQ(out.top[0].isotope_error, 1);
  // 12 ppm off: outside ±10 ppm, nothing.
  q.neutral_mass = peptides.neutral_mass_da(id_of(peptides, "PEPTIDE")) * (1 + 12e-6);
  searcher.search(index, q, out);
  EXPECT_EQ(out.window_candidates, 0u);
  EXPECT_TRUE(out.top.empty());
  // Both isotope errors reach the same peptides: the smaller |k| wins.
  std::vector<PrecursorWindow> windows;
  params.precursor_tolerance = Tolerance::Da(-3, 3);
  q.neutral_mass = peptides.neutral_mass_da(0);
  precursor_windows(peptides, params, q, windows);
  ASSERT_EQ(windows.size(), 1u);
  EXPECT_EQ(windows[0].first, 0u);
  EXPECT_EQ(windows[0].last, 2u);
  EXPECT_EQ(windows[0].isotope_error, 0);
}

std::shared_ptr<const PeptideIndex> bsa_excerpt_index() {
  const std::string path = std::string(IONFLOW_TEST_DATA_DIR) + "/bsa_target_decoy_excerpt.fasta";
  FastaOptions fasta;
  fasta.decoy_tag = "_rev";
  fasta.tag_is_suffix = true;
  auto proteins = parse_fasta(read_file(path), path, fasta);
  SearchParameters params;
  params.database.decoy_tag = "_rev";
  params.database.decoy_tag_is_suffix = true;
  params.database.enzyme.missed_cleavages = 2;
  params.database.fixed_modifications = {
      {"Carbamidomethyl", 4, 57.021464, ModificationPosition::kAnywhere, "C", true}};
  params.database.variable_modifications = {
      {"Oxidation", 35, 15.994915, ModificationPosition::kAnywhere, "M", false}};
  return build_peptide_index(std::move(proteins), params);
}

TEST(FragmentIndex, BsaLvnelTefakFirst) {
  auto peptides = bsa_excerpt_index();
  ASSERT_GT(peptides->size(), 500u);
  SearchParameters params;  // 10 ppm precursor, 0.5 Da fragment, "by"
  const FragmentIndex index = FragmentIndex::build(*peptides, params, {});
  const uint32_t lvn = id_of(*peptides, "LVNELTEFAK");
  EXPECT_NEAR(peptides->neutral_mass_da(lvn), 1162.62339, 1e-4);
  const Query q = synthetic_query(*peptides, lvn, 2, {400.3f, 812.7f, 1010.1f});
  FragmentSearcher searcher(*peptides, params, 50);
  FragmentCandidates out;
  searcher.search(index, q, out);
  ASSERT_FALSE(out.top.empty());
  EXPECT_EQ(out.top[0].peptide, lvn);
  EXPECT_EQ(out.top[0].matched_peaks, 16);  // 18 b/y minus b1 (114.09) and y1 (147.11)
  EXPECT_GE(out.window_candidates, 1u);
  expect_same(out, brute_force_candidates(*peptides, params, {}, q, 50), "brute force");
}

// Real spectra: the BSA1 and Ecoli excerpts, prepared as the pipeline does, with a ±2 Da
// precursor window and isotope errors −1..1 (overlapping windows, many candidates); unsliced,
// sliced (budget forcing several slices), small buckets and brute force give identical top-K.
TEST(FragmentIndex, SlicingAndBruteForceAgreeOnRealSpectra) {
  auto peptides = bsa_excerpt_index();
  SearchParameters params;
  params.isotope_errors = {-1, 0, 1};
  params.precursor_tolerance = Tolerance::Da(-2, 2);
  std::vector<Query> queries;
  for (const char* name : {"/BSA1_excerpt.mzML", "/Ecoli_MS2_small_excerpt.mzML"}) {
    const std::string mzml = std::string(IONFLOW_TEST_DATA_DIR) + name;
    auto reader = make_spectrum_reader(PeakListFormat::kMzML, mzml, 0);
    std::vector<RawSpectrum> spectra;
    reader->feed(read_file(mzml), spectra);
    reader->finish(spectra);
    for (const RawSpectrum& s : spectra) {
      for (Query& q : prepare_spectrum(s, params).queries) queries.push_back(std::move(q));
    }
  }
  ASSERT_GE(queries.size(), 8u);

  const size_t k = 20;
  const FragmentIndex whole = FragmentIndex::build(*peptides, params, {});
  FragmentIndexOptions small_buckets;
  small_buckets.bucket_size = 64;
  const FragmentIndex bucketed = FragmentIndex::build(*peptides, params, small_buckets);
  EXPECT_EQ(bucketed.entries().size(), whole.entries().size());
  FragmentIndexOptions budget;
  budget.bucket_size = 128;
  budget.memory_budget_bytes = whole.bytes() / 4;
  const auto slices = plan_slices(*peptides, params, budget);
  EXPECT_GE(slices.size(), 4u);
  EXPECT_EQ(slices.front().first, 0u);
  EXPECT_EQ(slices.back().second, peptides->size());
  SlicedSearchStats stats;
  const auto sliced = search_in_slices(*peptides, params, budget, queries, k, &stats);
  EXPECT_EQ(stats.slices, slices.size());
  EXPECT_EQ(stats.entries, whole.entries().size());
  EXPECT_LE(stats.max_slice_bytes, budget.memory_budget_bytes);

  FragmentSearcher searcher(*peptides, params, k);
  FragmentCandidates a, b;
  size_t with_candidates = 0;
  for (size_t i = 0; i < queries.size(); ++i) {
    searcher.search(whole, queries[i], a);
    searcher.search(bucketed, queries[i], b);
    with_candidates += a.top.empty() ? 0 : 1;
    const std::string what = "query " + std::to_string(i);
    expect_same(a, b, what + " small buckets");
    expect_same(a, sliced[i], what + " sliced");
    expect_same(a, brute_force_candidates(*peptides, params, {}, queries[i], k), what + " brute");
  }
  EXPECT_GE(with_candidates, queries.size() / 2);
}

TEST(FragmentIndex, ThreadedBuildIsIdentical) {
  auto peptides = bsa_excerpt_index();
  SearchParameters params;
  FragmentIndexOptions one;
  one.bucket_size = 64;
  FragmentIndexOptions three = one;
  three.build_threads = 3;
  const FragmentIndex a = FragmentIndex::build(*peptides, params, one);
  const FragmentIndex b = FragmentIndex::build(*peptides, params, three);
  ASSERT_EQ(a.entries().size(), b.entries().size());
  ASSERT_EQ(a.buckets().size(), b.buckets().size());
  for (size_t i = 0; i < a.buckets().size(); ++i) {
    EXPECT_EQ(a.buckets()[i].offset, b.buckets()[i].offset);
    EXPECT_EQ(a.buckets()[i].count, b.buckets()[i].count);
  }
  for (size_t i = 0; i < a.entries().size(); ++i) {
    ASSERT_EQ(a.entries()[i].mz, b.entries()[i].mz) << i;
    ASSERT_EQ(a.entries()[i].peptide, b.entries()[i].peptide) << i;
  }
}

TEST(FragmentIndex, SuggestedBucketSize) {
  SearchParameters p;  // ±10 ppm: 0.04 Da at 2000 Da
  EXPECT_EQ(suggested_bucket_size(p), 128u);
  p.precursor_tolerance = Tolerance::Ppm(-200, 200);  // 0.8 Da at 2000 Da
  EXPECT_EQ(suggested_bucket_size(p), 128u);
  p.precursor_tolerance = Tolerance::Da(-0.5, 0.5);
  EXPECT_EQ(suggested_bucket_size(p), 128u);
  p.precursor_tolerance = Tolerance::Da(-100, 500);  // open search
  EXPECT_EQ(suggested_bucket_size(p), 8192u);
}

TEST(FragmentIndex, RejectsBadInput) {
  const PeptideIndex peptides = hand_index({"PEPTIDE", "PEPTIDEK"});
  FragmentIndexOptions options;
  options.bucket_size = 0;
  EXPECT_THROW(FragmentIndex::build(peptides, narrow_params(), options), std::invalid_argument);
  options.bucket_size = 8;
  options.fragment_min_mz = 2000;
  options.fragment_max_mz = 150;
  EXPECT_THROW(FragmentIndex::build(peptides, narrow_params(), options), std::invalid_argument);
  EXPECT_THROW(FragmentIndex::build(peptides, narrow_params(), {}, 1, 5), std::invalid_argument);
  SearchParameters bad_ions = narrow_params();
  bad_ions.ion_types = "bq";
  EXPECT_THROW(FragmentIndex::build(peptides, bad_ions, {}), std::invalid_argument);
  EXPECT_THROW(FragmentSearcher(peptides, narrow_params(), 0), std::invalid_argument);

  // from_parts accepts a built index's parts and rejects unsorted or untiled ones.
  const FragmentIndex built = FragmentIndex::build(peptides, narrow_params(), {});
  auto entries = built.entries();
  auto buckets = built.buckets();
  EXPECT_EQ(FragmentIndex::from_parts(entries, buckets, 0, 2, {}).entries().size(), 22u);
  std::swap(entries[0], entries[1]);
  EXPECT_THROW(FragmentIndex::from_parts(entries, buckets, 0, 2, {}), std::invalid_argument);
  std::swap(entries[0], entries[1]);
  EXPECT_THROW(FragmentIndex::from_parts(entries, buckets, 0, 3, {}), std::invalid_argument);
  entries.pop_back();
  EXPECT_THROW(FragmentIndex::from_parts(entries, buckets, 0, 2, {}), std::invalid_argument);
}

}  // namespace
}  // namespace ionflow
