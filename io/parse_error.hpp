// ParseError: a file could not be parsed. Its message names the file, where (byte offset and,
// for line formats, line number) and what was expected, e.g.
//   "BSA1.mzML: byte 18234: expected '>' in <spectrum> start tag",
//   "run1.mgf: line 5 (byte 924): expected BEGIN IONS".
// Thrown by the io/ readers for input that cannot be parsed at all; a single malformed spectrum
// is skipped and counted instead (see ReadStats).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ionflow {

class ParseError : public std::runtime_error {
 public:
  ParseError(std::string file, uint64_t byte_offset, uint64_t line, const std::string& what)
      : std::runtime_error(format(file, byte_offset, line, what)),
        file_(std::move(file)),
        byte_offset_(byte_offset),
        line_(line) {}

  const std::string& file() const { return file_; }
  uint64_t byte_offset() const { return byte_offset_; }
  uint64_t line() const { return line_; }  // 0 when not a line format

 private:
  static std::string format(const std::string& file, uint64_t offset, uint64_t line,
                            const std::string& what) {
    if (line == 0) return file + ": byte " + std::to_string(offset) + ": " + what;
    return file + ": line " + std::to_string(line) + " (byte " + std::to_string(offset) +
           "): " + what;
  }
  std::string file_;
  uint64_t byte_offset_;
  uint64_t line_;
};

// Line formats (MGF, MS2) end their lines with LF or CR LF (blanks and further CRs before the
// LF are trimmed; LF CR reads too, its CR leading the next line). A CR between text and text
// that reads as a line of the format (`starts_line`, given that text with blanks trimmed, up to
// the next CR) means lines ending with CR alone (classic Mac OS, or a file that switched to
// them): read by LF they are one line and give no spectrum, so the file is refused. A CR inside
// a value ("TITLE=a\rb") is left as it was. `line` is a line holding a CR, number
// `line_number`, without its LF, starting at `byte_offset` (the readers check every such line, so
// a switch is refused where it happens); a line with other control bytes (NUL, ...) is binary
// content, left to the reader's own error. Throws ParseError naming the file and that line.
template <typename StartsLine>
void refuse_cr_line_ends(const std::string& file, uint64_t byte_offset, uint64_t line_number,
                         std::string_view line, StartsLine starts_line) {
  constexpr const char* kBlanks = " \t\r\f\v";
  const size_t text = line.find_first_not_of(kBlanks);
  bool cr_ends_a_line = false;
  for (size_t cr = line.find('\r'); cr != std::string_view::npos && !cr_ends_a_line;
       cr = line.find('\r', cr + 1)) {
    if (text >= cr) continue;  // leading CRs: LF CR line ends
    std::string_view next = line.substr(cr + 1);
    next = next.substr(0, next.find('\r'));
    const size_t first = next.find_first_not_of(" \t\f\v");
    if (first == std::string_view::npos) continue;  // CR CR LF, blanks after a CR
    next = next.substr(first, next.find_last_not_of(" \t\f\v") + 1 - first);
    cr_ends_a_line = starts_line(next);
  }
  if (!cr_ends_a_line) return;
  for (char c : line) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\t' && c != '\r' && c != '\f' && c != '\v') || u == 0x7f) return;
  }
  throw ParseError(file, byte_offset, line_number,
                   "lines end with a carriage return (CR) alone, as on classic Mac OS; convert "
                   "them to LF line ends (e.g. tr '\\r' '\\n' < FILE > NEW_FILE, on the "
                   "uncompressed file)");
}

}  // namespace ionflow
