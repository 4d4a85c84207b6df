// Every pipeline message survives a CAF binary_serializer round trip unchanged (what crossing
// machines through the middleman requires), and the registered names are the ones remote nodes
// compare.
#include <gtest/gtest.h>
#include <caf/all.hpp>
#include <caf/binary_deserializer.hpp>
#include <caf/binary_serializer.hpp>

#include "messages/registration.hpp"

namespace ionflow {
namespace {

struct Config : caf::actor_system_config {
  Config() {
    register_message_types(*this);
    set("scheduler.max-threads", 2);
  }
};

class MessagesTest : public ::testing::Test {
 protected:
  template <class T>
  T round_trip(T x) {
    std::vector<char> buf;
    caf::binary_serializer sink{sys, buf};
    auto err = sink(x);
    EXPECT_FALSE(err) << sys.render(err);
    EXPECT_GT(buf.size(), 0u);
    T y;
    caf::binary_deserializer source{sys, buf};
    err = source(y);
    EXPECT_FALSE(err) << sys.render(err);
    // Serialising the copy gives the same bytes.
    std::vector<char> again;
    caf::binary_serializer sink2{sys, again};
    EXPECT_FALSE(sink2(y));
    EXPECT_EQ(buf, again);
    return y;
  }

  Config cfg;
  caf::actor_system sys{cfg};
};

Query lvneltefak_query() {
  Query q;
  q.file_index = 2;
  q.spectrum_index = 4711;
  q.native_id = "controllerType=0 controllerNumber=1 scan=4712";
  q.scan = 4712;
  q.rt_seconds = 1834.25;
  q.precursor_mz = 582.318971;  // LVNELTEFAK 2+: (1162.623394 + 2 * 1.007276) / 2
  q.charge = 2;
  q.charge_from_file = true;
  q.neutral_mass = 1162.623394;
  q.peaks = {{175.118952f, 12.5f}, {347.203f, 100.0f}, {951.472f, 40.25f}};
  return q;
}

TEST_F(MessagesTest, QueryChunkRoundTrip) {
  QueryChunk chunk{7, 42, 5, {lvneltefak_query(), lvneltefak_query()}};
  chunk.queries[1].charge = 3;
  chunk.queries[1].charge_from_file = false;
  chunk.queries[1].charges_tried = 2;
  QueryChunk back = round_trip(chunk);
  EXPECT_EQ(back.job, 7u);
  EXPECT_EQ(back.seq, 42u);
  EXPECT_EQ(back.part, 5u);
  ASSERT_EQ(back.queries.size(), 2u);
  EXPECT_EQ(back.queries[0].native_id, chunk.queries[0].native_id);
  EXPECT_EQ(back.queries[0].neutral_mass, 1162.623394);
  EXPECT_EQ(back.queries[0].peaks.size(), 3u);
  EXPECT_EQ(back.queries[0].peaks[1].mz, 347.203f);
  EXPECT_EQ(back.queries[1].charge, 3);
  EXPECT_FALSE(back.queries[1].charge_from_file);
  EXPECT_EQ(back.queries[0].charges_tried, 1);
  EXPECT_EQ(back.queries[1].charges_tried, 2);
}

TEST_F(MessagesTest, PsmBatchRoundTrip) {
  Psm p;
  p.file_index = 1;
  p.spectrum_index = 99;
  p.native_id = "scan=100";
  p.charge = 2;
  p.expmass = 1178.6183;
  p.calcmass = 1178.618309;
  p.sequence = "MEKLVNELTEFAK";
  p.proforma = "[UNIMOD:1]-M[UNIMOD:35]EKLVNELTEFAK";
  p.modifications = {{-1, '\0', 42.010565, "Acetyl", 1, false},
                     {0, 'M', 15.994915, "Oxidation", 35, false}};
  p.evidence = {{"P02769", 24, 'R', 'A', false}, {"rev_P02769", 301, 'K', '-', true}};
  p.hyperscore = 31.25;
  p.xcorr = 2.875;
  p.evalue = 1.5e-7;
  p.spectrum_q = 0.001;
  p.peptide_q = 0.002;
  p.protein_q = 0.003;
  PsmBatch batch{3, 5, {p}, 17, 0.125, ""};
  PsmBatch back = round_trip(batch);
  EXPECT_EQ(back.seq, 5u);
  EXPECT_EQ(back.queries_scored, 17u);
  EXPECT_EQ(back.scorer_busy_seconds, 0.125);
  ASSERT_EQ(back.psms.size(), 1u);
  const Psm& b = back.psms[0];
  EXPECT_EQ(b.proforma, "[UNIMOD:1]-M[UNIMOD:35]EKLVNELTEFAK");
  ASSERT_EQ(b.modifications.size(), 2u);
  EXPECT_EQ(b.modifications[0].position, -1);
  EXPECT_EQ(b.modifications[1].residue, 'M');
  EXPECT_EQ(b.modifications[1].unimod_accession, 35);
  ASSERT_EQ(b.evidence.size(), 2u);
  EXPECT_EQ(b.evidence[1].protein_accession, "rev_P02769");
  EXPECT_EQ(b.evidence[0].pre, 'R');
  EXPECT_TRUE(b.evidence[1].decoy);
  EXPECT_EQ(b.evalue, 1.5e-7);
  EXPECT_EQ(b.hyperscore, 31.25);
  EXPECT_EQ(b.xcorr, 2.875);
  EXPECT_EQ(b.protein_q, 0.003);
}

TEST_F(MessagesTest, JobSpecAndSummaryRoundTrip) {
  JobSpec job;
  job.id = "job-17";
  job.spectra_paths = {"/data/BSA1.mzML", "/data/BSA2.mgf.gz"};
  job.fasta_path = "/data/bsa.fasta";
  job.search.precursor_tolerance = Tolerance::Ppm(-20, 10);
  job.search.fragment_tolerance = Tolerance::Da(-0.02, 0.02);
  job.search.database.enzyme.name = "lys-c";
  job.search.database.decoy_generation = DecoyGeneration::kReverseProtein;
  job.search.database.fixed_modifications.push_back(
      {"Carbamidomethyl", 4, 57.021464, ModificationPosition::kAnywhere, "C", true});
  job.search.database.variable_modifications.push_back(
      {"Acetyl", 1, 42.010565, ModificationPosition::kProteinNTerm, "", false});
  job.search.isotope_errors = {0, 1};
  job.parsers = 4;
  job.chunk_size = 7;
  job.zstd = true;
  job.output_formats = {"tsv", "pin"};
  job.effective_parameters_json = "{\"a\": 1}";
  JobSpec back = round_trip(job);
  EXPECT_EQ(back.id, "job-17");
  EXPECT_EQ(back.spectra_paths, job.spectra_paths);
  EXPECT_EQ(back.search.precursor_tolerance.unit, Tolerance::Unit::kPpm);
  EXPECT_EQ(back.search.precursor_tolerance.lower, -20.0);
  EXPECT_EQ(back.search.fragment_tolerance.unit, Tolerance::Unit::kDa);
  EXPECT_EQ(back.search.database.enzyme.name, "lys-c");
  EXPECT_EQ(back.search.database.decoy_generation, DecoyGeneration::kReverseProtein);
  ASSERT_EQ(back.search.database.variable_modifications.size(), 1u);
  EXPECT_EQ(back.search.database.variable_modifications[0].position,
            ModificationPosition::kProteinNTerm);
  EXPECT_EQ(back.search.database.fixed_modifications[0].mass_delta_da, 57.021464);
  EXPECT_EQ(back.search.isotope_errors, (std::vector<int>{0, 1}));
  EXPECT_EQ(back.parsers, 4);
  EXPECT_EQ(back.chunk_size, 7u);
  EXPECT_TRUE(back.zstd);
  EXPECT_EQ(back.output_formats, job.output_formats);
  EXPECT_EQ(back.effective_parameters_json, "{\"a\": 1}");

  JobSummary s;
  s.spectra_read = 139;
  s.spectra_skipped = {{"MS level 1", 0}, {"too few peaks", 3}};
  s.spectra_skipped_first = {{"too few peaks", "/data/BSA1.mzML: spectrum scan=12"}};
  s.index_cache = "hit /cache/x.ionflow-index";
  s.psms_at_1pct = 40;
  s.peptides_at_1pct = 17;
  s.proteins_at_1pct = 11;
  s.protein_groups_at_1pct = 4;
  s.stages["scorer"] = {1.5, 139, 0, 0.25, 2.0, {}};
  s.input_sha256["/data/BSA1.mzML"] = "ab12";
  s.output_files = {"results.tsv"};
  JobSummary sb = round_trip(s);
  EXPECT_EQ(sb.spectra_read, 139u);
  EXPECT_EQ(sb.spectra_skipped.at("too few peaks"), 3u);
  EXPECT_EQ(sb.spectra_skipped_first.at("too few peaks"), "/data/BSA1.mzML: spectrum scan=12");
  EXPECT_EQ(sb.index_cache, "hit /cache/x.ionflow-index");
  EXPECT_EQ(sb.psms_at_1pct, 40u);
  EXPECT_EQ(sb.peptides_at_1pct, 17u);
  EXPECT_EQ(sb.proteins_at_1pct, 11u);
  EXPECT_EQ(sb.protein_groups_at_1pct, 4u);
  EXPECT_EQ(sb.stages.at("scorer").busy_seconds, 1.5);
  EXPECT_EQ(sb.stages.at("scorer").first_active_seconds, 0.25);
  EXPECT_EQ(sb.stages.at("scorer").last_active_seconds, 2.0);
  EXPECT_EQ(sb.input_sha256.at("/data/BSA1.mzML"), "ab12");
}

TEST_F(MessagesTest, BlockAndReportRoundTrip) {
  ByteBlock block{9, 3, 4194304, std::string("<spectrum id=\"scan=1\">\0\x01\xff", 26), true};
  ByteBlock b = round_trip(block);
  EXPECT_EQ(b.offset, 4194304u);
  EXPECT_EQ(b.bytes, block.bytes);
  EXPECT_TRUE(b.last);

  StageReport r;
  r.job = 9;
  r.from = Stage::kReader;
  r.stages["parser"] = {0.5, 139, 1184746, -1.0, -1.0, {}};
  r.spectra_skipped["not MS2"] = 2;
  r.input_sha256["x.mzML"] = "e3b0";
  StageReport rb = round_trip(r);
  EXPECT_EQ(rb.from, Stage::kReader);
  EXPECT_EQ(rb.stages.at("parser").bytes, 1184746u);
  EXPECT_EQ(rb.spectra_skipped.at("not MS2"), 2u);

  IndexRequest request{3, 4, {1000.5, 2000.25}, true};
  IndexRequest request_back = round_trip(request);
  EXPECT_EQ(request_back.part, 4u);
  EXPECT_EQ(request_back.neutral_masses_da, request.neutral_masses_da);
  EXPECT_TRUE(request_back.last);
  IndexReady ready_back = round_trip(IndexReady{3, 4, IndexPlan::kAllQueries});
  EXPECT_EQ(ready_back.part, 4u);
  EXPECT_EQ(ready_back.plan, IndexPlan::kAllQueries);
  EXPECT_EQ(round_trip(ForgetJob{3, 7}).part, 7u);
  EXPECT_EQ(round_trip(ForgetJob{3}).part, kAllParts);

  JobFailure f{9, "truncated.mzML: byte 592373: unclosed token"};
  EXPECT_EQ(round_trip(f).message, f.message);
}

TEST_F(MessagesTest, MessagesCarryTheRegisteredTypeNames) {
  auto msg = caf::make_message(QueryChunk{1, 2, 0, {lvneltefak_query()}});
  EXPECT_NE(caf::to_string(msg).find("ionflow::QueryChunk"), std::string::npos)
      << caf::to_string(msg);
  EXPECT_EQ(sys.types().portable_name(0, &typeid(QueryChunk)), "ionflow::QueryChunk");
  EXPECT_EQ(sys.types().portable_name(0, &typeid(PsmBatch)), "ionflow::PsmBatch");
  EXPECT_EQ(sys.types().portable_name(0, &typeid(JobSpec)), "ionflow::JobSpec");
}

}  // namespace
// Activity intervals: widened by note_active and by merging, overlaps in seconds.
TEST(StageActivity, NoteMergeAndOverlap) {
  StageStats reader, scorer;
  EXPECT_EQ(overlap_seconds(reader, scorer), 0.0);  // neither ran
  note_active(reader, 0.5, 1.0);
  note_active(reader, 0.0, 0.25);
  EXPECT_EQ(reader.first_active_seconds, 0.0);
  EXPECT_EQ(reader.last_active_seconds, 1.0);
  note_active(scorer, 0.75, 3.0);
  EXPECT_DOUBLE_EQ(overlap_seconds(reader, scorer), 0.25);
  EXPECT_DOUBLE_EQ(overlap_seconds(scorer, reader), 0.25);

  StageReport into, from;
  into.stages["parser"] = {1.0, 10, 0, 2.0, 4.0, {}};
  from.stages["parser"] = {0.5, 5, 0, 1.0, 3.0, {}};
  merge_stage_report(into, from);
  EXPECT_EQ(into.stages["parser"].busy_seconds, 1.5);
  EXPECT_EQ(into.stages["parser"].first_active_seconds, 1.0);
  EXPECT_EQ(into.stages["parser"].last_active_seconds, 4.0);
}

// Busy intervals: sorted, overlapping ones merged, merged across reports, bounded in number.
TEST(StageActivity, BusyIntervals) {
  StageStats s;
  note_active(s, 2.0, 3.0);
  note_active(s, 0.0, 0.5);
  note_active(s, 0.4, 1.0);  // overlaps [0, 0.5]
  note_active(s, 5.0, 6.0);
  ASSERT_EQ(s.busy_intervals.size(), 3u);
  EXPECT_EQ(s.busy_intervals[0].start_seconds, 0.0);
  EXPECT_EQ(s.busy_intervals[0].end_seconds, 1.0);
  EXPECT_EQ(s.busy_intervals[1].start_seconds, 2.0);
  EXPECT_EQ(s.busy_intervals[2].end_seconds, 6.0);
  note_active(s, 0.9, 5.5);  // bridges all three
  ASSERT_EQ(s.busy_intervals.size(), 1u);
  EXPECT_EQ(s.busy_intervals[0].start_seconds, 0.0);
  EXPECT_EQ(s.busy_intervals[0].end_seconds, 6.0);

  StageReport into, from;
  note_active(into.stages["scorer"], 0.0, 1.0);
  note_active(from.stages["scorer"], 2.0, 3.0);
  merge_stage_report(into, from);
  ASSERT_EQ(into.stages["scorer"].busy_intervals.size(), 2u);  // not widened into one
  EXPECT_EQ(into.stages["scorer"].busy_intervals[1].start_seconds, 2.0);

  // 750 pieces in 150 bursts 1 s apart: beyond 200 intervals the short gaps inside the bursts
  // close (below 150 s / 200), the bursts stay apart.
  StageStats many;
  for (int b = 0; b < 150; ++b) {
    for (int k = 0; k < 5; ++k) note_active(many, b + k * 0.01, b + k * 0.01 + 0.004);
  }
  // (The bursts after the last compaction keep their pieces: 158 in all.)
  EXPECT_LE(many.busy_intervals.size(), kMaxActiveIntervals);
  EXPECT_GE(many.busy_intervals.size(), 150u);
  EXPECT_EQ(many.busy_intervals[7].start_seconds, 7.0);
  EXPECT_DOUBLE_EQ(many.busy_intervals[7].end_seconds, 7.044);
  for (const ActiveInterval& i : many.busy_intervals)
    EXPECT_LT(i.end_seconds - i.start_seconds, 0.05);
}

}  // namespace ionflow
