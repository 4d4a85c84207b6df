// find_spectrum (io/spectrum_lookup.hpp): the PSM's spectrum found again by its native id, and
// a path that is no longer a regular file refused at once.
#include "io/spectrum_lookup.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>

namespace ionflow {
namespace {

const std::string kExcerpt = IONFLOW_TEST_DATA_DIR "/BSA1_identified_excerpt.mzML";

TEST(SpectrumLookup, FindsTheSecondSpectrumOfTheExcerptByItsNativeId) {
  const auto spectrum = find_spectrum(kExcerpt, "spectrum=2548");
  ASSERT_TRUE(spectrum.has_value());
  EXPECT_EQ(spectrum->native_id, "spectrum=2548");
  EXPECT_DOUBLE_EQ(spectrum->precursor_mz, 443.711242675781);  // the file's selected ion m/z
  EXPECT_EQ(spectrum->ms_level, 2);
  EXPECT_FALSE(find_spectrum(kExcerpt, "spectrum=1").has_value());
}

// A service's input replaced by a FIFO after its job ran: the look-up must not wait for a
// writer (it used to block an HTTP thread for good).
TEST(SpectrumLookup, AFifoInPlaceOfTheFileIsRefusedWithoutWaiting) {
  const std::filesystem::path fifo =
      std::filesystem::temp_directory_path() / ("ionflow-lookup-" + std::to_string(::getpid()));
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  try {
    find_spectrum(fifo.string(), "spectrum=2548");
    ADD_FAILURE() << "no error for a FIFO";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("is a FIFO (named pipe), not a regular file"),
              std::string::npos)
        << e.what();
  }
  std::filesystem::remove(fifo);
}

}  // namespace
}  // namespace ionflow
