// Ms1SpectrumFilter: a byte-level pass in front of the mzML reader's XML parser that drops whole
// MS1 <spectrum> elements, which a peptide search skips anyway. In a DDA run they are half of the
// file's bytes (BSA1-3: 43-59%), and expat spent as long on them as on everything else.
//
// Contract: push() the file's (decompressed) bytes in order, in pieces of any size, then
// finish(). The sink receives, in order, every byte that is not dropped (pass) and one call per
// dropped spectrum (dropped, with its id attribute). A spectrum element is held whole (up to
// 4 MiB) until its end tag (`</spectrum`, optional whitespace, `>`), and dropped only when its
// own text says it is MS level 1 beyond doubt: its start tag is `<spectrum` + whitespace, not
// self-closing, with a plain id="..." (no '&'); up to its <binaryDataArrayList> it has at least
// one <cvParam ... accession="MS:1000511" ... value="1" ...>, no ms-level cvParam of another
// value, no <precursor and no <referenceableParamGroupRef (a group could set the level); and it
// holds no comment, CDATA section, processing instruction or second "<spectrum" (text that
// could hide or fake a tag). Comments, CDATA sections and processing instructions outside
// spectra pass whole, so text in them never starts a held element. Any other spectrum passes
// untouched, so the parser reads exactly what it read before minus such MS1 spectra (their
// well-formedness is no longer checked).
//
// A sink that takes_spectra() is also offered every other spectrum whose head was seen, whole
// (up to 4 MiB, ended by the first `</spectrum>`), through take(): the mzML reader tokenizes
// the plain ones itself (xml_element_scan.hpp) and returns the rest, which then pass as above.
// Whitespace right after a dropped or taken spectrum is skipped with it, so a run of them costs
// one position record, not one each.

// Positions: the parser counts bytes and lines of the passed stream; file_offset() and
// file_line() turn them back into the file's (adding what was dropped before that point).
// Not thread-safe (one per file being parsed). Errors: none (bad XML is the parser's to report).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ionflow {

class Ms1SpectrumFilter {
 public:
  class Sink {
   public:
    virtual ~Sink() = default;
    virtual void pass(std::string_view bytes) = 0;
    virtual void dropped(std::string_view native_id) = 0;
    // Whether an MS1 spectrum may be dropped now (asked at each): false while the parser is
    // inside a spectrum whose end tag has not come, so that it sees the next start tag and
    // reports the missing </spectrum> there, not at the first spectrum that is not dropped.
    virtual bool drops_spectra() const { return true; }
    // Whether other spectra are offered whole to take() (asked once per spectrum).
    virtual bool takes_spectra() const { return false; }
    // A whole spectrum element (from "<spectrum" to its end tag's '>') that is not dropped.
    // Returns true if the sink consumed it (it is then skipped like a dropped one), false to
    // have its bytes passed as usual.
    virtual bool take(std::string_view /*element*/) { return false; }
  };

  void push(std::string_view bytes, Sink& sink);
  // End of input: passes whatever is still held (a file ending inside a spectrum is then
  // truncated XML for the parser to report).
  void finish(Sink& sink);

  // File byte offset of passed-stream byte `passed_offset`.
  uint64_t file_offset(uint64_t passed_offset) const;
  // File line (1-based) of passed-stream line `passed_line` at byte `passed_offset`.
  uint64_t file_line(uint64_t passed_offset, uint64_t passed_line) const;

 private:
  enum class State { kPass, kHold, kMarkup };
  struct Drop {
    // One run of skipped bytes (dropped or taken spectra and the whitespace after them) with
    // nothing passed inside it.
    uint64_t passed_offset;  // bytes passed before the run
    uint64_t bytes_before;   // bytes skipped up to and including this run
    uint64_t lines_before;   // line ends skipped up to and including this run
  };

  // Handles buffer_ as far as it can; returns how many bytes were consumed.
  size_t route(bool final, Sink& sink);
  // The steps of route(), one per state (and the comment/CDATA/PI branch of kPass): each
  // advances scan.pos and returns true to go on, or false with scan.pos set to route()'s result.
  struct Scan;
  bool route_markup(Scan& scan, Sink& sink);
  bool route_pass(Scan& scan, Sink& sink);
  bool route_hidden(Scan& scan, size_t h, Sink& sink);
  bool route_hold(Scan& scan, Sink& sink);
  void emit(std::string_view bytes, Sink& sink);
  // Counts `bytes` (a dropped or taken spectrum, or whitespace after one) as skipped.
  void skip(std::string_view bytes);
  // The last drop at or before passed-stream byte `passed_offset`, or nullptr.
  const Drop* last_drop_before(uint64_t passed_offset) const;
  static size_t element_end(std::string_view element, size_t& from);
  static bool head_says_ms1(std::string_view head, std::string_view& native_id);
  static bool plain(std::string_view element);

  State state_ = State::kPass;
  std::string buffer_;  // bytes not yet routed (a partial tag, a held spectrum, a piece)
  uint64_t passed_ = 0;
  size_t scanned_ = 0;       // of the held spectrum, searched for its end tag already
  size_t head_scanned_ = 0;  // of the held spectrum, searched for its head's end already
  size_t head_end_ = std::string_view::npos;  // of the held spectrum's head, once found
  bool head_ms1_ = false;                     // that head says MS1 (head_says_ms1)
  bool absorb_space_ = false;                 // the last bytes routed were a skipped spectrum
  bool skip_ended_with_cr_ = false;           // the last skip()ped byte was a CR (CR LF split)
  std::string_view markup_closer_;            // kMarkup: "-->", "]]>" or "?>" (string literals)
  std::vector<Drop> drops_;
};

}  // namespace ionflow
