// A signal handled somewhere in the process must not close the API: cpp-httplib 0.11 closes its
// listening socket for good when accept() fails, EINTR included, so HttpApi::serve() blocks every
// signal on its threads. Found by the HTTP fuzzer, whose SIGALRM timer (no SA_RESTART) landed on
// the accept thread after a few hundred requests: "cannot connect to the API".
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "in_process_api.hpp"

namespace ionflow {
namespace {

std::atomic<int> handled{0};
extern "C" void count_signal(int) {
  ++handled;
}

class HttpApiSignalsTest : public InProcessApiTest {};

// SIGUSR1, with a handler installed without SA_RESTART, sent to every thread of the process in
// turn (the accept thread among them): the API answers before and after, on the same port.
TEST_F(HttpApiSignalsTest, ASignalToEveryThreadLeavesTheApiAnswering) {
  start_api({});
  ASSERT_EQ(client_->Get("/v1/health")->status, 200);

  struct sigaction action {};
  action.sa_handler = count_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: an interrupted accept() fails with EINTR
  // Left installed: the HTTP threads keep their SIGUSR1 pending (blocked), and the accept
  // thread takes it when serve() returns and restores its mask.
  ASSERT_EQ(sigaction(SIGUSR1, &action, nullptr), 0);
  int threads = 0;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    const long tid = std::atol(task.path().filename().c_str());
    if (tid == ::syscall(SYS_gettid)) continue;  // this thread runs the test
    ::syscall(SYS_tgkill, ::getpid(), tid, SIGUSR1);
    ++threads;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_GT(threads, 3);         // accept loop, gate, workers, CAF's threads
  EXPECT_GT(handled.load(), 0);  // the threads that do not block it ran the handler

  auto after = client_->Get("/v1/health");
  ASSERT_TRUE(after) << "the API stopped answering after SIGUSR1: "
                     << httplib::to_string(after.error());
  EXPECT_EQ(after->status, 200);
}

}  // namespace
}  // namespace ionflow
