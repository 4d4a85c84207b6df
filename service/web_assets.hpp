// Web assets: the files of the service's web page (service/web/*.html, *.js, *.css, and
// Chart.js from Debian's libjs-chart.js), embedded in the binary at build time
// (cmake/embed_web_assets.cmake generates web_assets_data.cpp), so `ionflow serve` needs no
// other server and no file beside it, and the page makes no request to another host.
// Thread-safety: immutable static data.
#pragma once

#include <string_view>

namespace ionflow {

struct WebAsset {
  std::string_view name;          // "index.html", "app.css", "chart.min.js"
  std::string_view content_type;  // "text/html; charset=utf-8", ...
  std::string_view body;
};

// The asset called `name`, or nullptr.
const WebAsset* find_web_asset(std::string_view name);

}  // namespace ionflow
