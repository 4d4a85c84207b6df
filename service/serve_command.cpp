#include "service/serve_command.hpp"

#include <fmt/format.h>

namespace ionflow {

int run_serve_command(const ServeOptions&) {
  fmt::print(stderr, "ionflow serve: not implemented yet\n");
  return 2;
}

}  // namespace ionflow
