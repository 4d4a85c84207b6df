// FASTA reader: the committed BSA target/decoy excerpt, the full example databases, and every
// rule and error of io/fasta_reader.hpp.
#include "io/fasta_reader.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include "io/sha256.hpp"
#include "io_test_support.hpp"

namespace ionflow {
namespace {

using io_testing::read_file;

size_t count_decoys(const std::vector<Protein>& proteins) {
  return std::count_if(proteins.begin(), proteins.end(),
                       [](const Protein& p) { return p.is_decoy; });
}

FastaOptions suffix_rev() {
  return FastaOptions{"_rev", true};
}

// 4 proteins of 18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta (CRLF, decoys suffixed
// "_rev", each decoy the reversed target) including bovine serum albumin, UniProt P02769, whose
// precursor is 607 residues long.
TEST(FastaReader, BsaExcerptTargetsAndReversedDecoys) {
  std::string content = read_file(IONFLOW_TEST_DATA_DIR "/bsa_target_decoy_excerpt.fasta");
  std::vector<Protein> proteins = parse_fasta(content, "bsa.fasta", suffix_rev());
  ASSERT_EQ(proteins.size(), 8u);
  EXPECT_EQ(count_decoys(proteins), 4u);

  const Protein& bsa = proteins[2];
  EXPECT_EQ(bsa.accession, "P02769|ALBU_BOVIN");  // not a sp|/tr| header: the first token
  EXPECT_EQ(bsa.description, "Serum albumin - Bos taurus (Bovine).");
  EXPECT_FALSE(bsa.is_decoy);
  EXPECT_EQ(bsa.sequence.size(), 607u);
  EXPECT_EQ(bsa.sequence.substr(0, 24), "MKWVTFISLLLLFSSAYSRGVFRR");
  EXPECT_EQ(bsa.sequence.substr(bsa.sequence.size() - 10), "LVVSTQTALA");

  EXPECT_EQ(proteins[0].accession, "A9F596");
  EXPECT_EQ(proteins[0].sequence.size(), 317u);
  EXPECT_EQ(proteins[0].description,
            "Acetyl-coenzyme A carboxylase carboxyl transferase subunit alpha OS=Sorangium "
            "cellulosum (strain So ce56) GN=accA PE=3 SV=1");
  EXPECT_EQ(proteins[1].accession, "A9EMV1");  // tr| header
  EXPECT_EQ(proteins[1].sequence.size(), 102u);
  EXPECT_EQ(proteins[3].accession, "O46375");
  EXPECT_EQ(proteins[3].sequence.size(), 147u);

  EXPECT_EQ(proteins[4].accession, "A9F596_rev");
  EXPECT_EQ(proteins[5].accession, "A9EMV1_rev");
  EXPECT_EQ(proteins[6].accession, "P02769|ALBU_BOVIN_rev");
  EXPECT_EQ(proteins[7].accession, "O46375_rev");
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_FALSE(proteins[i].is_decoy);
    EXPECT_TRUE(proteins[i + 4].is_decoy);
    std::string reversed(proteins[i].sequence.rbegin(), proteins[i].sequence.rend());
    EXPECT_EQ(proteins[i + 4].sequence, reversed) << proteins[i].accession;
  }
  for (const Protein& p : proteins) {
    EXPECT_EQ(p.sequence.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), std::string::npos);
  }
}

TEST(FastaReader, EcoliTargetDecoyDatabase) {
  std::string content =
      read_file(IONFLOW_EXAMPLES_DIR
                "/TOPPAS/data/Identification/target_decoy_Ecoli_K12_TaxID_83333.proteomes.fasta");
  std::vector<Protein> proteins = parse_fasta(content, "ecoli.fasta");  // default tag "rev_"
  ASSERT_EQ(proteins.size(), 8272u);
  EXPECT_EQ(count_decoys(proteins), 4136u);
  EXPECT_EQ(proteins[0].accession, "VIMSS14146");
  EXPECT_EQ(proteins[0].description,
            "thrL thr operon leader peptide (NCBI) [Escherichia coli K12]");
  EXPECT_EQ(proteins[0].sequence, "MKRISTTITTTITITTGNGAG");
  EXPECT_EQ(proteins[1].sequence.size(), 820u);  // thrA, 14 lines of 60 + 1 of 20
  EXPECT_EQ(proteins[1].sequence.substr(0, 10), "MRVLKFGGTS");
  // Selenocysteine (U) is kept.
  size_t with_u = std::count_if(proteins.begin(), proteins.end(), [](const Protein& p) {
    return p.sequence.find('U') != std::string::npos;
  });
  EXPECT_GT(with_u, 0u);
  const Protein& last = proteins.back();
  EXPECT_TRUE(last.is_decoy);
  EXPECT_EQ(last.accession.substr(0, 4), "rev_");
}

TEST(FastaReader, BsaTargetDecoyDatabaseWithSuffixTag) {
  std::string content = read_file(IONFLOW_EXAMPLES_DIR
                                  "/TOPPAS/data/BSA_Identification/"
                                  "18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta");
  std::vector<Protein> proteins = parse_fasta(content, "bsa.fasta", suffix_rev());
  ASSERT_EQ(proteins.size(), 18878u);
  EXPECT_EQ(count_decoys(proteins), 9439u);
  auto bsa = std::find_if(proteins.begin(), proteins.end(),
                          [](const Protein& p) { return p.accession == "P02769|ALBU_BOVIN"; });
  ASSERT_NE(bsa, proteins.end());
  EXPECT_EQ(bsa->sequence.size(), 607u);
}

// Everything parse_fasta returns, as one SHA-256: per protein "accession\tdescription\tT|D\t
// sequence\n". The constants below were computed once with the original per-character parser
// (commit 8da4511) and agree with an independent Python reading of the header rules, so any
// faster path must give byte-identical proteins.
struct DatabaseSummary {
  size_t proteins = 0;
  size_t decoys = 0;
  size_t residues = 0;
  std::string sha256;
};

DatabaseSummary summarize(const std::vector<Protein>& proteins) {
  DatabaseSummary s;
  Sha256 sha;
  for (const Protein& p : proteins) {
    ++s.proteins;
    s.decoys += p.is_decoy ? 1 : 0;
    s.residues += p.sequence.size();
    sha.update(p.accession);
    sha.update("\t");
    sha.update(p.description);
    sha.update(p.is_decoy ? "\tD\t" : "\tT\t");
    sha.update(p.sequence);
    sha.update("\n");
  }
  s.sha256 = sha.hex_digest();
  return s;
}

TEST(FastaReader, BsaDatabaseIdenticalToReferenceParse) {
  std::string content = read_file(IONFLOW_EXAMPLES_DIR
                                  "/TOPPAS/data/BSA_Identification/"
                                  "18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta");
  DatabaseSummary s = summarize(parse_fasta(content, "bsa.fasta", suffix_rev()));
  EXPECT_EQ(s.proteins, 18878u);
  EXPECT_EQ(s.decoys, 9439u);
  EXPECT_EQ(s.residues, 7557778u);
  EXPECT_EQ(s.sha256, "99cf58664d314191dcf11188c50dbb1e4e42b80d045188462a89f0a6c1f52d57");
}

TEST(FastaReader, EcoliDatabaseIdenticalToReferenceParse) {
  std::string content =
      read_file(IONFLOW_EXAMPLES_DIR
                "/TOPPAS/data/Identification/target_decoy_Ecoli_K12_TaxID_83333.proteomes.fasta");
  DatabaseSummary s = summarize(parse_fasta(content, "ecoli.fasta"));
  EXPECT_EQ(s.proteins, 8272u);
  EXPECT_EQ(s.decoys, 4136u);
  EXPECT_EQ(s.residues, 2633402u);
  EXPECT_EQ(s.sha256, "2596d634a59624dc3e177bd953df9a35a8b9bbf20df12fe41acdd2b9f6d17073");
}

// Old Mac OS line ends: a lone '\r' ends a line as '\n' and "\r\n" do. A new-user test found
// such a file read as one header line and the job reporting no peptides.
TEST(FastaReader, CarriageReturnOnlyLineEnds) {
  std::string lf =
      read_file(IONFLOW_EXAMPLES_DIR
                "/TOPPAS/data/Identification/target_decoy_Ecoli_K12_TaxID_83333.proteomes.fasta");
  ASSERT_EQ(lf.find('\r'), std::string::npos);
  std::string cr = lf;
  std::replace(cr.begin(), cr.end(), '\n', '\r');
  DatabaseSummary s = summarize(parse_fasta(cr, "ecoli_cr.fasta"));
  EXPECT_EQ(s.proteins, 8272u);
  EXPECT_EQ(s.decoys, 4136u);
  EXPECT_EQ(s.residues, 2633402u);
  EXPECT_EQ(s.sha256, "2596d634a59624dc3e177bd953df9a35a8b9bbf20df12fe41acdd2b9f6d17073");

  // The CRLF SoCe database with every "\r\n" made '\r'.
  std::string crlf = read_file(IONFLOW_EXAMPLES_DIR
                               "/TOPPAS/data/BSA_Identification/"
                               "18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta");
  std::string soce_cr;
  soce_cr.reserve(crlf.size());
  for (char c : crlf) {
    if (c != '\n') soce_cr += c;
  }
  ASSERT_LT(soce_cr.size(), crlf.size());
  DatabaseSummary t = summarize(parse_fasta(soce_cr, "soce_cr.fasta", suffix_rev()));
  EXPECT_EQ(t.proteins, 18878u);
  EXPECT_EQ(t.residues, 7557778u);
  EXPECT_EQ(t.sha256, "99cf58664d314191dcf11188c50dbb1e4e42b80d045188462a89f0a6c1f52d57");

  // Mixed line ends; the header's description stops at its '\r'.
  std::vector<Protein> p = parse_fasta(">a first\rMK\rWV\r\r>b\r\nAC\nDE\r>c\nK", "mixed.fasta");
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].accession, "a");
  EXPECT_EQ(p[0].description, "first");
  EXPECT_EQ(p[0].sequence, "MKWV");
  EXPECT_EQ(p[1].sequence, "ACDE");
  EXPECT_EQ(p[2].sequence, "K");
  // One protein: no '>' follows a '\r', its header line tells.
  p = parse_fasta(">sp|P02769|ALBU_BOVIN Serum albumin\rMKWV\rtfis\r", "one.fasta");
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].accession, "P02769");
  EXPECT_EQ(p[0].description, "Serum albumin");
  EXPECT_EQ(p[0].sequence, "MKWVTFIS");
}

TEST(FastaReader, HeaderForms) {
  std::string content =
      ">sp|P02769|ALBU_BOVIN Serum albumin OS=Bos taurus\nMKWV\n"
      ">tr|A9EMV1|A9EMV1_SORC5\nAC\n"
      ">sp|Q9XYZ1\nAC\n"
      ">plain_id   some   description  \nAC\n"
      ">  spaced_id\tdescription after a tab\nAC\n"
      ">IPI00000001.2|SWISS-PROT:O95793 Tax_Id=9606\nAC\n";
  std::vector<Protein> p = parse_fasta(content, "h.fasta");
  ASSERT_EQ(p.size(), 6u);
  EXPECT_EQ(p[0].accession, "P02769");
  EXPECT_EQ(p[0].description, "Serum albumin OS=Bos taurus");
  EXPECT_EQ(p[1].accession, "A9EMV1");
  EXPECT_EQ(p[1].description, "");
  EXPECT_EQ(p[2].accession, "Q9XYZ1");
  EXPECT_EQ(p[3].accession, "plain_id");
  EXPECT_EQ(p[3].description, "some   description");
  EXPECT_EQ(p[4].accession, "spaced_id");
  EXPECT_EQ(p[4].description, "description after a tab");
  EXPECT_EQ(p[5].accession, "IPI00000001.2|SWISS-PROT:O95793");
  EXPECT_EQ(count_decoys(p), 0u);
}

TEST(FastaReader, SequenceRules) {
  std::string content =
      "\xEF\xBB\xBF\n"
      ">a multi-line, lower case, blanks, CRLF, stop\r\n"
      "mkwv tfis\r\n"
      "\tLLLF SSAY*\r\n"
      "\r\n"
      ">b several stops and trailing blanks\n"
      "PEPTIDE**  \n"
      ">c empty sequence\n"
      ">d last line without newline\n"
      "XBZUOJ";
  std::vector<Protein> p = parse_fasta(content, "s.fasta");
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p[0].sequence, "MKWVTFISLLLFSSAY");
  EXPECT_EQ(p[0].description, "multi-line, lower case, blanks, CRLF, stop");
  EXPECT_EQ(p[1].sequence, "PEPTIDE");
  EXPECT_EQ(p[2].sequence, "");
  EXPECT_EQ(p[3].sequence, "XBZUOJ");  // non-standard residues are kept
}

// Lines starting with ';' are comments (Pearson's original format): before the first header and
// between sequence lines, with LF, CRLF and lone-CR line ends; a ';' inside a line is an error.
TEST(FastaReader, SemicolonLinesAreComments) {
  std::vector<Protein> p = parse_fasta(
      ";old database, comment lines first\n;second\n>a\nMKWV\n;between\nTFIS\n"
      ";\n>b\r\n;crlf comment\r\nPEPTIDE\r\n",
      "c.fasta");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].sequence, "MKWVTFIS");
  EXPECT_EQ(p[1].sequence, "PEPTIDE");
  std::vector<Protein> cr = parse_fasta(";comment\r;again\r>a\r;first line\rMKWV\r", "cr.fasta");
  ASSERT_EQ(cr.size(), 1u);
  EXPECT_EQ(cr[0].sequence, "MKWV");
  EXPECT_THROW(parse_fasta(">a\nMK;WV\n", "bad.fasta"), ParseError);
}

// Lines as long as the previous one are taken whole when they are all upper-case residues; every
// other line (shorter, lower case, blanks, '*', CRLF mixed with LF) must give the same residues.
TEST(FastaReader, SequenceLinesOfChangingWidth) {
  std::string content =
      "\xEF\xBB\xBF>a first header right after the byte order mark, with a > inside\n"
      "ABCD\n"
      "EFGH\n"
      "IJ\n"  // shorter: "IJ\nK" would be as wide as "EFGH" but holds a line break
      "K\n"
      "LMNO\n"
      "pqrs\n"  // same width, lower case
      "TU W\n"  // same width, a blank
      "XYZA\r\n"
      "BCD\r\n"  // same width as "XYZA" without its '\r'
      "\r\n"
      "EFG*\n"
      ">b\r\n"
      "MKWVTFISLLLLFSSAYSRGVFRRDTHKSEIAHRFKDLGEEHFKGLVLIAFSQYLQQCPFDEHVKLVNELTEFAKTCVAD\r\n"
      "ESHAGCEKSLHTLFGDELCKVASLRETYGDMADCCEKQEPERNECFLSHKDDSPDLPKLKPDPNTLCDEFKADEKKFWGK\r\n"
      "YLYEIARRHPYFYAPELLYYANKYNGVFQECCQAEDKGACLLPKIETMREKVLASSARQRLRCASIQKFGERALKAWSVA\r\n"
      "RLSQKFPKAEFVEVTKLVTDLTKVHKECCHGDLLECADDRADLAKYICDNQDTISSKLKECCDKPLLEKSHCIAEVEKDA\r\n"
      "IPENLPPLTADFAEDKDVCKNYQEAKDAFLGSFLYEYSRRHPEYAVSVLLRLAKEYEATLEECCAKDDPHACYSTVFDKL\r\n"
      "KHLVDEPQNLIKQNCDQFEKLGEYGFQNALIVRYTRKVPQVSTPTLVEVSRSLGKVGTRCCTKPESERMPCTEDYLSLIL\r\n"
      "NRLCVLHEKTPVSEKVTKCCTESLVNRRPCFSALTPDETYVPKAFDEKLFTFHADICTLPDTEKQIKKQTALVELLKHKP\r\n"
      "KATEEQLKTVMENFVAFVDKCCAADDKEACFAVEGPKLVVSTQTALA\r\n";
  std::vector<Protein> p = parse_fasta(content, "w.fasta");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].accession, "a");
  EXPECT_EQ(p[0].description, "first header right after the byte order mark, with a > inside");
  EXPECT_EQ(p[0].sequence, "ABCDEFGHIJKLMNOPQRSTUWXYZABCDEFG");
  // Bovine serum albumin (UniProt P02769) as in the BSA database: 80-residue CRLF lines.
  EXPECT_EQ(p[1].sequence.size(), 607u);
  EXPECT_EQ(p[1].sequence.substr(0, 24), "MKWVTFISLLLLFSSAYSRGVFRR");
  EXPECT_EQ(p[1].sequence.substr(240, 10), "RLSQKFPKAE");
  EXPECT_EQ(p[1].sequence.substr(597), "LVVSTQTALA");
}

// Each entry of `content` parsed on its own (the tag forms below share accessions, which one
// file would keep only once).
std::vector<Protein> parse_each(const std::string& content, const FastaOptions& options = {}) {
  std::vector<Protein> all;
  for (size_t at = 0; at < content.size();) {
    const size_t next = content.find("\n>", at);
    const size_t end = next == std::string::npos ? content.size() : next + 1;
    for (Protein& p : parse_fasta(content.substr(at, end - at), "d.fasta", options)) {
      all.push_back(std::move(p));
    }
    at = end;
  }
  return all;
}

TEST(FastaReader, DecoyTags) {
  std::string content =
      ">rev_VIMSS1 x\nA\n"
      ">VIMSS1 x\nA\n"
      ">rev_sp|P02769|ALBU_BOVIN\nA\n"
      ">DECOY_sp|P02769|ALBU_BOVIN\nA\n"
      ">sp|DECOY_P02769|ALBU_BOVIN\nA\n"
      ">sp|P02769|ALBU_BOVIN_rev\nA\n"
      ">P02769_rev\nA\n";
  std::vector<Protein> prefix_rev = parse_each(content);
  ASSERT_EQ(prefix_rev.size(), 7u);
  EXPECT_TRUE(prefix_rev[0].is_decoy);
  EXPECT_EQ(prefix_rev[0].accession, "rev_VIMSS1");
  EXPECT_FALSE(prefix_rev[1].is_decoy);
  EXPECT_TRUE(prefix_rev[2].is_decoy);
  EXPECT_EQ(prefix_rev[2].accession, "rev_P02769");
  EXPECT_EQ(count_decoys(prefix_rev), 2u);

  std::vector<Protein> prefix_decoy = parse_each(content, FastaOptions{"DECOY_", false});
  EXPECT_EQ(count_decoys(prefix_decoy), 2u);
  EXPECT_EQ(prefix_decoy[3].accession, "DECOY_P02769");
  EXPECT_TRUE(prefix_decoy[3].is_decoy);
  EXPECT_EQ(prefix_decoy[4].accession, "DECOY_P02769");
  EXPECT_TRUE(prefix_decoy[4].is_decoy);

  std::vector<Protein> suffix = parse_each(content, suffix_rev());
  EXPECT_EQ(count_decoys(suffix), 2u);
  EXPECT_EQ(suffix[5].accession, "P02769_rev");
  EXPECT_TRUE(suffix[5].is_decoy);
  EXPECT_EQ(suffix[6].accession, "P02769_rev");
  EXPECT_TRUE(suffix[6].is_decoy);
  EXPECT_FALSE(suffix[0].is_decoy);  // "rev_" prefix is not the "_rev" suffix

  EXPECT_EQ(count_decoys(parse_fasta(content, "d.fasta", FastaOptions{"", false})), 0u);
}

// Expects ParseError at the given line and byte offset with `words` in the message.
void expect_error(const std::string& content, uint64_t line, uint64_t offset,
                  const std::string& words) {
  try {
    parse_fasta(content, "bad.fasta");
    ADD_FAILURE() << "no ParseError for: " << content;
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), "bad.fasta");
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_EQ(e.byte_offset(), offset) << e.what();
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("bad.fasta: line ", 0), 0u) << e.what();
  }
}

TEST(FastaReader, Errors) {
  expect_error("\nMKWV\n>a\nA\n", 2, 1, "before the first FASTA header");
  expect_error(">a\nMK\n>\nA\n", 3, 6, "empty FASTA header");
  expect_error(">a\nMK\n>  \r\nA\n", 3, 6, "empty FASTA header");
  expect_error(">sp||ALBU_BOVIN\nA\n", 1, 0, "empty accession");
  expect_error(">a\nMKW1V\n", 2, 6, "unexpected character '1' in the sequence of a");
  expect_error(">a\nMK-V\n", 2, 5, "'-'");
  expect_error(">a\nMK\xC3\xA9V\n", 2, 5, "'\\xc3'");
  expect_error(">a\nMKV*\nKR\n", 2, 6, "'*' inside the sequence of a");
  // The same errors after lines taken whole (as wide as the line before).
  expect_error(">a\nAAAA\nAAAA\nAA1A\n", 4, 15, "unexpected character '1' in the sequence of a");
  expect_error(">a\nAAAA\nAAA*\nAAAA\n", 3, 11, "'*' inside the sequence of a");
  expect_error(">a\r\nAAAA\r\nAA\nA\r\nAAAA\r\nA\tA\x01\r\n", 6, 25, "'\\x01'");
  // Lone '\r' line ends count as lines in error positions.
  expect_error(">a\rMK\rMKW1V\r", 3, 9, "unexpected character '1' in the sequence of a");
  expect_error(">a\rMK\r\r>b\rAC*\rK\r", 5, 12, "'*' inside the sequence of b");
  expect_error("\r\rMK\r>a\rA\r", 3, 2, "before the first FASTA header");
  expect_error(">a\rMK\r>\rA\r", 3, 6, "empty FASTA header");
}

TEST(FastaReader, EmptyInput) {
  EXPECT_TRUE(parse_fasta("", "e.fasta").empty());
  EXPECT_TRUE(parse_fasta("\n\r\n  \n", "e.fasta").empty());
}

}  // namespace
}  // namespace ionflow

namespace ionflow {
namespace {

// Duplicate accessions: the first entry is kept, later ones dropped, each reported with both
// header lines, the same way for any file order of the other entries.
TEST(FastaReaderDuplicates, FirstEntryKeptAndBothLinesNamed) {
  const std::string fasta =
      ">sp|P02769|ALBU_BOVIN Serum albumin\nMKWVTFISLL\n"  // line 1
      ">sp|P00761|TRYP_PIG Trypsin\nIVGGYTC\n"             // line 3
      ">P02769 contaminant copy\nMKWVTFISLL\n"             // line 5: same sequence
      ">sp|P02769|ALBU_BOVIN altered\nMKWVTF\nISLLK\n"     // line 7: different sequence
      ">sp|Q00001|OTHER\nPEPTIDEK\n";                      // line 10
  std::vector<std::string> warnings;
  const std::vector<Protein> proteins = parse_fasta(fasta, "db.fasta", {}, &warnings);
  ASSERT_EQ(proteins.size(), 3u);
  EXPECT_EQ(proteins[0].accession, "P02769");
  EXPECT_EQ(proteins[0].description, "Serum albumin");
  EXPECT_EQ(proteins[1].accession, "P00761");
  EXPECT_EQ(proteins[2].accession, "Q00001");
  EXPECT_EQ(warnings,
            (std::vector<std::string>{
                "db.fasta: accession P02769 on line 5 repeats line 1 (same sequence); the entry "
                "on line 5 is not searched",
                "db.fasta: accession P02769 on line 7 repeats line 1 (different sequence); the "
                "entry on line 7 is not searched"}));
  // Without a warnings list the result is the same.
  EXPECT_EQ(parse_fasta(fasta, "db.fasta").size(), 3u);
  // A target and its tagged decoy are different accessions.
  std::vector<std::string> none;
  EXPECT_EQ(parse_fasta(">P1\nAAK\n>rev_P1\nKAA\n", "td.fasta", {}, &none).size(), 2u);
  EXPECT_TRUE(none.empty());
}

// A reviewer's catch: ">sp|P2|EMPTY" followed by an empty line, or directly by the next header,
// was read as a protein without residues and nothing said so. Such entries are kept (they make no
// peptide and lose nothing, as a repeated accession's warning loses nothing), counted in one
// warning that names the first one's header line and accession.
TEST(FastaReaderDuplicates, EntriesWithoutASequenceAreCountedInOneWarning) {
  const std::string fasta =
      ">sp|P1|FIRST\nPEPTIDEK\n"  // 1-2
      ">sp|P2|EMPTY\n\n"          // 3-4: an empty line
      ">sp|P3|NEXT\n"             // 5: directly the next header
      ">sp|P4|STOP\n*\n"          // 6-7: a stop codon alone
      ">sp|P5|LAST\nAK\n"         // 8-9
      ">sp|P6|END";               // 10: the end of the file
  std::vector<std::string> warnings;
  const std::vector<Protein> proteins = parse_fasta(fasta, "db.fasta", {}, &warnings);
  ASSERT_EQ(proteins.size(), 6u);
  EXPECT_EQ(proteins[1].accession, "P2");
  EXPECT_EQ(proteins[1].sequence, "");
  EXPECT_EQ(warnings,
            std::vector<std::string>{
                "db.fasta: 4 entries without a sequence (first at line 3, accession P2)"});
  warnings.clear();
  parse_fasta(">P1\nAK\n>sp|P2|EMPTY\n", "one.fasta", {}, &warnings);
  EXPECT_EQ(warnings, std::vector<std::string>{
                          "one.fasta: 1 entry without a sequence (first at line 3, accession P2)"});
}

// The BSA example's decoys end in "_rev"; searched with the default tag (prefix "rev_") they
// were targets and half of them repeated their targets' accessions, with nothing saying why (a
// new user's find). One warning now names the tag, the count and the first such header.
TEST(FastaReaderDuplicates, DecoysUnderAnotherTagAreNamed) {
  const std::string content = read_file(IONFLOW_EXAMPLES_DIR
                                        "/TOPPAS/data/BSA_Identification/"
                                        "18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta");
  std::vector<std::string> warnings;
  const std::vector<Protein> proteins = parse_fasta(content, "bsa.fasta", {}, &warnings);
  EXPECT_EQ(count_decoys(proteins), 0u);
  ASSERT_FALSE(warnings.empty());
  EXPECT_EQ(warnings[0].rfind("bsa.fasta: no protein carries the decoy tag 'rev_' (as a prefix), "
                              "but 9439 headers look like decoys, the first on line ",
                              0),
            0u)
      << warnings[0];
  EXPECT_NE(warnings[0].find("_rev'): they are taken as targets (or dropped where their "
                             "accession repeats a target's); set decoy_tag and "
                             "decoy_tag_position to match them"),
            std::string::npos)
      << warnings[0];
  // The 9,335 decoys whose accession (A9EMV1 of sp|A9EMV1|..._rev) repeats its target's: ten
  // named, the rest counted in one line.
  ASSERT_EQ(warnings.size(), 12u);
  EXPECT_EQ(warnings[11],
            "bsa.fasta: accessions repeated by 9325 more entries, not searched either");
  // The summary lists warnings sorted: the count line stays after the ten it follows.
  for (size_t i = 1; i < 11; ++i) EXPECT_LT(warnings[i], warnings[11]) << warnings[i];
  // With the right tag: no such warning (and no repeated accession).
  std::vector<std::string> right;
  EXPECT_EQ(count_decoys(parse_fasta(content, "bsa.fasta", suffix_rev(), &right)), 9439u);
  EXPECT_TRUE(right.empty());
  // DECOY_ on the UniProt accession, with the default tag: named too.
  std::vector<std::string> other;
  parse_fasta(">sp|P1|A_HUMAN\nAAK\n>sp|DECOY_P1|A_HUMAN\nKAA\n", "d.fasta", {}, &other);
  ASSERT_EQ(other.size(), 1u);
  EXPECT_NE(other[0].find("1 header looks like a decoy, on line 3 ('sp|DECOY_P1|A_HUMAN')"),
            std::string::npos)
      << other[0];
  // Bytes outside printable ASCII in the quoted word are written as \xNN, as in every error.
  std::vector<std::string> latin;
  parse_fasta(">sp|P1|A_HUMAN\nAAK\n>DECOY_Gen\xC3\xA8ve\tx\nKAA\n", "d.fasta", {}, &latin);
  ASSERT_EQ(latin.size(), 1u);
  EXPECT_NE(latin[0].find("1 header looks like a decoy, on line 3 ('DECOY_Gen\\xc3\\xa8ve')"),
            std::string::npos)
      << latin[0];
}

}  // namespace
}  // namespace ionflow
