// JSON replies of the HTTP API, shared by its route files (http_api.cpp, web_api.cpp): a body
// pretty-printed with a trailing newline, and errors as {"error": "...", "field": "key.path"}.
// Thread-safety: pure functions on the caller's response.
#pragma once

#include <httplib.h>

#include <string>

#include "service/json_value.hpp"

namespace ionflow {

inline void reply(httplib::Response& res, int status, const JsonValue& body) {
  res.status = status;
  res.set_content(to_json(body, 2) + "\n", "application/json");
}

inline void error(httplib::Response& res, int status, const std::string& message,
                  const std::string& field = "") {
  JsonValue body = JsonValue::object();
  body.set("error", message);
  if (!field.empty()) body.set("field", field);
  reply(res, status, body);
}

}  // namespace ionflow
