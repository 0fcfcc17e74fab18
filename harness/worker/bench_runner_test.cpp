#include "worker/bench_runner.hpp"

#include <gtest/gtest.h>

namespace harness::worker {
namespace {

TEST(BenchJson, NanAndInfBecomeNullSoTheOutputParses) {
  const std::string gb = R"({"benchmarks": [{"name": "a_cv", "real_time": 0.5,)"
                         R"( "messages_per_iteration": -nan, "x": inf, "y": NaN, "n": "nanny"}]})";
  const auto j = nlohmann::json::parse(json_without_nan(gb), nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  const auto& e = j["benchmarks"][0];
  EXPECT_TRUE(e["messages_per_iteration"].is_null());
  EXPECT_TRUE(e["x"].is_null());
  EXPECT_TRUE(e["y"].is_null());
  EXPECT_EQ(e["n"], "nanny");  // strings are left alone
  EXPECT_EQ(e["real_time"], 0.5);
}

}  // namespace
}  // namespace harness::worker
