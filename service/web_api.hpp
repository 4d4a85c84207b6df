// WebApi: the service's web page and the small JSON endpoints it draws from, registered on the
// HttpApi's server (same port; no other server, no request to another host).
//
//   GET /                              the jobs page (service/web/index.html)
//   GET /jobs/{id}                     one job's page (service/web/job.html)
//   GET /static/{name}                 the page's scripts and styles, and Chart.js
//   GET /v1/jobs/{id}/psms?...         one page of the job's PSMs, filtered and sorted
//                                      (service/psm_page.hpp)
//   GET /v1/jobs/{id}/plots            the job page's plot data (service/result_plots.hpp)
//   GET /v1/jobs/{id}/spectrum?psm=N   PSM N (results.tsv psm_id) as a spectrum view
//                                      (service/spectrum_view.hpp)
//   GET /v1/jobs/{id}/files/{name}     any result file of a done job (results.mzid, ...)
//   GET /v1/files[?path=DIR]           the data roots' directories (service/data_browser.hpp)
//   GET /v1/modifications?q=T&limit=N  Unimod names for T (service/modification_search.hpp)
//   PUT /v1/uploads/{name}?offset=N[&upload=ID][&size=TOTAL]
//                                      appends the body to DATA_DIR/uploads/{name} at byte N
//                                      (a file is sent in pieces within --max-body-bytes;
//                                      offset 0 starts it anew) -> {"path", "bytes", "upload"};
//                                      with size (on the first piece; later ones may repeat
//                                      it) the pieces are staged out of sight and the file
//                                      takes its name whole with the last, answering also
//                                      {"size", "complete"}; 413 naming "size" for a piece
//                                      past it (upload_file.hpp). 409 naming "name" and "job"
//                                      for a piece that would change the file while a queued or
//                                      running job reads it (job_inputs.hpp: checked and
//                                      written under the UploadGate)
// Pages carry a Content-Security-Policy of default-src 'self' (no inline script, no other
// host). They need no API token themselves (they hold no data); every /v1 endpoint does when
// the server has one (the page asks for it once and sends it as the bearer token).
// Thread-safety: handlers run on httplib's pool; the result cache is locked, the uploads are
// written under the UploadGate.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "scoring/unimod.hpp"
#include "service/job_inputs.hpp"
#include "service/job_store.hpp"

namespace httplib {
class Server;
}

namespace ionflow {

class WebApi {
 public:
  struct Options {
    std::vector<std::string> data_roots;
    std::string uploads_directory;  // "" = uploads refused (403)
  };
  // `upload_gate` (over options.uploads_directory) must outlive the WebApi; POST /v1/jobs inserts
  // jobs reading uploads under the same gate.
  WebApi(JobStore& store, const Unimod& unimod, UploadGate& upload_gate, Options options);
  ~WebApi();
  WebApi(const WebApi&) = delete;
  WebApi& operator=(const WebApi&) = delete;

  void register_routes(httplib::Server& server);

  // Whether `path` is a page or asset (served without the API token).
  static bool is_page_path(const std::string& path);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ionflow
