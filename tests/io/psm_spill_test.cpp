// PSM codec round trip and the writer's spill (io/psm_codec.hpp, io/psm_spill.hpp).
#include "io/psm_spill.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "io/psm_codec.hpp"

namespace ionflow {
namespace {

namespace fs = std::filesystem;

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// Every field set to a value different from its default.
Psm full_psm() {
  Psm p;
  p.file_index = 3;
  p.spectrum_index = 1234567890123ULL;
  p.native_id = "controllerType=0 controllerNumber=1 scan=4711";
  p.scan = 4711;
  p.rt_seconds = 1234.5678;
  p.precursor_mz = 582.319 + 1e-9;
  p.charge = 2;
  p.expmass = 1162.62339;
  p.calcmass = 1162.623388;
  p.rank = 2;
  p.decoy = true;
  p.sequence = "MCLVNELTEFAK";
  p.proforma = "[UNIMOD:1]-M[UNIMOD:35]C[UNIMOD:4]LVNELTEFAK";
  p.modifications = {{-1, 0, 42.010565, "Acetyl", 1, false},
                     {0, 'M', 15.994915, "Oxidation", 35, false},
                     {1, 'C', 57.021464, "Carbamidomethyl", 4, true},
                     {12, 0, -0.984016, "", 0, false}};
  p.evidence = {{"ALBU_BOVIN", 65, 'K', 'L', false}, {"rev_ALBU_BOVIN", 500, '-', '-', true}};
  p.missed_cleavages = 1;
  p.enzymatic_termini = 1;
  p.isotope_error = -1;
  p.precursor_ppm = -3.25;
  p.fragment_ppm = 12.5;
  p.hyperscore = 41.25;
  p.xcorr = 3.5;
  p.delta_next = -0.0;
  p.evalue = 1.234e-300;
  p.matched_peaks = 17;
  p.theoretical_peaks = 40;
  p.candidates = 1234;
  p.score = std::numeric_limits<double>::infinity();
  p.spectrum_q = 0.001;
  p.peptide_q = 0.002;
  p.protein_q = 0.5;
  return p;
}

void expect_equal(const Psm& a, const Psm& b) {
  EXPECT_EQ(a.file_index, b.file_index);
  EXPECT_EQ(a.spectrum_index, b.spectrum_index);
  EXPECT_EQ(a.native_id, b.native_id);
  EXPECT_EQ(a.scan, b.scan);
  EXPECT_TRUE(same_bits(a.rt_seconds, b.rt_seconds));
  EXPECT_TRUE(same_bits(a.precursor_mz, b.precursor_mz));
  EXPECT_EQ(a.charge, b.charge);
  EXPECT_TRUE(same_bits(a.expmass, b.expmass));
  EXPECT_TRUE(same_bits(a.calcmass, b.calcmass));
  EXPECT_EQ(a.rank, b.rank);
  EXPECT_EQ(a.decoy, b.decoy);
  EXPECT_EQ(a.sequence, b.sequence);
  EXPECT_EQ(a.proforma, b.proforma);
  ASSERT_EQ(a.modifications.size(), b.modifications.size());
  for (size_t i = 0; i < a.modifications.size(); ++i) {
    const AppliedModification& x = a.modifications[i];
    const AppliedModification& y = b.modifications[i];
    EXPECT_EQ(x.position, y.position);
    EXPECT_EQ(x.residue, y.residue);
    EXPECT_TRUE(same_bits(x.mass_delta_da, y.mass_delta_da));
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.unimod_accession, y.unimod_accession);
    EXPECT_EQ(x.fixed, y.fixed);
  }
  ASSERT_EQ(a.evidence.size(), b.evidence.size());
  for (size_t i = 0; i < a.evidence.size(); ++i) {
    const PeptideEvidence& x = a.evidence[i];
    const PeptideEvidence& y = b.evidence[i];
    EXPECT_EQ(x.protein_accession, y.protein_accession);
    EXPECT_EQ(x.start, y.start);
    EXPECT_EQ(x.pre, y.pre);
    EXPECT_EQ(x.post, y.post);
    EXPECT_EQ(x.decoy, y.decoy);
  }
  EXPECT_EQ(a.missed_cleavages, b.missed_cleavages);
  EXPECT_EQ(a.enzymatic_termini, b.enzymatic_termini);
  EXPECT_EQ(a.isotope_error, b.isotope_error);
  EXPECT_TRUE(same_bits(a.precursor_ppm, b.precursor_ppm));
  EXPECT_TRUE(same_bits(a.fragment_ppm, b.fragment_ppm));
  EXPECT_TRUE(same_bits(a.hyperscore, b.hyperscore));
  EXPECT_TRUE(same_bits(a.xcorr, b.xcorr));
  EXPECT_TRUE(same_bits(a.delta_next, b.delta_next));
  EXPECT_TRUE(same_bits(a.evalue, b.evalue));
  EXPECT_EQ(a.matched_peaks, b.matched_peaks);
  EXPECT_EQ(a.theoretical_peaks, b.theoretical_peaks);
  EXPECT_EQ(a.candidates, b.candidates);
  EXPECT_TRUE(same_bits(a.score, b.score));
  EXPECT_TRUE(same_bits(a.spectrum_q, b.spectrum_q));
  EXPECT_TRUE(same_bits(a.peptide_q, b.peptide_q));
  EXPECT_TRUE(same_bits(a.protein_q, b.protein_q));
}

TEST(PsmCodec, RoundTripsEveryField) {
  const Psm in = full_psm();
  std::string bytes;
  encode_psm(in, bytes);
  encode_psm(Psm{}, bytes);  // a default PSM right after it
  Psm out;
  const size_t used = decode_psm(bytes, out);
  ASSERT_GT(used, 0u);
  expect_equal(in, out);
  Psm second = full_psm();  // decode overwrites every field, also with empty lists
  ASSERT_EQ(decode_psm(std::string_view(bytes).substr(used), second), bytes.size() - used);
  expect_equal(Psm{}, second);
  EXPECT_TRUE(std::signbit(out.delta_next));
}

TEST(PsmCodec, IncompleteRecordNeedsMoreInputAndBadLengthThrows) {
  std::string bytes;
  encode_psm(full_psm(), bytes);
  Psm out;
  EXPECT_EQ(decode_psm(std::string_view(bytes).substr(0, bytes.size() - 1), out), 0u);
  EXPECT_EQ(decode_psm(std::string_view(bytes).substr(0, 3), out), 0u);
  // A payload length one byte short: the last field runs past the record.
  std::string bad = bytes.substr(0, bytes.size() - 1);
  const uint32_t shorter = static_cast<uint32_t>(bad.size() - 4);
  std::memcpy(bad.data(), &shorter, 4);
  EXPECT_THROW(decode_psm(bad, out), std::runtime_error);
}

class PsmSpillTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ionflow-psm-spill-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

// Chunk `seq` holds spectra of two files in scorer order (by mass, so not by spectrum).
std::vector<Psm> chunk(uint64_t seq) {
  std::vector<Psm> out;
  for (int i = 0; i < 7; ++i) {
    Psm p;
    p.file_index = static_cast<uint32_t>((seq + i) % 2);
    p.spectrum_index = (seq * 7 + static_cast<uint64_t>(i) * 13) % 23;  // repeats across chunks
    p.proforma = "PEPTIDE" + std::to_string(seq) + "_" + std::to_string(i);
    p.evidence = {{"P" + std::to_string(i), 1, 'K', 'A', false}};
    p.score = static_cast<double>(seq) + i * 0.1;
    out.push_back(p);
  }
  return out;
}

TEST_F(PsmSpillTest, MergeGivesFileSpectrumArrivalOrderOverManyRuns) {
  // Tiny runs (one per chunk), chunks added out of order: 5, 0, 3, 1, 4, 2.
  PsmSpill spill(dir_.string(), 1);
  std::vector<Psm> by_arrival;
  for (uint64_t seq = 0; seq < 6; ++seq) {
    for (const Psm& p : chunk(seq)) by_arrival.push_back(p);
  }
  for (uint64_t seq : {5, 0, 3, 1, 4, 2}) spill.add(seq, chunk(seq));
  spill.finish();
  EXPECT_EQ(spill.size(), 42u);
  EXPECT_EQ(spill.runs(), 6u);
  EXPECT_GT(spill.bytes_written(), 0u);
  // No file is visible in the temp directory (unlinked at creation).
  EXPECT_TRUE(fs::is_empty(dir_));

  std::vector<std::tuple<uint32_t, uint64_t, uint64_t>> merged;
  spill.merge([&](uint64_t arrival, Psm& p) {
    ASSERT_LT(arrival, by_arrival.size());
    EXPECT_EQ(p.proforma, by_arrival[arrival].proforma);  // arrival = concatenation by seq
    merged.emplace_back(p.file_index, p.spectrum_index, arrival);
  });
  ASSERT_EQ(merged.size(), 42u);
  EXPECT_TRUE(std::is_sorted(merged.begin(), merged.end()));
  EXPECT_EQ(std::get<2>(merged.front()), 0u);  // file 0, spectrum 0: chunk 0, position 0

  std::vector<char> seen(42, 0);
  spill.scan([&](uint64_t arrival, Psm& p) {
    EXPECT_EQ(p.proforma, by_arrival[arrival].proforma);
    seen[arrival]++;
  });
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 42);
  // merge() can run again.
  size_t again = 0;
  spill.merge([&](uint64_t, Psm&) { ++again; });
  EXPECT_EQ(again, 42u);
}

// One run of 1000 PSMs keeps every field, kept in RAM (nothing spilled: runs() 0) or written as
// one zstd frame (run_bytes 1: the add itself writes it).
TEST_F(PsmSpillTest, OneLargeRunKeepsEveryFieldInRamAndOnDisk) {
  for (uint64_t run_bytes : {PsmSpill::kDefaultRunBytes, uint64_t{1}}) {
    PsmSpill spill(dir_.string(), run_bytes);
    std::vector<Psm> psms(1000, full_psm());
    for (size_t i = 0; i < psms.size(); ++i) psms[i].spectrum_index = 1000 - i;
    spill.add(0, psms);
    spill.finish();
    EXPECT_EQ(spill.runs(), run_bytes == 1 ? 1u : 0u);
    EXPECT_EQ(spill.bytes_written() > 0, run_bytes == 1);
    uint64_t expected_spectrum = 1;
    spill.merge([&](uint64_t arrival, Psm& p) {
      EXPECT_EQ(p.spectrum_index, expected_spectrum++);
      EXPECT_EQ(arrival, 1000 - p.spectrum_index);
      Psm want = full_psm();
      want.spectrum_index = p.spectrum_index;
      expect_equal(want, p);
    });
    EXPECT_EQ(expected_spectrum, 1001u) << "run_bytes " << run_bytes;
    uint64_t arrivals = 0;
    spill.scan([&](uint64_t arrival, Psm& p) {
      EXPECT_EQ(arrival, 1000 - p.spectrum_index);
      arrivals += arrival;
    });
    EXPECT_EQ(arrivals, 999u * 1000u / 2);
  }
}

TEST_F(PsmSpillTest, EmptySpillMergesNothing) {
  PsmSpill spill(dir_.string());
  spill.add(0, {});
  spill.finish();
  size_t n = 0;
  spill.merge([&](uint64_t, Psm&) { ++n; });
  spill.scan([&](uint64_t, Psm&) { ++n; });
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(spill.runs(), 0u);
}

TEST_F(PsmSpillTest, UnwritableTempDirectoryNamesThePath) {
  const std::string missing = (dir_ / "no" / "such" / "dir").string();
  try {
    PsmSpill spill(missing);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(missing + "/ionflow-psms-"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos);
  }
}

}  // namespace
}  // namespace ionflow
