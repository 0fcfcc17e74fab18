// recorder_test.cpp — what one rank's recorder keeps: repeated lock epochs and compare_and_swap
// critical sections are retired (the log stays bounded however long the run), a
// synchronization with other ranks keeps the next repeat, and an op's buffers touched before
// its completion are logged.
#include "races/recorder.hpp"

#include <cstdint>

#include <gtest/gtest.h>

namespace harness::races {
namespace {

using call::Call;
using call::Kind;

Call make(Kind k, int target = 0) {
  Call c;
  c.kind = k;
  c.target = target;
  return c;
}

struct Epoch {
  std::int64_t data[4] = {1, 2, 3, 4};
  std::int64_t got[4] = {};
  // lock_contention.lua's exclusive epoch: two accumulates, flush, get_accumulate, unlock.
  void run(Recorder& rec) {
    Call lock = make(Kind::lock);
    rec.call(lock, 0, "lc.lua:21");
    Call acc = make(Kind::accumulate);
    acc.origin = data;
    acc.count = 4;
    acc.dtype = rma::Dtype::i64;
    rec.call(acc, 0, "lc.lua:23");
    acc.disp = 32;
    rec.call(acc, 0, "lc.lua:24");
    rec.call(make(Kind::flush), 0, "lc.lua:25");
    Call ga = make(Kind::get_accumulate);
    ga.result = got;
    ga.count = 4;
    ga.dtype = rma::Dtype::i64;
    ga.op = rma::Op::no_op;
    rec.call(ga, 0, "lc.lua:26");
    rec.call(make(Kind::unlock), 0, "lc.lua:32");
  }
};

TEST(RaceRecorder, RepeatedLockEpochsAreRetired) {
  Recorder rec(1);
  rec.window(0, 1, false);
  Epoch e;
  e.run(rec);
  const std::size_t one = rec.events();
  for (int i = 0; i < 199; ++i) e.run(rec);
  EXPECT_EQ(rec.events(), one);  // 200 epochs, the record of one
  EXPECT_EQ(rec.retired(), 199u);
}

TEST(RaceRecorder, ASynchronizationKeepsTheNextRepeat) {
  Recorder rec(1);
  rec.window(0, 1, false);
  Epoch e;
  e.run(rec);
  const std::size_t one = rec.events();
  rec.barrier("b");
  e.run(rec);  // after the barrier: other ranks may be ordered with this one, not the first
  e.run(rec);  // a repeat since the barrier: retired
  EXPECT_EQ(rec.events(), one + 1 + (one - 1));  // window, epoch, barrier, epoch
  EXPECT_EQ(rec.retired(), 1u);
}

TEST(RaceRecorder, ADifferentEpochIsKept) {
  Recorder rec(1);
  rec.window(0, 1, false);
  Epoch e;
  e.run(rec);
  const std::size_t one = rec.events();
  e.data[0] = 9;  // the data do not matter, the ranges do
  e.run(rec);
  EXPECT_EQ(rec.events(), one);
  Call lock = make(Kind::lock);
  rec.call(lock, 0, "lc.lua:21");
  Call put = make(Kind::put);
  put.origin = e.data;
  put.count = 1;
  put.dtype = rma::Dtype::i64;
  put.disp = 8;
  rec.call(put, 0, "lc.lua:40");
  rec.call(make(Kind::unlock), 0, "lc.lua:41");
  EXPECT_EQ(rec.events(), one + 3);
}

TEST(RaceRecorder, ASpinLockCriticalSectionRepeatIsRetired) {
  Recorder rec(2);
  rec.window(0, 1, false);
  std::int64_t me = 3, zero = 0, other = 2, val = 0;
  auto section = [&](int failures) {
    Call cas = make(Kind::compare_and_swap);
    cas.dtype = rma::Dtype::i64;
    cas.compare = &zero;
    cas.origin = &me;
    for (int i = 0; i < failures; ++i) {
      cas.result = &other;  // the word held by another rank
      rec.call(cas, 0, "m.lua:19", {nullptr, true});
    }
    cas.result = &zero;  // acquired
    rec.call(cas, 0, "m.lua:19", {nullptr, true});
    Call get = make(Kind::get);
    get.result = &val;
    get.count = 1;
    get.dtype = rma::Dtype::i64;
    get.disp = 8;
    rec.call(get, 0, "m.lua:20");
    rec.call(make(Kind::flush), 0, "m.lua:21");
    Call put = make(Kind::put);
    put.origin = &val;
    put.count = 1;
    put.dtype = rma::Dtype::i64;
    put.disp = 8;
    rec.call(put, 0, "m.lua:23");
    rec.call(make(Kind::flush), 0, "m.lua:24");
    Call rel = make(Kind::fetch_and_op);
    rel.dtype = rma::Dtype::i64;
    rel.origin = &zero;
    rel.result = &me;  // it held this rank's value
    rec.call(rel, 0, "m.lua:25", {nullptr, true});
  };
  section(3);
  section(0);
  const std::size_t two = rec.events();
  for (int i = 0; i < 100; ++i) section(i % 2 ? 5 : 0);
  EXPECT_EQ(rec.events(), two);
  EXPECT_EQ(rec.retired(), 100u);
}

TEST(RaceRecorder, ABufferTouchedBeforeItsOpCompletesIsLogged) {
  Recorder rec(0);
  rec.window(0, 1, false);
  std::int64_t v[2] = {};
  rec.call(make(Kind::lock, 1), 0, "a.lua:1");
  Call put = make(Kind::put, 1);
  put.origin = v;
  put.count = 2;
  put.dtype = rma::Dtype::i64;
  rec.call(put, 0, "a.lua:2");
  EXPECT_FALSE(rec.in_flight(v, 8, false));  // reading a put's origin is allowed
  ASSERT_TRUE(rec.in_flight(v + 1, 8, true));
  rec.early(v + 1, 8, true, "a.lua:3");
  rec.call(make(Kind::flush_local, 1), 0, "a.lua:4");
  EXPECT_FALSE(rec.in_flight(v, 16, true));
  const auto log = rec.to_json();
  bool found = false;
  for (const auto& e : log)
    if (e["k"] == "early") {
      found = true;
      EXPECT_EQ(e["call_at"], "a.lua:2");
      EXPECT_EQ(e["at"], "a.lua:3");
      EXPECT_EQ(e["lo"], 8);
      EXPECT_EQ(e["hi"], 16);
    }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace harness::races
