// checker_test.cpp — the race checker on hand-written logs: what conflicts, what orders.
#include "races/checker.hpp"

#include <gtest/gtest.h>

namespace harness::races {
namespace {

using nlohmann::json;

json win() { return {{"k", "win"}, {"w", 0}, {"du", 1}, {"dyn", false}}; }
json fence(const char* at) { return {{"k", "fence"}, {"w", 0}, {"a", 0}, {"at", at}}; }
json put(int t, int d, const char* at) {
  return {{"k", "put"}, {"w", 0}, {"t", t}, {"d", d}, {"n", 8}, {"m", "w"}, {"at", at}};
}
json acc(int t, const char* op, const char* at) {
  return {{"k", "accumulate"}, {"w", 0}, {"t", t}, {"d", 0}, {"n", 8}, {"m", "a"}, {"op", op}, {"at", at}};
}
json lock(int t, bool x, unsigned a, const char* at) {
  return {{"k", "lock"}, {"w", 0}, {"t", t}, {"x", x}, {"a", a}, {"at", at}};
}
json unlock(int t) { return {{"k", "unlock"}, {"w", 0}, {"t", t}, {"at", "u"}}; }
json barrier() { return {{"k", "barrier"}, {"at", "b"}}; }

TEST(RaceChecker, PutsToOneSlotInOneFenceEpochConflict) {
  const std::vector<json> logs = {json::array({win(), fence("f"), fence("f")}),
                                  json::array({win(), fence("f"), put(0, 0, "a:1"), fence("f")}),
                                  json::array({win(), fence("f"), put(0, 4, "b:2"), fence("f")})};
  const auto r = check(logs);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].rule, "conflict");
  EXPECT_EQ(r[0].first.where, "a:1");
  EXPECT_EQ(r[0].second.where, "b:2");
  EXPECT_EQ(r[0].first.lo, 0u);
  EXPECT_EQ(r[0].second.hi, 12u);
}

TEST(RaceChecker, AFenceBetweenOrdersThem) {
  const std::vector<json> logs = {
      json::array({win(), fence("f"), fence("f"), fence("f")}),
      json::array({win(), fence("f"), put(0, 0, "a:1"), fence("f"), fence("f")}),
      json::array({win(), fence("f"), fence("f"), put(0, 0, "b:2"), fence("f")})};
  EXPECT_TRUE(check(logs).empty());
}

TEST(RaceChecker, SameOpAccumulatesDoNotConflictDifferentOpsDo) {
  auto logs = [](const char* op) {
    return std::vector<json>{json::array({win(), fence("f"), fence("f")}),
                             json::array({win(), fence("f"), acc(0, "sum", "a:1"), fence("f")}),
                             json::array({win(), fence("f"), acc(0, op, "b:2"), fence("f")})};
  };
  EXPECT_TRUE(check(logs("sum")).empty());
  EXPECT_EQ(check(logs("max")).size(), 1u);
}

TEST(RaceChecker, ExclusiveLocksExcludeSharedDoNot) {
  auto logs = [](bool x) {
    return std::vector<json>{
        json::array({win(), barrier()}),
        json::array({win(), lock(0, x, 0, "l1"), put(0, 0, "a:1"), unlock(0), barrier()}),
        json::array({win(), lock(0, x, 0, "l2"), put(0, 0, "b:2"), unlock(0), barrier()})};
  };
  EXPECT_TRUE(check(logs(true)).empty());
  EXPECT_EQ(check(logs(false)).size(), 1u);
}

TEST(RaceChecker, NocheckLockNotOrderedWithAnotherIsABrokenPromise) {
  const unsigned nocheck = 1;
  auto logs = [&](bool ordered) {
    json r1 = json::array({win(), lock(0, true, nocheck, "l1"), unlock(0), barrier()});
    json r2 = json::array({win(), lock(0, true, nocheck, "l2"), unlock(0), barrier()});
    if (ordered) r2 = json::array({win(), barrier(), lock(0, true, nocheck, "l2"), unlock(0)});
    return std::vector<json>{json::array({win(), barrier()}), r1, r2};
  };
  const auto broken = check(logs(false));
  ASSERT_FALSE(broken.empty());
  EXPECT_EQ(broken[0].rule, "nocheck");
  EXPECT_TRUE(check(logs(true)).empty());
}

TEST(RaceChecker, TheTargetsDispUnitScalesTheRange) {
  json w8 = {{"k", "win"}, {"w", 0}, {"du", 8}, {"dyn", false}};
  const std::vector<json> logs = {json::array({w8, fence("f"), fence("f")}),
                                  json::array({win(), fence("f"), put(0, 1, "a:1"), fence("f")}),
                                  json::array({win(), fence("f"), put(0, 8, "b:2"), fence("f")})};
  // Rank 1 writes bytes [8, 16) of rank 0 (disp 1 x unit 8), rank 2 bytes [64, 72).
  EXPECT_TRUE(check(logs).empty());
}

}  // namespace
}  // namespace harness::races
