// The web page's endpoints over real HTTP on loopback, on a real job: the demo search of the
// committed BSA1 excerpt (15 MS2 spectra, 12 BSA PSMs at q = 0; tests/e2e/excerpt_search_test).
// Exact values: the PSM page's filters find the 12, the plots count them, and the spectrum view
// of every PSM matches as many fragments as results.tsv's matched_peaks.
#include "service/web_api.hpp"

#include "in_process_api.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include <sys/stat.h>

#include <httplib.h>

#include "io/results_table.hpp"

namespace ionflow {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const std::string kData = IONFLOW_TEST_DATA_DIR;

std::string excerpt_job(const std::string& spectra = kData + "/BSA1_identified_excerpt.mzML") {
  return R"({"database": {"fasta": ")" + kData + R"(/bsa_target_decoy_excerpt.fasta",
             "generate_decoys": false, "decoy_tag": "_rev", "max_variable_mods": 2},
             "decoy_tag_position": "suffix", "enzyme": "trypsin", "isotope_errors": [0, 1],
             "mzml_paths": [")" +
         spectra + R"j("],
             "fixed_modifications": ["Carbamidomethyl (C)"],
             "variable_modifications": ["Oxidation (M)"],
             "output_formats": ["tsv", "pin"]})j";
}

// The committed BSA1 excerpt's bytes.
std::string excerpt_bytes() {
  std::ifstream original(kData + "/BSA1_identified_excerpt.mzML", std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(original)), {});
}

class WebApiTest : public InProcessApiTest {
 protected:
  JsonValue get(const std::string& path, int expected_status = 200) {
    auto res = client_->Get(path);
    EXPECT_TRUE(res) << path;
    if (!res) return {};
    EXPECT_EQ(res->status, expected_status) << path << ": " << res->body;
    return parse_json(res->body);
  }
  // Submits the excerpt job (on `spectra` when given), runs it and returns its id once done.
  std::string run_excerpt_job(const std::string& spectra = "") {
    scheduler_->start();
    auto res = client_->Post("/v1/jobs", spectra.empty() ? excerpt_job() : excerpt_job(spectra),
                             "application/json");
    EXPECT_TRUE(res && res->status == 201) << (res ? res->body : "no answer");
    const std::string id = parse_json(res->body).find("id")->as_string();
    for (int i = 0; i < 600; ++i) {
      const std::string state = get("/v1/jobs/" + id).find("state")->as_string();
      if (state == "done") return id;
      EXPECT_TRUE(state == "queued" || state == "running") << state;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ADD_FAILURE() << "job " << id << " not done after 60 s";
    return id;
  }
  // Uploads the committed BSA1 excerpt as `name` in one piece; returns its bytes and sets `path`
  // to the server's copy.
  std::string upload_excerpt(const std::string& name, std::string& path) {
    const std::string bytes = excerpt_bytes();
    auto uploaded = client_->Put("/v1/uploads/" + name + "?offset=0", bytes, "application/xml");
    EXPECT_TRUE(uploaded && uploaded->status == 200) << (uploaded ? uploaded->body : "");
    path = uploaded ? parse_json(uploaded->body).find("path")->as_string() : "";
    return bytes;
  }
  // Sends `first_piece` as the first piece of upload `name` and submits the excerpt job on it
  // (queued: no scheduler runs).
  struct UploadedJob {
    std::string path, upload, id;
  };
  UploadedJob upload_and_submit(const std::string& name, const std::string& first_piece) {
    UploadedJob out;
    auto first = client_->Put("/v1/uploads/" + name + "?offset=0", first_piece, "application/xml");
    EXPECT_TRUE(first && first->status == 200) << (first ? first->body : "");
    if (!first || first->status != 200) return out;
    const JsonValue started = parse_json(first->body);
    out.path = started.find("path")->as_string();
    out.upload = started.find("upload")->as_string();
    auto submitted = client_->Post("/v1/jobs", excerpt_job(out.path), "application/json");
    EXPECT_TRUE(submitted && submitted->status == 201) << (submitted ? submitted->body : "");
    if (submitted && submitted->status == 201) {
      out.id = parse_json(submitted->body).find("id")->as_string();
    }
    return out;
  }
  std::string results_tsv(const std::string& id) {
    return (dir_ / "jobs" / id / "results.tsv").string();
  }
};

TEST_F(WebApiTest, PsmPagesPlotsAndSpectraOfARealJob) {
  start_api({});
  const std::string id = run_excerpt_job();
  const ResultsTable tsv = ResultsTable::read(results_tsv(id));
  ASSERT_EQ(tsv.rows(), 12u);

  // The filters of the job page's table: targets, rank 1, q <= 0.01 -> the 12 PSMs.
  JsonValue page = get("/v1/jobs/" + id + "/psms?max_q=0.01&label=target&rank=1&limit=5");
  EXPECT_EQ(page.find("total")->as_integer(), 12);
  EXPECT_EQ(page.find("matched")->as_integer(), 12);
  EXPECT_EQ(page.find("rows")->as_array().size(), 5u);
  // Sorted by hyperscore, descending: the top PSM is HLVDEPQNLIK (excerpt_search_test).
  page = get("/v1/jobs/" + id + "/psms?sort=hyperscore&order=desc&limit=1");
  const auto& columns = page.find("columns")->as_array();
  const auto peptide_col = static_cast<size_t>(
      std::find(columns.begin(), columns.end(), JsonValue("peptide")) - columns.begin());
  EXPECT_EQ(page.find("rows")->as_array()[0].as_array()[peptide_col].as_string(), "HLVDEPQNLIK");
  // The text filter finds peptides (case-insensitive) and nothing for decoys here.
  EXPECT_EQ(get("/v1/jobs/" + id + "/psms?filter=hlvdep").find("matched")->as_integer(), 1);
  EXPECT_EQ(get("/v1/jobs/" + id + "/psms?label=decoy").find("matched")->as_integer(), 0);
  JsonValue bad = get("/v1/jobs/" + id + "/psms?sort=hyperscor", 400);
  EXPECT_EQ(bad.find("error")->as_string(),
            "sort: no column \"hyperscor\"; did you mean \"hyperscore\"?");
  EXPECT_EQ(bad.find("field")->as_string(), "sort");

  // Plots: 12 accepted PSMs, the q curve reaches 12 at q = 0, all targets in the score plot.
  JsonValue plots = get("/v1/jobs/" + id + "/plots");
  EXPECT_EQ(plots.find("accepted_psms")->as_integer(), 12);
  EXPECT_EQ(plots.find("q_curve")->find("accepted")->as_array()[0].as_integer(), 12);
  int64_t targets = 0;
  for (const auto& n : plots.find("score")->find("target")->as_array()) targets += n.as_integer();
  EXPECT_EQ(targets, 12);
  EXPECT_EQ(plots.find("ppm_vs_rt")->find("ppm")->as_array().size(), 12u);

  // The spectrum view of every PSM labels results.tsv's matched_peaks fragments.
  for (size_t r = 0; r < tsv.rows(); ++r) {
    const std::string psm(tsv.cell(r, tsv.column("psm_id")));
    JsonValue view = get("/v1/jobs/" + id + "/spectrum?psm=" + psm);
    EXPECT_EQ(std::to_string(view.find("matched_peaks")->as_integer()),
              tsv.cell(r, tsv.column("matched_peaks")))
        << tsv.cell(r, tsv.column("peptide"));
    EXPECT_EQ(view.find("peptide")->as_string(), tsv.cell(r, tsv.column("peptide")));
    EXPECT_EQ(view.find("scannr")->as_string(), tsv.cell(r, tsv.column("scannr")));
    int64_t labelled = 0;
    for (const auto& ion : view.find("ions")->as_array()) {
      if (ion.find("matched")->as_bool()) {
        ++labelled;
        EXPECT_LE(std::abs(ion.find("error_da")->as_double()), 0.5);
      }
    }
    EXPECT_EQ(labelled, view.find("matched_peaks")->as_integer());
  }
  // A carbamidomethylated PSM carries its modification's name and mass.
  for (size_t r = 0; r < tsv.rows(); ++r) {
    if (tsv.cell(r, tsv.column("peptide")) != "LC[UNIMOD:4]VLHEK") continue;
    JsonValue view = get("/v1/jobs/" + id + "/spectrum?psm=" + std::string(tsv.cell(r, 0)));
    const auto& mods = view.find("modifications")->as_array();
    ASSERT_EQ(mods.size(), 1u);
    EXPECT_EQ(mods[0].find("name")->as_string(), "Carbamidomethyl");
    EXPECT_EQ(mods[0].find("position")->as_integer(), 1);
    EXPECT_NEAR(mods[0].find("mass_delta_da")->as_double(), 57.021464, 1e-6);
  }
  EXPECT_EQ(get("/v1/jobs/" + id + "/spectrum?psm=99", 404).find("error")->as_string(),
            "no PSM 99 in results.tsv");
  // Every result file can be downloaded by name.
  auto pin = client_->Get("/v1/jobs/" + id + "/files/results.pin");
  ASSERT_TRUE(pin);
  EXPECT_EQ(pin->status, 200);
  EXPECT_THAT(pin->body, HasSubstr("HLVDEPQNLIK"));
  EXPECT_EQ(get("/v1/jobs/" + id + "/files/results.mzid", 404).find("error")->as_string(),
            "job has no result file results.mzid");
  // A job that is not done has no PSMs yet.
  EXPECT_EQ(get("/v1/jobs/nosuchjob/psms", 404).find("error")->as_string(),
            "no such job: nosuchjob");
}

// The view rebuilds a PSM from the input file as it is now. Replaced after the job (here two
// spectra's ids swapped, so each id holds the other's peaks) it refuses with 409 rather than
// label another spectrum's peaks under the PSM (a new user's find: 3 matched peaks shown for a
// PSM of 13).
TEST_F(WebApiTest, SpectrumViewRefusesAnInputChangedAfterTheJob) {
  start_api({});
  std::string uploaded;
  const std::string bytes = upload_excerpt("excerpt.mzML", uploaded);
  ASSERT_FALSE(uploaded.empty());
  const fs::path copy = uploaded;
  const std::string id = run_excerpt_job(copy.string());
  const ResultsTable tsv = ResultsTable::read(results_tsv(id));
  ASSERT_GT(tsv.rows(), 0u);
  const std::string psm(tsv.cell(0, tsv.column("psm_id")));
  const std::string scannr(tsv.cell(0, tsv.column("scannr")));
  get("/v1/jobs/" + id + "/spectrum?psm=" + psm);  // 200 while the file is unchanged
  std::ifstream in(copy, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  in.close();
  // Another searched spectrum of the same charge (one of another charge fails with 422 first).
  std::string partner;
  for (size_t r = 1; r < tsv.rows() && partner.empty(); ++r) {
    if (tsv.cell(r, tsv.column("charge")) == tsv.cell(0, tsv.column("charge")) &&
        tsv.cell(r, tsv.column("scannr")) != scannr &&
        tsv.cell(r, tsv.column("scannr")).size() == scannr.size()) {
      partner = tsv.cell(r, tsv.column("scannr"));
    }
  }
  ASSERT_FALSE(partner.empty());
  const std::string mine = "id=\"" + scannr + "\"";
  const std::string other = "id=\"" + partner + "\"";
  ASSERT_NE(text.find(mine), std::string::npos);
  ASSERT_EQ(mine.size(), other.size());
  text.replace(text.find(other), other.size(), "id=\"placeholder!!\"");
  text.replace(text.find(mine), mine.size(), other);
  text.replace(text.find("id=\"placeholder!!\""), other.size(), mine);
  std::ofstream(copy, std::ios::binary | std::ios::trunc) << text;
  const std::string error =
      get("/v1/jobs/" + id + "/spectrum?psm=" + psm, 409).find("error")->as_string();
  EXPECT_EQ(error, copy.string() +
                       " changed after the job (its SHA-256 is not the one results.json "
                       "records): its spectra are not the ones searched");
  // An intensity changed in place, the same ids, m/z and matches (a second hostile check found
  // the match count alone let it through): refused the same way.
  std::ofstream(copy, std::ios::binary | std::ios::trunc) << bytes;
  get("/v1/jobs/" + id + "/spectrum?psm=" + psm);  // the original again: 200
  std::string touched = bytes;
  const size_t at = touched.find("<binary>", touched.find("id=\"" + scannr + "\""));
  ASSERT_NE(at, std::string::npos);
  touched[at + 8] = touched[at + 8] == 'A' ? 'B' : 'A';  // one base64 digit of its m/z array
  std::ofstream(copy, std::ios::binary | std::ios::trunc) << touched;
  EXPECT_THAT(get("/v1/jobs/" + id + "/spectrum?psm=" + psm, 409).find("error")->as_string(),
              HasSubstr("changed after the job"));
}

// A file a queued or running job reads is not changed under it: a new user's second client
// uploaded under the name a queued job named (the job then searched 181 of 1,120 spectra,
// "done"). Every piece is refused with 409 naming the name and the job: a first piece would
// replace the file, a later one append to it (the job would read a cut or a whole file
// depending on when it started). Other names go on. Once the job has ended (cancelled here),
// the upload goes on at the same offset with the same id, and the name is free again.
TEST_F(WebApiTest, UploadsDoNotChangeAFileAnUnfinishedJobReads) {
  start_api({});
  const std::string bytes = excerpt_bytes();
  const size_t half = bytes.size() / 2;
  const auto [path, upload, id] = upload_and_submit("queued.mzML", bytes.substr(0, half));
  ASSERT_FALSE(id.empty());
  ASSERT_EQ(get("/v1/jobs/" + id).find("state")->as_string(), "queued");  // no scheduler yet
  const std::string expected_error =
      "name: " + path + " is an input of job " + id +
      ", which has not finished: upload under another name, or once the job has ended";
  auto refused = client_->Put("/v1/uploads/queued.mzML?offset=0", "other bytes", "text/plain");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 409);
  JsonValue body = parse_json(refused->body);
  EXPECT_EQ(body.find("job")->as_string(), id);
  EXPECT_EQ(body.find("field")->as_string(), "name");
  EXPECT_EQ(body.find("error")->as_string(), expected_error);
  // The next piece of the upload in progress: the same 409, nothing appended.
  const std::string rest_url =
      "/v1/uploads/queued.mzML?offset=" + std::to_string(half) + "&upload=" + upload;
  auto rest = client_->Put(rest_url, bytes.substr(half), "application/xml");
  ASSERT_TRUE(rest);
  ASSERT_EQ(rest->status, 409) << rest->body;
  body = parse_json(rest->body);
  EXPECT_EQ(body.find("job")->as_string(), id);
  EXPECT_EQ(body.find("field")->as_string(), "name");
  EXPECT_EQ(body.find("error")->as_string(), expected_error);
  // Without the upload id, and at an offset that is not the end: refused all the same.
  for (const std::string& query : {"?offset=" + std::to_string(half), std::string("?offset=7")}) {
    auto piece = client_->Put("/v1/uploads/queued.mzML" + query, "x", "text/plain");
    ASSERT_TRUE(piece);
    ASSERT_EQ(piece->status, 409) << query;
    EXPECT_EQ(parse_json(piece->body).find("job")->as_string(), id) << query;
  }
  EXPECT_EQ(fs::file_size(path), half);  // the job's input is as it was submitted
  EXPECT_EQ(client_->Put("/v1/uploads/other.mzML?offset=0", "x", "text/plain")->status, 200);
  // Once the job has ended, the upload goes on where it stopped.
  auto cancelled = client_->Delete("/v1/jobs/" + id);
  ASSERT_TRUE(cancelled && cancelled->status == 200) << (cancelled ? cancelled->body : "");
  ASSERT_EQ(get("/v1/jobs/" + id).find("state")->as_string(), "cancelled");
  rest = client_->Put(rest_url, bytes.substr(half), "application/xml");
  ASSERT_TRUE(rest);
  EXPECT_EQ(rest->status, 200) << rest->body;
  EXPECT_EQ(parse_json(rest->body).find("bytes")->as_integer(), static_cast<int64_t>(bytes.size()));
  std::ifstream kept(path, std::ios::binary);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(kept)), {}), bytes);
  EXPECT_EQ(client_->Put("/v1/uploads/queued.mzML?offset=0", "x", "text/plain")->status, 200);
}

// A running job's input is refused the same way as a queued one's: a later piece of the upload
// that is the job's input is a 409 naming the job while it runs, accepted once it has ended.
TEST_F(WebApiTest, UploadsDoNotAppendToAFileARunningJobReads) {
  start_api({});
  const std::string bytes = excerpt_bytes();
  const auto [path, upload, id] = upload_and_submit("running.mzML", bytes);
  ASSERT_FALSE(id.empty());
  const std::string append_url =
      "/v1/uploads/running.mzML?offset=" + std::to_string(bytes.size()) + "&upload=" + upload;
  // Held in "running" by the store alone, so that the check sees a running job for certain
  // (the excerpt's search ends in well under a second).
  ASSERT_TRUE(store_->claim_next().has_value());
  ASSERT_EQ(get("/v1/jobs/" + id).find("state")->as_string(), "running");
  auto refused = client_->Put(append_url, "\n", "text/plain");
  ASSERT_TRUE(refused);
  ASSERT_EQ(refused->status, 409) << refused->body;
  const JsonValue body = parse_json(refused->body);
  EXPECT_EQ(body.find("job")->as_string(), id);
  EXPECT_EQ(body.find("field")->as_string(), "name");
  EXPECT_EQ(fs::file_size(path), bytes.size());
  store_->finish_cancelled(id, "test");
  auto appended = client_->Put(append_url, "\n", "text/plain");
  ASSERT_TRUE(appended);
  EXPECT_EQ(appended->status, 200) << appended->body;
  EXPECT_EQ(fs::file_size(path), bytes.size() + 1);
}

// Over HTTP: the first piece answers the upload's id, and a piece of an upload replaced since
// (another client's first piece under the same name) is a 409 naming the field "upload".
TEST_F(WebApiTest, AReplacedUploadIsToldToStartOver) {
  start_api({});
  const JsonValue a =
      parse_json(client_->Put("/v1/uploads/same.mgf?offset=0", "AAAA", "text/plain")->body);
  const JsonValue b =
      parse_json(client_->Put("/v1/uploads/same.mgf?offset=0", "BBBB", "text/plain")->body);
  const std::string a_id = a.find("upload")->as_string();
  const std::string b_id = b.find("upload")->as_string();
  EXPECT_NE(a_id, b_id);
  auto refused = client_->Put("/v1/uploads/same.mgf?offset=4&upload=" + a_id, "aa", "text/plain");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 409);
  const JsonValue body = parse_json(refused->body);
  EXPECT_EQ(body.find("field")->as_string(), "upload");
  EXPECT_EQ(body.find("error")->as_string(),
            "upload: " + a_id +
                " is not the current upload of same.mgf (another first piece has replaced it, or "
                "the server has restarted): start over, under another name to keep both");
  auto next = client_->Put("/v1/uploads/same.mgf?offset=4&upload=" + b_id, "bb", "text/plain");
  ASSERT_TRUE(next);
  EXPECT_EQ(next->status, 200) << next->body;
  EXPECT_EQ(parse_json(next->body).find("bytes")->as_integer(), 6);
}

// With size=TOTAL a file sent in pieces is nowhere to be seen until its last piece (a new user's
// find: the first 1,000,000 bytes of a FASTA, the server killed, and a job searched 1,322 of its
// 2,692 proteins, "done"): the uploads directory's listing leaves it out, a job naming it finds
// no file, a job naming the staged file (or a link to it) is refused. The last piece answers
// "complete": true and the file is then listed, byte for byte the one sent, and searched.
TEST_F(WebApiTest, AStagedUploadIsNeitherListedNorAJobInputUntilItsLastPiece) {
  start_api({});
  const std::string bytes = excerpt_bytes();
  const std::string size = std::to_string(bytes.size());
  const size_t third = bytes.size() / 3;
  const fs::path uploads = dir_ / "uploads";
  const std::string path = (uploads / "staged.mzML").string();
  auto listed = [&] {
    std::vector<std::string> names;
    const JsonValue listing = get("/v1/files?path=" + uploads.string());
    for (const auto& e : listing.find("entries")->as_array())
      names.push_back(e.find("name")->as_string());
    return names;
  };
  auto refused_job = [&](const std::string& spectra) {
    auto res = client_->Post("/v1/jobs", excerpt_job(spectra), "application/json");
    EXPECT_TRUE(res && res->status == 400) << (res ? res->body : "no answer");
    return res ? parse_json(res->body) : JsonValue();
  };
  auto first = client_->Put("/v1/uploads/staged.mzML?offset=0&size=" + size, bytes.substr(0, third),
                            "application/xml");
  ASSERT_TRUE(first);
  ASSERT_EQ(first->status, 200) << first->body;
  const JsonValue started = parse_json(first->body);
  EXPECT_EQ(started.find("path")->as_string(), path);
  EXPECT_EQ(started.find("bytes")->as_integer(), static_cast<int64_t>(third));
  EXPECT_EQ(started.find("size")->as_integer(), static_cast<int64_t>(bytes.size()));
  EXPECT_FALSE(started.find("complete")->as_bool());
  const std::string upload = started.find("upload")->as_string();
  const fs::path staged = uploads / (".staged-" + upload + "-" + size + "-staged.mzML");
  fs::create_symlink(staged, uploads / "alias.mzML");
  // The second piece leaves the size out (the first one's holds).
  auto second =
      client_->Put("/v1/uploads/staged.mzML?offset=" + std::to_string(third) + "&upload=" + upload,
                   bytes.substr(third, third), "application/xml");
  ASSERT_TRUE(second);
  ASSERT_EQ(second->status, 200) << second->body;
  EXPECT_FALSE(parse_json(second->body).find("complete")->as_bool());
  EXPECT_EQ(fs::file_size(staged), 2 * third);
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(listed(), std::vector<std::string>{"alias.mzML"});
  JsonValue body = refused_job(path);
  EXPECT_EQ(body.find("error")->as_string(), "mzml_paths[0]: file not found: " + path);
  EXPECT_EQ(body.find("field")->as_string(), "mzml_paths[0]");
  const std::string in_progress =
      " (an upload's file takes its name in the uploads directory with its last piece)";
  body = refused_job(staged.string());
  EXPECT_EQ(
      body.find("error")->as_string(),
      "mzml_paths[0]: an upload in progress, not a file yet: " + staged.string() + in_progress);
  EXPECT_EQ(body.find("field")->as_string(), "mzml_paths[0]");
  body = refused_job((uploads / "alias.mzML").string());
  EXPECT_EQ(body.find("error")->as_string(),
            "mzml_paths[0]: an upload in progress, not a file yet: " +
                (uploads / "alias.mzML").string() + in_progress);
  fs::remove(uploads / "alias.mzML");
  EXPECT_EQ(store_->list(std::nullopt, 100).size(), 0u);  // no job was stored

  auto last = client_->Put("/v1/uploads/staged.mzML?offset=" + std::to_string(2 * third) +
                               "&upload=" + upload + "&size=" + size,
                           bytes.substr(2 * third), "application/xml");
  ASSERT_TRUE(last);
  ASSERT_EQ(last->status, 200) << last->body;
  const JsonValue done = parse_json(last->body);
  EXPECT_EQ(done.find("bytes")->as_integer(), static_cast<int64_t>(bytes.size()));
  EXPECT_TRUE(done.find("complete")->as_bool());
  EXPECT_EQ(done.find("path")->as_string(), path);
  EXPECT_FALSE(fs::exists(staged));
  const JsonValue listing = get("/v1/files?path=" + uploads.string());
  ASSERT_EQ(listing.find("entries")->as_array().size(), 1u);
  const JsonValue& entry = listing.find("entries")->as_array()[0];
  EXPECT_EQ(entry.find("name")->as_string(), "staged.mzML");
  EXPECT_EQ(entry.find("bytes")->as_integer(), static_cast<int64_t>(bytes.size()));
  EXPECT_EQ(entry.find("kind")->as_string(), "spectra");
  std::ifstream in(path, std::ios::binary);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(in)), {}), bytes);
  // Searched as the committed excerpt is: its 12 PSMs.
  EXPECT_EQ(ResultsTable::read(results_tsv(run_excerpt_job(path))).rows(), 12u);
}

// A piece that would end past the size is refused with 413 naming "size", nothing written; a
// size other than the first piece's, or one for an upload begun without, with 409 naming it.
TEST_F(WebApiTest, APiecePastTheUploadsSizeIsRefused) {
  start_api({});
  auto put = [&](const std::string& query, const std::string& body, int status) {
    auto res = client_->Put("/v1/uploads/" + query, body, "application/octet-stream");
    EXPECT_TRUE(res) << query;
    if (!res) return JsonValue();
    EXPECT_EQ(res->status, status) << query << ": " << res->body;
    return parse_json(res->body);
  };
  JsonValue body = put("a.mgf?offset=0&size=10", "BEGIN IONS\n", 413);
  EXPECT_EQ(body.find("error")->as_string(),
            "size: a piece of 11 bytes at offset 0 would end past the upload's size of 10 bytes");
  EXPECT_EQ(body.find("field")->as_string(), "size");
  EXPECT_EQ(body.find("size")->as_integer(), 10);
  EXPECT_FALSE(fs::exists(dir_ / "uploads" / "a.mgf"));
  const std::string upload =
      put("a.mgf?offset=0&size=20", "BEGIN IONS\n", 200).find("upload")->as_string();
  body = put("a.mgf?offset=11&upload=" + upload, "END IONS\nX", 413);
  EXPECT_EQ(body.find("error")->as_string(),
            "size: a piece of 10 bytes at offset 11 would end past the upload's size of 20 bytes");
  body = put("a.mgf?offset=11&size=19&upload=" + upload, "END IONS", 409);
  EXPECT_EQ(body.find("error")->as_string(),
            "size: 19 is not the upload's size (20 bytes, given with its first piece)");
  EXPECT_EQ(body.find("field")->as_string(), "size");
  body = put("a.mgf?offset=7&upload=" + upload, "END IONS\n", 409);  // the wrong offset
  EXPECT_EQ(body.find("field")->as_string(), "offset");
  EXPECT_EQ(body.find("bytes")->as_integer(), 11);
  EXPECT_EQ(body.find("size")->as_integer(), 20);
  EXPECT_FALSE(body.find("complete")->as_bool());
  for (const char* bad : {"-1", "ten", "", "18446744073709551616"}) {
    body = put("a.mgf?offset=11&size=" + std::string(bad), "END IONS\n", 400);
    EXPECT_EQ(body.find("error")->as_string(),
              "size: expected the whole file's bytes (digits), got " + std::string(bad));
    EXPECT_EQ(body.find("field")->as_string(), "size");
  }
  EXPECT_TRUE(
      put("a.mgf?offset=11&upload=" + upload, "END IONS\n", 200).find("complete")->as_bool());
  std::ifstream in(dir_ / "uploads" / "a.mgf");
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(in)), {}), "BEGIN IONS\nEND IONS\n");
  // The last piece sent again (its answer lost): complete, nothing appended.
  body = put("a.mgf?offset=11&upload=" + upload, "END IONS\n", 409);
  EXPECT_EQ(body.find("bytes")->as_integer(), 20);
  EXPECT_TRUE(body.find("complete")->as_bool());
  EXPECT_EQ(fs::file_size(dir_ / "uploads" / "a.mgf"), 20u);
  // An upload begun without a size takes none later; an unsized one answers as before.
  const JsonValue unsized = put("b.mgf?offset=0", "BEGIN", 200);
  EXPECT_EQ(unsized.find("size"), nullptr);
  EXPECT_EQ(unsized.find("complete"), nullptr);
  body = put("b.mgf?offset=5&size=10", "IONS\n", 409);
  EXPECT_EQ(body.find("error")->as_string(),
            "size: the upload was started without one (leave it out, or start over at offset 0 "
            "with it)");
  EXPECT_EQ(fs::file_size(dir_ / "uploads" / "b.mgf"), 5u);
}

// A staged upload under the name of a queued job's input: its pieces are staged while the job
// waits (they change nothing the job reads), the completing one, which would replace the job's
// input, is refused with the same 409 as any piece of an unsized upload, naming the name and the
// job; once the job has ended the same piece completes the upload.
TEST_F(WebApiTest, AStagedUploadReplacesAFileAJobReadsOnlyOnceTheJobHasEnded) {
  start_api({});
  const std::string bytes = excerpt_bytes();
  const auto [path, unused, id] = upload_and_submit("input.mzML", bytes);
  ASSERT_FALSE(id.empty());
  const std::string next = bytes + "\n";  // another version of the file
  const std::string size = std::to_string(next.size());
  const size_t half = next.size() / 2;
  auto first = client_->Put("/v1/uploads/input.mzML?offset=0&size=" + size, next.substr(0, half),
                            "application/xml");
  ASSERT_TRUE(first);
  ASSERT_EQ(first->status, 200) << first->body;
  const std::string upload = parse_json(first->body).find("upload")->as_string();
  const std::string last_url = "/v1/uploads/input.mzML?offset=" + std::to_string(half) +
                               "&upload=" + upload + "&size=" + size;
  auto refused = client_->Put(last_url, next.substr(half), "application/xml");
  ASSERT_TRUE(refused);
  ASSERT_EQ(refused->status, 409) << refused->body;
  JsonValue body = parse_json(refused->body);
  EXPECT_EQ(body.find("job")->as_string(), id);
  EXPECT_EQ(body.find("field")->as_string(), "name");
  EXPECT_EQ(body.find("error")->as_string(),
            "name: " + path + " is an input of job " + id +
                ", which has not finished: upload under another name, or once the job has ended");
  // Nor does a staged upload in one piece replace it.
  refused = client_->Put("/v1/uploads/input.mzML?offset=0&size=" + size, next, "application/xml");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 409) << refused->body;
  EXPECT_EQ(parse_json(refused->body).find("job")->as_string(), id);
  std::ifstream unchanged(path, std::ios::binary);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(unchanged)), {}), bytes);
  auto cancelled = client_->Delete("/v1/jobs/" + id);
  ASSERT_TRUE(cancelled && cancelled->status == 200) << (cancelled ? cancelled->body : "");
  auto completed = client_->Put(last_url, next.substr(half), "application/xml");
  ASSERT_TRUE(completed);
  ASSERT_EQ(completed->status, 200) << completed->body;
  EXPECT_TRUE(parse_json(completed->body).find("complete")->as_bool());
  std::ifstream replaced(path, std::ios::binary);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(replaced)), {}), next);
  EXPECT_EQ(
      std::vector<fs::path>(fs::directory_iterator(dir_ / "uploads"), fs::directory_iterator()),
      std::vector<fs::path>{path});
}

TEST_F(WebApiTest, PagesCarryTheirPolicyAndNeedNoToken) {
  InProcessApiOptions o;
  o.api_token = "s3cret";
  start_api(o);
  for (const char* path : {"/", "/jobs/j123", "/static/app.css", "/static/chart.min.js"}) {
    auto res = client_->Get(path);
    ASSERT_TRUE(res) << path;
    EXPECT_EQ(res->status, 200) << path;
    EXPECT_THAT(res->get_header_value("Content-Security-Policy"), HasSubstr("default-src 'self'"));
    EXPECT_GT(res->body.size(), 500u) << path;
  }
  auto page = client_->Get("/");
  EXPECT_EQ(page->get_header_value("Content-Type"), "text/html; charset=utf-8");
  EXPECT_THAT(page->body, HasSubstr("<script src=\"/static/jobs.js\"></script>"));
  // Chart.js is Debian's file, served as it is installed.
  std::ifstream chart("/usr/share/javascript/chart.js/chart.min.js", std::ios::binary);
  const std::string chart_text((std::istreambuf_iterator<char>(chart)), {});
  EXPECT_EQ(client_->Get("/static/chart.min.js")->body, chart_text);
  EXPECT_EQ(client_->Get("/static/nothing.js")->status, 404);
  // The API endpoints behind the page still need the token.
  EXPECT_EQ(client_->Get("/v1/files")->status, 401);
  EXPECT_EQ(client_->Get("/v1/modifications?q=ox")->status, 401);
  httplib::Headers auth = {{"Authorization", "Bearer s3cret"}};
  EXPECT_EQ(client_->Get("/v1/modifications?q=ox", auth)->status, 200);
  // A known route with another method: 405 naming the allowed ones.
  auto post = client_->Post("/v1/jobs/j1/psms", auth, "", "application/json");
  EXPECT_EQ(post->status, 405);
  EXPECT_EQ(post->get_header_value("Allow"), "GET, HEAD, OPTIONS");
}

TEST_F(WebApiTest, FileBrowserStaysInsideTheDataRoots) {
  start_api({});
  JsonValue roots = get("/v1/files");  // the test data and the uploads, as serve has them
  ASSERT_EQ(roots.find("entries")->as_array().size(), 2u);
  EXPECT_EQ(roots.find("entries")->as_array()[0].find("path")->as_string(),
            fs::path(kData).lexically_normal().string());
  EXPECT_EQ(roots.find("entries")->as_array()[1].find("path")->as_string(),
            (dir_ / "uploads").lexically_normal().string());
  JsonValue listing = get("/v1/files?path=" + kData);
  bool found = false;
  for (const auto& e : listing.find("entries")->as_array()) {
    if (e.find("name")->as_string() != "BSA1_identified_excerpt.mzML") continue;
    found = true;
    EXPECT_EQ(e.find("kind")->as_string(), "spectra");
    EXPECT_EQ(e.find("bytes")->as_integer(),
              static_cast<int64_t>(fs::file_size(kData + "/BSA1_identified_excerpt.mzML")));
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(listing.find("parent")->as_string(), "");  // nothing above a root
  EXPECT_EQ(get("/v1/files?path=/etc", 400).find("error")->as_string(),
            "path outside the server's data roots: /etc");
  EXPECT_EQ(get("/v1/files?path=" + kData + "/../..", 400).find("error")->as_string(),
            "path contains \"..\": " + kData + "/../..");
  EXPECT_EQ(get("/v1/files?path=relative", 400).find("error")->as_string(),
            "path must be absolute: relative");
}

TEST_F(WebApiTest, ModificationSearchAndUploads) {
  start_api({});
  JsonValue mods = get("/v1/modifications?q=oxid&limit=5");
  const auto& list = mods.find("modifications")->as_array();
  ASSERT_EQ(list.size(), 5u);
  bool oxidation_m = false;
  for (const auto& m : list) {
    EXPECT_EQ(m.find("title")->as_string().substr(0, 4), "Oxid");
    if (m.find("name")->as_string() == "Oxidation (M)") {
      oxidation_m = true;
      EXPECT_EQ(m.find("accession")->as_integer(), 35);
    }
  }
  EXPECT_TRUE(oxidation_m);
  EXPECT_EQ(get("/v1/modifications?q=UNIMOD:4&limit=50")
                .find("modifications")
                ->as_array()[0]
                .find("title")
                ->as_string(),
            "Carbamidomethyl");
  // Upload in two pieces; a piece at the wrong offset is refused with the size so far.
  auto a =
      client_->Put("/v1/uploads/my_run.mgf?offset=0", "BEGIN IONS\n", "application/octet-stream");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->status, 200) << a->body;
  auto wrong = client_->Put("/v1/uploads/my_run.mgf?offset=3", "x", "application/octet-stream");
  EXPECT_EQ(wrong->status, 409);
  EXPECT_EQ(parse_json(wrong->body).find("bytes")->as_integer(), 11);
  auto b =
      client_->Put("/v1/uploads/my_run.mgf?offset=11", "END IONS\n", "application/octet-stream");
  JsonValue done = parse_json(b->body);
  EXPECT_EQ(done.find("bytes")->as_integer(), 20);
  std::ifstream in(done.find("path")->as_string());
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(in)), {}), "BEGIN IONS\nEND IONS\n");
  EXPECT_EQ(client_->Put("/v1/uploads/.hidden", "x", "text/plain")->status, 400);
  // No offset: refused, and the upload so far is kept (it used to start over silently).
  for (const char* bad : {"-1", "+3", "%203", "1e3", "18446744073709551616"}) {
    auto refused = client_->Put("/v1/uploads/my_run.mgf?offset=" + std::string(bad), "x",
                                "application/octet-stream");
    ASSERT_TRUE(refused) << bad;
    EXPECT_EQ(refused->status, 400) << bad;
    EXPECT_THAT(parse_json(refused->body).find("error")->as_string(),
                testing::StartsWith("offset: expected a byte offset (digits), got "))
        << bad;
  }
  auto no_offset = client_->Put("/v1/uploads/my_run.mgf", "x", "application/octet-stream");
  EXPECT_EQ(no_offset->status, 400);
  EXPECT_EQ(parse_json(no_offset->body).find("field")->as_string(), "offset");
  EXPECT_EQ(fs::file_size(done.find("path")->as_string()), 20u);
  // A link or a FIFO at an upload's name is refused at once, and uploads go on (a FIFO used to
  // block the upload lock for good; a link was written through, outside the data directory).
  const fs::path uploads = fs::path(done.find("path")->as_string()).parent_path();
  const fs::path outside = uploads.parent_path() / "outside.txt";
  std::ofstream(outside) << "keep me";
  fs::create_symlink(outside, uploads / "link.mgf");
  ASSERT_EQ(::mkfifo((uploads / "pipe.mgf").c_str(), 0644), 0);
  for (const char* name : {"link.mgf", "pipe.mgf"}) {
    auto refused = client_->Put("/v1/uploads/" + std::string(name) + "?offset=0", "abc",
                                "application/octet-stream");
    ASSERT_TRUE(refused) << name;
    EXPECT_EQ(refused->status, 409) << name;
    EXPECT_EQ(parse_json(refused->body).find("field")->as_string(), "name");
  }
  EXPECT_THAT(parse_json(client_->Put("/v1/uploads/link.mgf?offset=0", "abc", "text/plain")->body)
                  .find("error")
                  ->as_string(),
              HasSubstr("a symbolic link (not followed)"));
  std::ifstream kept(outside);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(kept)), {}), "keep me");
  EXPECT_EQ(client_->Put("/v1/uploads/next.mgf?offset=0", "x", "text/plain")->status, 200);
}

}  // namespace
}  // namespace ionflow
