// Remote scorer nodes as real processes on loopback (issue 17 part 2): an `ionflow serve
// --scorer-listen` coordinator with one local scorer and an `ionflow scorer-node` with one
// scorer. A node joins (GET /v1/scorers counts and lists it) and takes chunks, and the results
// are byte-identical to `ionflow search` alone; a node killed with SIGKILL mid-job leaves
// identical results (its chunks are scored by the coordinator); a node with a wrong token is
// refused, with the reason logged on both sides; `ionflow search --scorer-listen` takes a node
// that joins mid-job.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <fstream>

#include "redis_support.hpp"
#include "serve_support.hpp"

namespace ionflow::serve_test {
namespace {

using ::testing::HasSubstr;

// A child process of the ionflow binary with stderr in `log`; SIGKILLed when destroyed.
class IonflowProcess {
 public:
  IonflowProcess(fs::path log, std::vector<std::string> args) : log_(std::move(log)) {
    args.insert(args.begin(), kIonflow);
    pid_ = ::fork();
    if (pid_ == 0) {
      FILE* f = std::freopen(log_.c_str(), "w", stderr);
      (void)f;
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(kIonflow.c_str(), argv.data());
      ::_exit(127);
    }
  }
  ~IonflowProcess() { kill9(); }
  IonflowProcess(const IonflowProcess&) = delete;
  IonflowProcess& operator=(const IonflowProcess&) = delete;

  void kill9() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  // The exit code, or -1 if it is still running after `timeout`.
  int wait_exit(std::chrono::seconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (pid_ > 0 && std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -2;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return -1;
  }
  std::string log() const { return read_file(log_); }

 private:
  fs::path log_;
  pid_t pid_ = -1;
};

// The chunks a job's splitter sent (results.json).
int64_t chunks_of(const JsonValue& results) {
  return results.find("summary")->find("stages")->find("splitter")->find("items")->as_integer();
}

class ScorerNodesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(kIonflow)) << kIonflow << " not built";
    ASSERT_TRUE(fs::exists(kExamples + "/BSA/BSA1.mzML")) << "openms-doc data missing";
    dir_ = std::make_unique<ServeTestDir>("scorer_nodes");
    scorer_port_ = redis_test::free_loopback_port();
  }

  // A coordinator with one local scorer accepting nodes on the free port.
  void start_serve(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--scorers", "1", "--scorer-listen",
                                     "127.0.0.1:" + std::to_string(scorer_port_)};
    args.insert(args.end(), extra.begin(), extra.end());
    fs::create_directories(dir_->path() / "serve");
    serve_ = std::make_unique<ServeProcess>(dir_->path() / "serve", args);
    ASSERT_GT(serve_->start(), 0) << serve_->log();
    client_ = serve_->client();
  }

  std::unique_ptr<IonflowProcess> start_node(const std::string& name,
                                             std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {
        "scorer-node", "--connect", "127.0.0.1:" + std::to_string(scorer_port_), "--scorers", "1",
        "--name",      name};
    args.insert(args.end(), extra.begin(), extra.end());
    return std::make_unique<IonflowProcess>(dir_->path() / (name + ".log"), args);
  }

  JsonValue scorers() {
    auto res = client_->Get("/v1/scorers");
    if (!res || res->status != 200) return JsonValue();
    return parse_json(res->body);
  }

  // Polls GET /v1/scorers until `nodes` nodes are listed; false after 30 s.
  bool wait_for_nodes(size_t nodes) {
    for (int i = 0; i < 1500; ++i) {
      JsonValue s = scorers();
      if (const JsonValue* n = s.find("nodes"); n && n->as_array().size() == nodes) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }

  // The chunks GET /v1/scorers says node 0 has scored (0 without a node).
  int64_t first_node_chunks() {
    JsonValue s = scorers();
    const JsonValue* n = s.find("nodes");
    if (!n || n->as_array().empty()) return 0;
    return n->as_array()[0].find("chunks_scored")->as_integer();
  }

  // A job of `copies` x BSA1-3 in chunks of 50 queries, written to a file for `ionflow search`.
  // Five copies (15,590 queries) score for ~3 s on one scorer: a node needs ~1-1.5 s to
  // rebuild the index before its first chunk, so shorter jobs can end before it takes any.
  std::string write_job(int copies, const fs::path& path) {
    JsonValue job = parse_json(long_job(copies));
    job.set("chunk_size", 50);
    std::ofstream(path) << to_json(job, 0);
    return read_file(path);
  }

  // results.tsv of `ionflow search` alone on the same message.
  std::string reference_tsv(const fs::path& job) {
    fs::path out = dir_->path() / "reference";
    auto [rc, text] =
        run_command(kIonflow + " search " + job.string() + " -q -o " + out.string() + " 2>&1");
    EXPECT_EQ(rc, 0) << text;
    return read_file(out / "results.tsv");
  }

  std::unique_ptr<ServeTestDir> dir_;
  int scorer_port_ = 0;
  std::unique_ptr<ServeProcess> serve_;
  std::unique_ptr<httplib::Client> client_;
};

TEST_F(ScorerNodesTest, ANodeJoinsTakesChunksAndResultsAreIdentical) {
  ASSERT_NO_FATAL_FAILURE(start_serve());
  auto node = start_node("beta");
  ASSERT_TRUE(wait_for_nodes(1)) << serve_->log() << node->log();
  JsonValue s = scorers();
  EXPECT_EQ(s.find("scorers")->as_integer(), 2);  // one local + one remote
  EXPECT_EQ(s.find("local_scorers")->as_integer(), 1);
  const JsonValue& listed = s.find("nodes")->as_array()[0];
  EXPECT_EQ(listed.find("name")->as_string(), "beta");
  EXPECT_EQ(listed.find("scorers")->as_integer(), 1);

  const fs::path job_path = dir_->path() / "job.json";
  const std::string id = submit(*client_, write_job(5, job_path));
  ASSERT_EQ(wait_for_end(*client_, id), "done") << serve_->log();
  EXPECT_EQ(read_file(serve_->job_directory(id) / "results.tsv"), reference_tsv(job_path));

  JsonValue results = parse_json(read_file(serve_->job_directory(id) / "results.json"));
  const JsonValue* nodes = results.find("summary")->find("scorer_nodes");
  ASSERT_NE(nodes, nullptr);
  ASSERT_NE(nodes->find("beta"), nullptr) << read_file(serve_->job_directory(id) / "results.json");
  ASSERT_NE(nodes->find("local"), nullptr);
  const int64_t remote_chunks = nodes->find("beta")->find("chunks")->as_integer();
  const int64_t local_chunks = nodes->find("local")->find("chunks")->as_integer();
  EXPECT_GT(remote_chunks, 0);
  EXPECT_GT(nodes->find("beta")->find("queries")->as_integer(), 0);
  EXPECT_GT(nodes->find("beta")->find("busy_seconds")->as_double(), 0.0);
  EXPECT_EQ(first_node_chunks(), remote_chunks);
  const int64_t queries = results.find("summary")->find("queries")->as_integer();
  EXPECT_EQ(nodes->find("beta")->find("queries")->as_integer() +
                nodes->find("local")->find("queries")->as_integer(),
            queries);
  EXPECT_EQ(remote_chunks + local_chunks, chunks_of(results));
  EXPECT_THAT(node->log(), HasSubstr("checksum"));
  EXPECT_THAT(serve_->log(), HasSubstr("scorer node beta joined with 1 scorer(s)"));
}

TEST_F(ScorerNodesTest, KillingTheNodeMidJobLeavesIdenticalResults) {
  ASSERT_NO_FATAL_FAILURE(start_serve());
  auto node = start_node("beta");
  ASSERT_TRUE(wait_for_nodes(1)) << serve_->log() << node->log();
  const fs::path job_path = dir_->path() / "job.json";
  const std::string id = submit(*client_, write_job(5, job_path));
  // Kill it once it has scored a few chunks, while the job still runs.
  for (int i = 0; i < 3000 && first_node_chunks() < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_GE(first_node_chunks(), 3) << node->log();
  ASSERT_EQ(job_state(*client_, id), "running");
  node->kill9();
  ASSERT_EQ(wait_for_end(*client_, id), "done") << serve_->log();
  EXPECT_TRUE(wait_for_nodes(0));
  EXPECT_THAT(serve_->log(), HasSubstr("scorer node beta left"));
  EXPECT_EQ(read_file(serve_->job_directory(id) / "results.tsv"), reference_tsv(job_path));
  JsonValue results = parse_json(read_file(serve_->job_directory(id) / "results.json"));
  const JsonValue* nodes = results.find("summary")->find("scorer_nodes");
  ASSERT_NE(nodes->find("beta"), nullptr);
  EXPECT_GE(nodes->find("beta")->find("chunks")->as_integer(), 3);
  const int64_t queries = results.find("summary")->find("queries")->as_integer();
  EXPECT_EQ(nodes->find("beta")->find("chunks")->as_integer() +
                nodes->find("local")->find("chunks")->as_integer(),
            chunks_of(results));
  EXPECT_EQ(nodes->find("beta")->find("queries")->as_integer() +
                nodes->find("local")->find("queries")->as_integer(),
            queries);
}

TEST_F(ScorerNodesTest, AWrongTokenIsRefusedOnBothSides) {
  ASSERT_NO_FATAL_FAILURE(start_serve({"--scorer-token", "s3cret"}));
  auto node = start_node("mallory", {"--token", "guess"});
  EXPECT_EQ(node->wait_exit(std::chrono::seconds(30)), 1) << node->log();
  EXPECT_THAT(node->log(),
              HasSubstr("refused by the coordinator 127.0.0.1:" + std::to_string(scorer_port_) +
                        ": scorer node mallory: wrong token"));
  EXPECT_THAT(serve_->log(),
              HasSubstr("scorer node mallory refused: scorer node mallory: wrong token"));
  EXPECT_EQ(scorers().find("nodes")->as_array().size(), 0u);
  EXPECT_EQ(scorers().find("scorers")->as_integer(), 1);
}

TEST_F(ScorerNodesTest, ListeningBeyondLoopbackNeedsAToken) {
  auto [rc, text] =
      run_command(kIonflow + " serve --data-dir " + (dir_->path() / "s").string() +
                  " --scorer-listen 0.0.0.0:" + std::to_string(scorer_port_) + " 2>&1");
  EXPECT_EQ(rc, 2);
  EXPECT_THAT(text, HasSubstr("--scorer-listen 0.0.0.0:" + std::to_string(scorer_port_) +
                              ": listening beyond loopback needs a token"));
}

TEST_F(ScorerNodesTest, SearchTakesANodeThatJoinsMidJob) {
  const fs::path job_path = dir_->path() / "job.json";
  write_job(5, job_path);
  const fs::path out = dir_->path() / "with_node";
  IonflowProcess search(dir_->path() / "search.log",
                        {"search", job_path.string(), "-o", out.string(), "--scorers", "1",
                         "--scorer-listen", "127.0.0.1:" + std::to_string(scorer_port_)});
  // The node connects once the coordinator listens.
  for (int i = 0; i < 1500 && search.log().find("scorer nodes: listening") == std::string::npos;
       ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  auto node = start_node("gamma");
  ASSERT_EQ(search.wait_exit(std::chrono::seconds(300)), 0) << search.log();
  EXPECT_EQ(read_file(out / "results.tsv"), reference_tsv(job_path));
  JsonValue results = parse_json(read_file(out / "results.json"));
  const JsonValue* gamma = results.find("summary")->find("scorer_nodes")->find("gamma");
  ASSERT_NE(gamma, nullptr) << search.log() << node->log();
  EXPECT_GT(gamma->find("chunks")->as_integer(), 0);
  // The coordinator went away: the node leaves by itself.
  EXPECT_EQ(node->wait_exit(std::chrono::seconds(30)), 0) << node->log();
}

}  // namespace
}  // namespace ionflow::serve_test
