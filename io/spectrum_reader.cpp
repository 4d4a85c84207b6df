// Peak-list format detection and the reader factory; see spectrum_reader.hpp.
#include "io/spectrum_reader.hpp"

#include "io/mgf_reader.hpp"
#include "io/mzml_reader.hpp"

namespace ionflow {

PeakListFormat detect_peak_list_format(std::string_view head) {
  if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);  // UTF-8 byte order mark
  size_t i = 0;
  while (i < head.size() &&
         (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n')) {
    ++i;
  }
  // MGF never starts with '<' (a line is a parameter, a comment or BEGIN IONS), so any XML start
  // ("<?xml", "<mzML", "<indexedmzML", or a "<!--" comment before them) goes to the mzML reader,
  // which reports a precise error if the XML is not mzML.
  return i < head.size() && head[i] == '<' ? PeakListFormat::kMzML : PeakListFormat::kMgf;
}

std::unique_ptr<SpectrumReader> make_spectrum_reader(PeakListFormat format, std::string file_name,
                                                     uint32_t file_index) {
  switch (format) {
    case PeakListFormat::kMzML:
      return make_mzml_reader(std::move(file_name), file_index);
    case PeakListFormat::kMgf:
      return make_mgf_reader(std::move(file_name), file_index);
  }
  return make_mgf_reader(std::move(file_name), file_index);
}

}  // namespace ionflow
