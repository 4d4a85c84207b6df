// The service's counters in the Prometheus text format (service/metrics.hpp).
#include "service/metrics.hpp"

#include <gtest/gtest.h>

#include <string>

namespace ionflow {
namespace {

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Found by the HTTP fuzzer: /metrics had grown to 132 KB, a series for every first word of a
// request line cpp-httplib rejected (its method), one with a '"' that broke the format.
TEST(Metrics, RequestsWithAMethodHttpDoesNotKnowAreCountedAsOther) {
  Metrics m;
  m.count_request("GET", 200);
  m.count_request("GET", 200);
  m.count_request("A\"B", 400);
  m.count_request("ZZZ", 400);
  m.count_request("get", 400);
  m.count_request("PATCH", 405);
  const std::string text = m.render({});
  EXPECT_EQ(count_of(text, "ionflow_http_requests_total{method=\"GET\",code=\"200\"} 2\n"), 1u);
  EXPECT_EQ(count_of(text, "ionflow_http_requests_total{method=\"other\",code=\"400\"} 3\n"), 1u);
  EXPECT_EQ(count_of(text, "ionflow_http_requests_total{method=\"PATCH\",code=\"405\"} 1\n"), 1u);
  EXPECT_EQ(count_of(text, "ionflow_http_requests_total{"), 3u) << text;
  EXPECT_EQ(text.find("ZZZ"), std::string::npos);
}

}  // namespace
}  // namespace ionflow
