// The job key fragment_index_memory_mb (service/job_message.cpp): the memory an open search's
// fragment-ion index may take before it is searched in slices (JobSpec::fragment_index_budget_
// bytes, scoring/fragment_slices.hpp). MiB, 1..2^24, default 2048; echoed in the effective
// parameters.
#include <gtest/gtest.h>

#include <string>

#include "service/job_message.hpp"

namespace ionflow {
namespace {

const std::string kExamples = IONFLOW_EXAMPLES_DIR;
const std::string kFasta =
    kExamples +
    "/TOPPAS/data/BSA_Identification/18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta";
const std::string kBsa1 = kExamples + "/BSA/BSA1.mzML";

const Unimod& unimod() {
  static Unimod u;
  return u;
}

std::string job(const std::string& extra = "") {
  std::string j =
      R"({"database": {"fasta": ")" + kFasta + R"("}, "mzml_paths": [")" + kBsa1 + R"("])";
  if (!extra.empty()) j += ", " + extra;
  return j + "}";
}

TEST(FragmentIndexMemoryKey, DefaultsToTwoGibAndIsEchoed) {
  const ParsedJob parsed = parse_job_message(job(), unimod());
  EXPECT_EQ(parsed.spec.fragment_index_budget_bytes, 2048ull << 20);
  EXPECT_NE(parsed.spec.effective_parameters_json.find("\"fragment_index_memory_mb\": 2048,"),
            std::string::npos)
      << parsed.spec.effective_parameters_json;
}

TEST(FragmentIndexMemoryKey, SetsTheBudgetInMib) {
  const ParsedJob parsed = parse_job_message(job(R"("fragment_index_memory_mb": 40)"), unimod());
  EXPECT_EQ(parsed.spec.fragment_index_budget_bytes, 40ull << 20);
  // The effective parameters parse back to the same budget.
  const ParsedJob again = parse_job_message(parsed.spec.effective_parameters_json, unimod());
  EXPECT_EQ(again.spec.fragment_index_budget_bytes, 40ull << 20);
}

TEST(FragmentIndexMemoryKey, RefusesZero) {
  try {
    parse_job_message(job(R"("fragment_index_memory_mb": 0)"), unimod());
    FAIL() << "no error";
  } catch (const JobMessageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "fragment_index_memory_mb: must be between 1 and 16777216, got 0");
  }
}

}  // namespace
}  // namespace ionflow
