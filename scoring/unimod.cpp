// Unimod (unimod.hpp): unimod.xml read with expat (the umod: namespace, elements
// <umod:mod title record_id>, <umod:specificity site position>, <umod:delta mono_mass>,
// <umod:alt_name>), then names resolved in the Mascot style.
#include "scoring/unimod.hpp"

#include <expat.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "scoring/edit_distance.hpp"

namespace ionflow {
namespace {

struct Entry {
  std::string title;
  std::string full_name;
  int accession = 0;
  double mono_mass_da = 0.0;
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

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
      if (const char* m = attribute(atts, "mono_mass")) {
        p->entries->back().mono_mass_da = std::strtod(m, nullptr);
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

}  // namespace

struct Unimod::Impl {
  std::vector<Entry> entries;
  std::unordered_map<std::string, size_t> by_name;  // lower-case title, full name, alt names
  std::unordered_map<int, size_t> by_accession;

  const Entry* find(std::string_view name) const {
    auto it = by_name.find(lower(trim(name)));
    return it == by_name.end() ? nullptr : &entries[it->second];
  }

  [[noreturn]] void unknown(std::string_view name, std::string_view text) const {
    const std::string query = lower(trim(name));
    std::vector<std::pair<size_t, const std::string*>> scored;
    const size_t limit = std::max<size_t>(2, query.size() / 3);
    for (const auto& e : entries) {
      const std::string title = lower(e.title);
      size_t d = edit_distance(query, title);
      const bool prefix = !query.empty() && (title.rfind(query, 0) == 0);
      if (prefix) d = std::min<size_t>(d, 1);
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
  std::ifstream in(unimod_xml_path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read Unimod file '" + unimod_xml_path + "'");
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());

  std::vector<std::pair<std::string, size_t>> alt_names;
  Parser parser;
  parser.entries = &impl_->entries;
  parser.alt_names = &alt_names;
  XML_Parser xml = XML_ParserCreate(nullptr);
  XML_SetUserData(xml, &parser);
  XML_SetElementHandler(xml, &Parser::on_start, &Parser::on_end);
  XML_SetCharacterDataHandler(xml, &Parser::on_text);
  const bool ok =
      XML_Parse(xml, content.data(), static_cast<int>(content.size()), 1) != XML_STATUS_ERROR;
  std::string error;
  if (!ok) {
    error = "Unimod file '" + unimod_xml_path + "': XML error at line " +
            std::to_string(XML_GetCurrentLineNumber(xml)) + ", byte " +
            std::to_string(XML_GetCurrentByteIndex(xml)) + ": " +
            XML_ErrorString(XML_GetErrorCode(xml));
  }
  XML_ParserFree(xml);
  if (!ok) throw std::runtime_error(error);
  if (impl_->entries.empty()) {
    throw std::runtime_error("Unimod file '" + unimod_xml_path + "' has no <umod:mod> entries");
  }
  // Titles first so that a title always wins over another entry's full or alternative name.
  for (size_t i = 0; i < impl_->entries.size(); ++i) {
    impl_->by_name.emplace(lower(impl_->entries[i].title), i);
    impl_->by_accession.emplace(impl_->entries[i].accession, i);
  }
  for (size_t i = 0; i < impl_->entries.size(); ++i) {
    if (!impl_->entries[i].full_name.empty()) {
      impl_->by_name.emplace(lower(impl_->entries[i].full_name), i);
    }
  }
  for (const auto& [name, i] : alt_names) impl_->by_name.emplace(lower(trim(name)), i);
}

Unimod::~Unimod() = default;

std::pair<double, int> Unimod::lookup(std::string_view title) const {
  const Entry* e = impl_->find(title);
  if (e == nullptr) impl_->unknown(title, title);
  return {e->mono_mass_da, e->accession};
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
    m.mass_delta_da = e.mono_mass_da;
  } else if (parse_mass(name, mass)) {
    if (std::abs(mass) > kMaxModificationMassDa) {
      throw std::invalid_argument("modification '" + std::string(text) + "': mass " +
                                  std::string(name) + " Da is beyond +-10000 Da");
    }
    m.mass_delta_da = mass;
  } else {
    const Entry* e = impl_->find(name);
    if (e == nullptr) impl_->unknown(name, text);
    m.name = e->title;
    m.unimod_accession = e->accession;
    m.mass_delta_da = e->mono_mass_da;
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
    const char r = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (m.residues.find(r) == std::string::npos) m.residues += r;
  }
  if (m.position == ModificationPosition::kAnywhere && m.residues.empty()) {
    throw std::invalid_argument("modification '" + std::string(text) + "' has an empty site");
  }
  return m;
}

}  // namespace ionflow
