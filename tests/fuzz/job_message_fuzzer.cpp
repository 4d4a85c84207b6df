// Fuzz target: the job JSON message (service/job_message.hpp), with modifications resolved by
// name, accession or mass against the real Unimod (unimod.xml), inputs not checked on disk.
// Contract checked: only JobMessageError is thrown; an accepted message that names a FASTA and
// spectra has effective parameters (effective_parameters_json) that are themselves a message
// parsing back to the same effective parameters; with data roots (as `ionflow serve`) only
// JobMessageError is thrown.
#include <cstddef>
#include <cstdint>

#include <spdlog/spdlog.h>

#include "service/job_message.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

const ionflow::Unimod& unimod() {
  static const ionflow::Unimod* u = [] {
    auto* created = new ionflow::Unimod();
    created->parse_whole_file();  // so no input pays for it (the 1 s timeout)
    return created;
  }();
  return *u;
}

}  // namespace

// Before the first input, so that no input pays for reading unimod.xml (the 1 s timeout).
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  spdlog::set_level(spdlog::level::off);
  unimod();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ionflow::JobMessageOptions options;
  options.check_inputs = false;
  options.base_directory = "/fuzz";
  ionflow::ParsedJob parsed;
  bool accepted = true;
  try {
    parsed = ionflow::parse_job_message(text, unimod(), options);
  } catch (const ionflow::JobMessageError&) {
    accepted = false;
  }
  // Without check_inputs a message may lack the FASTA or the spectra, whose effective "" is then
  // no path; with them (as `ionflow search` and the service require) it must parse back.
  if (accepted && !parsed.spec.fasta_path.empty() && !parsed.spec.spectra_paths.empty()) {
    const std::string& effective = parsed.spec.effective_parameters_json;
    ionflow::ParsedJob again;
    try {
      again = ionflow::parse_job_message(effective, unimod(), options);
    } catch (const ionflow::JobMessageError& e) {
      ionflow::fuzz::fail(std::string("effective parameters rejected: ") + e.what() + "\n" +
                          effective);
    }
    ionflow::fuzz::check_equal("effective parameters parsed back", effective,
                               again.spec.effective_parameters_json);
  }
  ionflow::JobMessageOptions served;
  served.check_inputs = false;
  served.data_roots = {"/fuzz/data"};
  served.forced_output_directory = "/fuzz/jobs/j1";
  try {
    ionflow::parse_job_message(text, unimod(), served);
  } catch (const ionflow::JobMessageError&) {
  }
  return 0;
}
