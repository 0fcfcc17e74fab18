// checker_test.cpp — the race checker on hand-written logs: what conflicts, what orders.
#include "races/checker.hpp"

#include <gtest/gtest.h>

namespace harness::races {
namespace {

using nlohmann::json;

json win() {
  return {{"k", "win"}, {"w", 0}, {"du", 1}, {"dyn", false}};
}
json fence(const char* at) {
  return {{"k", "fence"}, {"w", 0}, {"a", 0}, {"at", at}};
}
json put(int t, int d, const char* at) {
  return {{"k", "put"}, {"w", 0}, {"t", t}, {"d", d}, {"n", 8}, {"m", "w"}, {"at", at}};
}
json acc(int t, const char* op, const char* at, const char* dt = "i64", int d = 0) {
  return {{"k", "accumulate"}, {"w", 0},   {"t", t},   {"d", d},  {"n", 8},
          {"m", "a"},          {"op", op}, {"dt", dt}, {"at", at}};
}
json lock(int t, bool x, unsigned a, const char* at) {
  return {{"k", "lock"}, {"w", 0}, {"t", t}, {"x", x}, {"a", a}, {"at", at}};
}
json unlock(int t) {
  return {{"k", "unlock"}, {"w", 0}, {"t", t}, {"at", "u"}};
}
json barrier() {
  return {{"k", "barrier"}, {"at", "b"}};
}

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

json cas(std::uint64_t cmp, std::uint64_t v, std::uint64_t old, const char* at) {
  return {{"k", "compare_and_swap"},
          {"w", 0},
          {"t", 0},
          {"d", 0},
          {"n", 8},
          {"m", "a"},
          {"op", "cas"},
          {"cv", cmp},
          {"v", v},
          {"ret", true},
          {"old", old},
          {"at", at}};
}
json release(std::uint64_t old, const char* at) {
  return {{"k", "fetch_and_op"}, {"w", 0}, {"t", 0},      {"d", 0},     {"n", 8},  {"m", "a"},
          {"op", "replace"},     {"v", 0}, {"ret", true}, {"old", old}, {"at", at}};
}
json flush(int t) {
  return {{"k", "flush"}, {"w", 0}, {"t", t}, {"at", "fl"}};
}
json lock_all() {
  return {{"k", "lock_all"}, {"w", 0}, {"a", 0}, {"at", "la"}};
}
json unlock_all() {
  return {{"k", "unlock_all"}, {"w", 0}, {"at", "ua"}};
}

// Two ranks' critical sections on a compare_and_swap lock word at rank 0 byte 0, each
// putting to byte 8 (flushed or not before the release).
std::vector<json> mutex_logs(bool flushed, std::uint64_t held2) {
  auto rank = [&](std::uint64_t held, const char* at) {
    json l = json::array({win(), lock_all(), cas(0, held, held == 1 ? 0 : 1, "m:19")});
    if (held != 1) l.push_back(cas(0, held, 0, "m:19"));
    l.push_back(put(0, 8, at));
    if (flushed) l.push_back(flush(0));
    l.push_back(release(held, "m:25"));
    l.push_back(unlock_all());
    l.push_back(barrier());
    return l;
  };
  return {json::array({win(), lock_all(), unlock_all(), barrier()}), rank(1, "a:23"),
          rank(held2, "b:23")};
}

TEST(RaceChecker, ACompareAndSwapLockOrdersWhatCompletesInside) {
  EXPECT_TRUE(check(mutex_logs(true, 2)).empty());
  // Without the flush the put may land after the release: the next holder races it.
  const auto r = check(mutex_logs(false, 2));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].rule, "conflict");
  // Two ranks holding with the same value: the word's values no longer prove exclusion.
  EXPECT_EQ(check(mutex_logs(true, 1)).size(), 1u);
}

// Rank 0 zeroes the lock word before the sections (setup, then a barrier): an
// initialization, not a writer the sections could interleave with. The same store after the
// barrier is concurrent with them: the word's values prove nothing, the puts race.
TEST(RaceChecker, TheLockWordsInitializationBeforeEverySectionKeepsTheLock) {
  json store = {{"k", "store"}, {"w", 0}, {"t", 0}, {"lo", 0}, {"hi", 8}, {"at", "init:1"}};
  auto logs = [&](bool before) {
    auto l = mutex_logs(true, 2);
    for (std::size_t r = 1; r < l.size(); ++r) l[r].insert(l[r].begin() + 1, barrier());
    l[0].insert(l[0].begin() + 1, barrier());
    l[0].insert(l[0].begin() + (before ? 1 : 2), store);
    return l;
  };
  EXPECT_TRUE(check(logs(true)).empty());
  EXPECT_FALSE(check(logs(false)).empty());
}

TEST(RaceChecker, NocheckStartNeedsItsPostBeforeIt) {
  const unsigned nocheck = 1;
  auto logs = [&](bool barrier_between, unsigned post_asserts) {
    json post = {{"k", "post"}, {"w", 0}, {"a", post_asserts}, {"g", {0}}, {"at", "p:1"}};
    json start = {{"k", "start"}, {"w", 0}, {"a", nocheck}, {"g", {1}}, {"at", "s:1"}};
    json wait = {{"k", "wait"}, {"w", 0}, {"at", "w:1"}};
    json complete = {{"k", "complete"}, {"w", 0}, {"at", "c:1"}};
    json r0 = barrier_between ? json::array({win(), barrier(), start, complete})
                              : json::array({win(), start, complete, barrier()});
    json r1 = barrier_between ? json::array({win(), post, barrier(), wait})
                              : json::array({win(), post, wait, barrier()});
    return std::vector<json>{r0, r1};
  };
  EXPECT_TRUE(check(logs(true, nocheck)).empty());
  const auto unordered = check(logs(false, nocheck));
  ASSERT_EQ(unordered.size(), 1u);
  EXPECT_EQ(unordered[0].rule, "nocheck");
  EXPECT_EQ(unordered[0].first.where, "s:1");
  EXPECT_EQ(unordered[0].second.where, "p:1");
  EXPECT_EQ(check(logs(true, 0)).size(), 1u);  // nocheck on the start only
}

TEST(RaceChecker, SharedMemoryLoadsAndStoresNeedWinSyncOnBothSides) {
  json store = {{"k", "store"}, {"w", 0}, {"t", 0}, {"lo", 0}, {"hi", 8}, {"at", "st:1"}};
  json load = {{"k", "load"}, {"w", 0}, {"t", 0}, {"lo", 0}, {"hi", 8}, {"at", "ld:1"}};
  json sync = {{"k", "sync"}, {"w", 0}, {"at", "sy"}};
  auto logs = [&](bool writer, bool reader) {
    json r0 = json::array({win(), store});
    if (writer) r0.push_back(sync);
    r0.push_back(barrier());
    json r1 = json::array({win(), barrier()});
    if (reader) r1.push_back(sync);
    r1.push_back(load);
    return std::vector<json>{r0, r1};
  };
  EXPECT_TRUE(check(logs(true, true)).empty());
  for (auto [w, r] : {std::pair{false, true}, std::pair{true, false}}) {
    const auto f = check(logs(w, r));
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].rule, "sync");
  }
}

TEST(RaceChecker, AnEarlyBufferAccessIsAFinding) {
  json early = {{"k", "early"},     {"at", "x:3"}, {"m", "s"}, {"buf", "origin"}, {"call", "put"},
                {"call_at", "x:2"}, {"w", 0},      {"t", 1},   {"lo", 0},         {"hi", 8}};
  const auto f = check({json::array({win(), early}), json::array({win()})});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].rule, "completion");
  EXPECT_EQ(f[0].first.where, "x:2");
  EXPECT_EQ(f[0].second.where, "x:3");
}

// A put of a derived-type layout: its byte runs [offset, length] from disp.
json put_runs(int d, json runs, const char* at) {
  return {{"k", "put"},           {"w", 0},   {"t", 0},  {"d", d},
          {"r", std::move(runs)}, {"m", "w"}, {"at", at}};
}

// Ranks 1 and 2 each do `a` and `b` (at rank 0) in one fence epoch.
std::vector<json> one_epoch(const json& a, const json& b) {
  return {json::array({win(), fence("f"), fence("f")}),
          json::array({win(), fence("f"), a, fence("f")}),
          json::array({win(), fence("f"), b, fence("f")})};
}

TEST(RaceChecker, InterleavedLayoutsFromTwoOriginsDoNotConflict) {
  const json every_other = json::array({{0, 4}, {8, 4}, {16, 4}, {24, 4}});
  EXPECT_TRUE(
      check(one_epoch(put_runs(0, every_other, "a:1"), put_runs(4, every_other, "b:2"))).empty());
  // The same layout at the same disp: both write bytes [0, 4) first.
  const auto r = check(one_epoch(put_runs(0, every_other, "a:1"), put_runs(0, every_other, "b:2")));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].rule, "conflict");
  EXPECT_NE(r[0].why.find("bytes [0, 4)"), std::string::npos) << r[0].why;
  // A plain 8-byte put at 4 reaches the layout's second run; a 4-byte one fills a gap only.
  EXPECT_EQ(check(one_epoch(put_runs(0, every_other, "a:1"), put(0, 4, "b:2"))).size(), 1u);
  json gap = {{"k", "put"}, {"w", 0}, {"t", 0}, {"d", 4}, {"n", 4}, {"m", "w"}, {"at", "b:2"}};
  EXPECT_TRUE(check(one_epoch(put_runs(0, every_other, "a:1"), gap)).empty());
}

TEST(RaceChecker, ALayoutReachesBelowItsDisp) {
  // Runs from -8: rank 1's layout at disp 8 writes bytes [0, 4), where rank 2 puts.
  json low = {{"k", "put"}, {"w", 0}, {"t", 0}, {"d", 0}, {"n", 4}, {"m", "w"}, {"at", "b:2"}};
  const auto r = check(one_epoch(put_runs(8, json::array({{-8, 4}, {0, 4}}), "a:1"), low));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].first.lo, 0u);
}

TEST(RaceChecker, AccumulatesOfDifferentBasicTypesConflict) {
  EXPECT_TRUE(check(one_epoch(acc(0, "sum", "a:1", "i32"), acc(0, "sum", "b:2", "i32"))).empty());
  const auto r = check(one_epoch(acc(0, "sum", "a:1", "i32"), acc(0, "sum", "b:2", "f32")));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].rule, "conflict");
  EXPECT_NE(r[0].why.find("different basic types (i32, f32)"), std::string::npos) << r[0].why;
}

TEST(RaceChecker, AccumulatesThatSplitElementsConflict) {
  // i64 at byte 0 and at byte 4: the second's first element straddles two of the first's.
  const auto r = check(one_epoch(acc(0, "sum", "a:1", "i64", 0), acc(0, "sum", "b:2", "i64", 4)));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_NE(r[0].why.find("split elements"), std::string::npos) << r[0].why;
  // i32 elements at those displacements line up.
  EXPECT_TRUE(
      check(one_epoch(acc(0, "sum", "a:1", "i32", 0), acc(0, "sum", "b:2", "i32", 4))).empty());
}

TEST(RaceChecker, ANoOpGetAccumulateIsARead) {
  json noop = acc(0, "no_op", "a:1");
  noop["k"] = "get_accumulate";
  json get = {{"k", "get"}, {"w", 0}, {"t", 0}, {"d", 0}, {"n", 8}, {"m", "r"}, {"at", "b:2"}};
  EXPECT_TRUE(check(one_epoch(noop, get)).empty());
  // Rank 0 loads the same bytes in the epoch: two reads.
  json load = {{"k", "load"}, {"w", 0}, {"t", 0}, {"lo", 0}, {"hi", 8}, {"at", "ld:1"}};
  auto logs = one_epoch(noop, get);
  logs[0] = json::array({win(), fence("f"), load, fence("f")});
  EXPECT_TRUE(check(logs).empty());
  // A put writes: it still conflicts with the read, and a store with it.
  EXPECT_EQ(check(one_epoch(noop, put(0, 0, "b:2"))).size(), 1u);
  json store = load;
  store["k"] = "store";
  logs[0] = json::array({win(), fence("f"), store, fence("f")});
  EXPECT_FALSE(check(logs).empty());
}

}  // namespace
}  // namespace harness::races
