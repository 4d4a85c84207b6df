#include "scoring/search_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <utility>

#include "scoring/precursor_selection.hpp"
#include "scoring/search.hpp"

namespace ionflow {

bool selects_peptides(const SearchParameters& params, bool whole_index) {
  return !whole_index && !wide_precursor_window(params) &&
         params.database.peptide_max_mass_da <= kMaxSelectedPeptideMassDa &&
         FormMassShifts(params.database).supported();
}

std::runtime_error out_of_memory_building(const std::string& fasta_path,
                                          const DatabaseParameters& db, size_t protein_count) {
  return std::runtime_error(
      "out of memory while building the peptide index (" + std::to_string(protein_count) +
      " proteins from " + fasta_path + ", max_variable_mods " +
      std::to_string(db.max_variable_modifications) + " with " +
      std::to_string(db.variable_modifications.size()) +
      " variable modifications); lower database.max_variable_mods, remove variable "
      "modifications or search a smaller database");
}

void check_searchable_database(const std::string& fasta_path, const DatabaseParameters& db,
                               const PeptideIndex& index) {
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
    throw std::runtime_error(fasta_path + ": all " + std::to_string(index.proteins.size()) +
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
        fasta_path + ": no peptides to search: its " + std::to_string(fasta_entries) +
        " entries give none" + generated + " with enzyme " + db.enzyme.name + ", " +
        std::to_string(db.enzyme.min_length) + "-" + std::to_string(db.enzyme.max_length) +
        " residues, " + fmt::format("{:g}-{:g}", db.peptide_min_mass_da, db.peptide_max_mass_da) +
        " Da");
  }
  if (generating || index.proteins.empty() || (decoys > 0 && targets > 0)) return;
  throw std::runtime_error(
      fasta_path + ": " + (decoys == 0 ? "no decoy entries" : "no target entries") + ": " +
      std::to_string(decoys) + " of the " + std::to_string(index.proteins.size()) + " accessions " +
      tag_and_first() +
      ", so q-values cannot be estimated; set database.decoy_tag and decoy_tag_position to the "
      "FASTA's decoys, or \"generate_decoys\": true to search reversed decoys");
}

namespace {

// Builds with `build(selection, limits)` the index of what `query_masses_da` select from a digest
// of `occurrences` occurrences and `protein_count` proteins, and says so in `scope`.
template <typename Build>
SelectedIndex selected_index(uint64_t occurrences, size_t protein_count,
                             const std::vector<double>& query_masses_da,
                             const SearchParameters& params, const std::string& fasta_path,
                             int build_threads, Build build) {
  const PrecursorSelection selection(query_masses_da, params,
                                     params.database.peptide_max_mass_da + 1.0);
  PeptideIndexLimits limits;
  limits.threads = build_threads;
  SelectedIndex out;
  try {
    out.index = build(selection, limits);
  } catch (const std::bad_alloc&) {
    throw out_of_memory_building(fasta_path, params.database, protein_count);
  }
  out.covered_fraction = selection.covered_fraction();
  out.scope = fmt::format(
      "selected: the peptides within the {} queries' precursor windows ({:.2f}% of the mass "
      "range) and the null sample (1 in {} sequences) of {} digested peptide occurrences",
      query_masses_da.size(), 100.0 * out.covered_fraction, null_pool_stride(occurrences),
      occurrences);
  return out;
}

}  // namespace

SelectedIndex build_selected_index(DigestedDatabase digested,
                                   const std::vector<double>& query_masses_da,
                                   const SearchParameters& params, const std::string& fasta_path,
                                   int build_threads, const std::atomic<bool>* cancel) {
  const uint64_t occurrences = digested.occurrences();
  const size_t proteins = digested.proteins();
  return selected_index(occurrences, proteins, query_masses_da, params, fasta_path, build_threads,
                        [&](const PrecursorSelection& selection, PeptideIndexLimits limits) {
                          return build_peptide_index(std::move(digested), &selection, cancel,
                                                     limits);
                        });
}

SelectedIndex build_run_index(const DigestedDatabase& digested,
                              const std::vector<double>& query_masses_da,
                              const SearchParameters& params, const std::string& fasta_path,
                              int build_threads, const std::atomic<bool>* cancel) {
  return selected_index(digested.occurrences(), digested.proteins(), query_masses_da, params,
                        fasta_path, build_threads,
                        [&](const PrecursorSelection& selection, PeptideIndexLimits limits) {
                          return build_selected_peptide_index(digested, selection, cancel, limits);
                        });
}

std::string megabytes(size_t bytes) {
  if (bytes < (size_t{1} << 20)) return fmt::format("{} KB", (bytes + 1023) >> 10);
  return fmt::format("{} MB", bytes >> 20);
}

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The slices of a fragment index of `bytes` over the budget; says so in `out`.
void plan_slices(FragmentPrefilter& out, const std::shared_ptr<const PeptideIndex>& peptides,
                 const SearchParameters& params, FragmentIndexOptions options, size_t budget,
                 size_t bytes, std::pair<size_t, size_t> median_window,
                 std::shared_ptr<const std::atomic<bool>> stop) {
  options.cancel = nullptr;  // the slices are built by the scorers: they watch `stop`
  auto slices =
      std::make_shared<FragmentSlices>(peptides, params, options, budget, std::move(stop));
  out.status =
      fmt::format("sliced: {} slices (up to {} each) built on demand within {}", slices->size(),
                  megabytes(slices->max_estimated_slice_bytes()), megabytes(budget));
  out.info = fmt::format(
      "wide precursor window: the fragment-ion index would take up to {} (budget {}): "
      "{} slices of up to {}, built by the scorers as their queries reach them",
      megabytes(bytes), megabytes(budget), slices->size(),
      megabytes(slices->max_estimated_slice_bytes()));
  // A window that spans more slices than the budget holds makes the scorers drop and rebuild
  // slices for every query (a new user's BSA ±500 Da at 20 MB: 11,362 builds, 134 s against
  // 7 s with the whole index): say so at the start.
  const auto [a, b] = slices->overlapping(median_window.first, median_window.second);
  if (b - a > kSlicesPerBudget) {
    out.status += fmt::format(
        "; a window spans ~{} slices, more than the {} the budget holds: slices are rebuilt "
        "per query (slow), raise fragment_index_memory_mb",
        b - a, kSlicesPerBudget);
    out.warning = fmt::format(
        "a precursor window spans ~{} fragment-index slices but the budget ({}) holds "
        "{}: slices will be rebuilt for every query, which is slow; raise "
        "fragment_index_memory_mb (the whole index needs up to {})",
        b - a, megabytes(budget), kSlicesPerBudget, megabytes(bytes));
  }
  out.slices = std::move(slices);
}

}  // namespace

FragmentPrefilter build_fragment_prefilter(const std::shared_ptr<const PeptideIndex>& peptides,
                                           const SearchParameters& params, size_t budget_bytes,
                                           int build_threads, const std::atomic<bool>* cancel,
                                           std::shared_ptr<const std::atomic<bool>> stop) {
  const PeptideIndex& index = *peptides;
  FragmentPrefilter out;
  if (!wide_precursor_window(params) || index.empty()) return out;
  // Worth building only if windows hold more peptides than the scorer's threshold: count them
  // around the median peptide mass (a ±3 Da window on a small database stays below it).
  std::pair<size_t, size_t> median_window;
  {
    const double median = index.neutral_mass_da(index.size() / 2);
    auto [lo, hi] = params.precursor_tolerance.bounds(median);
    auto [first, last] = index.mass_range(median - (hi - median), median + (median - lo));
    median_window = {first, last};
    if (last - first <= kFragmentPrefilterAbove) {
      out.status = fmt::format("not built: a window holds ~{} peptides (prefilter above {})",
                               last - first, kFragmentPrefilterAbove);
      return out;
    }
  }
  const auto start = std::chrono::steady_clock::now();
  FragmentIndexOptions options;
  options.bucket_size = suggested_bucket_size(params);
  options.build_threads = static_cast<unsigned>(build_threads);
  options.cancel = cancel;
  const size_t bytes = estimate_fragment_index_bytes(index, params, options, 0, index.size());
  if (bytes > budget_bytes) {
    plan_slices(out, peptides, params, options, budget_bytes, bytes, median_window,
                std::move(stop));
    return out;
  }
  out.whole = std::make_shared<const FragmentIndex>(FragmentIndex::build(index, params, options));
  out.build_seconds = seconds_since(start);
  out.status = fmt::format(
      "{} entries ({} MB), built in {:.2f} s; open-search prefilter: top {} of a "
      "window above {} peptides",
      out.whole->entries().size(), out.whole->bytes() >> 20, out.build_seconds, kFragmentTopK,
      kFragmentPrefilterAbove);
  out.info = fmt::format(
      "wide precursor window: fragment-ion index of {} entries ({} MB) built in {:.2f} s; "
      "scorers pre-filter by shared fragment peaks",
      out.whole->entries().size(), out.whole->bytes() >> 20, out.build_seconds);
  return out;
}

}  // namespace ionflow
