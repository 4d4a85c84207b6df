// End-to-end: bad input through the real binary. An mzML that is not well-formed fails the job
// (exit 1) with a message naming the file and a byte offset, and leaves no results.* or *.tmp
// behind (one that is only cut short is read up to the cut: peak_list_formats_test.cpp); a job with
// an unknown key and a job whose FASTA does not exist are rejected (exit 2) naming the key / path.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <string>

#include "e2e_support.hpp"

namespace ionflow::e2e {
namespace {

const std::string kExcerptFasta = kTestDataDir + "/bsa_target_decoy_excerpt.fasta";

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  ASSERT_TRUE(out.good()) << path;
}

// No result file and no temporary (".tmp") left in `directory` (which may not exist).
void expect_no_results(const std::string& directory) {
  for (const auto& name : list_directory(directory)) {
    EXPECT_NE(name.rfind("results.", 0), 0u) << directory << " holds " << name;
    EXPECT_EQ(name.find(".tmp"), std::string::npos) << directory << " holds " << name;
  }
}

TEST(BadInput, MalformedMzmlFailsNamingFileAndByteOffsetAndLeavesNoResults) {
  ASSERT_NO_FATAL_FAILURE(require_file(kIonflow));
  TempDir dir;
  // BSA1_excerpt.mzML with a stray "</oops>" before the first tag after byte 30000, inside its
  // second spectrum (which starts at byte 29690): expat reports the mismatched tag at its name.
  std::string whole = read_file(kTestDataDir + "/BSA1_excerpt.mzML");
  ASSERT_GT(whole.size(), 30000u);
  const size_t at = whole.find('<', 30000);
  ASSERT_EQ(at, 30009u);
  whole.insert(at, "</oops>");
  const std::string truncated = dir / "malformed.mzML";
  ASSERT_NO_FATAL_FAILURE(write_file(truncated, whole));
  const std::string out = dir / "out";
  CommandResult run = run_ionflow({"search", kSourceDir + "/examples/bsa_demo.json", truncated,
                                   "-f", kExcerptFasta, "-o", out, "-q"},
                                  dir);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find(truncated), std::string::npos) << run.err;
  std::smatch match;
  ASSERT_TRUE(std::regex_search(run.err, match, std::regex("byte ([0-9]+)"))) << run.err;
  const long offset = std::stol(match[1].str());
  EXPECT_EQ(offset, 30011) << "the error is at the stray tag in the second spectrum";
  EXPECT_NE(run.err.find("mismatched tag"), std::string::npos) << run.err;
  expect_no_results(out);
}

// A gzip member damaged in the middle: either zlib notices ("corrupt gzip data: ...") or the
// garbage reaches the XML parser before gzip's CRC (at the end of the member) can catch it.
// Either way the error names the file and says gzip (a new-user test got a bare "XML not
// well-formed" at an offset in the decompressed data). tests/data/BSA1_excerpt_damaged.mzML.gz
// is BSA1_excerpt.mzML gzipped with stored (level 0) blocks and "<spectrum " at byte 29692
// overwritten: deflate cannot notice, only the CRC can; read in 4096-byte blocks, the XML
// parser sees the damage first.
TEST(BadInput, DamagedGzipNamesTheFileAndSaysTheOffsetIsDecompressed) {
  ASSERT_NO_FATAL_FAILURE(require_file(kIonflow));
  TempDir dir;
  const std::string damaged = kTestDataDir + "/BSA1_excerpt_damaged.mzML.gz";
  const std::string job = dir / "small_blocks.json";
  std::string message = read_file(kSourceDir + "/examples/bsa_demo.json");
  message.insert(message.find('{') + 1, "\"block_size_bytes\": 4096, ");
  ASSERT_NO_FATAL_FAILURE(write_file(job, message));
  const std::string out = dir / "out";
  CommandResult run =
      run_ionflow({"search", job, damaged, "-f", kExcerptFasta, "-o", out, "-q"}, dir);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find(damaged + ": line 312 (byte 29692): XML not well-formed"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("(line and byte count the decompressed data; if the file is damaged, "
                         "`gzip -t` will say so)"),
            std::string::npos)
      << run.err;
  expect_no_results(out);

  // Read whole (one 1 MiB block), zlib's own check fires first and names gzip.
  run = run_ionflow({"search", kSourceDir + "/examples/bsa_demo.json", damaged, "-f", kExcerptFasta,
                     "-o", out, "-q"},
                    dir);
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find(damaged + ": byte 50743: corrupt gzip data: incorrect data check"),
            std::string::npos)
      << run.err;
  expect_no_results(out);
}

// A compressed file cut right after its header, before the first block, decodes to nothing: it
// is reported as truncated (file and byte offset), not as an empty file (a new-user test).
TEST(BadInput, CompressedFileCutBeforeItsFirstBlockIsTruncatedNotEmpty) {
  ASSERT_NO_FATAL_FAILURE(require_file(kIonflow));
  TempDir dir;
  // gzip: the 10-byte member header of RFC 1952 section 2.3 (deflate, no flags, OS 3 = Unix).
  // zstd: magic, a frame header descriptor 0x20 (single segment, 1-byte content size) and
  // the content size 5 (RFC 8878 section 3.1.1.1): 6 bytes, no block.
  const struct {
    std::string name, bytes, expected;
  } cases[] = {
      {"cut.mzML.gz", std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10),
       ": byte 10: truncated gzip data: the stream ends inside a member"},
      {"cut.mgf.zst", std::string("\x28\xb5\x2f\xfd\x20\x05", 6),
       ": byte 6: truncated zstd data: the stream ends inside a frame"},
      // Two bytes of the zstd magic: too short to tell; neither empty nor truncated.
      {"two_bytes.mgf", std::string("\x28\xb5", 2),
       ": byte 0: 2-byte file: no mzML, mzXML, MGF or MS2 content"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = dir / c.name;
    ASSERT_NO_FATAL_FAILURE(write_file(path, c.bytes));
    const std::string out = dir / "out";
    CommandResult run = run_ionflow({"search", kSourceDir + "/examples/bsa_demo.json", path, "-f",
                                     kExcerptFasta, "-o", out, "-q"},
                                    dir);
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_NE(run.err.find(path + c.expected), std::string::npos) << run.err;
    EXPECT_EQ(run.err.find("empty file"), std::string::npos) << run.err;
    expect_no_results(out);
  }
}

TEST(BadInput, UnknownJobKeyIsRejectedByName) {
  ASSERT_NO_FATAL_FAILURE(require_file(kIonflow));
  TempDir dir;
  const std::string job = dir / "job.json";
  ASSERT_NO_FATAL_FAILURE(
      write_file(job, "{\"database\": {\"fasta\": \"" + kExcerptFasta + "\"}, \"mzml_paths\": [\"" +
                          kTestDataDir +
                          "/BSA1_excerpt.mzML\"], \"precursor_tolerance\": {\"ppm\": [-10, 10]}}"));
  CommandResult run = run_ionflow({"search", job, "-o", dir / "out", "-q"}, dir);
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("precursor_tolerance"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("unknown key"), std::string::npos) << run.err;
  expect_no_results(dir / "out");
}

TEST(BadInput, MissingFastaIsRejectedNamingThePath) {
  ASSERT_NO_FATAL_FAILURE(require_file(kIonflow));
  TempDir dir;
  const std::string missing = dir / "no_such_database.fasta";
  CommandResult run =
      run_ionflow({"search", kSourceDir + "/examples/bsa_demo.json",
                   kTestDataDir + "/BSA1_excerpt.mzML", "-f", missing, "-o", dir / "out", "-q"},
                  dir);
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find(missing), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("database.fasta"), std::string::npos) << run.err;
  expect_no_results(dir / "out");
}

// A client --server with a scheme cpp-httplib does not know aborted the client ("terminate
// called after throwing an instance of 'std::invalid_argument'", exit 134; a new user's find).
TEST(BadInput, ClientServerWithUnknownSchemeIsAUsageError) {
  ASSERT_NO_FATAL_FAILURE(require_file(kIonflow));
  TempDir dir;
  for (const char* command : {"status", "scorers"}) {
    CommandResult run = run_ionflow({command, "--server", "htp://127.0.0.1:1"}, dir);
    EXPECT_EQ(run.exit_code, 2) << command << ": " << run.err;
    EXPECT_NE(run.err.find("server address 'htp://127.0.0.1:1' (--server or IONFLOW_SERVER): "
                           "'htp' scheme is not supported"),
              std::string::npos)
        << run.err;
  }
  CommandResult port = run_ionflow({"status", "--server", "http://127.0.0.1:abc"}, dir);
  EXPECT_EQ(port.exit_code, 2) << port.err;
  EXPECT_NE(port.err.find("port 'abc' is not a number"), std::string::npos) << port.err;
}

}  // namespace
}  // namespace ionflow::e2e
