// Fuzz target: an HTTP request to the service's API (service/http_api.hpp), sent to a real
// HttpApi (cpp-httplib) on a loopback port in this process, with a real JobStore (SQLite, in a
// temporary directory), SearchRuntime and Scheduler. The scheduler is not started, so accepted
// jobs stay queued (at most 20, then 429) and no search runs.
//
// Input: the request as it goes on the wire: request line, header lines, an empty line, body.
// The harness drops the input's Content-Length and Connection headers and sends the real body
// length, on one connection kept open from input to input (tests/fuzz/http_wire.hpp; a request
// whose end it cannot predict goes with "Connection: close" on a connection of its own, its
// sending side then shut). The API token is "fuzz-token" (the dictionary has the header). The
// data root is tests/data, also the current directory.
// Contract checked: every request gets exactly one HTTP answer (none that answers no request),
// delimited by its Content-Length, chunks or the connection's end, with a 1xx-5xx status that is
// not 500 (a handler that threw), and an error body (4xx) is a JSON object with an "error"
// string.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include <spdlog/spdlog.h>

#include "io/decompression.hpp"
#include "io/parse_error.hpp"
#include "service/http_api.hpp"
#include "service/json_value.hpp"
#include "tests/fuzz/fuzz_support.hpp"
#include "tests/fuzz/http_wire.hpp"

namespace {

struct Service {
  std::filesystem::path dir;
  ionflow::Unimod unimod;
  ionflow::Metrics metrics;
  std::unique_ptr<ionflow::JobStore> store;
  std::unique_ptr<ionflow::SearchRuntime> runtime;
  std::unique_ptr<ionflow::Scheduler> scheduler;
  std::unique_ptr<ionflow::HttpApi> api;
  std::thread server;
  int port = 0;

  Service() {
    spdlog::set_level(spdlog::level::off);
    dir = std::filesystem::temp_directory_path() /
          ("ionflow_fuzz_http_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "jobs");
    store = std::make_unique<ionflow::JobStore>((dir / "jobs.sqlite3").string());
    ionflow::SearchRuntime::Options ro;
    ro.licensed_cores = 2;
    ro.scorers = 1;
    ro.scheduler_threads = 1;
    runtime = std::make_unique<ionflow::SearchRuntime>(ro);
    ionflow::Scheduler::Options so;
    so.jobs_directory = (dir / "jobs").string();
    so.data_roots = {IONFLOW_TEST_DATA_DIR};
    scheduler = std::make_unique<ionflow::Scheduler>(*store, *runtime, unimod, metrics, so);
    ionflow::HttpApi::Options ao;
    ao.data_roots = {IONFLOW_TEST_DATA_DIR};
    ao.max_body_bytes = 64 << 10;
    ao.api_token = "fuzz-token";
    ao.max_queued_jobs = 20;
    api = std::make_unique<ionflow::HttpApi>(*store, *scheduler, *runtime, unimod, metrics, ao);
    port = api->bind("127.0.0.1", 0);
    server = std::thread([this] {
      if (!api->serve()) ionflow::fuzz::fail("the API stopped accepting connections");
    });
    api->wait_until_ready();
  }
  // Never destroyed: libFuzzer exits with the service running (its directory is removed at
  // exit by the atexit handler below).
};

Service& service() {
  static Service* s = [] {
    auto* created = new Service();
    std::atexit([] { std::filesystem::remove_all(service().dir); });
    return created;
  }();
  return *s;
}

// Prints every thread's stack to stderr (gdb, when installed), so that a stall shows where the
// service waits; libFuzzer's own report has only the harness thread.
void dump_thread_stacks(int port) {
  const std::string sockets = "ss -tno '( sport = :" + std::to_string(port) +
                              " or dport = :" + std::to_string(port) + " )' 1>&2";
  if (std::system(sockets.c_str()) != 0) std::fprintf(stderr, "(no ss: sockets not shown)\n");
  const std::string command =
      "gdb -p " + std::to_string(::getpid()) + " -batch -ex 'thread apply all bt' 1>&2 2>/dev/null";
  if (std::system(command.c_str()) != 0)
    std::fprintf(stderr, "(no gdb: thread stacks not shown)\n");
}

void check_response(const ionflow::fuzz::WireRequest& request,
                    const ionflow::fuzz::HttpAnswer& answer) {
  if (answer.text.empty()) return;  // httplib closes without answering a request it cannot parse
  const int status = answer.status;
  if (status < 100 || status > 599) ionflow::fuzz::fail("status " + answer.text.substr(9, 3));
  if (status == 500) {
    ionflow::fuzz::fail("500 for request:\n" + request.text + "\n--- response:\n" + answer.text);
  }
  if (status < 400) return;
  // A HEAD request's answer has the headers of the error but no body (RFC 9110, 9.3.2); cpp-httplib
  // takes the method from the first word even of a request line it rejects ("HEAD\r\n").
  if (request.head && answer.text.size() == answer.body_at) return;
  if (answer.header("content-type") != "application/json") return;
  std::string body_text = answer.body();
  // "Accept-Encoding: gzip" in the request gets a gzip body (cpp-httplib): decoded first.
  if (answer.header("content-encoding") == "gzip") {
    std::string decoded;
    try {
      ionflow::Decompressor gzip("response body");
      gzip.feed(body_text, decoded);
      gzip.finish(decoded);
    } catch (const ionflow::ParseError& e) {
      ionflow::fuzz::fail(std::string("gzip error body does not decode: ") + e.what());
    }
    body_text = decoded;
  }
  try {
    const ionflow::JsonValue body = ionflow::parse_json(body_text);
    const ionflow::JsonValue* error = body.is_object() ? body.find("error") : nullptr;
    if (error == nullptr || error->type() != ionflow::JsonValue::Type::kString) {
      ionflow::fuzz::fail("error body without an \"error\" string:\n" + answer.text);
    }
  } catch (const ionflow::JsonSyntaxError& e) {
    ionflow::fuzz::fail(std::string("error body is not JSON (") + e.what() + "):\n" + answer.text);
  }
}

}  // namespace

// Starts the service before the first input (not counted against the 1 s timeout). The
// current directory becomes the data root, so that relative paths in a job (as in the seeds:
// "ecoli_ms2_small_first5.mgf") name real files wherever the repository is.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (::chdir(IONFLOW_TEST_DATA_DIR) != 0)
    ionflow::fuzz::fail("cannot enter " IONFLOW_TEST_DATA_DIR);
  service();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static ionflow::fuzz::LoopbackHttp http(service().port,
                                          [] { dump_thread_stacks(service().port); });
  const ionflow::fuzz::WireRequest request =
      ionflow::fuzz::wire_request(std::string_view(reinterpret_cast<const char*>(data), size));
  check_response(request, http.exchange(request));
  return 0;
}
