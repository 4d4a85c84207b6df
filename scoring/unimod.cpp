// Unimod (unimod.hpp): unimod.xml read with expat (the umod: namespace, elements
// <umod:mod title record_id>, <umod:specificity site position>, <umod:delta mono_mass>,
// <umod:alt_name>), then names resolved in the Mascot style.
//
// Start-up cost: the constructor only reads the file and scans its raw text once for the
// <umod:mod> start tags (a title index, ~1 ms for the 2.4 MB file); a title look-up parses just
// that one element with expat. The whole-file expat parse (~20 ms) runs at most once, lazily,
// for what the title index cannot answer: full names, alternative names, "UNIMOD:n"
// accessions and unknown names (their "did you mean" suggestions).
#include "scoring/unimod.hpp"

#include <expat.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "scoring/edit_distance.hpp"
#include "scoring/unimod_title_index.hpp"

namespace ionflow {
namespace {

using unimod_detail::lower;
using unimod_detail::ModSpan;
using unimod_detail::scan_titles;
using unimod_detail::TitleIndex;

struct Entry {
  std::string title;
  std::string full_name;
  int accession = 0;
  double mono_mass_da = 0.0;
  std::string bad_mono_mass;  // <umod:delta mono_mass> when it is not a number (or missing)
  std::vector<UnimodChoice::Site> sites;  // <umod:specificity site position hidden>, file order
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool starts_with_ci(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && lower(s.substr(0, prefix.size())) == lower(prefix);
}

// Parses a whole string as a number ("+15.9949", "-17.0265", "229.162932").
bool parse_mass(std::string_view s, double& out) {
  s = trim(s);
  if (s.empty()) return false;
  if (s.front() == '+') s.remove_prefix(1);
  if (s.empty() || !(std::isdigit(static_cast<unsigned char>(s.front())) || s.front() == '-' ||
                     s.front() == '.')) {
    return false;
  }
  const std::string text(s);
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(out);
}

struct Parser {
  std::vector<Entry>* entries = nullptr;
  std::vector<std::pair<std::string, size_t>>* alt_names = nullptr;
  bool in_mod = false;
  bool in_alt_name = false;
  std::string text;

  static const char* attribute(const XML_Char** atts, const char* name) {
    for (size_t i = 0; atts[i] != nullptr; i += 2) {
      if (std::strcmp(atts[i], name) == 0) return atts[i + 1];
    }
    return nullptr;
  }
  static void on_start(void* user, const XML_Char* name, const XML_Char** atts) {
    auto* p = static_cast<Parser*>(user);
    if (std::strcmp(name, "umod:mod") == 0) {
      Entry e;
      if (const char* t = attribute(atts, "title")) e.title = t;
      if (const char* f = attribute(atts, "full_name")) e.full_name = f;
      if (const char* r = attribute(atts, "record_id")) e.accession = std::atoi(r);
      p->entries->push_back(std::move(e));
      p->in_mod = true;
    } else if (p->in_mod && std::strcmp(name, "umod:delta") == 0) {
      // A damaged mass must not become 0 Da (strtod's answer): the entry then refuses use.
      const char* m = attribute(atts, "mono_mass");
      Entry& e = p->entries->back();
      if (m == nullptr || !parse_mass(m, e.mono_mass_da)) {
        e.bad_mono_mass = m == nullptr ? "(missing)" : "'" + std::string(m) + "'";
      }
    } else if (p->in_mod && std::strcmp(name, "umod:specificity") == 0) {
      const char* site = attribute(atts, "site");
      const char* position = attribute(atts, "position");
      const char* hidden = attribute(atts, "hidden");
      if (site && position) {
        p->entries->back().sites.push_back(
            {site, position, hidden != nullptr && std::strcmp(hidden, "1") == 0});
      }
    } else if (p->in_mod && std::strcmp(name, "umod:alt_name") == 0) {
      p->in_alt_name = true;
      p->text.clear();
    }
  }
  static void on_end(void* user, const XML_Char* name) {
    auto* p = static_cast<Parser*>(user);
    if (std::strcmp(name, "umod:mod") == 0) {
      p->in_mod = false;
    } else if (p->in_alt_name && std::strcmp(name, "umod:alt_name") == 0) {
      p->in_alt_name = false;
      p->alt_names->emplace_back(p->text, p->entries->size() - 1);
    }
  }
  static void on_text(void* user, const XML_Char* s, int len) {
    auto* p = static_cast<Parser*>(user);
    if (p->in_alt_name) p->text.append(s, static_cast<size_t>(len));
  }
};

// Runs expat over `text` (the whole file, or one <umod:mod> element: a fragment parses alone
// because the parser does no namespace processing). Returns "" or "line L, byte B: message".
std::string parse_xml(std::string_view text, std::vector<Entry>& entries,
                      std::vector<std::pair<std::string, size_t>>& alt_names) {
  Parser parser;
  parser.entries = &entries;
  parser.alt_names = &alt_names;
  XML_Parser xml = XML_ParserCreate(nullptr);
  XML_SetUserData(xml, &parser);
  XML_SetElementHandler(xml, &Parser::on_start, &Parser::on_end);
  XML_SetCharacterDataHandler(xml, &Parser::on_text);
  const bool ok = XML_Parse(xml, text.data(), static_cast<int>(text.size()), 1) != XML_STATUS_ERROR;
  std::string error;
  if (!ok) {
    error = "line " + std::to_string(XML_GetCurrentLineNumber(xml)) + ", byte " +
            std::to_string(XML_GetCurrentByteIndex(xml)) + ": " +
            XML_ErrorString(XML_GetErrorCode(xml));
  }
  XML_ParserFree(xml);
  return error;
}

// Whether a Unimod <umod:specificity position> is one where a modification at `position` sits:
// a protein terminus also accepts Unimod's "Any N-term" / "Any C-term" (a modification of every
// peptide terminus is one of the protein terminus too); a peptide terminus wants "Any ...".
bool position_accepts(ModificationPosition position, std::string_view unimod_position) {
  switch (position) {
    case ModificationPosition::kAnywhere:
      return unimod_position == "Anywhere";
    case ModificationPosition::kPeptideNTerm:
      return unimod_position == "Any N-term";
    case ModificationPosition::kPeptideCTerm:
      return unimod_position == "Any C-term";
    case ModificationPosition::kProteinNTerm:
      return unimod_position == "Protein N-term" || unimod_position == "Any N-term";
    case ModificationPosition::kProteinCTerm:
      return unimod_position == "Protein C-term" || unimod_position == "Any C-term";
  }
  return false;
}

// Whether `e` lists every site of `m`: each residue (or, for a terminal modification on any
// residue, the "N-term" / "C-term" site) at a position it accepts; hidden specificities count
// only when `allow_hidden`.
bool lists_sites(const Entry& e, const Modification& m, bool allow_hidden) {
  auto lists = [&](std::string_view site) {
    for (const UnimodChoice::Site& s : e.sites) {
      if ((allow_hidden || !s.hidden) && s.site == site && position_accepts(m.position, s.position))
        return true;
    }
    return false;
  };
  if (m.residues.empty()) {
    if (m.position == ModificationPosition::kAnywhere) return false;
    const bool n_side = m.position == ModificationPosition::kPeptideNTerm ||
                        m.position == ModificationPosition::kProteinNTerm;
    return lists(n_side ? "N-term" : "C-term");
  }
  for (const char residue : m.residues) {
    if (!lists(std::string_view(&residue, 1))) return false;
  }
  return true;
}

}  // namespace

struct Unimod::Impl {
  std::string path;
  std::string content;  // the whole file; immutable after construction
  TitleIndex titles;    // immutable after construction

  // The whole-file parse, run at most once (full_once); full_parsed is set (release) after
  // entries, by_name and by_accession are built, which are then immutable.
  std::once_flag full_once;
  std::atomic<bool> full_parsed{false};
  std::string full_error;  // why the full parse failed (set inside call_once)
  std::vector<Entry> entries;
  std::unordered_map<std::string, size_t> by_name;  // lower-case title, full name, alt names
  std::unordered_map<int, size_t> by_accession;

  // The entry's mass; throws std::runtime_error naming the file and entry if its mono_mass is
  // not a number.
  double mass_of(const Entry& e) const {
    if (!e.bad_mono_mass.empty()) {
      throw std::runtime_error("Unimod file '" + path + "': modification '" + e.title +
                               "': mono_mass " + e.bad_mono_mass + " is not a number");
    }
    return e.mono_mass_da;
  }

  // Parses the whole file once; throws std::runtime_error (every time) if that failed.
  void ensure_full_parse() {
    std::call_once(full_once, [this] {
      try {
        parse_whole_file();
        full_parsed.store(true, std::memory_order_release);
      } catch (const std::exception& e) {
        full_error = e.what();
      }
    });
    if (!full_parsed.load(std::memory_order_acquire)) throw std::runtime_error(full_error);
  }

  void parse_whole_file() {
    std::vector<std::pair<std::string, size_t>> alt_names;
    const std::string error = parse_xml(content, entries, alt_names);
    if (!error.empty()) {
      throw std::runtime_error("Unimod file '" + path + "': XML error at " + error);
    }
    if (entries.empty()) {
      throw std::runtime_error("Unimod file '" + path + "' has no <umod:mod> entries");
    }
    // Titles first so that a title always wins over another entry's full or alternative name.
    for (size_t i = 0; i < entries.size(); ++i) {
      by_name.emplace(lower(entries[i].title), i);
      by_accession.emplace(entries[i].accession, i);
    }
    for (size_t i = 0; i < entries.size(); ++i) {
      if (!entries[i].full_name.empty()) by_name.emplace(lower(entries[i].full_name), i);
    }
    for (const auto& [name, i] : alt_names) by_name.emplace(lower(trim(name)), i);
  }

  // The fast path: the element whose title is `key` (lower-cased), parsed alone. Empty if no
  // indexed title matches or the element does not parse (the full parse then reports it).
  std::optional<Entry> find_title(const std::string& key) const {
    const auto it = titles.spans.find(key);
    if (it == titles.spans.end() || it->second.end == 0) return std::nullopt;
    const ModSpan span = it->second;
    std::vector<Entry> one;
    std::vector<std::pair<std::string, size_t>> alt_names;
    const std::string error = parse_xml(
        std::string_view(content).substr(span.begin, span.end - span.begin), one, alt_names);
    if (!error.empty() || one.size() != 1 || lower(one[0].title) != key) return std::nullopt;
    return std::move(one[0]);
  }

  // A title, full name or alternative name (case-insensitive), titles first.
  std::optional<Entry> find(std::string_view name) {
    const std::string key = lower(trim(name));
    if (!full_parsed.load(std::memory_order_acquire)) {
      if (auto entry = find_title(key)) return entry;
      ensure_full_parse();
    }
    const auto it = by_name.find(key);
    if (it == by_name.end()) return std::nullopt;
    return entries[it->second];
  }

  [[noreturn]] void unknown(std::string_view name, std::string_view text) {
    ensure_full_parse();
    const std::string query = lower(trim(name));
    std::vector<std::pair<size_t, const std::string*>> scored;
    const size_t limit = std::max<size_t>(2, query.size() / 3);
    for (const auto& e : entries) {
      const std::string title = lower(e.title);
      const bool prefix = !query.empty() && (title.rfind(query, 0) == 0);
      // Only titles within `limit` edits are computed to the end (a 20,000-character name took
      // 2.7 s against every title, found by job_message_fuzzer; edit_distance_below stops early).
      const size_t d =
          prefix ? (query == title ? 0 : 1) : edit_distance_below(query, title, limit + 1);
      if (d <= limit) scored.emplace_back(d, &e.title);
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::string message = "unknown modification '" + std::string(name) + "'";
    if (trim(text) != trim(name)) message += " in '" + std::string(text) + "'";
    if (!scored.empty()) {
      message += "; did you mean: ";
      for (size_t i = 0; i < scored.size() && i < 5; ++i) {
        message += (i ? ", " : "") + *scored[i].second;
      }
    }
    throw std::invalid_argument(message);
  }
};

Unimod::Unimod(const std::string& unimod_xml_path) : impl_(std::make_unique<Impl>()) {
  impl_->path = unimod_xml_path;
  std::ifstream in(unimod_xml_path, std::ios::binary);
  if (!in) {
    throw std::runtime_error("cannot read Unimod file '" + unimod_xml_path +
                             "': " + std::strerror(errno));
  }
  // Straight into the string when the size is known, then whatever is left (a file that grew).
  std::string& content = impl_->content;
  std::error_code size_error;
  const auto size = std::filesystem::file_size(unimod_xml_path, size_error);
  if (!size_error && size > 0) {
    content.resize(static_cast<size_t>(size));
    in.read(content.data(), static_cast<std::streamsize>(size));
    content.resize(static_cast<size_t>(in.gcount()));
  }
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    content.append(buffer, static_cast<size_t>(in.gcount()));
  }
  if (in.bad()) throw std::runtime_error("cannot read Unimod file '" + unimod_xml_path + "'");
  impl_->titles = scan_titles(content);
  // Parse the whole file now (and throw its error) when the scan cannot vouch for it: no
  // <umod:mod> start tag found (no entries, an unreadable prolog, UTF-16, ...), or the scan did
  // not reach the root element's end tag (a truncated file, or a tag it could not read). A
  // truncated unimod.xml must not answer the titles read before the cut.
  if (impl_->titles.start_tags == 0 || !impl_->titles.complete) impl_->ensure_full_parse();
}

Unimod::~Unimod() = default;

std::pair<double, int> Unimod::lookup(std::string_view title) const {
  const std::optional<Entry> e = impl_->find(title);
  if (!e) impl_->unknown(title, title);
  return {impl_->mass_of(*e), e->accession};
}

void Unimod::parse_whole_file() const {
  impl_->ensure_full_parse();
}

bool Unimod::whole_file_parsed() const {
  return impl_->full_parsed.load(std::memory_order_acquire);
}

std::vector<std::string> Unimod::titles() const {
  impl_->ensure_full_parse();
  std::vector<std::string> out;
  out.reserve(impl_->entries.size());
  for (const auto& e : impl_->entries) out.push_back(e.title);
  return out;
}

std::string UnimodChoice::mascot_name(const std::string& title, const Site& site) {
  const bool terminus = site.site == "N-term" || site.site == "C-term";
  std::string where;
  if (site.position == "Protein N-term" || site.position == "Protein C-term") {
    where = site.position + (terminus ? "" : " " + site.site);
  } else if (site.position == "Any N-term" || site.position == "Any C-term") {
    where = site.position.substr(4) + (terminus ? "" : " " + site.site);
  } else {
    where = site.site;
  }
  return title + " (" + where + ")";
}

std::vector<UnimodChoice> Unimod::choices() const {
  impl_->ensure_full_parse();
  std::vector<UnimodChoice> out;
  out.reserve(impl_->entries.size());
  for (const auto& e : impl_->entries) {
    if (!e.bad_mono_mass.empty()) continue;
    out.push_back({e.title, e.full_name, e.accession, e.mono_mass_da, e.sites});
  }
  return out;
}

std::vector<UnimodMatch> Unimod::matches_by_mass(const Modification& m, double tolerance_da) const {
  impl_->ensure_full_parse();
  for (const bool allow_hidden : {false, true}) {
    std::vector<UnimodMatch> out;
    for (const Entry& e : impl_->entries) {
      if (!e.bad_mono_mass.empty() || std::abs(e.mono_mass_da - m.mass_delta_da) > tolerance_da) {
        continue;
      }
      if (lists_sites(e, m, allow_hidden)) out.push_back({e.title, e.accession, e.mono_mass_da});
    }
    if (!out.empty()) return out;
  }
  return {};
}

Modification Unimod::named_by_mass(const Modification& m, double tolerance_da) const {
  if (!m.name.empty() || m.unimod_accession != 0) return m;
  const std::vector<UnimodMatch> matches = matches_by_mass(m, tolerance_da);
  if (matches.size() != 1) return m;
  Modification named = m;
  named.name = matches.front().title;
  named.unimod_accession = matches.front().accession;
  return named;
}

Modification Unimod::resolve(std::string_view text, bool fixed) const {
  const std::string_view whole = trim(text);
  std::string_view name, site;
  if (const size_t at = whole.rfind('@'); at != std::string_view::npos) {
    name = trim(whole.substr(0, at));
    site = trim(whole.substr(at + 1));
  } else if (!whole.empty() && whole.back() == ')' && whole.rfind('(') != std::string_view::npos) {
    const size_t open = whole.rfind('(');
    name = trim(whole.substr(0, open));
    site = trim(whole.substr(open + 1, whole.size() - open - 2));
  } else if (const size_t open = whole.rfind('(');
             open != std::string_view::npos && whole.find(')', open) == std::string_view::npos) {
    // "Oxidation (M": a site opened but not closed is a typo, not a missing site.
    throw std::invalid_argument("modification '" + std::string(text) +
                                "' is malformed: missing ')' after the site; write e.g. "
                                "'Oxidation (M)' or '15.9949@M'");
  } else if (!whole.empty() && whole.back() == ')') {
    throw std::invalid_argument("modification '" + std::string(text) +
                                "' is malformed: missing '(' before the site; write e.g. "
                                "'Oxidation (M)' or '15.9949@M'");
  } else {
    throw std::invalid_argument("modification '" + std::string(text) +
                                "' has no site; write e.g. 'Oxidation (M)' or '15.9949@M'");
  }
  if (name.empty()) {
    throw std::invalid_argument("modification '" + std::string(text) + "' has no name or mass");
  }

  Modification m;
  m.fixed = fixed;
  double mass = 0.0;
  if (starts_with_ci(name, "UNIMOD:")) {
    int accession = 0;
    const std::string_view digits = trim(name.substr(7));
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), accession);
    impl_->ensure_full_parse();
    auto it = impl_->by_accession.end();
    if (ec == std::errc() && ptr == digits.data() + digits.size()) {
      it = impl_->by_accession.find(accession);
    }
    if (it == impl_->by_accession.end()) {
      throw std::invalid_argument("unknown Unimod accession '" + std::string(name) + "' in '" +
                                  std::string(text) + "'");
    }
    const Entry& e = impl_->entries[it->second];
    m.name = e.title;
    m.unimod_accession = e.accession;
    m.mass_delta_da = impl_->mass_of(e);
  } else if (parse_mass(name, mass)) {
    if (std::abs(mass) > kMaxModificationMassDa) {
      throw std::invalid_argument("modification '" + std::string(text) + "': mass " +
                                  std::string(name) + " Da is beyond +-10000 Da");
    }
    m.mass_delta_da = mass;
  } else {
    const std::optional<Entry> e = impl_->find(name);
    if (!e) impl_->unknown(name, text);
    m.name = e->title;
    m.unimod_accession = e->accession;
    m.mass_delta_da = impl_->mass_of(*e);
  }

  // Site: "M", "STY", "N-term", "C-term", "Any N-term", "Protein N-term", "N-term Q", ...
  std::string_view rest = site;
  auto take = [&](std::string_view word) {
    if (!starts_with_ci(rest, word)) return false;
    rest = trim(rest.substr(word.size()));
    return true;
  };
  m.position = ModificationPosition::kAnywhere;
  if (take("Protein N-term")) {
    m.position = ModificationPosition::kProteinNTerm;
  } else if (take("Protein C-term")) {
    m.position = ModificationPosition::kProteinCTerm;
  } else if (take("Any N-term") || take("N-term")) {
    m.position = ModificationPosition::kPeptideNTerm;
  } else if (take("Any C-term") || take("C-term")) {
    m.position = ModificationPosition::kPeptideCTerm;
  }
  for (char c : rest) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',') continue;
    if (!std::isalpha(static_cast<unsigned char>(c))) {
      throw std::invalid_argument("modification '" + std::string(text) + "': bad site '" +
                                  std::string(site) + "'");
    }
    // Kept as given, as modification_from_sage does: "(c)" is not read as C.
    if (m.residues.find(c) == std::string::npos) m.residues += c;
  }
  if (m.position == ModificationPosition::kAnywhere && m.residues.empty()) {
    throw std::invalid_argument("modification '" + std::string(text) + "' has an empty site");
  }
  return m;
}

}  // namespace ionflow
