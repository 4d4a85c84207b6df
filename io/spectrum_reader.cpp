// Peak-list format detection and the reader factory; see spectrum_reader.hpp.
#include "io/spectrum_reader.hpp"

#include <string_view>
#include <utility>

#include "io/mgf_reader.hpp"
#include "io/ms2_reader.hpp"
#include "io/mzml_reader.hpp"
#include "io/mzxml_reader.hpp"

namespace ionflow {
namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// The length of the markup declaration (DOCTYPE) that `rest` starts ("<!"), through its '>':
// an internal subset in [...] may hold '>' (entity and element declarations, comments,
// processing instructions), as may quoted literals (XML 1.0 section 2.8). npos if it does not
// end within `rest`.
size_t declaration_length(std::string_view rest) {
  int depth = 0;
  for (size_t k = 2; k < rest.size(); ++k) {
    const char c = rest[k];
    // Comments and processing instructions in the subset may hold quotes and '>' of their own.
    const std::string_view at = rest.substr(k);
    if (depth > 0 && (at.substr(0, 4) == "<!--" || at.substr(0, 2) == "<?")) {
      const std::string_view closer = at[1] == '!' ? "-->" : "?>";
      k = rest.find(closer, k + 2);
      if (k == std::string_view::npos) return k;
      k += closer.size() - 1;
    } else if (c == '"' || c == '\'') {
      k = rest.find(c, k + 1);
      if (k == std::string_view::npos) return k;
    } else if (c == '[') {
      ++depth;
    } else if (c == ']') {
      --depth;
    } else if (c == '>' && depth <= 0) {
      return k + 1;
    }
  }
  return std::string_view::npos;
}

// The local name of the root element of the XML text `xml` (starting at '<'), or "" if it is
// not within `xml`.
std::string_view root_element_name(std::string_view xml) {
  size_t i = 0;
  while (i < xml.size()) {
    while (i < xml.size() && is_blank(xml[i])) ++i;
    if (i >= xml.size() || xml[i] != '<') return {};
    std::string_view rest = xml.substr(i);
    std::string_view closer;
    if (rest.substr(0, 2) == "<?") {
      closer = "?>";
    } else if (rest.substr(0, 4) == "<!--") {
      closer = "-->";
    } else if (rest.substr(0, 2) == "<!") {
      const size_t length = declaration_length(rest);
      if (length == std::string_view::npos) return {};
      i += length;
      continue;
    } else {
      size_t end = 1;
      while (end < rest.size() && !is_blank(rest[end]) && rest[end] != '>' && rest[end] != '/') {
        ++end;
      }
      if (end == rest.size()) return {};
      std::string_view name = rest.substr(1, end - 1);
      const size_t colon = name.rfind(':');
      return colon == std::string_view::npos ? name : name.substr(colon + 1);
    }
    const size_t at = rest.find(closer, 2);
    if (at == std::string_view::npos) return {};
    i += at + closer.size();
  }
  return {};
}

// "1 peak dropped: ...", "2 peaks dropped: ...": the problems name what they count in the
// plural (peak_checks.hpp, profile_spectrum.hpp, the mzML and MGF readers), read as the singular
// after a count of one. Every plural problem text starts with one of these.
std::string counted(uint64_t count, const std::string& problem) {
  static constexpr std::pair<std::string_view, std::string_view> kSingular[] = {
      {"peaks ", "peak "},
      {"peak lines ", "peak line "},
      {"profile spectra ", "profile spectrum "},
      {"spectra ", "spectrum "},
      {"lines ", "line "},
  };
  std::string text = std::to_string(count) + " ";
  if (count == 1) {
    for (const auto& [plural, singular] : kSingular) {
      if (problem.starts_with(plural)) {
        return text + std::string(singular) + problem.substr(plural.size());
      }
    }
  }
  return text + problem;
}

}  // namespace

PeakListFormat detect_peak_list_format(std::string_view head) {
  if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);  // UTF-8 byte order mark
  size_t i = 0;
  while (i < head.size() && is_blank(head[i])) ++i;
  if (i == head.size()) return PeakListFormat::kMgf;
  // MGF never starts with '<' (a line is a parameter, a comment or BEGIN IONS), so any XML start
  // goes to an XML reader, which reports a precise error if the XML is not what it reads.
  if (head[i] == '<') {
    const std::string_view root = root_element_name(head.substr(i));
    return root == "mzXML" || root == "msRun" ? PeakListFormat::kMzXML : PeakListFormat::kMzML;
  }
  // An MS2 line is a one-letter record type and a tab ("H\tCreationDate\t..."); an MGF line is
  // a KEY=value parameter, a comment or BEGIN IONS.
  const char c = head[i];
  if ((c == 'H' || c == 'S' || c == 'I' || c == 'Z') && i + 1 < head.size() &&
      (head[i + 1] == '\t' || head[i + 1] == ' ')) {
    return PeakListFormat::kMs2;
  }
  return PeakListFormat::kMgf;
}

std::vector<std::string> read_problem_warnings(const std::string& file_name,
                                               const ReadStats& stats) {
  std::vector<std::string> warnings;
  for (const auto& [problem, count] : stats.problems) {
    std::string text = file_name + ": " + counted(count, problem);
    const auto where = stats.first_problem_at.find(problem);
    if (where != stats.first_problem_at.end() && !where->second.empty()) {
      text += " (first at " + where->second + ")";
    }
    warnings.push_back(std::move(text));
  }
  return warnings;
}

std::unique_ptr<SpectrumReader> make_spectrum_reader(PeakListFormat format, std::string file_name,
                                                     uint32_t file_index) {
  switch (format) {
    case PeakListFormat::kMzML:
      return make_mzml_reader(std::move(file_name), file_index);
    case PeakListFormat::kMgf:
      return make_mgf_reader(std::move(file_name), file_index);
    case PeakListFormat::kMzXML:
      return make_mzxml_reader(std::move(file_name), file_index);
    case PeakListFormat::kMs2:
      return make_ms2_reader(std::move(file_name), file_index);
  }
  return make_mgf_reader(std::move(file_name), file_index);
}

}  // namespace ionflow
