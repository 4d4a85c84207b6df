// Fuzz target: the FASTA reader (io/fasta_reader.hpp), with the default decoy tag as a prefix
// and "_rev" as a suffix. Contract checked: only ParseError is thrown; every protein has a
// non-empty accession and a sequence of upper-case letters only; a decoy's accession carries
// the tag where the options put it.
#include <cctype>
#include <cstddef>
#include <cstdint>

#include "io/fasta_reader.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

void read(std::string_view input, const ionflow::FastaOptions& options) {
  std::vector<ionflow::Protein> proteins;
  try {
    proteins = ionflow::parse_fasta(input, "fuzz.fasta", options);
  } catch (const ionflow::ParseError&) {
    return;
  }
  for (const ionflow::Protein& p : proteins) {
    if (p.accession.empty()) ionflow::fuzz::fail("protein with an empty accession");
    for (char c : p.sequence) {
      if (c < 'A' || c > 'Z')
        ionflow::fuzz::fail("residue '" + std::string(1, c) + "' in " + p.accession);
    }
    if (p.is_decoy) {
      const std::string_view a = p.accession;
      const bool tagged =
          options.tag_is_suffix ? a.ends_with(options.decoy_tag) : a.starts_with(options.decoy_tag);
      if (!tagged) ionflow::fuzz::fail("decoy accession without the tag: " + p.accession);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  read(input, ionflow::FastaOptions{});
  read(input, ionflow::FastaOptions{"_rev", true});
  return 0;
}
