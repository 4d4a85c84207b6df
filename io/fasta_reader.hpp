// FASTA reader: the protein database, read whole into RAM (sequentially, once per job) and
// parsed here from memory. A pure function; thread-safe.
//
// Rules: headers start with '>'; the accession is the middle field of UniProt headers
// ("sp|P02769|ALBU_BOVIN ..." or "tr|..." → "P02769"; https://www.uniprot.org/help/fasta-headers)
// and otherwise the first whitespace-delimited token ("P02769|ALBU_BOVIN", "VIMSS14146"); the
// description is the rest of the header line, trimmed. Sequences may span lines, are
// upper-cased, blanks inside sequence lines are ignored, LF, CRLF and lone CR (old Mac OS) line
// ends all work, a UTF-8 BOM is skipped, a line starting with ';' is a comment (Pearson's
// original format; in a file of lone-CR lines only before the first header or as a protein's
// first sequence line), and a trailing '*' (or several) is dropped. Non-standard
// residues (X, B, Z, U, O, J) are kept in the sequence; peptides containing residues without a
// defined mass are not generated (see digest.hpp). A header with an empty sequence (followed by an
// empty line, the next header or the end of the file) gives a protein with an empty sequence, and
// `warnings` one line for all of them: "db.fasta: 2 entries without a sequence (first at line 3,
// accession P2)".
//
// Decoys: a protein whose first header token or accession starts (or, with tag_is_suffix, ends)
// with `decoy_tag` is a decoy ("rev_VIMSS18140", "P02769|ALBU_BOVIN_rev", "DECOY_sp|P02769|...",
// "sp|A9F596|ACCA_SORC5_rev", "sp|DECOY_P02769|..."). The accession always carries the tag, so a
// decoy's accession differs from its target's: "sp|A9F596|ACCA_SORC5_rev" → "A9F596_rev",
// "rev_sp|P02769|ALBU_BOVIN" → "rev_P02769". An empty tag means no decoys.
//
// Errors: ParseError (file, byte offset, line) for non-blank content before the first header, an
// empty header or accession ("sp||X"), a character in a sequence line that is neither a letter,
// a blank nor '*', and a '*' followed by more residues (a stop codon inside the sequence).
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

// Duplicate accessions (the same accession from two headers, e.g. a contaminant list appended
// to a database that already has the protein): the first entry is kept, every later one is
// dropped, whatever its sequence, and `warnings` (when given) gets one line per dropped entry:
// "db.fasta: accession P02769 on line 120 repeats line 3 (same sequence); the entry on line 120
// is not searched" for the first 10, then one line counting the rest. Deterministic: the result
// depends on the file order only. When no protein carries options.decoy_tag but headers carry
// another common decoy tag ("DECOY_", "_rev", ...), `warnings` first gets one line saying so.
std::vector<Protein> parse_fasta(std::string_view content, const std::string& file_name,
                                 const FastaOptions& options = {},
                                 std::vector<std::string>* warnings = nullptr);

}  // namespace ionflow
