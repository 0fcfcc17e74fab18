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

// A race log the checker cannot read (here, an event kind it does not know) is the case's
// error with the reason; it used to throw out of the launcher and end the run.
TEST(RankResults, AnUnreadableRaceLogIsTheCasesError) {
  reports::CaseResult r;
  const json log = json::array({json{{"k", "teleport"}, {"at", "x.lua:3"}}});
  const std::vector<json> results = {json{{"status", "pass"}, {"races_log", log}},
                                     json{{"status", "pass"}, {"races_log", json::array()}}};
  ASSERT_NO_THROW(merge_rank_results(results, r));
  EXPECT_EQ(r.status, reports::Verdict::error);
  ASSERT_FALSE(r.failures.empty());
  EXPECT_EQ(r.failures.back().where, "races");
  EXPECT_NE(r.failures.back().message.find("the race log cannot be read"), std::string::npos);
}

// A live program (two ranks passing a lock back and forth) caught at the deadline in a wait
// that began a moment earlier was reported as a deadlock.
TEST(RankResults, AWaitThatJustBeganIsNoDeadlock) {
  EXPECT_FALSE(stuck_at_deadline(json{{"blocked", true}, {"since_s", 0.0}}, 60));
  EXPECT_TRUE(stuck_at_deadline(json{{"blocked", true}, {"since_s", 0.5}}, 60));
  EXPECT_FALSE(stuck_at_deadline(json{{"blocked", true}, {"since_s", 0.1}}, 2));
  EXPECT_TRUE(stuck_at_deadline(json{{"blocked", true}, {"since_s", 0.2}}, 0.5));
  EXPECT_FALSE(stuck_at_deadline(json{{"blocked", false}, {"since_s", 9.0}}, 60));
  EXPECT_TRUE(stuck_at_deadline(json{{"blocked", true}}, 60));  // no duration: blocked decides
  EXPECT_FALSE(stuck_at_deadline(json(), 60));
}

// Two direct ranks whose compare_and_swap took the am slots (udp;ofi_rxd, whose fetching
// and compare atomics go by packets): what each reports, with the script's declaration as
// rank 0 gave it.
std::vector<json> direct_ranks(const json& declared, std::uint64_t fallback) {
  const json counts = {{"by_type", {{"accumulate", 4 * fallback}, {"ack", 4 * fallback}}},
                       {"direct", {{"am_fallback", fallback}}}};
  json r0 = {{"status", "pass"},
             {"paths", {"direct"}},
             {"messages", counts},
             {"iterations", 2},
             {"expected_messages", declared}};
  json r1 = {{"status", "pass"},
             {"paths", {"direct"}},
             {"messages", {{"by_type", json::object()}, {"direct", json::object()}}},
             {"iterations", 2}};
  return {r0, r1};
}

// A script that says its count depends on timing (a compare_and_swap retry loop) kept that
// only on the am path: on the direct path, with ops fallen back to packets, the count was
// gated and a second run failed against the first.
TEST(RankResults, ADirectCaseWhoseScriptSaysVariesIsNotGatedWhenOpsFellBack) {
  reports::CaseResult r;
  merge_rank_results(direct_ranks("direct_varies", 6), r);
  EXPECT_EQ(r.status, reports::Verdict::pass);
  EXPECT_TRUE(r.messages.measured);
  EXPECT_TRUE(r.messages.varies);
  EXPECT_TRUE(r.messages.expected.empty());
  EXPECT_EQ(r.messages.total, 24u);
  EXPECT_EQ(r.messages.direct.at("am_fallback"), 3u);
}

TEST(RankResults, ADirectCaseWithoutFallbackExpectsNoPacketWhateverTheScriptSays) {
  for (const char* declared : {"direct", "direct_varies"}) {
    reports::CaseResult r;
    merge_rank_results(direct_ranks(declared, 0), r);
    EXPECT_EQ(r.status, reports::Verdict::pass) << declared;
    EXPECT_FALSE(r.messages.varies) << declared;
    EXPECT_EQ(r.messages.expected, (std::map<std::string, std::uint64_t>{{"total", 0}}))
        << declared;
  }
}

TEST(RankResults, ADirectCaseThatFellBackIsGatedWhenTheScriptDeclaredCounts) {
  reports::CaseResult r;
  merge_rank_results(direct_ranks("direct", 6), r);
  EXPECT_EQ(r.status, reports::Verdict::pass);
  EXPECT_FALSE(r.messages.varies);
  EXPECT_TRUE(r.messages.expected.empty());
}

}  // namespace
}  // namespace harness::launcher
