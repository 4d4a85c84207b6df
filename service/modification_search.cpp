#include "service/modification_search.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <tuple>

namespace ionflow {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

ModificationSearch::ModificationSearch(const Unimod& unimod) {
  for (const UnimodChoice& c : unimod.choices()) {
    for (const UnimodChoice::Site& site : c.sites) {
      Suggestion s{UnimodChoice::mascot_name(c.title, site),
                   c.title,
                   c.full_name,
                   c.accession,
                   c.mono_mass_da,
                   site.hidden};
      if (std::any_of(all_.end() - std::min<size_t>(all_.size(), c.sites.size()), all_.end(),
                      [&](const Suggestion& o) { return o.name == s.name; })) {
        continue;  // a site listed twice (two classifications)
      }
      lower_name_.push_back(lower(s.name));
      lower_title_.push_back(lower(s.title));
      lower_full_.push_back(lower(s.full_name));
      all_.push_back(std::move(s));
    }
  }
}

std::vector<ModificationSearch::Suggestion> ModificationSearch::search(std::string_view text,
                                                                       size_t limit) const {
  const std::string q = lower(text);
  int accession = -1;
  if (q.starts_with("unimod:")) accession = std::atoi(q.c_str() + 7);
  std::vector<std::tuple<int, bool, int, size_t>> ranked;  // rank, hidden, accession, index
  for (size_t i = 0; i < all_.size(); ++i) {
    int rank = -1;
    if (accession >= 0) {
      rank = all_[i].accession == accession ? 0 : -1;
    } else if (q.empty()) {
      rank = all_[i].hidden ? -1 : 0;
    } else if (lower_name_[i].starts_with(q)) {
      rank = 0;
    } else if (lower_title_[i].starts_with(q)) {
      rank = 1;
    } else if (lower_title_[i].find(q) != std::string::npos ||
               lower_full_[i].find(q) != std::string::npos) {
      rank = 2;
    }
    if (rank >= 0) ranked.emplace_back(rank, all_[i].hidden, all_[i].accession, i);
  }
  const size_t n = std::min(limit, ranked.size());
  std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(n), ranked.end(),
                    [&](const auto& a, const auto& b) {
                      if (std::get<0>(a) != std::get<0>(b)) return std::get<0>(a) < std::get<0>(b);
                      if (std::get<1>(a) != std::get<1>(b)) return !std::get<1>(a);
                      if (std::get<2>(a) != std::get<2>(b)) return std::get<2>(a) < std::get<2>(b);
                      return all_[std::get<3>(a)].name < all_[std::get<3>(b)].name;
                    });
  std::vector<Suggestion> out;
  for (size_t i = 0; i < n; ++i) out.push_back(all_[std::get<3>(ranked[i])]);
  return out;
}

JsonValue ModificationSearch::search_json(std::string_view text, size_t limit) const {
  JsonValue list = JsonValue::array();
  for (const Suggestion& s : search(text, limit)) {
    JsonValue o = JsonValue::object();
    o.set("name", s.name);
    o.set("title", s.title);
    o.set("full_name", s.full_name);
    o.set("accession", s.accession);
    o.set("mono_mass_da", s.mono_mass_da);
    o.set("hidden", s.hidden);
    list.push_back(std::move(o));
  }
  JsonValue o = JsonValue::object();
  o.set("modifications", std::move(list));
  return o;
}

}  // namespace ionflow
