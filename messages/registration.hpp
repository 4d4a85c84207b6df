// CAF inspectors for every type that travels between actors (so messages can cross machines
// through CAF's middleman), and register_message_types() which announces them to an actor
// system configuration. CAF 0.17 inspector form: `f(meta::type_name("..."), fields...)`
// (see shared/notes/caf-0.17-facts.md §3).
//
// Contract: every field of every message type is inspected, so a binary_serializer round trip
// reproduces the value exactly. register_message_types() must be called before the
// actor_system is constructed; the registered names ("ionflow::QueryChunk", ...) are what remote
// nodes compare. Include this header only in translation units that already use CAF.
#pragma once

#include <caf/meta/type_name.hpp>

#include "messages/blocks.hpp"
#include "messages/chunks.hpp"
#include "messages/job.hpp"
#include "messages/job_events.hpp"
#include "messages/pool_control.hpp"
#include "messages/queries.hpp"
#include "scoring/psm.hpp"
#include "scoring/query.hpp"
#include "scoring/search_parameters.hpp"

namespace caf {
class actor_system_config;
}

namespace ionflow {

// Registers all message types below with `cfg` (add_message_type, which also covers
// std::vector<T>).
void register_message_types(caf::actor_system_config& cfg);

// --- scoring value types ---------------------------------------------------------------------

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, Peak& x) {
  return f(caf::meta::type_name("ionflow::Peak"), x.mz, x.intensity);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, Query& x) {
  return f(caf::meta::type_name("ionflow::Query"), x.file_index, x.spectrum_index, x.native_id,
           x.scan, x.rt_seconds, x.precursor_mz, x.charge, x.charge_from_file, x.neutral_mass,
           x.peaks, x.charges_tried);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, AppliedModification& x) {
  return f(caf::meta::type_name("ionflow::AppliedModification"), x.position, x.residue,
           x.mass_delta_da, x.name, x.unimod_accession, x.fixed);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, PeptideEvidence& x) {
  return f(caf::meta::type_name("ionflow::PeptideEvidence"), x.protein_accession, x.start, x.pre,
           x.post, x.decoy);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, Psm& x) {
  return f(caf::meta::type_name("ionflow::Psm"), x.file_index, x.spectrum_index, x.native_id,
           x.scan, x.rt_seconds, x.precursor_mz, x.charge, x.expmass, x.calcmass, x.rank, x.decoy,
           x.sequence, x.proforma, x.modifications, x.evidence, x.missed_cleavages,
           x.enzymatic_termini, x.isotope_error, x.precursor_ppm, x.fragment_ppm, x.hyperscore,
           x.xcorr, x.delta_next, x.evalue, x.matched_peaks, x.theoretical_peaks, x.candidates,
           x.score, x.spectrum_q, x.peptide_q, x.protein_q);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, Modification& x) {
  return f(caf::meta::type_name("ionflow::Modification"), x.name, x.unimod_accession,
           x.mass_delta_da, x.position, x.residues, x.fixed);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, Tolerance& x) {
  return f(caf::meta::type_name("ionflow::Tolerance"), x.unit, x.lower, x.upper);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, EnzymeParameters& x) {
  return f(caf::meta::type_name("ionflow::EnzymeParameters"), x.name, x.cleave_at, x.restrict,
           x.c_terminal, x.semi_enzymatic, x.missed_cleavages, x.min_length, x.max_length);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, DatabaseParameters& x) {
  return f(caf::meta::type_name("ionflow::DatabaseParameters"), x.enzyme, x.fixed_modifications,
           x.variable_modifications, x.max_variable_modifications, x.decoy_tag,
           x.decoy_tag_is_suffix, x.decoy_generation, x.clip_n_terminal_methionine,
           x.peptide_min_mass_da, x.peptide_max_mass_da);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, SearchParameters& x) {
  return f(caf::meta::type_name("ionflow::SearchParameters"), x.database, x.precursor_tolerance,
           x.fragment_tolerance, x.isotope_errors, x.min_precursor_charge, x.max_precursor_charge,
           x.max_fragment_charge, x.ion_types, x.min_peaks, x.max_peaks, x.remove_precursor_peak,
           x.deisotope, x.infer_precursor_charge, x.report_psms);
}

// --- job ----------------------------------------------------------------------------------------

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, JobSpec& x) {
  return f(caf::meta::type_name("ionflow::JobSpec"), x.id, x.spectra_paths, x.fasta_path,
           x.output_directory, x.search, x.licensed_cores, x.scorers, x.parsers, x.chunk_size,
           x.block_size_bytes, x.max_blocks_in_flight, x.max_chunks_in_flight,
           x.sorter_memory_budget_bytes, x.temp_directory, x.fragment_index_budget_bytes,
           x.max_memory_bytes, x.index_cache_directory, x.whole_index, x.min_run_queries,
           x.output_formats, x.zstd, x.priority, x.effective_parameters_json, x.creation_time);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, ActiveInterval& x) {
  return f(caf::meta::type_name("ionflow::ActiveInterval"), x.start_seconds, x.end_seconds);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, StageStats& x) {
  return f(caf::meta::type_name("ionflow::StageStats"), x.busy_seconds, x.items, x.bytes,
           x.first_active_seconds, x.last_active_seconds, x.busy_intervals);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, ScorerNodeStats& x) {
  return f(caf::meta::type_name("ionflow::ScorerNodeStats"), x.chunks, x.queries, x.busy_seconds);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, JobSummary& x) {
  return f(caf::meta::type_name("ionflow::JobSummary"), x.spectra_read, x.spectra_skipped,
           x.spectra_skipped_first, x.spectra_searched, x.queries, x.psms, x.psms_at_1pct,
           x.peptides_at_1pct, x.proteins_at_1pct, x.protein_groups_at_1pct, x.peptides_in_index,
           x.index_cache, x.fragment_index, x.index_scope, x.precursor_calibration, x.rescoring,
           x.wall_seconds, x.peak_rss_bytes, x.stages, x.input_sha256, x.output_files, x.warnings,
           x.scorer_nodes);
}

// --- pipeline messages --------------------------------------------------------------------------

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, ByteBlock& x) {
  return f(caf::meta::type_name("ionflow::ByteBlock"), x.job, x.file_index, x.offset, x.bytes,
           x.last);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, BlockAck& x) {
  return f(caf::meta::type_name("ionflow::BlockAck"), x.job, x.ok);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, QueryBatch& x) {
  return f(caf::meta::type_name("ionflow::QueryBatch"), x.job, x.queries);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, InputDone& x) {
  return f(caf::meta::type_name("ionflow::InputDone"), x.job);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, IndexOpen& x) {
  return f(caf::meta::type_name("ionflow::IndexOpen"), x.job);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, IndexRequest& x) {
  return f(caf::meta::type_name("ionflow::IndexRequest"), x.job, x.part, x.neutral_masses_da,
           x.last);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, NextChunk& x) {
  return f(caf::meta::type_name("ionflow::NextChunk"), x.job);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, QueryChunk& x) {
  return f(caf::meta::type_name("ionflow::QueryChunk"), x.job, x.seq, x.part, x.queries);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, PsmBatch& x) {
  return f(caf::meta::type_name("ionflow::PsmBatch"), x.job, x.seq, x.psms, x.queries_scored,
           x.scorer_busy_seconds, x.scorer_node);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, StageReport& x) {
  return f(caf::meta::type_name("ionflow::StageReport"), x.job, x.from, x.stages, x.spectra_read,
           x.spectra_searched, x.queries, x.spectra_skipped, x.spectra_skipped_first,
           x.input_sha256, x.decompressed_sha256, x.peptides_in_index, x.index_cache,
           x.fragment_index, x.index_scope, x.warnings, x.scorer_nodes);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, IndexReady& x) {
  return f(caf::meta::type_name("ionflow::IndexReady"), x.job, x.part, x.plan);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, ChunksDone& x) {
  return f(caf::meta::type_name("ionflow::ChunksDone"), x.job, x.chunks);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, JobFailure& x) {
  return f(caf::meta::type_name("ionflow::JobFailure"), x.job, x.message);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, ResizePool& x) {
  return f(caf::meta::type_name("ionflow::ResizePool"), x.scorers);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, ForgetJob& x) {
  return f(caf::meta::type_name("ionflow::ForgetJob"), x.job, x.part);
}

}  // namespace ionflow
