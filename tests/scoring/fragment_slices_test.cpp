// FragmentSlices (scoring/fragment_slices.hpp) and SpectrumScorer's first pass over them: an
// open search whose fragment index is cut into slices built on demand gives the PSMs of the
// whole index, bit for bit. Real data: the 139 E. coli MS2 spectra (ID/Ecoli_MS2_small.mzML)
// against the E. coli K12 target-decoy FASTA, trypsin, 1 missed cleavage, Carbamidomethyl (C)
// fixed, Oxidation (M) variable, fragments ±0.5 Da, precursor ±150 Da, isotope error 0 (the
// settings of fragment_prefilter_test).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "io/fasta_reader.hpp"
#include "io/spectrum_reader.hpp"
#include "scoring/fragment_index.hpp"
#include "scoring/fragment_slices.hpp"
#include "scoring/search.hpp"
#include "scoring_test_support.hpp"

namespace ionflow {
namespace {

using scoring_test::ecoli_index;
using scoring_test::ecoli_queries;

using scoring_test::carbamidomethyl;
using scoring_test::oxidation;
using scoring_test::read_file;

SearchParameters open_params() {
  return scoring_test::ecoli_parameters(Tolerance::Da(-150, 150));
}

FragmentIndexOptions index_options(const SearchParameters& params) {
  FragmentIndexOptions options;
  options.bucket_size = suggested_bucket_size(params);
  options.build_threads = 1;
  return options;
}

// Built once for the suite: the index (584,002 peptides), the queries and the PSMs of the whole
// fragment index (the reference).
struct OpenSearch {
  SearchParameters params = open_params();
  std::shared_ptr<const PeptideIndex> index = ecoli_index(params);
  std::vector<Query> queries = ecoli_queries(params, true);
  size_t whole_estimate =
      estimate_fragment_index_bytes(*index, params, index_options(params), 0, index->size());
  std::vector<std::vector<Psm>> reference = [this] {
    auto whole = std::make_shared<const FragmentIndex>(
        FragmentIndex::build(*index, params, index_options(params)));
    SpectrumScorer scorer(index, params, whole);
    std::vector<std::vector<Psm>> out;
    for (const Query& q : queries) out.push_back(scorer.score(q));
    return out;
  }();
};

const OpenSearch& open_search() {
  static const OpenSearch* search = new OpenSearch();
  return *search;
}

// Every field the scorer computes, compared exactly.
void expect_same_psms(const std::vector<Psm>& a, const std::vector<Psm>& b,
                      const std::string& where) {
  ASSERT_EQ(a.size(), b.size()) << where;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].spectrum_index, b[i].spectrum_index) << where;
    EXPECT_EQ(a[i].charge, b[i].charge) << where;
    EXPECT_EQ(a[i].rank, b[i].rank) << where;
    EXPECT_EQ(a[i].proforma, b[i].proforma) << where;
    EXPECT_EQ(a[i].hyperscore, b[i].hyperscore) << where;
    EXPECT_EQ(a[i].xcorr, b[i].xcorr) << where;
    EXPECT_EQ(a[i].evalue, b[i].evalue) << where;
    EXPECT_EQ(a[i].score, b[i].score) << where;
    EXPECT_EQ(a[i].delta_next, b[i].delta_next) << where;
    EXPECT_EQ(a[i].matched_peaks, b[i].matched_peaks) << where;
    EXPECT_EQ(a[i].candidates, b[i].candidates) << where;
  }
}

using Range = std::pair<size_t, size_t>;

TEST(FragmentSlices, PlanCoversThePeptidesInOrder) {
  const OpenSearch& s = open_search();
  ASSERT_EQ(s.index->size(), 584002u);
  FragmentSlices slices(s.index, s.params, index_options(s.params), s.whole_estimate / 2);
  EXPECT_EQ(slices.size(), 9u);
  EXPECT_EQ(slices.slice_budget_bytes(), s.whole_estimate / 8);
  EXPECT_LE(slices.max_estimated_slice_bytes(), slices.slice_budget_bytes());
  EXPECT_EQ(slices.range(0).first, 0u);
  EXPECT_EQ(slices.range(slices.size() - 1).second, s.index->size());
  for (size_t i = 1; i < slices.size(); ++i) {
    EXPECT_EQ(slices.range(i).first, slices.range(i - 1).second);
  }
  // Ids [first, last) of slice 3 overlap it alone; one id past it reaches slice 4.
  const auto [first, last] = slices.range(3);
  EXPECT_EQ(slices.overlapping(first, last), Range(3, 4));
  EXPECT_EQ(slices.overlapping(first, last + 1), Range(3, 5));
  EXPECT_EQ(slices.overlapping(first - 1, first), Range(2, 3));
  EXPECT_EQ(slices.overlapping(first, first), Range(0, 0));
  EXPECT_EQ(slices.stats().builds, 0u);  // nothing is built before it is asked for
}

TEST(FragmentSlices, BuildsASliceOnceAndDropsTheLeastRecentlyUsed) {
  const OpenSearch& s = open_search();
  // 33 slices of up to 4.8 MB built (5.4 MB estimated) in a 21.6 MB budget: about four fit, so
  // ten in a row drop the first ones.
  FragmentSlices slices(s.index, s.params, index_options(s.params), s.whole_estimate / 8);
  ASSERT_EQ(slices.size(), 33u);
  const auto a = slices.acquire(10);
  EXPECT_EQ(slices.acquire(10), a);  // cached: the same slice, not a second build
  EXPECT_EQ(slices.if_cached(10), a);
  EXPECT_EQ(slices.if_cached(11), nullptr);  // never builds
  EXPECT_EQ(a->first_peptide(), slices.range(10).first);
  EXPECT_EQ(a->last_peptide(), slices.range(10).second);
  for (size_t i = 11; i < 20; ++i) slices.acquire(i);
  FragmentSliceStats st = slices.stats();
  EXPECT_EQ(st.builds, 10u);
  EXPECT_EQ(st.repeated_builds, 0u);
  EXPECT_LE(st.peak_held_bytes, slices.budget_bytes() + st.max_slice_bytes + a->bytes());
  // Slice 10 was dropped from the cache long ago but `a` holds it: a new build, the same
  // contents.
  EXPECT_EQ(slices.if_cached(10), nullptr);
  const auto again = slices.acquire(10);
  EXPECT_NE(again, a);
  EXPECT_EQ(again->entries().size(), a->entries().size());
  st = slices.stats();
  EXPECT_EQ(st.builds, 11u);
  EXPECT_EQ(st.repeated_builds, 1u);
  EXPECT_THROW(slices.acquire(slices.size()), std::out_of_range);
  EXPECT_THROW(FragmentSlices(s.index, s.params, index_options(s.params), 0),
               std::invalid_argument);
}

// The scorer over 17 slices (about 4 of them fit the budget at once) gives every PSM of the
// whole index, to the last bit. The queries, in ascending mass, reach 6 slices, each built once.
TEST(FragmentSlices, ScorerGivesTheWholeIndexPsms) {
  const OpenSearch& s = open_search();
  auto slices = std::make_shared<FragmentSlices>(s.index, s.params, index_options(s.params),
                                                 s.whole_estimate / 4);
  ASSERT_EQ(slices->size(), 17u);
  SpectrumScorer scorer(s.index, s.params, nullptr, slices);
  for (size_t i = 0; i < s.queries.size(); ++i) {
    expect_same_psms(s.reference[i], scorer.score(s.queries[i]), s.queries[i].native_id);
  }
  const FragmentSliceStats st = slices->stats();
  EXPECT_EQ(st.slices, 17u);
  EXPECT_EQ(st.builds, 6u);
  EXPECT_EQ(st.repeated_builds, 0u);
  EXPECT_LE(st.peak_held_bytes, slices->budget_bytes() + st.max_slice_bytes);
  EXPECT_THROW(SpectrumScorer(s.index, s.params,
                              std::make_shared<const FragmentIndex>(FragmentIndex::build(
                                  *s.index, s.params, index_options(s.params), 0, 10)),
                              slices),
               std::invalid_argument);
}

// A budget smaller than the slices of one window (65 slices of up to 2.6 MB in 10.8 MB: about
// four fit): slices are dropped and built again as the windows slide, the cached ones searched
// first; still the same PSMs. The windows reach 24 slices; 62 builds are repeats.
TEST(FragmentSlices, ScorerOverATightBudgetRebuildsButGivesTheSamePsms) {
  const OpenSearch& s = open_search();
  auto slices = std::make_shared<FragmentSlices>(s.index, s.params, index_options(s.params),
                                                 s.whole_estimate / 16);
  SpectrumScorer scorer(s.index, s.params, nullptr, slices);
  for (size_t i = 0; i < s.queries.size(); ++i) {
    expect_same_psms(s.reference[i], scorer.score(s.queries[i]), s.queries[i].native_id);
  }
  const FragmentSliceStats st = slices->stats();
  EXPECT_EQ(st.slices, 65u);
  EXPECT_EQ(st.builds, 86u);
  EXPECT_EQ(st.repeated_builds, 62u);
}

// Three scorers share one FragmentSlices with a tighter budget (33 slices, about four cached),
// each taking every third query, so they ask for slices out of order and at the same time: the
// same PSMs. The 12 slices the windows reach are built at least once; whether one is dropped and
// built again depends on the threads' timing, the answers do not.
TEST(FragmentSlices, ConcurrentScorersGiveTheSameAnswers) {
  const OpenSearch& s = open_search();
  auto slices = std::make_shared<FragmentSlices>(s.index, s.params, index_options(s.params),
                                                 s.whole_estimate / 8);
  constexpr size_t kThreads = 3;
  std::vector<std::vector<std::vector<Psm>>> got(kThreads);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      SpectrumScorer scorer(s.index, s.params, nullptr, slices);
      for (size_t i = t; i < s.queries.size(); i += kThreads) {
        got[t].push_back(scorer.score(s.queries[i]));
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (size_t i = 0; i < s.queries.size(); ++i) {
    expect_same_psms(s.reference[i], got[i % kThreads][i / kThreads], s.queries[i].native_id);
  }
  const FragmentSliceStats st = slices->stats();
  EXPECT_EQ(st.slices, 33u);
  EXPECT_EQ(st.builds - st.repeated_builds, 12u);    // distinct slices the windows reach
  EXPECT_LE(st.held_bytes, slices->budget_bytes());  // no holder left: the cache alone
}

}  // namespace
}  // namespace ionflow
