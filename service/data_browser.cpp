#include "service/data_browser.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>

namespace ionflow {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxEntries = 5000;

bool inside(const fs::path& p, const fs::path& root) {
  const fs::path rel = p.lexically_relative(root);
  if (rel.empty()) return false;
  for (const auto& part : rel) {
    if (part == "..") return false;
  }
  return true;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Throws DataBrowserError unless `p` lies inside a root, as written and through links.
void check_inside_roots(const std::vector<std::string>& roots, const fs::path& p) {
  for (const auto& root_text : roots) {
    const fs::path root = fs::path(root_text).lexically_normal();
    if (!inside(p, root)) continue;
    std::error_code ec, root_ec;
    const fs::path real = fs::weakly_canonical(p, ec);
    const fs::path real_root = fs::weakly_canonical(root, root_ec);
    if (!ec && !root_ec && inside(real, real_root)) return;
  }
  throw DataBrowserError(400, "path outside the server's data roots: " + p.string());
}

}  // namespace

std::string data_file_kind(const std::string& name) {
  std::string n = lower(name);
  for (const char* z : {".gz", ".zst"}) {
    if (n.size() > std::strlen(z) && n.ends_with(z)) n.resize(n.size() - std::strlen(z));
  }
  if (n.ends_with(".mzml") || n.ends_with(".mgf")) return "spectra";
  if (n.ends_with(".fasta") || n.ends_with(".fa") || n.ends_with(".faa")) return "fasta";
  return "";
}

JsonValue list_data_directory(const std::vector<std::string>& roots, const std::string& path) {
  JsonValue o = JsonValue::object();
  JsonValue root_list = JsonValue::array();
  for (const auto& r : roots) root_list.push_back(fs::path(r).lexically_normal().string());
  o.set("roots", std::move(root_list));
  JsonValue entries = JsonValue::array();
  if (path.empty()) {
    for (const auto& r : roots) {
      JsonValue e = JsonValue::object();
      const fs::path p = fs::path(r).lexically_normal();
      e.set("name", p.string());
      e.set("path", p.string());
      e.set("type", "directory");
      entries.push_back(std::move(e));
    }
    o.set("path", "");
    o.set("parent", "");
    o.set("entries", std::move(entries));
    return o;
  }
  fs::path p(path);
  if (!p.is_absolute()) throw DataBrowserError(400, "path must be absolute: " + path);
  for (const auto& part : p) {
    if (part == "..") throw DataBrowserError(400, "path contains \"..\": " + path);
  }
  p = p.lexically_normal();
  if (!p.has_filename() && p != p.root_path()) p = p.parent_path();  // "/data/" -> "/data"
  bool is_root = false;
  for (const auto& r : roots) {
    fs::path root = fs::path(r).lexically_normal();
    if (!root.has_filename() && root != root.root_path()) root = root.parent_path();
    is_root = is_root || root == p;
  }
  if (!is_root) check_inside_roots(roots, p);
  std::error_code ec;
  if (!fs::is_directory(p, ec)) throw DataBrowserError(404, "no such directory: " + p.string());
  struct Item {
    std::string name;
    bool directory;
    uint64_t bytes;
  };
  std::vector<Item> items;
  bool truncated = false;
  for (fs::directory_iterator it(p, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    if (items.size() >= kMaxEntries) {
      truncated = true;
      break;
    }
    std::error_code type_ec;
    const bool directory = it->is_directory(type_ec);
    uint64_t bytes = 0;
    if (!directory) {
      std::error_code size_ec;
      bytes = it->file_size(size_ec);
      if (size_ec) bytes = 0;
    }
    items.push_back({name, directory, bytes});
  }
  std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    if (a.directory != b.directory) return a.directory;
    return a.name < b.name;
  });
  for (const Item& item : items) {
    JsonValue e = JsonValue::object();
    e.set("name", item.name);
    e.set("path", (p / item.name).string());
    e.set("type", item.directory ? "directory" : "file");
    if (!item.directory) {
      e.set("bytes", item.bytes);
      e.set("kind", data_file_kind(item.name));
    }
    entries.push_back(std::move(e));
  }
  o.set("path", p.string());
  o.set("parent", is_root ? std::string() : p.parent_path().string());
  o.set("entries", std::move(entries));
  if (truncated) o.set("truncated", true);
  return o;
}

}  // namespace ionflow
