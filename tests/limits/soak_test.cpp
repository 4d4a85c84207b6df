// A soak of `ionflow serve` on loopback (issue 20): for IONFLOW_SOAK_SECONDS (default 75, or 30
// under AddressSanitizer, where only the accounting is asserted; the 10-minute run is
// perf/soak/run.sh 600) a client submits small jobs continuously (at most 4 unfinished at a time;
// every 40th is the whole BSA1 run), cancels every fourth one right after submitting it (so some
// are queued, some running, some already done), and resizes the scorer pool (PUT /v1/scorers,
// counts 1-4 in turn) every 3 s. The server's RSS (VmRSS) and open file descriptors (/proc/PID/fd)
// are sampled every 10 s and printed as a series. Asserted: every job is accounted for — a job not
// cancelled ends "done"; a cancel answered 200 (queued) ends "cancelled", 202 (running) "cancelled"
// or "done", 409 (already ended) was "done" — none fails or is lost from GET /v1/jobs; and the
// series is flat after the first 20 s (the warm-up: index cache, scorer threads, SQLite pages): the
// median of the last three RSS samples at most 16 MiB above the warm-up sample's (the 600 s run
// before malloc arenas were capped ended 31 MiB above; with them capped and CAF's request
// timeouts dropped on the answer, 1.2 MiB above after 49,551 jobs), the last open fds at most 4
// above.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../service/serve_support.hpp"

namespace ionflow::serve_test {
namespace {

// The sanitizer suite (IONFLOW_SANITIZE) compiles the tests uninstrumented but the ionflow binary
// under AddressSanitizer, and says so with IONFLOW_SANITIZED.
#ifdef IONFLOW_SANITIZED
constexpr bool kUnderAsan = true;
#else
constexpr bool kUnderAsan = false;
#endif

using Clock = std::chrono::steady_clock;

struct Sample {
  double seconds = 0;
  long rss_kib = 0;
  long fds = 0;
  size_t jobs = 0;
};

long rss_kib(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string key;
  while (in >> key) {
    if (key == "VmRSS:") {
      long kib = 0;
      in >> kib;
      return kib;
    }
    std::string rest;
    std::getline(in, rest);
  }
  return -1;
}

long open_fds(pid_t pid) {
  long n = 0;
  std::error_code ec;
  for (auto it = fs::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec);
       !ec && it != fs::directory_iterator(); it.increment(ec))
    ++n;
  return ec ? -1 : n;
}

struct Submitted {
  std::string id;
  int cancel_status = 0;  // 0 = not cancelled, else the DELETE's HTTP status
};

TEST(Soak, ServeStaysFlatUnderSubmissionsCancelsAndResizesAndAccountsForEveryJob) {
  ASSERT_TRUE(fs::exists(kIonflow)) << kIonflow << " not built";
  const char* env = std::getenv("IONFLOW_SOAK_SECONDS");
  // Under AddressSanitizer only the accounting is asserted (below), so a shorter default.
  const int seconds = env ? std::atoi(env) : (kUnderAsan ? 30 : 75);
  ASSERT_GE(seconds, 30) << "IONFLOW_SOAK_SECONDS below the 20 s warm-up + one sample";
  ServeTestDir dir("soak");
  ServeProcess server(dir.path(),
                      {"--concurrent-jobs", "2", "--scorers", "2", "--licensed-cores", "4"});
  ASSERT_GT(server.start(), 0) << server.log();
  auto client = server.client();
  const std::string message = small_job();
  const std::string bsa1_job = demo_job(
      kExamples + "/BSA/BSA1.mzML",
      kExamples +
          "/TOPPAS/data/BSA_Identification/18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta");

  std::vector<Submitted> jobs;
  std::deque<size_t> unfinished;  // indexes into jobs
  std::vector<Sample> series;
  const auto start = Clock::now();
  auto next_sample = start;
  auto next_resize = start + std::chrono::seconds(3);
  int resize_count = 0;
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  while (elapsed() < seconds) {
    if (Clock::now() >= next_sample) {
      series.push_back({elapsed(), rss_kib(server.pid()), open_fds(server.pid()), jobs.size()});
      next_sample += std::chrono::seconds(10);
    }
    if (Clock::now() >= next_resize) {
      const int count = 1 + resize_count++ % 4;
      auto res = client->Put("/v1/scorers", "{\"count\": " + std::to_string(count) + "}",
                             "application/json");
      ASSERT_TRUE(res) << "PUT /v1/scorers: no answer";
      ASSERT_EQ(res->status, 200) << res->body;
      next_resize += std::chrono::seconds(3);
    }
    for (auto it = unfinished.begin(); it != unfinished.end();) {
      const std::string state = job_state(*client, jobs[*it].id);
      const bool ended = state == "done" || state == "failed" || state == "cancelled";
      it = ended ? unfinished.erase(it) : it + 1;
    }
    if (unfinished.size() >= 4) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    Submitted s;
    // Every 40th job is the whole BSA1 run (~1 s, and cancelled while it runs: 39 % 4 == 3).
    s.id = submit(*client, jobs.size() % 40 == 39 ? bsa1_job : message);
    ASSERT_FALSE(s.id.empty());
    if (jobs.size() % 4 == 3) {
      auto res = client->Delete(("/v1/jobs/" + s.id).c_str());
      ASSERT_TRUE(res) << "DELETE: no answer";
      s.cancel_status = res->status;
    }
    unfinished.push_back(jobs.size());
    jobs.push_back(s);
  }
  series.push_back({elapsed(), rss_kib(server.pid()), open_fds(server.pid()), jobs.size()});

  std::map<std::string, int> ended;
  int cancelled_but_ran = 0;
  for (const auto& s : jobs) {
    const std::string state = wait_for_end(*client, s.id);
    ++ended[state];
    if (state != "done" && state != "cancelled") {
      // The server's log lines of the job that did not end, to see where it stopped.
      std::istringstream log(server.log());
      for (std::string line; std::getline(log, line);) {
        if (line.find(s.id) != std::string::npos) std::cout << "server log: " << line << "\n";
      }
    }
    if (s.cancel_status == 0) {
      EXPECT_EQ(state, "done") << s.id;
    } else if (s.cancel_status == 200) {
      // Answered "cancelled" while queued. A job that ended between the API's first look and
      // the cancel used to be answered 200 too (1 of 2104 in a 600 s run ran to "done"); it is
      // answered 409 now, so none may end otherwise (still counted and printed).
      EXPECT_EQ(state, "cancelled") << s.id;
      if (state == "done") ++cancelled_but_ran;
    } else if (s.cancel_status == 202) {
      EXPECT_TRUE(state == "cancelled" || state == "done") << s.id << " " << state;
    } else {
      EXPECT_EQ(s.cancel_status, 409) << s.id;
      EXPECT_EQ(state, "done") << s.id;
    }
  }
  auto listed = client->Get(("/v1/jobs?limit=" + std::to_string(jobs.size() + 10)).c_str());
  ASSERT_TRUE(listed);
  EXPECT_EQ(parse_json(listed->body).find("jobs")->as_array().size(), jobs.size());

  std::cout << "soak: " << seconds << " s, " << jobs.size() << " jobs (";
  for (const auto& [state, n] : ended) std::cout << state << " " << n << " ";
  std::cout << "), " << cancelled_but_ran << " cancelled while queued (200) but ran to done\n"
            << "soak: seconds rss_mib open_fds jobs_submitted\n";
  for (const auto& s : series) {
    std::printf("soak: %7.1f %8.1f %5ld %6zu\n", s.seconds, s.rss_kib / 1024.0, s.fds, s.jobs);
  }
  std::fflush(stdout);
  ASSERT_GE(series.size(), 4u);
  const Sample* warm = nullptr;
  for (const auto& s : series) {
    if (s.seconds >= 20) {
      warm = &s;
      break;
    }
  }
  ASSERT_NE(warm, nullptr);
  const Sample& last = series.back();
  // The median of the last three samples: a single one may fall while a whole BSA1 job runs
  // (+20 MiB for a few seconds).
  std::vector<long> tail;
  for (size_t i = series.size() - 3; i < series.size(); ++i) tail.push_back(series[i].rss_kib);
  std::sort(tail.begin(), tail.end());
  if (kUnderAsan) {
    // Under AddressSanitizer the RSS is the quarantine of freed blocks (up to 256 MiB, filling
    // over minutes) and shadow memory, not the service's: a CI run went 688 -> 713 MiB in 55 s
    // with the plain build flat at 28-37 MiB. Leaks are LeakSanitizer's part there.
    std::cout << "soak: RSS flatness not asserted under AddressSanitizer\n";
  } else {
    EXPECT_LE(tail[1], warm->rss_kib + 16 * 1024) << "RSS grew after the warm-up";
  }
  EXPECT_LE(last.fds, warm->fds + 4) << "open file descriptors grew after the warm-up";
}

}  // namespace
}  // namespace ionflow::serve_test
