// checker_test.cpp — the race checker on hand-written logs (typed events, race_event.hpp):
// what conflicts, what orders.
#include "races/checker.hpp"

#include <gtest/gtest.h>

namespace harness::races {
namespace {

using Log = std::vector<RaceEvent>;
using Logs = std::vector<Log>;
using K = EventKind;
using rma::Dtype;
using rma::Op;

// An event of `k` on window 0.
RaceEvent ev(K k, const char* at, int t = -1) {
  RaceEvent e;
  e.kind = k;
  e.w = 0;
  e.t = t;
  e.at = at;
  return e;
}
RaceEvent win(int du = 1) {
  RaceEvent e = ev(K::win, "");
  e.du = du;
  return e;
}
RaceEvent fence(const char* at) {
  return ev(K::fence, at);
}
// A remote op of `n` bytes at disp `d` of rank t.
RaceEvent op(K k, AccessMode m, int t, std::uint64_t d, std::uint64_t n, const char* at) {
  RaceEvent e = ev(k, at, t);
  e.mode = m;
  e.d = d;
  e.n = n;
  return e;
}
RaceEvent put(int t, std::uint64_t d, const char* at, std::uint64_t n = 8) {
  return op(K::put, AccessMode::write, t, d, n, at);
}
RaceEvent acc(int t, Op o, const char* at, Dtype dt = Dtype::i64, std::uint64_t d = 0) {
  RaceEvent e = op(K::accumulate, AccessMode::accumulate, t, d, 8, at);
  e.op = o;
  e.dt = dt;
  return e;
}
RaceEvent lock(int t, bool x, unsigned a, const char* at) {
  RaceEvent e = ev(K::lock, at, t);
  e.x = x;
  e.a = a;
  return e;
}
RaceEvent unlock(int t) {
  return ev(K::unlock, "u", t);
}
RaceEvent barrier() {
  RaceEvent e = ev(K::barrier, "b");
  e.w = -1;
  return e;
}
// A load or store of bytes [lo, hi) of rank 0's window.
RaceEvent local(K k, std::uint64_t lo, std::uint64_t hi, const char* at) {
  RaceEvent e = ev(k, at, 0);
  e.mode = k == K::store ? AccessMode::store : AccessMode::load;
  e.lo = lo;
  e.hi = hi;
  return e;
}

TEST(RaceChecker, PutsToOneSlotInOneFenceEpochConflict) {
  const Logs logs = {Log{win(), fence("f"), fence("f")},
                     Log{win(), fence("f"), put(0, 0, "a:1"), fence("f")},
                     Log{win(), fence("f"), put(0, 4, "b:2"), fence("f")}};
  const auto r = check(logs);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].rule, "conflict");
  EXPECT_EQ(r[0].first.where, "a:1");
  EXPECT_EQ(r[0].second.where, "b:2");
  EXPECT_EQ(r[0].first.lo, 0u);
  EXPECT_EQ(r[0].second.hi, 12u);
  EXPECT_NE(r[0].why.find("both are in fence epoch 1"), std::string::npos) << r[0].why;
}

// A put into the epoch a fence with noput opens breaks the promise; one in the next does not.
TEST(RaceChecker, APutAfterANoputFenceIsAFinding) {
  RaceEvent noput = fence("np");
  noput.a = rma::assert_noput;
  auto logs = [&](bool later) {
    Log r1{win(), fence("f"), fence("f"), fence("f")};
    r1.insert(r1.begin() + (later ? 4 : 3), put(0, 0, "a:1"));
    return Logs{Log{win(), fence("f"), noput, fence("f")}, r1};
  };
  const auto r = check(logs(false));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].rule, "noput");
  EXPECT_EQ(r[0].first.where, "np");
  EXPECT_EQ(r[0].second.where, "a:1");
  EXPECT_TRUE(check(logs(true)).empty());
}

// The ranks ship their logs as JSON (race_event.hpp): checked from there, the same findings.
TEST(RaceChecker, AWireLogChecksAsItsEvents) {
  const Logs logs = {Log{win(), fence("f"), fence("f")},
                     Log{win(), fence("f"), put(0, 0, "a:1"), fence("f")},
                     Log{win(), fence("f"), put(0, 4, "b:2"), fence("f")}, Log{}};
  std::vector<nlohmann::json> wire;
  for (const Log& l : logs) wire.push_back(to_log(l));
  wire.back() = nullptr;  // a rank that sent no log
  EXPECT_EQ(check(wire), check(logs));
  EXPECT_EQ(check(wire).size(), 1u);
}

TEST(RaceChecker, AFenceBetweenOrdersThem) {
  const Logs logs = {Log{win(), fence("f"), fence("f"), fence("f")},
                     Log{win(), fence("f"), put(0, 0, "a:1"), fence("f"), fence("f")},
                     Log{win(), fence("f"), fence("f"), put(0, 0, "b:2"), fence("f")}};
  EXPECT_TRUE(check(logs).empty());
}

TEST(RaceChecker, SameOpAccumulatesDoNotConflictDifferentOpsDo) {
  auto logs = [](Op op) {
    return Logs{Log{win(), fence("f"), fence("f")},
                Log{win(), fence("f"), acc(0, Op::sum, "a:1"), fence("f")},
                Log{win(), fence("f"), acc(0, op, "b:2"), fence("f")}};
  };
  EXPECT_TRUE(check(logs(Op::sum)).empty());
  EXPECT_EQ(check(logs(Op::max)).size(), 1u);
}

TEST(RaceChecker, ExclusiveLocksExcludeSharedDoNot) {
  auto logs = [](bool x) {
    return Logs{Log{win(), barrier()},
                Log{win(), lock(0, x, 0, "l1"), put(0, 0, "a:1"), unlock(0), barrier()},
                Log{win(), lock(0, x, 0, "l2"), put(0, 0, "b:2"), unlock(0), barrier()}};
  };
  EXPECT_TRUE(check(logs(true)).empty());
  EXPECT_EQ(check(logs(false)).size(), 1u);
}

TEST(RaceChecker, NocheckLockNotOrderedWithAnotherIsABrokenPromise) {
  const unsigned nocheck = 1;
  auto logs = [&](bool ordered) {
    Log r1 = Log{win(), lock(0, true, nocheck, "l1"), unlock(0), barrier()};
    Log r2 = Log{win(), lock(0, true, nocheck, "l2"), unlock(0), barrier()};
    if (ordered) r2 = Log{win(), barrier(), lock(0, true, nocheck, "l2"), unlock(0)};
    return Logs{Log{win(), barrier()}, r1, r2};
  };
  const auto broken = check(logs(false));
  ASSERT_FALSE(broken.empty());
  EXPECT_EQ(broken[0].rule, "nocheck");
  EXPECT_TRUE(check(logs(true)).empty());
}

TEST(RaceChecker, TheTargetsDispUnitScalesTheRange) {
  const Logs logs = {Log{win(8), fence("f"), fence("f")},
                     Log{win(), fence("f"), put(0, 1, "a:1"), fence("f")},
                     Log{win(), fence("f"), put(0, 8, "b:2"), fence("f")}};
  // Rank 1 writes bytes [8, 16) of rank 0 (disp 1 x unit 8), rank 2 bytes [64, 72).
  EXPECT_TRUE(check(logs).empty());
}

RaceEvent cas(std::uint64_t cmp, std::uint64_t v, std::uint64_t old, const char* at) {
  RaceEvent e = op(K::compare_and_swap, AccessMode::accumulate, 0, 0, 8, at);
  e.cv = cmp;
  e.v = v;
  e.ret = true;
  e.old = old;
  return e;
}
RaceEvent release(std::uint64_t old, const char* at) {
  RaceEvent e = op(K::fetch_and_op, AccessMode::accumulate, 0, 0, 8, at);
  e.op = Op::replace;
  e.ret = true;
  e.old = old;
  return e;
}
RaceEvent flush(int t) {
  return ev(K::flush, "fl", t);
}
RaceEvent lock_all() {
  return ev(K::lock_all, "la");
}
RaceEvent unlock_all() {
  return ev(K::unlock_all, "ua");
}

// Two ranks' critical sections on a compare_and_swap lock word at rank 0 byte 0, each
// putting to byte 8 (flushed or not before the release).
Logs mutex_logs(bool flushed, std::uint64_t held2) {
  auto rank = [&](std::uint64_t held, const char* at) {
    Log l = Log{win(), lock_all(), cas(0, held, held == 1 ? 0 : 1, "m:19")};
    if (held != 1) l.push_back(cas(0, held, 0, "m:19"));
    l.push_back(put(0, 8, at));
    if (flushed) l.push_back(flush(0));
    l.push_back(release(held, "m:25"));
    l.push_back(unlock_all());
    l.push_back(barrier());
    return l;
  };
  return {Log{win(), lock_all(), unlock_all(), barrier()}, rank(1, "a:23"), rank(held2, "b:23")};
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
  const RaceEvent store = local(K::store, 0, 8, "init:1");
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
    RaceEvent post = ev(K::post, "p:1");
    post.a = post_asserts;
    post.g = {0};
    RaceEvent start = ev(K::start, "s:1");
    start.a = nocheck;
    start.g = {1};
    const RaceEvent wait = ev(K::wait, "w:1");
    const RaceEvent complete = ev(K::complete, "c:1");
    Log r0 = barrier_between ? Log{win(), barrier(), start, complete}
                             : Log{win(), start, complete, barrier()};
    Log r1 =
        barrier_between ? Log{win(), post, barrier(), wait} : Log{win(), post, wait, barrier()};
    return Logs{r0, r1};
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
  const RaceEvent store = local(K::store, 0, 8, "st:1");
  const RaceEvent load = local(K::load, 0, 8, "ld:1");
  const RaceEvent sync = ev(K::sync, "sy");
  auto logs = [&](bool writer, bool reader) {
    Log r0 = Log{win(), store};
    if (writer) r0.push_back(sync);
    r0.push_back(barrier());
    Log r1 = Log{win(), barrier()};
    if (reader) r1.push_back(sync);
    r1.push_back(load);
    return Logs{r0, r1};
  };
  EXPECT_TRUE(check(logs(true, true)).empty());
  for (auto [w, r] : {std::pair{false, true}, std::pair{true, false}}) {
    const auto f = check(logs(w, r));
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].rule, "sync");
  }
}

TEST(RaceChecker, AnEarlyBufferAccessIsAFinding) {
  RaceEvent early = ev(K::early, "x:3", 1);
  early.mode = AccessMode::store;
  early.buf = Buffer::origin;
  early.call = call::Kind::put;
  early.call_at = "x:2";
  early.lo = 0;
  early.hi = 8;
  const auto f = check(Logs{Log{win(), early}, Log{win()}});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].rule, "completion");
  EXPECT_EQ(f[0].first.where, "x:2");
  EXPECT_EQ(f[0].second.where, "x:3");
}

// A put of a derived-type layout: its byte runs [offset, length] from disp.
RaceEvent put_runs(std::uint64_t d, std::vector<Run> runs, const char* at) {
  RaceEvent e = put(0, d, at, 0);
  e.runs = std::move(runs);
  return e;
}

// Ranks 1 and 2 each do `a` and `b` (at rank 0) in one fence epoch.
Logs one_epoch(const RaceEvent& a, const RaceEvent& b) {
  return {Log{win(), fence("f"), fence("f")}, Log{win(), fence("f"), a, fence("f")},
          Log{win(), fence("f"), b, fence("f")}};
}

TEST(RaceChecker, InterleavedLayoutsFromTwoOriginsDoNotConflict) {
  const std::vector<races::Run> every_other = {{0, 4}, {8, 4}, {16, 4}, {24, 4}};
  EXPECT_TRUE(
      check(one_epoch(put_runs(0, every_other, "a:1"), put_runs(4, every_other, "b:2"))).empty());
  // The same layout at the same disp: both write bytes [0, 4) first.
  const auto r = check(one_epoch(put_runs(0, every_other, "a:1"), put_runs(0, every_other, "b:2")));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].rule, "conflict");
  EXPECT_NE(r[0].why.find("bytes [0, 4)"), std::string::npos) << r[0].why;
  // A plain 8-byte put at 4 reaches the layout's second run; a 4-byte one fills a gap only.
  EXPECT_EQ(check(one_epoch(put_runs(0, every_other, "a:1"), put(0, 4, "b:2"))).size(), 1u);
  const RaceEvent gap = put(0, 4, "b:2", 4);
  EXPECT_TRUE(check(one_epoch(put_runs(0, every_other, "a:1"), gap)).empty());
}

TEST(RaceChecker, ALayoutReachesBelowItsDisp) {
  // Runs from -8: rank 1's layout at disp 8 writes bytes [0, 4), where rank 2 puts.
  const RaceEvent low = put(0, 0, "b:2", 4);
  const auto r = check(one_epoch(put_runs(8, {{-8, 4}, {0, 4}}, "a:1"), low));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].first.lo, 0u);
}

TEST(RaceChecker, AccumulatesOfDifferentBasicTypesConflict) {
  EXPECT_TRUE(
      check(one_epoch(acc(0, Op::sum, "a:1", Dtype::i32), acc(0, Op::sum, "b:2", Dtype::i32)))
          .empty());
  const auto r =
      check(one_epoch(acc(0, Op::sum, "a:1", Dtype::i32), acc(0, Op::sum, "b:2", Dtype::f32)));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].rule, "conflict");
  EXPECT_NE(r[0].why.find("different basic types (i32, f32)"), std::string::npos) << r[0].why;
}

TEST(RaceChecker, AccumulatesThatSplitElementsConflict) {
  // i64 at byte 0 and at byte 4: the second's first element straddles two of the first's.
  const auto r = check(
      one_epoch(acc(0, Op::sum, "a:1", Dtype::i64, 0), acc(0, Op::sum, "b:2", Dtype::i64, 4)));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_NE(r[0].why.find("split elements"), std::string::npos) << r[0].why;
  // i32 elements at those displacements line up.
  EXPECT_TRUE(
      check(one_epoch(acc(0, Op::sum, "a:1", Dtype::i32, 0), acc(0, Op::sum, "b:2", Dtype::i32, 4)))
          .empty());
}

TEST(RaceChecker, ANoOpGetAccumulateIsARead) {
  RaceEvent noop = acc(0, Op::no_op, "a:1");
  noop.kind = K::get_accumulate;
  const RaceEvent get = op(K::get, AccessMode::read, 0, 0, 8, "b:2");
  EXPECT_TRUE(check(one_epoch(noop, get)).empty());
  // Rank 0 loads the same bytes in the epoch: two reads.
  const RaceEvent load = local(K::load, 0, 8, "ld:1");
  auto logs = one_epoch(noop, get);
  logs[0] = Log{win(), fence("f"), load, fence("f")};
  EXPECT_TRUE(check(logs).empty());
  // A put writes: it still conflicts with the read, and a store with it.
  EXPECT_EQ(check(one_epoch(noop, put(0, 0, "b:2"))).size(), 1u);
  const RaceEvent store = local(K::store, 0, 8, "ld:1");
  logs[0] = Log{win(), fence("f"), store, fence("f")};
  EXPECT_FALSE(check(logs).empty());
}

}  // namespace
}  // namespace harness::races
