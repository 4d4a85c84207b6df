// JSON replies of the HTTP API, shared by its route files (http_api.cpp, web_api.cpp): a body
// pretty-printed with a trailing newline, errors as {"error": "...", "field": "key.path"}, and
// result files streamed as attachments.
// Thread-safety: pure functions on the caller's response.
#pragma once

#include <httplib.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>

#include "service/json_value.hpp"

namespace ionflow {

inline void reply(httplib::Response& res, int status, const JsonValue& body) {
  res.status = status;
  res.set_content(to_json(body, 2) + "\n", "application/json");
}

// A NUL byte in `message` (echoed from the request: a query value's %00) is written as U+FFFD:
// \u0000 is JSON, but our JSON reader, and so `ionflow`'s client, refuses strings holding it
// (service/json_value.hpp).
inline void error(httplib::Response& res, int status, const std::string& message,
                  const std::string& field = "") {
  std::string text;
  text.reserve(message.size());
  for (char c : message) {
    if (c == '\0') {
      text += "\xEF\xBF\xBD";
    } else {
      text += c;
    }
  }
  JsonValue body = JsonValue::object();
  body.set("error", text);
  if (!field.empty()) body.set("field", field);
  reply(res, status, body);
}

// Streams the file at `path` (`bytes` long) as an attachment named `name`, 1 MiB at a time.
inline void send_file(httplib::Response& res, const std::string& path, uint64_t bytes,
                      const std::string& type, const std::string& name) {
  res.set_header("Content-Disposition", "attachment; filename=\"" + name + "\"");
  res.set_content_provider(static_cast<size_t>(bytes), type,
                           [path](size_t offset, size_t length, httplib::DataSink& sink) {
                             std::ifstream in(path, std::ios::binary);
                             in.seekg(static_cast<std::streamoff>(offset));
                             std::string buffer(std::min<size_t>(length, 1 << 20), '\0');
                             in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
                             const auto n = static_cast<size_t>(in.gcount());
                             return n > 0 && sink.write(buffer.data(), n);
                           });
}

}  // namespace ionflow
