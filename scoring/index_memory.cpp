// Index memory estimate (index_memory.hpp): one digestion pass that counts occurrences and
// samples form bounds, then the phase arithmetic.
#include "scoring/index_memory.hpp"

#include <algorithm>
#include <cstdio>

#include "scoring/digest.hpp"
#include "scoring/enzyme.hpp"
#include "scoring/index_records.hpp"
#include "scoring/modified_forms.hpp"
#include "scoring/parallel.hpp"
#include "scoring/protein_slices.hpp"

namespace ionflow {

namespace {

// The digest phase of `e` (its residues, occurrences and whole_index set).
uint64_t digest_phase_bytes(const IndexMemoryEstimate& e) {
  const double record_bytes = e.whole_index ? kDigestRecordBytes : kDigestRangeBytes;
  return static_cast<uint64_t>(kBaseBytes + static_cast<double>(e.residues) +
                               static_cast<double>(e.occurrences) * record_bytes *
                                   kDigestPhaseFactor);
}

// What one slice of the proteins adds to the estimate.
struct SliceCount {
  uint64_t proteins = 0, residues = 0, occurrences = 0, sampled = 0;
  double sampled_forms = 0;
  uint64_t unspecific_forms = 0;  // an unspecific digest's forms, scaled per protein
};

// a + b, at most UINT64_MAX.
uint64_t saturating_add(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

// What estimate_index_memory's slices read.
struct EstimateWork {
  const std::vector<Protein>& proteins;
  const DatabaseParameters& db;
  const Enzyme& enzyme;
  const DigestOptions& options;
  const ModificationPlacer& placer;
  const std::atomic<bool>* cancel;
};

// An unspecific digest's occurrences of `sequence`, counted per start (count_unspecific_starts)
// rather than made. Its forms: the mean bound of at most kMaxUnspecificFormSamples occurrences,
// evenly spread in digest()'s order (by start, then length), times its occurrences, added to
// c.unspecific_forms `copies` times: scaled per protein, so that a long protein's long peptides
// weigh by their number (an unweighted mean over proteins was 35% low at max_len 300 on E. coli,
// by a review's measure). Integer
// arithmetic: the sum is the same in any slicing.
uint64_t count_unspecific(const EstimateWork& w, std::string_view sequence, uint64_t copies,
                          std::vector<uint32_t>& per_start, SliceCount& c) {
  count_unspecific_starts(sequence, w.options, per_start);
  uint64_t total = 0;
  for (uint32_t n : per_start) total += n;
  const uint64_t samples = std::min<uint64_t>(total, kMaxUnspecificFormSamples);
  uint64_t before = 0;  // occurrences of the starts before `a`
  uint32_t a = 0;
  uint64_t sampled_forms = 0;
  const auto min_len = static_cast<uint32_t>(std::max(w.options.min_length, 1));
  for (uint64_t k = 0; k < samples; ++k) {
    const uint64_t j = (2 * k + 1) * total / (2 * samples);  // the k-th sample's index
    while (before + per_start[a] <= j) before += per_start[a++];
    const uint32_t length = min_len + static_cast<uint32_t>(j - before);
    sampled_forms =
        saturating_add(sampled_forms, w.placer.form_count_bound(sequence.substr(a, length)));
  }
  if (samples != 0) {
    const unsigned __int128 forms =
        static_cast<unsigned __int128>(sampled_forms) * total / samples * copies;
    c.unspecific_forms = saturating_add(
        c.unspecific_forms, forms > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(forms));
  }
  return total;
}

// Counts proteins [first, last): occurrences exactly, forms on the occurrences j of protein i
// with (i + j) % kFormSampleStride == 0 (a sample that does not depend on the slicing), or for
// an unspecific digest on count_unspecific's sample. Throws BuildCancelled when `cancel` is set.
SliceCount count_slice(const EstimateWork& w, size_t first, size_t last) {
  const bool generate = w.db.decoy_generation != DecoyGeneration::kNone;
  const bool unspecific = w.enzyme.cleaves_every_bond();
  SliceCount c;
  std::vector<DigestedPeptide> digested;
  std::vector<uint32_t> per_start;
  for (size_t i = first; i < last; ++i) {
    index_build::check_cancel(w.cancel);
    const Protein& protein = w.proteins[i];
    // Generated decoys replace the FASTA's own; each target gets one (peptide or protein
    // reversal: the same count of occurrences as its target).
    if (protein.is_decoy && generate) continue;
    const uint64_t copies = !protein.is_decoy && generate ? 2 : 1;
    c.proteins += copies;
    c.residues += copies * protein.sequence.size();
    if (unspecific) {
      c.occurrences += copies * count_unspecific(w, protein.sequence, copies, per_start, c);
      continue;
    }
    digested.clear();
    digest(protein.sequence, w.enzyme, w.options, digested);
    c.occurrences += copies * digested.size();
    for (size_t j = (kFormSampleStride - i % kFormSampleStride) % kFormSampleStride;
         j < digested.size(); j += kFormSampleStride) {
      const DigestedPeptide& d = digested[j];
      ++c.sampled;
      c.sampled_forms += static_cast<double>(
          w.placer.form_count_bound(std::string_view(protein.sequence).substr(d.start, d.length)));
    }
  }
  return c;
}

}  // namespace

IndexMemoryEstimate estimate_index_memory(const std::vector<Protein>& proteins,
                                          const SearchParameters& params, bool whole_index,
                                          int threads, const std::atomic<bool>* cancel) {
  const DatabaseParameters& db = params.database;
  const Enzyme enzyme(db.enzyme);
  const DigestOptions options = digest_options_from(db);
  const ModificationPlacer placer(db.fixed_modifications, db.variable_modifications,
                                  db.max_variable_modifications);
  const size_t slices =
      threads <= 1 ? 1 : static_cast<size_t>(threads) * index_build::kSlicesPerThread;
  const std::vector<size_t> start = protein_slice_starts(proteins, slices);
  std::vector<SliceCount> counts(slices);
  const EstimateWork work{proteins, db, enzyme, options, placer, cancel};
  parallel_tasks(threads, slices,
                 [&](size_t s) { counts[s] = count_slice(work, start[s], start[s + 1]); });
  IndexMemoryEstimate e;
  e.whole_index = whole_index;
  uint64_t sampled = 0, unspecific_forms = 0;
  double sampled_forms = 0;
  for (const SliceCount& c : counts) {  // in slice order: the same sums whatever the threads
    e.proteins += c.proteins;
    e.residues += c.residues;
    e.occurrences += c.occurrences;
    sampled += c.sampled;
    sampled_forms += c.sampled_forms;
    unspecific_forms = saturating_add(unspecific_forms, c.unspecific_forms);
  }
  const double forms_per_occurrence = sampled == 0 ? 0.0 : sampled_forms / sampled;
  e.peptide_forms =
      enzyme.cleaves_every_bond()
          ? unspecific_forms
          : static_cast<uint64_t>(forms_per_occurrence * static_cast<double>(e.occurrences));
  const double occurrences = static_cast<double>(e.occurrences);
  e.digest_bytes = digest_phase_bytes(e);
  if (whole_index) {
    e.index_bytes = static_cast<uint64_t>(
        kBaseBytes + static_cast<double>(e.residues) + occurrences * kDigestRecordBytes +
        static_cast<double>(e.peptide_forms) * kIndexBytesPerForm);
  }
  return e;
}

IndexMemoryEstimate selected_index_memory_bound(const std::vector<Protein>& proteins,
                                                const SearchParameters& params) {
  const DatabaseParameters& db = params.database;
  const Enzyme enzyme(db.enzyme);
  const bool specific = !db.enzyme.semi_enzymatic && !enzyme.cleaves_every_bond();
  const uint64_t per_start =
      specific ? static_cast<uint64_t>(std::max(0, db.enzyme.missed_cleavages)) + 1
               : static_cast<uint64_t>(std::max(1, db.enzyme.max_length));
  const bool generate = db.decoy_generation != DecoyGeneration::kNone;
  IndexMemoryEstimate e;
  e.whole_index = false;
  for (const Protein& protein : proteins) {
    if (protein.is_decoy && generate) continue;
    const uint64_t copies = !protein.is_decoy && generate ? 2 : 1;
    const uint64_t n = protein.sequence.size();
    e.proteins += copies;
    e.residues += copies * n;
    e.occurrences += copies * n * per_start;
  }
  e.digest_bytes = digest_phase_bytes(e);
  return e;
}

uint64_t max_peptide_forms_within(const IndexMemoryEstimate& estimate, uint64_t budget_bytes) {
  const double fixed = kBaseBytes + static_cast<double>(estimate.residues) +
                       static_cast<double>(estimate.occurrences) *
                           (estimate.whole_index ? kDigestRecordBytes : kDigestRangeBytes);
  const double left = static_cast<double>(budget_bytes) - fixed;
  if (left <= kIndexBytesPerForm) return 1;
  return static_cast<uint64_t>(left / kIndexBytesPerForm);
}

uint64_t check_index_memory(const IndexMemoryEstimate& estimate, uint64_t budget_bytes,
                            const SearchParameters& params, const std::string& budget_source,
                            uint64_t default_max_forms) {
  if (budget_bytes == 0) return default_max_forms;
  if (estimate.peak_bytes() > budget_bytes) {
    throw IndexMemoryExceeded(index_memory_error(estimate, budget_bytes, params, budget_source));
  }
  return std::min(default_max_forms, max_peptide_forms_within(estimate, budget_bytes));
}

std::string memory_size_text(uint64_t bytes) {
  const double b = static_cast<double>(bytes);
  char text[32];
  if (b >= double(1ull << 30)) {
    std::snprintf(text, sizeof(text), "%.1f GiB", b / double(1ull << 30));
  } else if (b >= double(1ull << 20)) {
    std::snprintf(text, sizeof(text), "%.0f MiB", b / double(1ull << 20));
  } else {
    std::snprintf(text, sizeof(text), "%.0f KiB", b / 1024.0);
  }
  return text;
}

std::string index_memory_error(const IndexMemoryEstimate& e, uint64_t budget_bytes,
                               const SearchParameters& params, const std::string& budget_source) {
  const DatabaseParameters& db = params.database;
  std::string mods;
  for (const auto& m : db.variable_modifications) mods += (mods.empty() ? "" : ", ") + m.name;
  auto flag = [](bool b) { return std::string(b ? "true" : "false"); };
  const bool unspecific = Enzyme(db.enzyme).cleaves_every_bond();
  std::string message =
      "the peptide index would need about " + memory_size_text(e.peak_bytes()) + " (" +
      std::to_string(e.occurrences) + " digested peptide occurrences" +
      (e.whole_index ? ", ~" + std::to_string(e.peptide_forms) + " peptide forms" : "") +
      "), more than the memory budget of " + memory_size_text(budget_bytes) + " (" + budget_source +
      "); settings: " + (unspecific ? "enzyme " + db.enzyme.name + " (every substring), " : "") +
      "database.enzyme.semi_enzymatic " + flag(db.enzyme.semi_enzymatic) +
      ", database.enzyme.missed_cleavages " + std::to_string(db.enzyme.missed_cleavages) +
      ", database.enzyme.min_len " + std::to_string(db.enzyme.min_length) +
      ", database.enzyme.max_len " + std::to_string(db.enzyme.max_length) +
      ", database.max_variable_mods " + std::to_string(db.max_variable_modifications) + " with " +
      std::to_string(db.variable_modifications.size()) + " variable modification(s)" +
      (mods.empty() ? "" : " (" + mods + ")") +
      (db.decoy_generation != DecoyGeneration::kNone ? ", decoys generated (x2)" : "") +
      "; to fit: ";
  // Semi-enzymatic digestion multiplies the occurrences ~20x; missed cleavages add a factor
  // each; variable modifications multiply the forms per occurrence.
  std::string remedies;
  if (unspecific) remedies += "use an enzyme or lower max_len, ";
  if (db.enzyme.semi_enzymatic) remedies += "turn semi_enzymatic off, ";
  if (db.enzyme.semi_enzymatic || db.enzyme.missed_cleavages > 1) {
    remedies += "lower missed_cleavages or max_len, ";
  }
  const double forms_per_occurrence =
      e.occurrences == 0 ? 0.0 : static_cast<double>(e.peptide_forms) / e.occurrences;
  if (e.whole_index && forms_per_occurrence > 1.5) {
    remedies += "lower max_variable_mods or remove variable modifications, ";
  }
  // "to fit: raise --max-memory" alone; "to fit: turn ... off, or raise --max-memory" after some.
  message += remedies + (remedies.empty() ? "raise " : "or raise ");
  message += budget_source;
  return message;
}

}  // namespace ionflow
