// FASTA reader: the protein database, read whole into RAM (sequentially, once per job) and
// parsed here from memory.
//
// Rules: headers start with '>'; the accession is the middle field of UniProt headers
// ("sp|P02769|ALBU_BOVIN ..." → "P02769") and otherwise the first whitespace-delimited token;
// sequences may span lines, are upper-cased, and a trailing '*' is dropped. Non-standard residues
// (X, B, Z, U, O, J) are kept in the sequence; peptides containing residues without a defined
// mass are not generated (see digest.hpp). A protein whose accession starts (or, with
// tag_is_suffix, ends) with `decoy_tag` is a decoy. Throws ParseError (file, line) for content
// before the first header, an empty header or a character that is not a residue letter.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "io/parse_error.hpp"
#include "scoring/protein.hpp"

namespace ionflow {

struct FastaOptions {
  std::string decoy_tag = "rev_";
  bool tag_is_suffix = false;
};

std::vector<Protein> parse_fasta(std::string_view content, const std::string& file_name,
                                 const FastaOptions& options = {});

}  // namespace ionflow
