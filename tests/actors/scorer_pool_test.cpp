// The shared scorer pool on real data (E. coli example queries against the E. coli K12
// target-decoy index): every chunk comes back with exactly the PSMs a plain SpectrumScorer gives,
// also when a scorer throws (chunk retried elsewhere), when a scorer dies holding chunks (chunks
// retried, scorer replaced) and when the pool shrinks while chunks are queued.
#include <gtest/gtest.h>
#include <caf/all.hpp>
#include <caf/detail/simple_actor_clock.hpp>

#include <atomic>
#include <chrono>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>
#include <vector>

#include "actors/pipeline.hpp"
#include "actors_test_support.hpp"
#include "io/fasta_reader.hpp"
#include "io/spectrum_reader.hpp"
#include "messages/registration.hpp"
#include "scoring/search.hpp"

namespace ionflow {
namespace {

const std::string kExamples = IONFLOW_EXAMPLES_DIR;

using actors_test::read_file;

struct EcoliData {
  SearchParameters params;
  std::shared_ptr<const PeptideIndex> index;
  std::vector<Query> queries;
  std::vector<std::vector<Psm>> expected;  // per query, from a plain SpectrumScorer
};

const EcoliData& ecoli() {
  static EcoliData d = [] {
    EcoliData e;
    e.params.database.fixed_modifications.push_back(
        {"Carbamidomethyl", 4, 57.021464, ModificationPosition::kAnywhere, "C", true});
    e.params.database.decoy_tag = "rev_";
    e.params.database.decoy_generation = DecoyGeneration::kNone;
    std::string fasta_path =
        kExamples +
        "/TOPPAS/data/Identification/target_decoy_Ecoli_K12_TaxID_83333.proteomes.fasta";
    e.index = build_peptide_index(parse_fasta(read_file(fasta_path), fasta_path, {"rev_", false}),
                                  e.params);
    std::string mzml = kExamples + "/ID/Ecoli_MS2_small.mzML";
    auto reader = make_spectrum_reader(PeakListFormat::kMzML, mzml, 0);
    std::vector<RawSpectrum> spectra;
    reader->feed(read_file(mzml), spectra);
    reader->finish(spectra);
    for (const RawSpectrum& s : spectra) {
      for (Query& q : prepare_spectrum(s, e.params).queries) e.queries.push_back(std::move(q));
    }
    SpectrumScorer scorer(e.index, e.params);
    for (const Query& q : e.queries) e.expected.push_back(scorer.score(q));
    return e;
  }();
  return d;
}

struct Config : caf::actor_system_config {
  Config() {
    register_message_types(*this);
    set("scheduler.max-threads", 2);
  }
};

class ScorerPoolTest : public ::testing::Test {
 protected:
  void TearDown() override {
    if (pool_) self_->send_exit(pool_, caf::exit_reason::user_shutdown);
    pool_ = nullptr;
  }

  void start(int scorers, std::function<void(const Query&)> hook = {}) {
    auto scoring = std::make_shared<JobScoring>();
    scoring->index = ecoli().index;
    scoring->params = ecoli().params;
    scoring->before_score = std::move(hook);
    registry_->add(kJob, scoring);
    pool_ = spawn_scorer_pool(sys_, registry_, std::make_shared<ScorerRoster>(), scorers, 0);
  }

  // Sends all queries in chunks of `chunk_size` at once (no request: replies come as messages);
  // `after_send` runs once everything is queued. Returns the PSMs by chunk seq.
  std::map<uint64_t, PsmBatch> score_all(size_t chunk_size, const std::function<void()>& after_send,
                                         std::vector<std::string>* errors = nullptr) {
    const auto& qs = ecoli().queries;
    uint64_t chunks = 0;
    for (size_t i = 0; i < qs.size(); i += chunk_size) {
      QueryChunk c{kJob, chunks++, 0, {}};
      for (size_t j = i; j < std::min(qs.size(), i + chunk_size); ++j) c.queries.push_back(qs[j]);
      self_->send(pool_, std::move(c));
    }
    if (after_send) after_send();
    std::map<uint64_t, PsmBatch> out;
    bool timed_out = false;
    for (uint64_t i = 0; i < chunks && !timed_out; ++i) {
      self_->receive([&](PsmBatch& b) { out[b.seq] = std::move(b); },
                     [&](caf::error& e) {
                       if (errors) errors->push_back(sys_.render(e));
                     },
                     caf::after(std::chrono::seconds(120)) >> [&] { timed_out = true; });
    }
    EXPECT_FALSE(timed_out);
    return out;
  }

  void expect_expected(const std::map<uint64_t, PsmBatch>& batches) {
    std::vector<Psm> got;
    for (const auto& [seq, b] : batches) {
      got.insert(got.end(), b.psms.begin(), b.psms.end());
    }
    std::vector<Psm> want;
    for (const auto& v : ecoli().expected) want.insert(want.end(), v.begin(), v.end());
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].spectrum_index, want[i].spectrum_index);
      EXPECT_EQ(got[i].charge, want[i].charge);
      EXPECT_EQ(got[i].proforma, want[i].proforma);
      EXPECT_EQ(got[i].hyperscore, want[i].hyperscore);
    }
  }

  std::vector<caf::actor> scorers() {
    std::vector<caf::actor> out;
    self_->request(pool_, std::chrono::seconds(30), caf::get_atom::value)
        .receive([&](std::vector<caf::actor>& v) { out = std::move(v); },
                 [&](caf::error& e) { ADD_FAILURE() << sys_.render(e); });
    return out;
  }

  // The request timeouts the actor clock holds for `actor`. Read once the clock has handled what
  // was queued before: a message sent through it now has come back.
  size_t request_timeouts_held(const caf::actor& actor) {
    self_->delayed_send(self_, std::chrono::milliseconds(1), caf::tick_atom::value);
    self_->receive([](caf::tick_atom) {});
    using Clock = caf::detail::simple_actor_clock;
    const auto& clock = dynamic_cast<const Clock&>(sys_.clock());
    size_t n = 0;
    const auto [first, last] = clock.actor_lookup().equal_range(actor.id());
    for (auto it = first; it != last; ++it)
      n += it->second->second->subtype == Clock::request_timeout_type;
    return n;
  }

  static constexpr uint64_t kJob = 1;
  Config cfg_;
  caf::actor_system sys_{cfg_};
  caf::scoped_actor self_{sys_};
  std::shared_ptr<JobRegistry> registry_ = std::make_shared<JobRegistry>();
  caf::actor pool_;
};

TEST_F(ScorerPoolTest, RealQueriesGiveThePlainScorersPsms) {
  const EcoliData& d = ecoli();
  EXPECT_EQ(d.queries.size(), 139u);
  size_t with_psm = 0;
  for (const auto& v : d.expected) with_psm += !v.empty();
  EXPECT_EQ(with_psm, 131u);  // without variable Oxidation (M)
  start(3);
  EXPECT_EQ(scorers().size(), 3u);
  auto batches = score_all(10, {});
  ASSERT_EQ(batches.size(), 14u);
  EXPECT_EQ(batches.at(13).queries_scored, 9u);
  expect_expected(batches);
}

TEST_F(ScorerPoolTest, ThrowingAndDyingScorersAreRetriedAndReplaced) {
  std::atomic<int> calls{0};
  start(3, [&](const Query&) {
    int n = ++calls;
    if (n == 5) throw std::runtime_error("injected scorer error");
    if (n == 40) throw 42;  // not a std::exception: the scorer actor dies holding chunks
  });
  std::vector<caf::actor> before = scorers();
  std::vector<std::string> errors;
  auto batches = score_all(7, {}, &errors);
  EXPECT_TRUE(errors.empty()) << errors.front();
  ASSERT_EQ(batches.size(), 20u);
  expect_expected(batches);
  // Every query scored once for its result, plus the two failing calls; a retried chunk also
  // re-scores the queries it had done before the failure, but with three scorers interleaving,
  // call 5 or 40 can be the first query of its chunk (CI once saw exactly 141).
  EXPECT_GE(calls.load(), 139 + 2);
  std::vector<caf::actor> after = scorers();
  EXPECT_EQ(after.size(), 3u);  // the dead scorer was replaced
  size_t survivors = 0;
  for (const auto& a : after) survivors += std::count(before.begin(), before.end(), a);
  EXPECT_EQ(survivors, 2u);
}

TEST_F(ScorerPoolTest, ShrinkingWhileChunksAreQueuedLosesNothing) {
  start(4);
  auto batches = score_all(5, [&] { self_->send(pool_, ResizePool{1}); });
  ASSERT_EQ(batches.size(), 28u);
  expect_expected(batches);
  EXPECT_EQ(scorers().size(), 1u);
}

// CAF 0.17 keeps a request's timeout (kScorerTimeout, 2 h) in its clock after the answer: the
// pool, which lives as long as the service, held every chunk's for two hours (the serve soak's
// heap grew 5.5 KB/s). It forgets each on the answer (actors/request_timeout.hpp).
TEST_F(ScorerPoolTest, TheClockKeepsNoTimeoutOfAnAnsweredChunk) {
  start(2);
  auto batches = score_all(7, {});
  ASSERT_EQ(batches.size(), 20u);
  EXPECT_EQ(request_timeouts_held(pool_), 0u);
}

// The pool remembered the address of every scorer it ever spawned, which kept each removed
// scorer's memory (1.2 KB) for the pool's life: one per resize. Once a removed scorer is down
// only the test's own address refers to it.
TEST_F(ScorerPoolTest, ARemovedScorerIsForgottenOnceItIsDown) {
  start(3);
  std::vector<caf::actor_addr> removed;
  {
    std::vector<caf::actor> before = scorers();
    ASSERT_EQ(before.size(), 3u);
    for (size_t i = 1; i < before.size(); ++i) {
      self_->monitor(before[i]);
      removed.push_back(before[i].address());
    }
  }
  self_->send(pool_, ResizePool{1});
  for (size_t i = 0; i < removed.size(); ++i) self_->receive([](caf::down_msg&) {});
  // The pool handles the same down messages on its own thread: waited for, up to 10 s.
  auto others = [&](const caf::actor_addr& a) { return a.get()->weak_refs.load() - 1; };
  for (int i = 0; i < 10000; ++i) {
    if (others(removed[0]) == 0 && others(removed[1]) == 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(others(removed[0]), 0u);
  EXPECT_EQ(others(removed[1]), 0u);
  EXPECT_EQ(scorers().size(), 1u);
}

TEST_F(ScorerPoolTest, AChunkFailingEverywhereIsAnErrorNamingTheQuery) {
  start(2, [](const Query& q) {
    if (q.spectrum_index == 17) throw std::runtime_error("bad peak list");
  });
  std::vector<std::string> errors;
  auto batches = score_all(10, {}, &errors);
  EXPECT_EQ(batches.size(), 13u);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("failed 3 times"), std::string::npos) << errors[0];
  EXPECT_NE(errors[0].find("spectrum 17"), std::string::npos) << errors[0];
  EXPECT_NE(errors[0].find("bad peak list"), std::string::npos) << errors[0];
}

}  // namespace
}  // namespace ionflow
