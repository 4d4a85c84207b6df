// Fuzz target: an HTTP request to the service's API (service/http_api.hpp), sent to a real
// HttpApi (cpp-httplib) on a loopback port in this process, with a real JobStore (SQLite, in a
// temporary directory), SearchRuntime and Scheduler. The scheduler is not started, so accepted
// jobs stay queued (at most 20, then 429) and no search runs.
//
// Input: the request as it goes on the wire: request line, header lines, an empty line, body.
// The harness drops the input's Content-Length and Connection headers and sends the real body
// length and "Connection: close", then closes its sending side, so a request the server finds
// incomplete ends at once instead of waiting for the read timeout. The API token is
// "fuzz-token" (the dictionary has the header). The data root is tests/data, also the current
// directory.
// Contract checked: every request gets an HTTP response with a 1xx-5xx status that is not 500
// (a handler that threw), and an error body (4xx) is a JSON object with an "error" string.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
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

// The input with its Content-Length and Connection headers replaced by the real ones.
std::string wire_request(std::string_view input) {
  size_t head_end = input.find("\r\n\r\n");
  size_t body_at = head_end == std::string_view::npos ? head_end : head_end + 4;
  if (head_end == std::string_view::npos) {
    head_end = input.find("\n\n");
    body_at = head_end == std::string_view::npos ? input.size() : head_end + 2;
  }
  const std::string_view head = input.substr(0, std::min(head_end, input.size()));
  const std::string_view body = input.substr(std::min(body_at, input.size()));
  std::string out;
  size_t at = 0;
  bool first = true;
  while (at < head.size()) {
    size_t end = head.find('\n', at);
    if (end == std::string_view::npos) end = head.size();
    std::string_view line = head.substr(at, end - at);
    at = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::string lower(line.substr(0, line.find(':')));
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (!first && (lower == "content-length" || lower == "connection")) continue;
    out.append(line);
    out += "\r\n";
    first = false;
  }
  out += "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n";
  out.append(body);
  return out;
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

// Sends `request` on a new connection and returns everything the server sent back.
std::string exchange(int port, const std::string& request) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) ionflow::fuzz::fail("socket() failed");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  int connected = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  if (connected != 0 && errno == EINTR) {  // the connect goes on: wait for it, then ask
    pollfd p{fd, POLLOUT, 0};
    while (::poll(&p, 1, 10000) < 0 && errno == EINTR) {
    }
    int error = 0;
    socklen_t length = sizeof error;
    ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length);
    connected = error == 0 ? 0 : -1;
  }
  if (connected != 0) {
    ::close(fd);
    ionflow::fuzz::fail("cannot connect to the API on port " + std::to_string(port));
  }
  size_t sent = 0;
  while (sent < request.size()) {
    const ssize_t n = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the server may answer (413, 400) and close before the body is read
    sent += static_cast<size_t>(n);
  }
  ::shutdown(fd, SHUT_WR);
  std::string response;
  char buffer[8192];
  // libFuzzer's -timeout alarm (SIGALRM, no SA_RESTART) interrupts poll: waited out, not failed.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    const int ready = ::poll(&p, 1, static_cast<int>(std::max<int64_t>(0, left.count())));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      ::close(fd);
      dump_thread_stacks(port);
      ionflow::fuzz::fail("no answer within 10 s");
    }
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    response.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return response;
}

void check_response(const std::string& request, const std::string& response) {
  if (response.empty()) return;  // httplib closes without answering a request it cannot parse
  if (response.size() < 12 || response.compare(0, 9, "HTTP/1.1 ") != 0) {
    ionflow::fuzz::fail("not an HTTP response:\n" + response.substr(0, 200));
  }
  const int status = std::atoi(response.substr(9, 3).c_str());
  if (status < 100 || status > 599) ionflow::fuzz::fail("status " + response.substr(9, 3));
  if (status == 500) {
    ionflow::fuzz::fail("500 for request:\n" + request + "\n--- response:\n" + response);
  }
  const size_t body_at = response.find("\r\n\r\n");
  if (status < 400 || body_at == std::string::npos) return;
  // A HEAD request's answer has the headers of the error but no body (RFC 9110, 9.3.2); cpp-httplib
  // takes the method from the first word even of a request line it rejects ("HEAD\r\n").
  if (request.substr(0, request.find_first_of(" \t\r\n")) == "HEAD") return;
  const std::string head = response.substr(0, body_at);
  if (head.find("Content-Type: application/json") == std::string::npos) return;
  // The first response's body only: a head that is not one request (the empty input's lines)
  // is answered once per line, each with its own 400.
  std::string body_text = response.substr(body_at + 4);
  if (const size_t at = head.find("Content-Length: "); at != std::string::npos) {
    body_text = body_text.substr(0, std::strtoull(head.c_str() + at + 16, nullptr, 10));
  }
  // "Accept-Encoding: gzip" in the request gets a gzip body (cpp-httplib): decoded first.
  if (head.find("Content-Encoding: gzip") != std::string::npos) {
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
      ionflow::fuzz::fail("error body without an \"error\" string:\n" + response);
    }
  } catch (const ionflow::JsonSyntaxError& e) {
    ionflow::fuzz::fail(std::string("error body is not JSON (") + e.what() + "):\n" + response);
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
  Service& s = service();
  const std::string request =
      wire_request(std::string_view(reinterpret_cast<const char*>(data), size));
  check_response(request, exchange(s.port, request));
  return 0;
}
