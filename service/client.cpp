#include "service/client.hpp"

#include <fmt/format.h>

namespace ionflow {

namespace {
int not_yet(const char* what) {
  fmt::print(stderr, "ionflow {}: not implemented yet\n", what);
  return 2;
}
}  // namespace

int client_submit(const ClientOptions&, const std::string&, bool) {
  return not_yet("submit");
}
int client_status(const ClientOptions&, const std::string&) {
  return not_yet("status");
}
int client_cancel(const ClientOptions&, const std::string&) {
  return not_yet("cancel");
}
int client_scorers(const ClientOptions&, std::optional<int>) {
  return not_yet("scorers");
}

}  // namespace ionflow
