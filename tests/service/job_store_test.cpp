#include "service/job_store.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <thread>

#include "serve_support.hpp"
#include "service/job_inputs.hpp"

namespace ionflow {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;

class JobStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ionflow_job_store_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string db() const { return (dir_ / "jobs.sqlite3").string(); }

  static JobRecord job(const std::string& id, int priority) {
    JobRecord r;
    r.id = id;
    r.priority = priority;
    r.submitted_json = R"({"priority": )" + std::to_string(priority) + "}";
    r.effective_json = "{}";
    return r;
  }
  // A queued job reading `spectra` and `fasta` (absolute paths), as its effective parameters
  // name them (job_inputs.hpp).
  static JobRecord job_reading(const std::string& id, const std::string& spectra,
                               const std::string& fasta) {
    JobRecord r = job(id, 0);
    r.effective_json =
        R"({"mzml_paths": [")" + spectra + R"("], "database": {"fasta": ")" + fasta + R"("}})";
    return r;
  }

  fs::path dir_;
};

TEST_F(JobStoreTest, ClaimsByPriorityThenFifo) {
  JobStore store(db());
  for (auto [id, priority] : std::vector<std::pair<std::string, int>>{
           {"a", 0}, {"b", 5}, {"c", 0}, {"d", 5}, {"e", -1}}) {
    JobRecord r = job(id, priority);
    store.insert(r);
  }
  std::vector<std::string> order;
  while (auto r = store.claim_next()) {
    EXPECT_EQ(r->state, JobState::kRunning);
    EXPECT_GT(r->started_at, 0);
    order.push_back(r->id);
  }
  EXPECT_THAT(order, ElementsAre("b", "d", "a", "c", "e"));
  EXPECT_EQ(store.count_by_state().at(JobState::kRunning), 5);
}

TEST_F(JobStoreTest, UsesWalAndKeepsJobsOfAKilledProcess) {
  {
    JobStore store(db());
    JobRecord a = job("a", 0), b = job("b", 0);
    store.insert(a);
    store.insert(b);
    EXPECT_EQ(store.claim_next()->id, "a");
    EXPECT_TRUE(fs::exists(db() + "-wal"));
    // The process "dies" here: no finish_*() for the running job.
  }
  std::vector<std::string> requeued;
  JobStore reopened(db(), &requeued);
  EXPECT_THAT(requeued, ElementsAre("a"));
  auto a = reopened.get("a");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->state, JobState::kQueued);
  EXPECT_EQ(a->started_at, 0);
  EXPECT_EQ(reopened.claim_next()->id, "a");  // still first in line
  EXPECT_EQ(reopened.get("b")->state, JobState::kQueued);
}

TEST_F(JobStoreTest, RecordsOutcomes) {
  JobStore store(db());
  for (const char* id : {"ok", "bad", "stop"}) {
    JobRecord r = job(id, 0);
    store.insert(r);
    store.claim_next();
  }
  store.set_progress("ok", R"({"stage":"scoring"})");
  EXPECT_EQ(store.get("ok")->progress_json, R"({"stage":"scoring"})");
  store.finish_done("ok", R"({"psms":3})", {"/x/results.tsv", "/x/results.json"});
  store.finish_failed("bad", "BSA1.mzML: byte 1200: truncated");
  store.finish_cancelled("stop", "cancelled by client");

  auto ok = store.get("ok");
  EXPECT_EQ(ok->state, JobState::kDone);
  EXPECT_GT(ok->finished_at, 0);
  EXPECT_EQ(ok->summary_json, R"({"psms":3})");
  EXPECT_THAT(ok->result_paths, ElementsAre("/x/results.tsv", "/x/results.json"));
  EXPECT_EQ(store.get("bad")->error, "BSA1.mzML: byte 1200: truncated");
  EXPECT_EQ(store.get("stop")->state, JobState::kCancelled);
  EXPECT_FALSE(store.get("nope"));

  auto failed = store.list(JobState::kFailed);
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].id, "bad");
  auto all = store.list();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].id, "stop");  // newest first
}

TEST_F(JobStoreTest, CancelsQueuedAtOnceAndFlagsRunning) {
  {
    JobStore store(db());
    JobRecord a = job("a", 1), b = job("b", 0);
    store.insert(a);
    store.insert(b);
    EXPECT_EQ(store.claim_next()->id, "a");
    EXPECT_EQ(store.request_cancel("b", "by test"), JobState::kCancelled);
    EXPECT_EQ(store.get("b")->error, "by test");
    EXPECT_EQ(store.request_cancel("a", "by test"), JobState::kRunning);
    EXPECT_TRUE(store.get("a")->cancel_requested);
    EXPECT_EQ(store.request_cancel("b", "again"), JobState::kCancelled);  // ended: unchanged
    EXPECT_FALSE(store.request_cancel("zzz", "x"));
    EXPECT_FALSE(store.claim_next());
  }
  // A job whose cancel was requested is not run again after a crash; it is reported as
  // cancelled so (the service then removes what it left in its output directory), "b" ended before.
  std::vector<std::string> requeued, cancelled;
  JobStore reopened(db(), &requeued, &cancelled);
  EXPECT_TRUE(requeued.empty());  // and not reported as requeued (the log said so)
  EXPECT_THAT(cancelled, ElementsAre("a"));
  EXPECT_EQ(reopened.get("a")->state, JobState::kCancelled);
  EXPECT_FALSE(reopened.claim_next());
}

// A running job's cancel can come after its results are committed (SearchRuntime then returns
// the summary): the job is done, the request stays visible, its reason is not an error.
TEST_F(JobStoreTest, AJobThatFinishesAfterACancelRequestIsDone) {
  JobStore store(db());
  JobRecord a = job("a", 0);
  store.insert(a);
  store.claim_next();
  EXPECT_EQ(store.request_cancel("a", "cancelled by client"), JobState::kRunning);
  store.finish_done("a", R"({"psms":3})", {"/x/results.tsv"});
  auto done = store.get("a");
  EXPECT_EQ(done->state, JobState::kDone);
  EXPECT_TRUE(done->cancel_requested);
  EXPECT_EQ(done->error, "");
  EXPECT_EQ(done->summary_json, R"({"psms":3})");
}

// The upload endpoint's cache of unfinished jobs' inputs (job_inputs.hpp) follows every change
// of which jobs are queued or running, and answers as a fresh read does.
TEST_F(JobStoreTest, UnfinishedJobInputsFollowTheStore) {
  JobStore store(db());
  UnfinishedJobInputs inputs;
  const std::string spectra = (dir_ / "uploads" / "run.mgf").string();
  const std::string fasta = (dir_ / "uploads" / "db.fasta").string();
  auto reading = [&](const std::string& id) { return job_reading(id, spectra, fasta); };
  EXPECT_EQ(inputs.job_reading(store, spectra), "");
  const uint64_t before = store.changes();
  JobRecord a = reading("a");
  store.insert(a);
  EXPECT_GT(store.changes(), before);
  EXPECT_EQ(inputs.job_reading(store, spectra), "a");
  EXPECT_EQ(inputs.job_reading(store, (dir_ / "uploads" / "." / "db.fasta").string()), "a");
  EXPECT_EQ(inputs.job_reading(store, (dir_ / "uploads" / "other.mgf").string()), "");
  ASSERT_TRUE(store.claim_next().has_value());
  EXPECT_EQ(inputs.job_reading(store, spectra), "a");  // running still reads it
  store.finish_done("a", "{}", {});
  EXPECT_EQ(inputs.job_reading(store, spectra), "");
  // Writes that change no unfinished job leave the count (an idle worker's claim every second
  // would otherwise make every piece read the queue again).
  const uint64_t idle = store.changes();
  EXPECT_FALSE(store.claim_next().has_value());
  store.requeue("a");  // done: not requeued
  store.request_cancel("a", "too late");
  EXPECT_EQ(store.changes(), idle);
  JobRecord b = reading("b");
  store.insert(b);
  EXPECT_EQ(inputs.job_reading(store, fasta), "b");
  EXPECT_EQ(UnfinishedJobInputs().job_reading(store, fasta), "b");  // a fresh read agrees
  store.request_cancel("b", "cancelled by client");                 // queued: cancelled at once
  EXPECT_EQ(inputs.job_reading(store, fasta), "");
}

// Which jobs' insertion takes the upload gate: those with an input inside the uploads directory,
// however the path is spelt; a job reading other files never waits for a piece.
TEST_F(JobStoreTest, UploadGateHoldsOnlyForJobsReadingUploadedFiles) {
  JobStore store(db());
  const fs::path uploads = dir_ / "uploads";
  fs::create_directories(uploads);
  fs::create_directory_symlink(uploads, dir_ / "alias");
  UploadGate gate(store, uploads.string());
  const std::string fasta = (dir_ / "data" / "db.fasta").string();
  EXPECT_TRUE(gate.hold_for_job({(uploads / "run.mgf").string(), fasta}).owns_lock());
  EXPECT_TRUE(
      gate.hold_for_job({fasta, (uploads / "sub" / ".." / "db.fasta").string()}).owns_lock());
  EXPECT_TRUE(gate.hold_for_job({(dir_ / "alias" / "run.mgf").string()}).owns_lock());
  EXPECT_FALSE(gate.hold_for_job({(dir_ / "data" / "run.mgf").string(), fasta}).owns_lock());
  EXPECT_FALSE(gate.hold_for_job({(dir_ / "uploads-old" / "run.mgf").string()}).owns_lock());
  EXPECT_FALSE(gate.hold_for_job({}).owns_lock());
  UploadGate no_uploads(store, "");
  EXPECT_FALSE(no_uploads.hold_for_job({(uploads / "run.mgf").string()}).owns_lock());
}

// A piece's check and write are one step, and a job reading the file is inserted under the same
// lock: the job is queued either before the check (the piece is refused, nothing written) or
// after the write (it reads the whole piece), never between the two.
TEST_F(JobStoreTest, UploadGateMakesAPiecesCheckAndWriteOneStepWithAJobsInsertion) {
  JobStore store(db());
  const fs::path uploads = dir_ / "uploads";
  fs::create_directories(uploads);
  const std::string spectra = (uploads / "run.mgf").string();
  const std::string fasta = (uploads / "db.fasta").string();
  std::ofstream(spectra) << "BEGIN IONS\n";
  std::ofstream(fasta) << ">P1\nPEPTIDEK\n";
  UploadGate gate(store, uploads.string());
  JobRecord a = job_reading("a", spectra, fasta);
  std::mutex* const gate_mutex = gate.hold_for_job(job_input_paths(a)).mutex();
  ASSERT_NE(gate_mutex, nullptr);

  // A piece being written holds the gate; a job reading its file waits until it is written.
  std::promise<void> writing, written;
  std::string piece_refused_by = "not asked";
  std::thread piece([&] {
    piece_refused_by = gate.write_unless_read(spectra, [&] {
      writing.set_value();
      written.get_future().wait();
      std::ofstream(spectra, std::ios::app) << "END IONS\n";
    });
  });
  writing.get_future().wait();
  EXPECT_FALSE(gate_mutex->try_lock());  // held by the piece's thread (this one does not own it)
  std::thread submit([&] {
    const std::unique_lock<std::mutex> hold = gate.hold_for_job(job_input_paths(a));
    store.insert(a);
  });
  EXPECT_FALSE(store.get("a").has_value());
  written.set_value();
  piece.join();
  submit.join();
  EXPECT_EQ(piece_refused_by, "");
  EXPECT_EQ(serve_test::read_file(spectra), "BEGIN IONS\nEND IONS\n");
  ASSERT_TRUE(store.get("a").has_value());
  EXPECT_EQ(store.get("a")->state, JobState::kQueued);

  // Now the job is queued: the next piece of its file is refused, its write never called.
  bool wrote = false;
  EXPECT_EQ(gate.write_unless_read(spectra, [&] { wrote = true; }), "a");
  EXPECT_FALSE(wrote);

  // The other order: a piece that comes while a job reading its file is being inserted waits for
  // the insertion, then is refused.
  const std::string other = (uploads / "other.mgf").string();
  std::ofstream(other) << "BEGIN IONS\n";
  JobRecord b = job_reading("b", other, fasta);
  std::string other_refused_by = "not asked";
  {
    std::unique_lock<std::mutex> hold = gate.hold_for_job(job_input_paths(b));
    EXPECT_TRUE(hold.owns_lock());
    std::thread late_piece(
        [&] { other_refused_by = gate.write_unless_read(other, [&] { wrote = true; }); });
    store.insert(b);
    hold.unlock();
    late_piece.join();
  }
  EXPECT_EQ(other_refused_by, "b");
  EXPECT_FALSE(wrote);
  EXPECT_EQ(serve_test::read_file(other), "BEGIN IONS\n");
}

}  // namespace
}  // namespace ionflow
