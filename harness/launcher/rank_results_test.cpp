#include "launcher/rank_results.hpp"

#include <gtest/gtest.h>

namespace harness::launcher {
namespace {

using nlohmann::json;

// A NaN metric reached the parent as null, and json's get<double>() threw out of the run:
// every later case was lost.
TEST(RankResults, AMetricThatIsNotANumberIsThatRanksError) {
  reports::CaseResult r;
  const std::vector<json> results = {
      json{{"status", "pass"}, {"metrics", {{"lat", 1.5}}}},
      json{{"status", "pass"}, {"metrics", {{"lat", nullptr}, {"ok", 2}}}}};
  ASSERT_NO_THROW(merge_rank_results(results, r));
  EXPECT_EQ(r.status, reports::Verdict::error);
  EXPECT_DOUBLE_EQ(r.metrics.at("rank0.lat"), 1.5);
  EXPECT_DOUBLE_EQ(r.metrics.at("rank1.ok"), 2.0);
  EXPECT_EQ(r.metrics.count("rank1.lat"), 0u);
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].rank, 1);
  EXPECT_EQ(r.failures[0].message, "metric lat is null, not a finite number");
}

TEST(RankResults, NumericMetricsPassThrough) {
  reports::CaseResult r;
  merge_rank_results({json{{"status", "pass"}, {"metrics", {{"x", 3}}}}}, r);
  EXPECT_EQ(r.status, reports::Verdict::pass);
  EXPECT_DOUBLE_EQ(r.metrics.at("rank0.x"), 3.0);
  EXPECT_TRUE(r.failures.empty());
}

}  // namespace
}  // namespace harness::launcher
