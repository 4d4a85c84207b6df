// SearchRuntime: the actor system, the shared scorer pool, and run() as the coordinator of one
// job (spawns the job's actors, builds the peptide index meanwhile, waits for the JobSummary or a
// JobFailure, stops the actors and cleans up).
#include "actors/search_runtime.hpp"

#include <fcntl.h>
#include <malloc.h>
#include <sched.h>
#include <unistd.h>

#include <spdlog/spdlog.h>
#include <caf/all.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <thread>

#include "actors/job_results.hpp"
#include "actors/pipeline.hpp"
#include "io/decompression.hpp"
#include "io/fasta_reader.hpp"
#include "io/file_image.hpp"
#include "io/index_cache.hpp"
#include "io/sha256.hpp"
#include "messages/registration.hpp"
#include "scoring/fragment_index.hpp"
#include "scoring/fragment_slices.hpp"
#include "scoring/peptide_index.hpp"
#include "scoring/precursor_selection.hpp"
#include "scoring/search.hpp"

namespace ionflow {
namespace {

// "job <id>: " before a log line of a job run by `ionflow serve` (its log interleaves many
// jobs); nothing for `ionflow search` (kLocalJobId), whose process runs one job.
std::string log_prefix(const JobSpec& job) {
  return job.id == kLocalJobId ? std::string() : "job " + job.id + ": ";
}

int usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

// The error for running out of memory while building the peptide index.
std::runtime_error out_of_memory_building(const JobSpec& job, size_t protein_count) {
  return std::runtime_error(
      "out of memory while building the peptide index (" + std::to_string(protein_count) +
      " proteins from " + job.fasta_path + ", max_variable_mods " +
      std::to_string(job.search.database.max_variable_modifications) + " with " +
      std::to_string(job.search.database.variable_modifications.size()) +
      " variable modifications); lower database.max_variable_mods, remove variable "
      "modifications or search a smaller database");
}

// The database of a job: its peptide index, or, for a narrow-window search, the digested
// database whose index is built once the queries' masses are known (select_peptides).
struct LoadedDatabase {
  std::shared_ptr<const PeptideIndex> index;  // built (cache hit, or the whole database)
  std::optional<DigestedDatabase> digested;   // else: to build from with a PrecursorSelection
};

// A narrow-window search indexes only the peptides its queries' windows reach, plus the null
// pool (scoring/precursor_selection.hpp), unless the job asks for the whole index: not with the
// fragment-ion prefilter (a wide window: it needs every window peptide) nor with modifications
// FormMassShifts does not model. Such a job does not use the index cache: on the BSA example a
// cache hit (loading 1.47 M forms) took 0.59 s for the whole job, the selected index 0.30 s.
// PrecursorSelection's bitmap takes 32 bytes per Da of peptide_max_mass: above 100,000 Da (no
// tryptic peptide weighs that much; a user may set 1e6 for "no limit") the whole index is built.
constexpr double kMaxSelectedPeptideMassDa = 100000.0;

bool selects_peptides(const JobSpec& job) {
  return !job.whole_index && !wide_precursor_window(job.search) &&
         job.search.database.peptide_max_mass_da <= kMaxSelectedPeptideMassDa &&
         FormMassShifts(job.search.database).supported();
}

// Reads the FASTA file sequentially (decompressing gzip/zstd), checksums the bytes on disk,
// parses it and digests it on `build_threads` threads; builds the whole peptide index unless
// selects_peptides(job). With job.index_cache_directory set, an intact cached index of the same
// FASTA checksum and digestion settings is loaded instead (io/index_cache.hpp), and a freshly
// built one is saved there (a failure to save is reported in `cache_status`, never fails the
// job). Throws (ParseError, std::runtime_error, ...).
LoadedDatabase load_database(const JobSpec& job, std::string& sha256_hex, StageStats& stats,
                             const std::atomic<bool>* cancel, int build_threads,
                             std::string& cache_status) {
  BusyTimer timer;
  // One sequential read of the whole file into pre-faulted memory (io/file_image.hpp); an
  // uncompressed file is parsed right there, a compressed one decompressed into `content`.
  FileImage image;
  try {
    image = FileImage::read(job.fasta_path);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string(e.what()) + " (protein database)");
  }
  Sha256 sha;
  sha.update(image.bytes());
  stats.bytes += image.bytes().size();
  std::string content;
  std::string_view text = image.bytes();
  if (detect_compression(text.substr(0, 4)) != Compression::kNone) {
    Decompressor decompressor(job.fasta_path);
    decompressor.feed(text, content);
    decompressor.finish();
    image = FileImage();
    text = content;
  }
  sha256_hex = sha.hex_digest();
  std::string cache_key, cache_file, miss_reason;
  const bool selecting = selects_peptides(job);
  if (!job.index_cache_directory.empty() && selecting) {
    cache_status = "not used: a narrow-window job indexes only the peptides its queries reach";
  } else if (!job.index_cache_directory.empty()) {
    cache_key = index_cache_key(sha256_hex, job.search, FragmentIndexOptions{});
    cache_file = (std::filesystem::path(job.index_cache_directory) / (cache_key + ".ionflow-index"))
                     .string();
    IndexCacheLoad cached = load_index_cache(cache_file, cache_key);
    if (cached.hit()) {
      cache_status = "hit " + cache_file;
      stats.items = cached.peptides->size();
      stats.busy_seconds = timer.seconds();
      return {cached.peptides, std::nullopt};
    }
    miss_reason = cached.miss_reason;
  }
  FastaOptions options;
  options.decoy_tag = job.search.database.decoy_tag;
  options.tag_is_suffix = job.search.database.decoy_tag_is_suffix;
  std::vector<Protein> proteins = parse_fasta(text, job.fasta_path, options);
  image = FileImage();
  std::string().swap(content);
  if (proteins.empty()) {
    throw std::runtime_error(job.fasta_path +
                             ": no protein entries (an empty file, or no line starting with '>')");
  }
  if (cancel != nullptr && cancel->load()) throw BuildCancelled();
  const size_t protein_count = proteins.size();
  LoadedDatabase loaded;
  try {
    PeptideIndexLimits limits;
    limits.threads = build_threads;
    DigestedDatabase digested =
        digest_database(std::move(proteins), job.search, cancel, limits, selecting);
    if (selecting) {
      loaded.digested.emplace(std::move(digested));
    } else {
      loaded.index = build_peptide_index(std::move(digested), nullptr, cancel, limits);
    }
  } catch (const std::bad_alloc&) {
    throw out_of_memory_building(job, protein_count);
  }
  if (loaded.index && !cache_file.empty()) {
    try {
      std::filesystem::create_directories(job.index_cache_directory);
      save_index_cache(cache_file, cache_key, *loaded.index, nullptr);
      cache_status = "miss (" + miss_reason + "), saved " + cache_file;
    } catch (const std::exception& e) {
      cache_status = "miss (" + miss_reason + "), not saved: " + e.what();
    }
  }
  stats.items = loaded.index ? loaded.index->size() : 0;
  stats.busy_seconds = timer.seconds();
  return loaded;
}

// The index of a narrow-window search: only the peptides the queries' precursor windows reach
// (each query's candidates are exactly the whole index's) and the null pool. Adds its time to
// `stats` and says what it kept in `scope` (JobSummary::index_scope). Throws as
// build_peptide_index.
std::shared_ptr<const PeptideIndex> select_peptides(const JobSpec& job, DigestedDatabase digested,
                                                    const std::vector<double>& query_masses_da,
                                                    int build_threads, StageStats& stats,
                                                    std::string& scope,
                                                    const std::atomic<bool>* cancel) {
  BusyTimer timer;
  const uint64_t occurrences = digested.occurrences();
  const size_t protein_count = digested.proteins();
  const PrecursorSelection selection(query_masses_da, job.search,
                                     job.search.database.peptide_max_mass_da + 1.0);
  PeptideIndexLimits limits;
  limits.threads = build_threads;
  std::shared_ptr<const PeptideIndex> index;
  try {
    index = build_peptide_index(std::move(digested), &selection, cancel, limits);
  } catch (const std::bad_alloc&) {
    throw out_of_memory_building(job, protein_count);
  }
  stats.busy_seconds += timer.seconds();
  stats.items = index->size();
  scope = fmt::format(
      "selected: the peptides within the {} queries' precursor windows ({:.2f}% of the mass "
      "range) and the null sample (1 in {} sequences) of {} digested peptide occurrences",
      query_masses_da.size(), 100.0 * selection.covered_fraction(), null_pool_stride(occurrences),
      occurrences);
  return index;
}

// A database the job cannot search meaningfully: no peptide at all, or (target-decoy FDR needs
// both kinds) no decoys or no targets. With decoys taken from the FASTA (generate_decoys false), a
// decoy tag that matches no accession made every PSM a target with q = 0 (a new user's job with
// "DECOY_" against a "rev_" database passed all 133 PSMs at 1% FDR). Throws std::runtime_error
// naming the file, the tag and an accession.
void check_searchable_database(const JobSpec& job, const PeptideIndex& index) {
  const DatabaseParameters& db = job.search.database;
  const size_t decoys = static_cast<size_t>(std::count_if(
      index.proteins.begin(), index.proteins.end(), [](const Protein& p) { return p.is_decoy; }));
  const size_t targets = index.proteins.size() - decoys;
  // "carry the decoy tag '_rev' as a suffix (first accession: 'X')"
  auto tag_and_first = [&] {
    return "carry the decoy tag '" + db.decoy_tag + "' as a " +
           (db.decoy_tag_is_suffix ? "suffix" : "prefix") + " (first accession: '" +
           index.proteins.front().accession + "')";
  };
  const bool generating = db.decoy_generation != DecoyGeneration::kNone;
  if (generating && !index.proteins.empty() && targets == 0) {
    // Generating decoys drops the FASTA's own: a decoy-only FASTA leaves nothing (a new user
    // was told "no peptides ... 5-50 residues, 500-5000 Da", which pointed at the wrong cause).
    throw std::runtime_error(job.fasta_path + ": all " + std::to_string(index.proteins.size()) +
                             " entries " + tag_and_first() +
                             ", and generate_decoys replaces the FASTA's decoys with reversed "
                             "targets: there is no target to search; give the target FASTA, or "
                             "set \"generate_decoys\": false");
  }
  if (index.empty()) {
    // Headers without sequences, or settings no peptide satisfies: the job would "succeed"
    // with 0 PSMs. index.proteins holds one generated decoy per target after the FASTA's own
    // entries (build_peptide_index): the FASTA's count is reported, not their sum (a new user
    // saw twice the entries of the file).
    const size_t fasta_entries = index.proteins.size() - (generating ? targets : 0);
    const std::string generated =
        generating ? " (nor do the " + std::to_string(targets) + " decoys generated from them)"
                   : std::string();
    throw std::runtime_error(
        job.fasta_path + ": no peptides to search: its " + std::to_string(fasta_entries) +
        " entries give none" + generated + " with enzyme " + db.enzyme.name + ", " +
        std::to_string(db.enzyme.min_length) + "-" + std::to_string(db.enzyme.max_length) +
        " residues, " + fmt::format("{:g}-{:g}", db.peptide_min_mass_da, db.peptide_max_mass_da) +
        " Da");
  }
  if (generating || index.proteins.empty() || (decoys > 0 && targets > 0)) return;
  throw std::runtime_error(
      job.fasta_path + ": " + (decoys == 0 ? "no decoy entries" : "no target entries") + ": " +
      std::to_string(decoys) + " of the " + std::to_string(index.proteins.size()) + " accessions " +
      tag_and_first() +
      ", so q-values cannot be estimated; set database.decoy_tag and decoy_tag_position to the "
      "FASTA's decoys, or \"generate_decoys\": true to search reversed decoys");
}

// Wide precursor windows (open search): the fragment-ion index of the scorers' first pass
// (scoring/fragment_index.hpp), built here when it fits job.fragment_index_budget_bytes (2 GiB by
// default); above it, its slices (scoring/fragment_slices.hpp), which the scorers build on demand
// within that budget (MSFragger's split database). Both give the same candidates. Neither when
// the windows are narrow. Adds its time to `stats`; says what it did in `status`
// (JobSummary::fragment_index) and the log. `stop`: the job's abort flag (stops a slice build).
struct FragmentPrefilter {
  std::shared_ptr<const FragmentIndex> whole;
  std::shared_ptr<FragmentSlices> slices;
};

// "12 MB", or "640 KB" below 1 MB (a tiny budget's slices read "0 MB" before).
std::string megabytes(size_t bytes) {
  if (bytes < (size_t{1} << 20)) return fmt::format("{} KB", (bytes + 1023) >> 10);
  return fmt::format("{} MB", bytes >> 20);
}

FragmentPrefilter build_fragment_prefilter(const JobSpec& job,
                                           const std::shared_ptr<const PeptideIndex>& peptides,
                                           int build_threads, StageStats& stats,
                                           std::string& status, const std::atomic<bool>* cancel,
                                           std::shared_ptr<const std::atomic<bool>> stop) {
  const PeptideIndex& index = *peptides;
  if (!wide_precursor_window(job.search) || index.empty()) return {};
  // Worth building only if windows hold more peptides than the scorer's threshold: count them
  // around the median peptide mass (a ±3 Da window on a small database stays below it).
  std::pair<size_t, size_t> median_window;
  {
    const double median = index.neutral_mass_da(index.size() / 2);
    auto [lo, hi] = job.search.precursor_tolerance.bounds(median);
    auto [first, last] = index.mass_range(median - (hi - median), median + (median - lo));
    median_window = {first, last};
    if (last - first <= kFragmentPrefilterAbove) {
      status = fmt::format("not built: a window holds ~{} peptides (prefilter above {})",
                           last - first, kFragmentPrefilterAbove);
      return {};
    }
  }
  BusyTimer timer;
  FragmentIndexOptions options;
  options.bucket_size = suggested_bucket_size(job.search);
  options.build_threads = static_cast<unsigned>(build_threads);
  options.cancel = cancel;
  const size_t budget = static_cast<size_t>(job.fragment_index_budget_bytes);
  const size_t bytes = estimate_fragment_index_bytes(index, job.search, options, 0, index.size());
  if (bytes > budget) {
    options.cancel = nullptr;  // the slices are built by the scorers: they watch `stop`
    auto slices =
        std::make_shared<FragmentSlices>(peptides, job.search, options, budget, std::move(stop));
    status =
        fmt::format("sliced: {} slices (up to {} each) built on demand within {}", slices->size(),
                    megabytes(slices->max_estimated_slice_bytes()), megabytes(budget));
    spdlog::info(
        "{}wide precursor window: the fragment-ion index would take up to {} (budget {}): "
        "{} slices of up to {}, built by the scorers as their queries reach them",
        log_prefix(job), megabytes(bytes), megabytes(budget), slices->size(),
        megabytes(slices->max_estimated_slice_bytes()));
    // A window that spans more slices than the budget holds makes the scorers drop and rebuild
    // slices for every query (a new user's BSA ±500 Da at 20 MB: 11,362 builds, 134 s against
    // 7 s with the whole index): say so at the start.
    const auto [a, b] = slices->overlapping(median_window.first, median_window.second);
    if (b - a > kSlicesPerBudget) {
      status += fmt::format(
          "; a window spans ~{} slices, more than the {} the budget holds: slices are rebuilt "
          "per query (slow), raise fragment_index_memory_mb",
          b - a, kSlicesPerBudget);
      spdlog::warn(
          "{}a precursor window spans ~{} fragment-index slices but the budget ({}) holds "
          "{}: slices will be rebuilt for every query, which is slow; raise "
          "fragment_index_memory_mb (the whole index needs up to {})",
          log_prefix(job), b - a, megabytes(budget), kSlicesPerBudget, megabytes(bytes));
    }
    return {nullptr, std::move(slices)};
  }
  auto fragments =
      std::make_shared<const FragmentIndex>(FragmentIndex::build(index, job.search, options));
  const double seconds = timer.seconds();
  stats.busy_seconds += seconds;
  status = fmt::format(
      "{} entries ({} MB), built in {:.2f} s; open-search prefilter: top {} of a "
      "window above {} peptides",
      fragments->entries().size(), fragments->bytes() >> 20, seconds, kFragmentTopK,
      kFragmentPrefilterAbove);
  spdlog::info(
      "{}wide precursor window: fragment-ion index of {} entries ({} MB) built in {:.2f} s; "
      "scorers pre-filter by shared fragment peaks",
      log_prefix(job), fragments->entries().size(), fragments->bytes() >> 20, seconds);
  return {std::move(fragments), nullptr};
}

// The same file twice (perhaps through another path) is searched twice, each spectrum competing
// with itself for its q-value: a user rarely means that, so say it (benchmarks may mean it).
void warn_repeated_spectra_files(const JobSpec& job) {
  std::map<std::filesystem::path, size_t> first_of;  // real path -> first index given
  for (size_t i = 0; i < job.spectra_paths.size(); ++i) {
    std::error_code ec;
    const auto real = std::filesystem::weakly_canonical(job.spectra_paths[i], ec);
    if (ec) continue;
    auto [it, inserted] = first_of.emplace(real, i);
    if (!inserted) {
      spdlog::warn(
          "{}spectra file {} is given twice (also as {}): its spectra are searched "
          "twice",
          log_prefix(job), job.spectra_paths[i], job.spectra_paths[it->second]);
    }
  }
}

// JobError messages carry no job id, like the errors of a running job (a file and offset):
// `ionflow search` runs one job and printed "job local: ..." (a new user asked what "local"
// meant); `ionflow serve` stores the message with its job and logs "job <id>: failed: ...".
void validate(JobSpec& job) {
  if (job.spectra_paths.empty()) throw JobError("no spectra files");
  if (job.fasta_path.empty()) throw JobError("no FASTA file");
  if (job.parsers < 1 || job.parsers > 4) {
    throw JobError("parsers must be 1..4, got " + std::to_string(job.parsers));
  }
  if (job.chunk_size == 0) throw JobError("chunk_size must be >= 1");
  if (job.output_directory.empty()) job.output_directory = ".";
  try {
    result_file_names(job);  // rejects unknown formats
  } catch (const std::exception& e) {
    throw JobError(e.what());
  }
  std::error_code ec;
  std::filesystem::create_directories(job.output_directory, ec);
  if (ec) {
    throw JobError("cannot create output directory " + job.output_directory + ": " + ec.message());
  }
  // Probe now that files can be made there, rather than after the whole search.
  const std::string probe = (std::filesystem::path(job.output_directory) /
                             (".ionflow-probe-" + std::to_string(::getpid()) + "-" + job.id))
                                .string();
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0) {
    throw JobError("output directory " + job.output_directory +
                   " is not writable: " + std::strerror(errno));
  }
  ::close(fd);
  ::unlink(probe.c_str());
  if (!job.temp_directory.empty()) std::filesystem::create_directories(job.temp_directory, ec);
}

}  // namespace

struct SearchRuntime::Impl {
  Options options;
  int licensed = 1;
  caf::actor_system_config cfg;
  std::unique_ptr<caf::actor_system> sys;
  std::shared_ptr<JobRegistry> registry = std::make_shared<JobRegistry>();
  std::atomic<int> scorers{1};
  std::atomic<uint64_t> next_job{1};
  caf::actor pool;
};

SearchRuntime::SearchRuntime(Options options) : impl_(std::make_unique<Impl>()) {
  Impl& im = *impl_;
  im.options = options;
  int cores = usable_cores();
  im.licensed = options.licensed_cores > 0 ? options.licensed_cores : cores;
  int initial = options.scorers > 0 ? options.scorers : std::min(im.licensed, cores);
  initial = std::clamp(initial, 1, im.licensed);
  im.scorers = initial;
  register_message_types(im.cfg);
  int threads = options.scheduler_threads > 0 ? options.scheduler_threads : std::max(2, cores);
  im.cfg.set("scheduler.max-threads", threads);
  // Work sharing (one queue, workers sleep on a condition variable): the work-stealing default
  // polls for work, sleeping 50 us between polls, ~4,000 context switches in a 0.2 s BSA job
  // and ~10% of its CPU time; a job has few, coarse messages (chunks), so stealing buys nothing.
  im.cfg.set("scheduler.policy", caf::atom("sharing"));
  im.sys = std::make_unique<caf::actor_system>(im.cfg);
  im.pool = spawn_scorer_pool(*im.sys, im.registry, initial);
}

SearchRuntime::~SearchRuntime() {
  Impl& im = *impl_;
  caf::anon_send_exit(im.pool, caf::exit_reason::user_shutdown);
  im.pool = nullptr;
  im.sys.reset();  // waits for every actor (the scorers stop with the pool)
}

int SearchRuntime::set_scorer_count(int count) {
  int n = std::clamp(count, 1, impl_->licensed);
  impl_->scorers = n;
  caf::anon_send(impl_->pool, ResizePool{n});
  return n;
}

int SearchRuntime::scorer_count() const {
  return impl_->scorers.load();
}
int SearchRuntime::licensed_cores() const {
  return impl_->licensed;
}

JobSummary SearchRuntime::run(const JobSpec& job_in, JobControl* control) {
  Impl& im = *impl_;
  JobSpec job = job_in;
  validate(job);
  warn_repeated_spectra_files(job);
  const uint64_t key = im.next_job++;
  auto ctx = std::make_shared<JobContext>(key, job, control, &im.scorers);

  caf::scoped_actor self{*im.sys};
  JobActors actors = spawn_job_pipeline(*im.sys, ctx, im.pool, caf::actor_cast<caf::actor>(self));
  std::vector<caf::actor> all = actors.all();
  for (const caf::actor& a : all) self->monitor(a);

  JobSummary summary;
  bool finished = false;
  bool cancelled = false;
  std::string error;
  size_t downs = 0;

  // The database is read and digested here while the actors read, parse and sort the spectra.
  // A narrow-window search builds its index when the sorter sends every query's mass
  // (QueryMasses, below); any other builds it at once. Chunks wait for IndexReady.
  const std::atomic<bool>* cancel_flag = control ? &control->cancel : nullptr;
  // The build is compute: it may use every licensed core (the scorers wait for it anyway).
  const int build_threads = std::max(1, std::min(im.licensed, usable_cores()));
  std::string fasta_sha, cache_status;
  StageStats database_stats;
  std::optional<DigestedDatabase> pending;  // digested, waiting for the queries' masses
  // An open search over the fragment-index budget: its slices' builds, for the summary (the
  // counters alone, so that the slices and the peptide index are freed when scoring ends).
  std::shared_ptr<const FragmentSliceCounters> slice_counters;
  // Widens the database stage's activity interval over its work since `busy_before` (its busy
  // seconds then), which ended just now.
  auto note_database_work = [&](double busy_before) {
    const double end = ctx->elapsed_seconds();
    note_active(database_stats, end - (database_stats.busy_seconds - busy_before), end);
  };
  auto publish_index = [&](std::shared_ptr<const PeptideIndex> index, const std::string& scope) {
    StageStats& stats = database_stats;
    const double busy_before = stats.busy_seconds;
    check_searchable_database(job, *index);
    std::string fragment_status;
    FragmentPrefilter prefilter =
        build_fragment_prefilter(job, index, build_threads, stats, fragment_status, cancel_flag,
                                 std::shared_ptr<const std::atomic<bool>>(ctx, &ctx->aborted));
    if (prefilter.slices) slice_counters = prefilter.slices->counters();
    note_database_work(busy_before);
    auto scoring = std::make_shared<JobScoring>();
    scoring->index = index;
    scoring->fragments = std::move(prefilter.whole);
    scoring->fragment_slices = std::move(prefilter.slices);
    scoring->params = job.search;
    scoring->stop = std::shared_ptr<const std::atomic<bool>>(ctx, &ctx->aborted);
    im.registry->add(key, std::move(scoring));
    // The writer drops the index once every chunk is scored (JobContext::release_index): the
    // registry entry and each scorer's SpectrumScorer (ForgetJob). Weak pool handle: the
    // context must not keep an actor alive.
    ctx->set_index_release(
        [registry = im.registry, pool = caf::actor_addr(im.pool.address()), key] {
          registry->remove(key);
          if (auto p = caf::actor_cast<caf::actor>(pool)) caf::anon_send(p, ForgetJob{key});
        });
    StageReport database;
    database.job = key;
    database.from = "database";
    database.stages["database"] = stats;
    database.input_sha256[job.fasta_path] = fasta_sha;
    database.peptides_in_index = index->size();
    database.index_cache = cache_status;
    database.fragment_index = fragment_status;
    database.index_scope = scope;
    self->send(actors.writer, std::move(database));
    self->send(actors.splitter, IndexReady{key, index->size(), stats});
  };
  try {
    LoadedDatabase loaded =
        load_database(job, fasta_sha, database_stats, cancel_flag, build_threads, cache_status);
    note_database_work(0.0);
    if (loaded.index) {
      publish_index(std::move(loaded.index), "");
    } else {
      pending.emplace(std::move(*loaded.digested));
    }
  } catch (const BuildCancelled&) {
    cancelled = true;
  } catch (const std::exception& e) {
    error = e.what();
  }

  while (!finished && !cancelled && error.empty()) {
    self->receive(
        [&](JobSummary& s) {
          summary = std::move(s);
          finished = true;
        },
        [&](JobFailure& f) {
          if (f.job != key) return;
          if (f.cancelled) {
            cancelled = true;
          } else {
            error = f.message;
          }
        },
        [&](QueryMasses& masses) {
          if (masses.job != key || !pending) return;
          try {
            const double busy_before = database_stats.busy_seconds;
            std::string scope;
            auto index = select_peptides(job, std::move(*pending), masses.neutral_masses_da,
                                         build_threads, database_stats, scope, cancel_flag);
            pending.reset();
            note_database_work(busy_before);
            publish_index(std::move(index), scope);
            // The digested database (8-byte peptide ranges, 1.19 M on BSA) is freed: give its
            // pages back now, after IndexReady, so that the scorers need not wait for it.
            ::malloc_trim(0);
          } catch (const BuildCancelled&) {
            cancelled = true;
          } catch (const std::exception& e) {
            error = e.what();
          }
        },
        [&](caf::down_msg& down) {
          ++downs;
          error = "pipeline actor stopped unexpectedly: " + im.sys->render(down.reason);
        },
        caf::after(std::chrono::milliseconds(100)) >> [] {});
    if (!finished && control && control->cancel.load()) cancelled = true;
  }

  // Stop the job's actors and wait until they are gone (temp and spill files closed).
  if (!finished) ctx->aborted = true;
  for (const caf::actor& a : all) self->send_exit(a, caf::exit_reason::user_shutdown);
  bool waiting = true;
  while (waiting && downs < all.size()) {
    self->receive([&](caf::down_msg&) { ++downs; }, [&](JobFailure&) {}, [&](JobSummary&) {},
                  caf::after(std::chrono::seconds(120)) >> [&] { waiting = false; });
  }
  im.registry->remove(key);
  caf::anon_send(im.pool, ForgetJob{key});
  ctx->detach_control();

  if (finished) {
    for (const std::string& w : summary.warnings) spdlog::warn("{}{}", log_prefix(job), w);
    if (slice_counters) {
      // Known only now (results.json was written before): what the scorers' builds came to.
      const FragmentSliceStats st = slice_counters->snapshot();
      summary.fragment_index +=
          fmt::format("; {} builds ({} repeated after eviction), peak {} held", st.builds,
                      st.repeated_builds, megabytes(st.peak_held_bytes));
    }
    return summary;
  }
  remove_job_outputs(job, ctx->committed());
  if (cancelled) throw JobCancelled("job " + job.id + " cancelled");
  throw JobError(error);
}

}  // namespace ionflow
