// A full filesystem under the output or spill directory (issue 20): a small tmpfs is mounted
// (we run as root; skipped with the reason when mount(2) is not permitted). The job fails with
// the path and "No space left on device", leaves no results.* file (complete or partial), and
// `ionflow serve` runs the next job to "done".
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>

#include "../e2e/e2e_support.hpp"
#include "../service/serve_support.hpp"

namespace ionflow {
namespace {

namespace st = serve_test;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A tmpfs of `bytes` at `path` (created), unmounted when destroyed. `reason` says why not.
class SmallTmpfs {
 public:
  SmallTmpfs(const std::string& path, size_t bytes) : path_(path) {
    std::filesystem::create_directories(path);
    const std::string options = "size=" + std::to_string(bytes);
    if (::mount("tmpfs", path.c_str(), "tmpfs", 0, options.c_str()) == 0) {
      mounted_ = true;
    } else {
      reason_ = "mount -t tmpfs on " + path + ": " + std::strerror(errno);
    }
  }
  ~SmallTmpfs() {
    if (mounted_) ::umount2(path_.c_str(), MNT_DETACH);
  }
  bool mounted() const { return mounted_; }
  const std::string& reason() const { return reason_; }
  // Fills the filesystem up to its last byte.
  void fill() const {
    std::ofstream out(path_ + "/filler", std::ios::binary);
    std::string block(4096, 'x');
    while (out.write(block.data(), block.size())) {
    }
  }

 private:
  std::string path_;
  bool mounted_ = false;
  std::string reason_;
};

std::vector<std::string> result_files(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& name : e2e::list_directory(dir)) {
    if (name.rfind("results.", 0) == 0) out.push_back(name);
  }
  return out;
}

// The whole BSA1 run: a results.tsv of ~130 KB, more than the 64 KiB tmpfs holds.
const std::string kBsa1 = e2e::kExamplesDir + "/BSA/BSA1.mzML";
const std::string kBsaFasta =
    e2e::kExamplesDir +
    "/TOPPAS/data/BSA_Identification/18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta";

// The binary and the BSA1 run exist (else a fatal failure).
void require_inputs() {
  ASSERT_NO_FATAL_FAILURE(e2e::require_file(e2e::kIonflow));
  ASSERT_NO_FATAL_FAILURE(e2e::require_file(kBsa1));
}

TEST(DiskFull, SearchOutputOnAFullFilesystemFailsNamingThePathAndEnospc) {
  ASSERT_NO_FATAL_FAILURE(require_inputs());
  e2e::TempDir dir;
  const std::string out = dir / "out";
  SmallTmpfs fs(out, 64 * 1024);
  if (!fs.mounted()) GTEST_SKIP() << fs.reason();
  auto run = e2e::run_ionflow({"search", e2e::kSourceDir + "/examples/bsa_demo.json", kBsa1, "-f",
                               kBsaFasta, "-o", out, "-q"},
                              dir);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_TRUE(contains(run.err, out + "/results.")) << run.err;
  EXPECT_TRUE(contains(run.err, "No space left on device")) << run.err;
  EXPECT_EQ(result_files(out), std::vector<std::string>{}) << "a partial result was left";
}

TEST(DiskFull, SearchSpillOnAFullFilesystemFailsNamingThePathAndEnospc) {
  ASSERT_NO_FATAL_FAILURE(require_inputs());
  e2e::TempDir dir;
  const std::string spill = dir / "spill";
  SmallTmpfs fs(spill, 64 * 1024);
  if (!fs.mounted()) GTEST_SKIP() << fs.reason();
  fs.fill();
  // A 1 MiB sorter budget makes the BSA1 queries spill into temp_directory.
  const std::string job = dir / "spill_job.json";
  std::string message = e2e::read_file(e2e::kSourceDir + "/examples/bsa_demo.json");
  message.insert(message.find('{') + 1,
                 "\"sorter_memory_mb\": 1, \"temp_directory\": \"" + spill + "\", ");
  std::ofstream(job) << message;
  const std::string out = dir / "out";
  auto run = e2e::run_ionflow({"search", job, kBsa1, "-f", kBsaFasta, "-o", out, "-q"}, dir);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_TRUE(contains(run.err, spill + "/")) << run.err;
  EXPECT_TRUE(contains(run.err, "No space left on device")) << run.err;
  EXPECT_EQ(result_files(out), std::vector<std::string>{});
}

TEST(DiskFull, ServeFailsTheJobWhoseDirectoryIsFullAndRunsTheNextOne) {
  ASSERT_TRUE(st::fs::exists(st::kIonflow));
  st::ServeTestDir dir("disk_full");
  st::ServeProcess server(dir.path(), {"--concurrent-jobs", "1", "--scorers", "1"});
  ASSERT_GT(server.start(), 0) << server.log();
  auto client = server.client();
  // The long job holds the only slot while the second one's directory is mounted full.
  const std::string first = st::submit(*client, st::long_job());
  ASSERT_FALSE(first.empty());
  const std::string second = st::submit(
      *client,
      st::demo_job(st::kExamples + "/BSA/BSA1.mzML",
                   st::kExamples + "/TOPPAS/data/BSA_Identification/"
                                   "18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta"));
  ASSERT_FALSE(second.empty());
  ASSERT_EQ(st::job_state(*client, second), "queued");
  const std::string job_dir = server.job_directory(second).string();
  SmallTmpfs fs(job_dir, 64 * 1024);
  if (!fs.mounted()) GTEST_SKIP() << fs.reason();
  EXPECT_EQ(st::wait_for_end(*client, first), "done");
  EXPECT_EQ(st::wait_for_end(*client, second), "failed");
  auto res = client->Get(("/v1/jobs/" + second).c_str());
  ASSERT_TRUE(res);
  const std::string error = parse_json(res->body).find("error")->as_string();
  EXPECT_TRUE(contains(error, job_dir + "/")) << error;
  EXPECT_TRUE(contains(error, "No space left on device")) << error;
  EXPECT_EQ(result_files(job_dir), std::vector<std::string>{});
  // The service goes on.
  const std::string third = st::submit(*client, st::small_job());
  ASSERT_FALSE(third.empty());
  EXPECT_EQ(st::wait_for_end(*client, third), "done");
}

}  // namespace
}  // namespace ionflow
