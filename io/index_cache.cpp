// Index cache on disk (see index_cache.hpp for the key and the file layout).
#include "io/index_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <type_traits>
#include <vector>

#include "io/sha256.hpp"

namespace ionflow {

namespace {

constexpr char kMagic[8] = {'I', 'O', 'N', 'F', 'L', 'O', 'W', 'X'};

// ---- canonical parameter text for the key ----

void put_double(std::ostringstream& out, const char* name, double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  out << name << '=' << buf << '\n';
}

void put_modification(std::ostringstream& out, const char* kind, const Modification& m) {
  out << kind << '=' << m.name.size() << ':' << m.name << '|' << m.unimod_accession << '|'
      << static_cast<int>(m.position) << '|' << m.residues.size() << ':' << m.residues << '|'
      << m.fixed << '|';
  put_double(out, "delta", m.mass_delta_da);
}

// ---- payload writer ----

class Writer {
 public:
  template <typename T>
  void pod(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes_.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void str(const std::string& s) {
    pod<uint64_t>(s.size());
    bytes_.append(s);
  }
  template <typename T>
  void pods(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    pod<uint64_t>(v.size());
    if (!v.empty()) bytes_.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
  std::string& bytes() { return bytes_; }

 private:
  std::string bytes_;
};

// ---- payload reader: every read bounds-checked, failures name the byte offset ----

struct Damaged : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Reader {
 public:
  Reader(std::string_view bytes, const char* part) : bytes_(bytes), part_(part) {}

  template <typename T>
  T pod(const char* what) {
    static_assert(std::is_trivially_copyable_v<T>);
    need(sizeof(T), what);
    T v;
    std::memcpy(&v, bytes_.data() + pos_, sizeof v);
    pos_ += sizeof v;
    return v;
  }
  std::string str(const char* what) {
    const uint64_t n = pod<uint64_t>(what);
    need(n, what);
    std::string s(bytes_.substr(pos_, n));
    pos_ += n;
    return s;
  }
  template <typename T>
  std::vector<T> pods(const char* what) {
    const uint64_t n = count(sizeof(T), what);
    std::vector<T> v(n);
    if (n > 0) std::memcpy(v.data(), bytes_.data() + pos_, n * sizeof(T));
    pos_ += n * sizeof(T);
    return v;
  }
  // A count of items of at least `min_item_bytes` each that must fit in what is left.
  uint64_t count(size_t min_item_bytes, const char* what) {
    const uint64_t n = pod<uint64_t>(what);
    if (min_item_bytes > 0 && n > (bytes_.size() - pos_) / min_item_bytes) {
      fail(std::string(what) + " count " + std::to_string(n) + " past the end");
    }
    return n;
  }
  bool at_end() const { return pos_ == bytes_.size(); }
  [[noreturn]] void fail(const std::string& message) const {
    throw Damaged(std::string(part_) + " byte " + std::to_string(pos_) + ": " + message);
  }

 private:
  void need(uint64_t n, const char* what) {
    if (n > bytes_.size() - pos_)
      fail(std::string(what) + " of " + std::to_string(n) + " bytes past the end");
  }
  std::string_view bytes_;
  const char* part_;  // "header" or "payload"
  size_t pos_ = 0;
};

void write_payload(Writer& w, const PeptideIndex& index, const FragmentIndex* fragments) {
  w.pod<uint64_t>(index.proteins.size());
  for (const Protein& p : index.proteins) {
    w.str(p.accession);
    w.str(p.description);
    w.str(p.sequence);
    w.pod<uint8_t>(p.is_decoy);
  }
  w.pod<uint64_t>(index.modifications.size());
  for (const Modification& m : index.modifications) {
    w.str(m.name);
    w.pod<int32_t>(m.unimod_accession);
    w.pod<double>(m.mass_delta_da);
    w.pod<int32_t>(static_cast<int32_t>(m.position));
    w.str(m.residues);
    w.pod<uint8_t>(m.fixed);
  }
  // The peptide columns as they are in memory (PeptideIndex::assign_columns checks them on load).
  w.pods(index.masses());
  w.pods(index.records());
  w.str(index.residues());
  w.pods(index.placed_modifications());
  w.pods(index.occurrences());
  if (fragments != nullptr) {
    const FragmentIndexOptions& o = fragments->options();
    w.pod<double>(o.fragment_min_mz);
    w.pod<double>(o.fragment_max_mz);
    w.pod<uint32_t>(o.bucket_size);
    w.pod<uint32_t>(fragments->first_peptide());
    w.pod<uint32_t>(fragments->last_peptide());
    w.pods(fragments->buckets());
    w.pods(fragments->entries());
  }
}

void read_payload(Reader& r, bool has_fragments, IndexCacheLoad& out) {
  auto index = std::make_shared<PeptideIndex>();
  const uint64_t n_proteins = r.count(8 * 3 + 1, "protein");
  std::vector<Protein> proteins(n_proteins);
  for (Protein& p : proteins) {
    p.accession = r.str("protein accession");
    p.description = r.str("protein description");
    p.sequence = r.str("protein sequence");
    p.is_decoy = r.pod<uint8_t>("protein decoy flag") != 0;
  }
  index->proteins = std::move(proteins);
  const uint64_t n_mods = r.count(8 + 4 + 8 + 4 + 8 + 1, "modification");
  index->modifications.resize(n_mods);
  for (Modification& m : index->modifications) {
    m.name = r.str("modification name");
    m.unimod_accession = r.pod<int32_t>("modification accession");
    m.mass_delta_da = r.pod<double>("modification mass");
    const int32_t position = r.pod<int32_t>("modification position");
    if (position < 0 || position > static_cast<int32_t>(ModificationPosition::kProteinCTerm)) {
      r.fail("modification position " + std::to_string(position) + " unknown");
    }
    m.position = static_cast<ModificationPosition>(position);
    m.residues = r.str("modification residues");
    m.fixed = r.pod<uint8_t>("modification fixed flag") != 0;
  }
  auto masses = r.pods<double>("peptide masses");
  auto records = r.pods<PeptideRecord>("peptide records");
  auto residues = r.str("peptide residues");
  auto placed = r.pods<PlacedModification>("peptide modifications");
  auto occurrences = r.pods<PeptideOccurrence>("peptide occurrences");
  const uint64_t n_peptides = masses.size();
  try {
    index->assign_columns(std::move(masses), std::move(records), std::move(residues),
                          std::move(placed), std::move(occurrences));
  } catch (const std::invalid_argument& e) {
    r.fail(e.what());
  }
  if (has_fragments) {
    FragmentIndexOptions o;
    o.fragment_min_mz = r.pod<double>("fragment min m/z");
    o.fragment_max_mz = r.pod<double>("fragment max m/z");
    o.bucket_size = r.pod<uint32_t>("bucket size");
    const uint32_t first = r.pod<uint32_t>("first peptide");
    const uint32_t last = r.pod<uint32_t>("last peptide");
    if (first != 0 || last != n_peptides) r.fail("fragment index is not over the whole index");
    auto buckets = r.pods<FragmentBucket>("fragment buckets");
    auto entries = r.pods<FragmentEntry>("fragment entries");
    for (size_t b = 0; b + 1 < buckets.size(); ++b) {
      if (buckets[b].max_peptide - buckets[b].min_peptide + 1 != o.bucket_size) {
        r.fail("fragment bucket " + std::to_string(b) + " does not hold bucket_size peptides");
      }
    }
    try {
      out.fragments = std::make_shared<const FragmentIndex>(
          FragmentIndex::from_parts(std::move(entries), std::move(buckets), first, last, o));
    } catch (const std::invalid_argument& e) {
      r.fail(e.what());
    }
  }
  if (!r.at_end()) r.fail("bytes after the payload");
  out.peptides = std::move(index);
}

IndexCacheLoad miss(const std::string& path, const std::string& reason) {
  IndexCacheLoad out;
  out.miss_reason = path + ": " + reason;
  return out;
}

// The OS's text for errno `error` ("No space left on device"); thread-safe, unlike strerror.
std::string os_reason(int error) {
  return std::system_category().message(error);
}

// Creates or truncates `path` and writes `parts` to it. "" on success, else what failed and the
// OS reason (a full disk shows only at write or close).
std::string write_whole_file(const std::string& path,
                             std::initializer_list<std::string_view> parts) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) return "cannot create: " + os_reason(errno);
  uint64_t written = 0;
  for (std::string_view part : parts) {
    while (!part.empty()) {
      const ssize_t n = ::write(fd, part.data(), part.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        const int error = errno;
        ::close(fd);
        return "write failed at byte " + std::to_string(written) + ": " + os_reason(error);
      }
      part.remove_prefix(static_cast<size_t>(n));
      written += static_cast<uint64_t>(n);
    }
  }
  if (::close(fd) != 0) return "close failed: " + os_reason(errno);
  return "";
}

// Reads all of `path` into `bytes`. "" on success, else why not: "no such file", "is a
// directory", "not a regular file", or what failed with the OS reason (EACCES, EIO, ...).
// O_NONBLOCK: opening a FIFO does not wait for a writer (it is then rejected as not regular).
std::string read_whole_file(const std::string& path, std::string& bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    const int error = errno;
    return error == ENOENT ? "no such file" : "cannot open: " + os_reason(error);
  }
  struct stat st {};
  std::string reason;
  if (::fstat(fd, &st) != 0) {
    reason = "cannot stat: " + os_reason(errno);
  } else if (S_ISDIR(st.st_mode)) {
    reason = "is a directory, not an index cache file";
  } else if (!S_ISREG(st.st_mode)) {
    reason = "not a regular file";
  }
  size_t used = 0;
  // One byte more than the size, so that end of file shows without growing the buffer.
  bytes.resize(reason.empty() ? static_cast<size_t>(st.st_size) + 1 : 0);
  while (reason.empty()) {
    if (used == bytes.size()) bytes.resize(std::max<size_t>(2 * bytes.size(), 1 << 16));
    const ssize_t n = ::read(fd, bytes.data() + used, bytes.size() - used);
    if (n == 0) break;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      reason = "read error at byte " + std::to_string(used) + ": " + os_reason(errno);
      break;
    }
    used += static_cast<size_t>(n);
  }
  ::close(fd);
  bytes.resize(reason.empty() ? used : 0);
  return reason;
}

void remove_file_quietly(const std::string& path) {
  ::unlink(path.c_str());  // never a directory; an absent file is fine
}

}  // namespace

std::string index_cache_key(std::string_view fasta_sha256_hex, const SearchParameters& params,
                            const FragmentIndexOptions& options) {
  const DatabaseParameters& db = params.database;
  const EnzymeParameters& e = db.enzyme;
  std::ostringstream out;
  out << "ionflow index cache " << kIndexCacheVersion << '\n';
  out << "fasta=" << fasta_sha256_hex << '\n';
  out << "enzyme=" << e.name.size() << ':' << e.name << '|' << e.cleave_at.size() << ':'
      << e.cleave_at << '|' << e.restrict.size() << ':' << e.restrict << '|' << e.c_terminal << '|'
      << e.semi_enzymatic << '|' << e.missed_cleavages << '|' << e.min_length << '|' << e.max_length
      << '\n';
  for (const Modification& m : db.fixed_modifications) put_modification(out, "fixed", m);
  for (const Modification& m : db.variable_modifications) put_modification(out, "variable", m);
  out << "max_variable=" << db.max_variable_modifications << '\n';
  out << "decoy=" << db.decoy_tag.size() << ':' << db.decoy_tag << '|' << db.decoy_tag_is_suffix
      << '|' << static_cast<int>(db.decoy_generation) << '|' << db.clip_n_terminal_methionine
      << '\n';
  put_double(out, "peptide_min_mass_da", db.peptide_min_mass_da);
  put_double(out, "peptide_max_mass_da", db.peptide_max_mass_da);
  out << "ion_types=" << params.ion_types << '\n';
  put_double(out, "fragment_min_mz", options.fragment_min_mz);
  put_double(out, "fragment_max_mz", options.fragment_max_mz);
  out << "bucket_size=" << options.bucket_size << '\n';
  return sha256_hex(out.str());
}

void save_index_cache(const std::string& path, const std::string& key, const PeptideIndex& peptides,
                      const FragmentIndex* fragments, int zstd_level) {
  if (fragments != nullptr &&
      (fragments->first_peptide() != 0 || fragments->last_peptide() != peptides.size())) {
    throw std::runtime_error(path +
                             ": only a fragment index over the whole peptide index can be "
                             "cached, not a slice");
  }
  Writer payload;
  write_payload(payload, peptides, fragments);
  const std::string& raw = payload.bytes();

  std::string compressed(ZSTD_compressBound(raw.size()), '\0');
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  if (cctx == nullptr) throw std::runtime_error(path + ": zstd context allocation failed");
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, zstd_level);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
  const size_t n =
      ZSTD_compress2(cctx, compressed.data(), compressed.size(), raw.data(), raw.size());
  ZSTD_freeCCtx(cctx);
  if (ZSTD_isError(n)) {
    throw std::runtime_error(path + ": zstd compression failed: " + ZSTD_getErrorName(n));
  }
  compressed.resize(n);

  Writer header;
  header.bytes().append(kMagic, sizeof kMagic);
  header.pod<uint32_t>(kIndexCacheVersion);
  header.pod<uint32_t>(static_cast<uint32_t>(key.size()));
  header.bytes().append(key);
  header.pod<uint64_t>(raw.size());
  header.pod<uint8_t>(fragments != nullptr);

  // Any failure removes the partial `path`.tmp: a full disk must not keep a dead file filling it.
  const std::string tmp = path + ".tmp";
  const std::string error = write_whole_file(tmp, {header.bytes(), compressed});
  if (!error.empty()) {
    remove_file_quietly(tmp);
    throw std::runtime_error(tmp + ": cannot write the index cache: " + error);
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    remove_file_quietly(tmp);
    throw std::runtime_error(path + ": cannot rename " + tmp + ": " + ec.message());
  }
}

IndexCacheLoad load_index_cache(const std::string& path, const std::string& key) {
  std::string file;
  const std::string unreadable = read_whole_file(path, file);
  if (!unreadable.empty()) return miss(path, unreadable);

  Reader header(file, "header");
  try {
    if (file.size() < sizeof kMagic || std::memcmp(file.data(), kMagic, sizeof kMagic) != 0) {
      return miss(path, "bad magic (not an ionflow index cache)");
    }
    header.pod<uint64_t>("magic");
    const uint32_t version = header.pod<uint32_t>("version");
    if (version != kIndexCacheVersion) {
      return miss(path, "format version " + std::to_string(version) + ", expected " +
                            std::to_string(kIndexCacheVersion));
    }
    const uint32_t key_size = header.pod<uint32_t>("key length");
    if (key_size != key.size()) return miss(path, "key differs (stale)");
    const size_t key_at = sizeof kMagic + 8;
    if (file.size() < key_at + key_size + 9) return miss(path, "truncated header");
    if (file.compare(key_at, key_size, key) != 0) {
      return miss(path, "key differs (stale)");
    }
    for (size_t i = 0; i < key_size; ++i) header.pod<char>("key");
    const uint64_t payload_size = header.pod<uint64_t>("payload size");
    const uint8_t has_fragments = header.pod<uint8_t>("fragment flag");
    if (has_fragments > 1) return miss(path, "bad fragment flag");
    const size_t frame_at = key_at + key_size + 8 + 1;
    const char* frame = file.data() + frame_at;
    const size_t frame_size = file.size() - frame_at;
    // RFC 8878 3.1.1.2: a block regenerates at most 128 KiB and takes at least 4 bytes (3-byte
    // header, 1-byte RLE content), so a frame holds at most 32768 times its size. A larger
    // declared size is damage, and allocating it could fail (std::length_error) or exhaust memory.
    if (payload_size / 32768 > frame_size) {
      return miss(path, "payload size " + std::to_string(payload_size) + " exceeds what the " +
                            std::to_string(frame_size) + "-byte zstd frame can hold");
    }
    const unsigned long long content = ZSTD_getFrameContentSize(frame, frame_size);
    if (content == ZSTD_CONTENTSIZE_ERROR || content == ZSTD_CONTENTSIZE_UNKNOWN ||
        content != payload_size) {
      return miss(path, "zstd frame at byte " + std::to_string(frame_at) +
                            " does not declare the payload size " + std::to_string(payload_size));
    }
    std::string raw(payload_size, '\0');
    const size_t n = ZSTD_decompress(raw.data(), raw.size(), frame, frame_size);
    if (ZSTD_isError(n)) {
      return miss(path, std::string("zstd frame at byte ") + std::to_string(frame_at) + ": " +
                            ZSTD_getErrorName(n));
    }
    if (n != payload_size) return miss(path, "payload shorter than declared");
    file.clear();
    file.shrink_to_fit();
    Reader payload(raw, "payload");
    IndexCacheLoad out;
    read_payload(payload, has_fragments == 1, out);
    return out;
  } catch (const Damaged& e) {
    return miss(path, e.what());
  }
}

}  // namespace ionflow
