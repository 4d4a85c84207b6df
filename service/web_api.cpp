#include "service/web_api.hpp"

#include <httplib.h>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <regex>

#include "service/data_browser.hpp"
#include "service/http_reply.hpp"
#include "service/job_inputs.hpp"
#include "service/job_message.hpp"
#include "service/modification_search.hpp"
#include "service/psm_page.hpp"
#include "service/result_cache.hpp"
#include "service/result_plots.hpp"
#include "service/spectrum_view.hpp"
#include "service/upload_file.hpp"
#include "service/web_assets.hpp"

namespace ionflow {

namespace {

namespace fs = std::filesystem;

// No script, style, image or connection from anywhere but this server; no inline script.
constexpr const char* kContentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
    "form-action 'self'";

void send_asset(httplib::Response& res, const std::string& name) {
  const WebAsset* asset = find_web_asset(name);
  if (!asset) return error(res, 404, "no such page asset: " + name);
  res.set_header("Content-Security-Policy", kContentSecurityPolicy);
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("Cache-Control", name.ends_with(".html") ? "no-cache" : "max-age=300");
  res.set_content(std::string(asset->body), std::string(asset->content_type).c_str());
}

std::map<std::string, std::string> single_params(const httplib::Request& req) {
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : req.params) out[key] = value;
  return out;
}

// A byte count or offset: digits only (strtoull read "-1" as 18446744073709551615: a 409 about
// the upload's end instead of a 400 about the field).
bool parse_bytes(const std::string& text, uint64_t& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size();
}

bool valid_upload_name(const std::string& name) {
  static const std::regex pattern(R"([A-Za-z0-9_][A-Za-z0-9._-]{0,199})");
  return std::regex_match(name, pattern);
}

// results.json's "inputs": path -> SHA-256 of each file the job read; empty when the file is
// missing or does not say (the spectrum view then checks nothing more).
std::map<std::string, std::string> recorded_input_sha256(const std::string& results_json) {
  std::map<std::string, std::string> out;
  std::ifstream in(results_json, std::ios::binary);
  if (!in) return out;
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  try {
    const JsonValue doc = parse_json(text);
    const JsonValue* inputs = doc.is_object() ? doc.find("inputs") : nullptr;
    if (inputs == nullptr || !inputs->is_array()) return out;
    for (const JsonValue& input : inputs->as_array()) {
      const JsonValue* path = input.is_object() ? input.find("path") : nullptr;
      const JsonValue* sha = input.is_object() ? input.find("sha256") : nullptr;
      if (path && sha && path->is_string() && sha->is_string()) {
        out[path->as_string()] = sha->as_string();
      }
    }
  } catch (const std::exception&) {
    out.clear();
  }
  return out;
}

}  // namespace

struct WebApi::Impl {
  JobStore& store;
  const Unimod& unimod;
  Options options;
  ResultCache cache{2};
  std::once_flag modifications_once;
  std::unique_ptr<ModificationSearch> modifications;
  UploadGate& upload_gate;
  UploadFiles upload_files;  // used under upload_gate only

  Impl(JobStore& s, const Unimod& u, UploadGate& g, Options o)
      : store(s),
        unimod(u),
        options(std::move(o)),
        upload_gate(g),
        upload_files(options.uploads_directory) {}

  // The done job `id`, or an error reply (false).
  bool done_job(const std::string& id, httplib::Response& res, JobRecord& out) {
    auto r = store.get(id);
    if (!r) return error(res, 404, "no such job: " + id), false;
    if (r->state != JobState::kDone) {
      return error(res, 409, std::string("job is ") + job_state_name(r->state) + ", not done"),
             false;
    }
    out = std::move(*r);
    return true;
  }

  std::string result_path(const JobRecord& r, const std::string& name) const {
    for (const auto& p : r.result_paths) {
      const std::string file = fs::path(p).filename().string();
      if (file == name || file == name + ".zst") return p;
    }
    return "";
  }

  // The done job's results.tsv table, or an error reply (nullptr).
  std::shared_ptr<const ResultsTable> table(const httplib::Request& req, httplib::Response& res,
                                            JobRecord* record = nullptr) {
    JobRecord r;
    if (!done_job(req.matches[1], res, r)) return nullptr;
    const std::string path = result_path(r, "results.tsv");
    if (path.empty()) return error(res, 404, "job has no results.tsv"), nullptr;
    std::error_code ec;
    if (!fs::exists(path, ec)) return error(res, 410, "result file is gone: " + path), nullptr;
    auto t = cache.get(path);
    if (record) *record = std::move(r);
    return t;
  }

  void psms(const httplib::Request& req, httplib::Response& res) {
    auto t = table(req, res);
    if (!t) return;
    try {
      const PsmQuery query = parse_psm_query(single_params(req));
      reply(res, 200, psm_page_json(*t, query, select_psms(*t, query)));
    } catch (const PsmQueryError& e) {
      error(res, 400, e.what(), e.field());
    }
  }

  void spectrum(const httplib::Request& req, httplib::Response& res) {
    if (!req.has_param("psm")) return error(res, 400, "psm: required (results.tsv psm_id)", "psm");
    JobRecord record;
    auto t = table(req, res, &record);
    if (!t) return;
    const std::string wanted = req.get_param_value("psm");
    const int id_col = t->column("psm_id");
    long row = -1;
    try {
      size_t used = 0;
      const long n = std::stol(wanted, &used);
      if (used == wanted.size() && n >= 1) row = n - 1;
    } catch (const std::exception&) {
    }
    if (row < 0) return error(res, 400, "psm: expected a psm_id (1, 2, ...), got " + wanted, "psm");
    // psm_id is the 1-based row number; search when a table does not follow that.
    if (id_col < 0) return error(res, 422, "results.tsv has no psm_id column");
    if (static_cast<size_t>(row) >= t->rows() || t->cell(row, id_col) != wanted) {
      row = -1;
      for (size_t r = 0; r < t->rows() && row < 0; ++r) {
        if (t->cell(r, id_col) == wanted) row = static_cast<long>(r);
      }
    }
    if (row < 0) return error(res, 404, "no PSM " + wanted + " in results.tsv", "psm");
    PsmIdentity psm;
    auto cell = [&](const char* name) {
      const int c = t->column(name);
      return c < 0 ? std::string() : std::string(t->cell(row, c));
    };
    psm.psm_id = wanted;
    psm.filename = cell("filename");
    psm.scannr = cell("scannr");
    psm.peptide = cell("peptide");
    psm.charge = std::atoi(cell("charge").c_str());
    if (const std::string matched = cell("matched_peaks"); !matched.empty()) {
      psm.matched_peaks = std::atoi(matched.c_str());
    }
    psm.input_sha256 = recorded_input_sha256(result_path(record, "results.json"));
    try {
      JobMessageOptions opts;
      opts.check_inputs = false;
      opts.stored_job = true;
      opts.data_roots = options.data_roots;
      opts.forced_output_directory = fs::path(result_path(record, "results.tsv")).parent_path();
      const ParsedJob job = parse_job_message(record.effective_json, unimod, opts);
      reply(res, 200, spectrum_view_json(job.spec, psm));
    } catch (const SpectrumViewError& e) {
      error(res, e.status(), e.what());
    } catch (const JobMessageError& e) {
      error(res, 422, std::string("the job's parameters no longer parse: ") + e.what());
    }
  }

  void result_file(const httplib::Request& req, httplib::Response& res) {
    JobRecord r;
    if (!done_job(req.matches[1], res, r)) return;
    const std::string name = req.matches[2];
    std::string path;
    for (const auto& p : r.result_paths) {
      if (fs::path(p).filename().string() == name) path = p;
    }
    if (path.empty()) return error(res, 404, "job has no result file " + name);
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec) return error(res, 410, "result file is gone: " + path);
    const std::string type = name.ends_with(".zst")    ? "application/zstd"
                             : name.ends_with(".json") ? "application/json"
                             : name.ends_with(".tsv") || name.ends_with(".pin")
                                 ? "text/tab-separated-values"
                                 : "application/xml";
    send_file(res, path, size, type, name);
  }

  void upload(const httplib::Request& req, httplib::Response& res) {
    if (options.uploads_directory.empty()) return error(res, 403, "uploads are not enabled");
    const std::string name = req.matches[1];
    if (!valid_upload_name(name)) {
      return error(res, 400,
                   "name: letters, digits, '.', '_' and '-' only, not starting with '.', at most "
                   "200 characters: " +
                       name,
                   "name");
    }
    uint64_t offset = 0;
    // Required: without it a resumed upload would silently start the file over.
    if (!req.has_param("offset")) {
      return error(res, 400, "offset: required (the byte at which the body goes; 0 starts anew)",
                   "offset");
    }
    if (const std::string text = req.get_param_value("offset"); !parse_bytes(text, offset)) {
      return error(res, 400, "offset: expected a byte offset (digits), got " + text, "offset");
    }
    // The whole file's bytes (tus's Upload-Length): the pieces are staged out of sight, and the
    // file takes its name whole with the last one (upload_file.hpp).
    std::optional<uint64_t> size;
    if (req.has_param("size")) {
      const std::string text = req.get_param_value("size");
      if (uint64_t total = 0; parse_bytes(text, total)) {
        size = total;
      } else {
        return error(res, 400, "size: expected the whole file's bytes (digits), got " + text,
                     "size");
      }
    }
    const fs::path path = fs::path(options.uploads_directory) / name;
    const std::string upload = req.has_param("upload") ? req.get_param_value("upload") : "";
    UploadPieceResult written;
    // A file a queued or running job reads is not changed under it (job_inputs.hpp): neither
    // replaced by a first piece nor appended to by a later one, whose job would otherwise read
    // a cut or a whole file depending on when it started, nor replaced by the last piece of a
    // staged upload (its other pieces go to its staged file, and are accepted). A job submitted
    // before its input's last piece reads what was there; its upload goes on (same offset and
    // id) once the job has ended, e.g. after DELETE /v1/jobs/ID. The check and the write are one
    // step under the gate, which a job reading uploads is also inserted under (POST /v1/jobs).
    const std::string job = upload_gate.write_unless_read(
        path.string(),
        [&] {
          std::error_code ec;
          fs::create_directories(options.uploads_directory, ec);
          written = upload_files.write_piece(name, offset, req.body, upload, size);
        },
        [&] { return upload_files.changes_file(name, offset, req.body.size(), upload, size); });
    if (!job.empty()) {
      JsonValue refused = JsonValue::object();
      refused.set("error", "name: " + path.string() + " is an input of job " + job +
                               ", which has not finished: upload under another name, or once "
                               "the job has ended");
      refused.set("field", "name");
      refused.set("job", job);
      return reply(res, 409, refused);
    }
    JsonValue body = JsonValue::object();
    switch (written.status) {
      case UploadPieceResult::kWritten:
        body.set("path", path.string());
        body.set("bytes", written.bytes);
        body.set("upload", written.upload);
        if (written.size) {  // a staged upload (an unsized one answers as before)
          body.set("size", *written.size);
          body.set("complete", written.complete);
        }
        return reply(res, 200, body);
      case UploadPieceResult::kTooLong:
        body.set("error", "size: a piece of " + std::to_string(req.body.size()) +
                              " bytes at offset " + std::to_string(offset) +
                              " would end past the upload's size of " +
                              std::to_string(*written.size) + " bytes");
        body.set("field", "size");
        body.set("size", *written.size);
        return reply(res, 413, body);
      case UploadPieceResult::kSizeMismatch:
        body.set("error", written.size
                              ? "size: " + std::to_string(*size) + " is not the upload's size (" +
                                    std::to_string(*written.size) +
                                    " bytes, given with its first piece)"
                              : "size: the upload was started without one (leave it out, or start "
                                "over at offset 0 with it)");
        body.set("field", "size");
        if (written.size) body.set("size", *written.size);
        return reply(res, 409, body);
      case UploadPieceResult::kSuperseded:
        body.set("error", "upload: " + upload + " is not the current upload of " + name +
                              " (another first piece has replaced it, or the server has "
                              "restarted): start over, under another name to keep both");
        body.set("field", "upload");
        body.set("bytes", 0);
        return reply(res, 409, body);
      case UploadPieceResult::kWrongOffset:
        body.set("error", "offset " + std::to_string(offset) + " is not the end of the upload (" +
                              std::to_string(written.bytes) + " bytes)");
        body.set("field", "offset");
        body.set("bytes", written.bytes);
        if (written.size) {
          body.set("size", *written.size);
          body.set("complete", written.complete);
        }
        return reply(res, 409, body);
      case UploadPieceResult::kNotRegular:
        return error(res, 409,
                     "name: " + path.string() + " is " + written.error +
                         ", not a file of its own to upload into",
                     "name");
      case UploadPieceResult::kOpenFailed: {
        // The server's trouble, not the name's: a full or read-only disk, permissions.
        const bool full = written.error_number == ENOSPC || written.error_number == EDQUOT;
        return error(res, full ? 507 : 500, "cannot open " + path.string() + ": " + written.error);
      }
      case UploadPieceResult::kWriteFailed:
        break;
    }
    error(res, 507, "cannot write " + path.string() + ": " + written.error);
  }

  const ModificationSearch& modification_search() {
    std::call_once(modifications_once,
                   [this] { modifications = std::make_unique<ModificationSearch>(unimod); });
    return *modifications;
  }
};

WebApi::WebApi(JobStore& store, const Unimod& unimod, UploadGate& upload_gate, Options options)
    : impl_(std::make_unique<Impl>(store, unimod, upload_gate, std::move(options))) {}
WebApi::~WebApi() = default;

bool WebApi::is_page_path(const std::string& path) {
  static const std::regex pages(R"(/|/jobs/[A-Za-z0-9_-]+|/static/[A-Za-z0-9._-]+)");
  return std::regex_match(path, pages);
}

void WebApi::register_routes(httplib::Server& server) {
  Impl* self = impl_.get();
  server.Get(
      "/", [](const httplib::Request&, httplib::Response& res) { send_asset(res, "index.html"); });
  server.Get(R"(/jobs/([A-Za-z0-9_-]+))",
             [](const httplib::Request&, httplib::Response& res) { send_asset(res, "job.html"); });
  server.Get(
      R"(/static/([A-Za-z0-9._-]+))",
      [](const httplib::Request& req, httplib::Response& res) { send_asset(res, req.matches[1]); });
  server.Get(R"(/v1/jobs/([A-Za-z0-9_-]+)/psms)",
             [self](const httplib::Request& req, httplib::Response& res) { self->psms(req, res); });
  server.Get(R"(/v1/jobs/([A-Za-z0-9_-]+)/plots)",
             [self](const httplib::Request& req, httplib::Response& res) {
               if (auto t = self->table(req, res)) reply(res, 200, result_plots_json(*t));
             });
  server.Get(
      R"(/v1/jobs/([A-Za-z0-9_-]+)/spectrum)",
      [self](const httplib::Request& req, httplib::Response& res) { self->spectrum(req, res); });
  server.Get(
      R"(/v1/jobs/([A-Za-z0-9_-]+)/files/([A-Za-z0-9._-]+))",
      [self](const httplib::Request& req, httplib::Response& res) { self->result_file(req, res); });
  server.Get("/v1/files", [self](const httplib::Request& req, httplib::Response& res) {
    try {
      reply(res, 200, list_data_directory(self->options.data_roots, req.get_param_value("path")));
    } catch (const DataBrowserError& e) {
      error(res, e.status(), e.what(), "path");
    }
  });
  server.Get("/v1/modifications", [self](const httplib::Request& req, httplib::Response& res) {
    size_t limit = 20;
    if (req.has_param("limit")) {
      const int n = std::atoi(req.get_param_value("limit").c_str());
      if (n < 1 || n > 200) {
        return error(
            res, 400,
            "limit: expected an integer from 1 to 200, got " + req.get_param_value("limit"),
            "limit");
      }
      limit = static_cast<size_t>(n);
    }
    reply(res, 200, self->modification_search().search_json(req.get_param_value("q"), limit));
  });
  server.Put(R"(/v1/uploads/([^/]+))", [self](const httplib::Request& req, httplib::Response& res) {
    self->upload(req, res);
  });
}

}  // namespace ionflow
