// recorder_test.cpp — what one rank's recorder keeps: repeated lock epochs and compare_and_swap
// critical sections are retired (the log stays bounded however long the run), a
// synchronization with other ranks keeps the next repeat, and an op's buffers touched before
// its completion are logged; a derived-type layout is kept as its byte runs, an accumulate
// with its basic type.
#include "races/recorder.hpp"

#include <cstdint>

#include <gtest/gtest.h>

#include "rma/datatype.hpp"

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
  bool found = false;
  for (const RaceEvent& e : rec.log())
    if (e.kind == EventKind::early) {
      found = true;
      EXPECT_EQ(e.call, Kind::put);
      EXPECT_EQ(e.call_at, "a.lua:2");
      EXPECT_EQ(e.at, "a.lua:3");
      EXPECT_EQ(e.mode, AccessMode::store);
      EXPECT_EQ(e.buf, Buffer::origin);
      EXPECT_EQ(e.lo, 8u);
      EXPECT_EQ(e.hi, 16u);
    }
  EXPECT_TRUE(found);
}

// A put of 4 i32 from a contiguous origin into every other i32 at the target.
Call layout_put(std::int32_t* origin, std::int64_t blocks, std::int64_t stride) {
  Call put = make(Kind::put, 1);
  put.origin = origin;
  put.count = 4;
  put.dtype = rma::Dtype::i32;
  const rma::TypeRef i32 = rma::Datatype::basic(rma::Dtype::i32);
  put.origin_layout = {static_cast<std::uint64_t>(blocks), i32};
  put.target_layout = {1, rma::Datatype::vector(blocks, 1, stride, i32).value()};
  put.result_layout = {0, i32};
  return put;
}

TEST(RaceRecorder, ALayoutIsRecordedAsItsRuns) {
  Recorder rec(0);
  rec.window(0, 1, false);
  std::int32_t v[4] = {};
  rec.call(layout_put(v, 4, 2), 0, "l.lua:1");
  const RaceEvent& e = rec.log().back();
  ASSERT_TRUE(e.runs);
  EXPECT_EQ(*e.runs, (std::vector<races::Run>{{0, 4}, {8, 4}, {16, 4}, {24, 4}}));
  EXPECT_FALSE(e.cov);
}

TEST(RaceRecorder, ALayoutOfTooManyRunsIsRecordedAsItsCoveringRange) {
  Recorder rec(0);
  rec.window(0, 1, false);
  std::vector<std::int32_t> v(kMaxRuns + 1);
  const auto n = static_cast<std::int64_t>(kMaxRuns) + 1;
  Call put = layout_put(v.data(), n, 2);
  put.count = v.size();
  rec.call(put, 0, "l.lua:1");
  const RaceEvent& e = rec.log().back();
  ASSERT_TRUE(e.runs);
  EXPECT_EQ(*e.runs, (std::vector<races::Run>{{0, static_cast<std::uint64_t>(8 * n - 4)}}));
  EXPECT_TRUE(e.cov);
}

TEST(RaceRecorder, AnAccumulateRecordsItsBasicType) {
  Recorder rec(0);
  rec.window(0, 1, false);
  float f[2] = {};
  Call acc = make(Kind::accumulate, 1);
  acc.origin = f;
  acc.count = 2;
  acc.dtype = rma::Dtype::f32;
  acc.op = rma::Op::sum;
  rec.call(acc, 0, "a.lua:1");
  EXPECT_EQ(rec.log().back().mode, AccessMode::accumulate);
  EXPECT_EQ(rec.log().back().dt, rma::Dtype::f32);
  EXPECT_EQ(rec.log().back().op, rma::Op::sum);
}

TEST(RaceRecorder, ALayoutsLocalBufferIsInFlightOnlyWhereItTouches) {
  Recorder rec(0);
  rec.window(0, 1, false);
  std::int64_t v[4] = {};
  Call get = make(Kind::get, 1);
  get.result = v;
  get.count = 4;
  get.dtype = rma::Dtype::i64;
  const rma::TypeRef i64 = rma::Datatype::basic(rma::Dtype::i64);
  get.origin_layout = {1, rma::Datatype::vector(2, 1, 2, i64).value()};  // v[0] and v[2]
  get.target_layout = {2, i64};
  get.result_layout = {0, i64};
  rec.call(get, 0, "g.lua:1");
  EXPECT_TRUE(rec.in_flight(v, 8, false));
  EXPECT_FALSE(rec.in_flight(v + 1, 8, true));  // a gap: the get writes nothing there
  EXPECT_FALSE(rec.in_flight(v + 3, 8, true));
  ASSERT_TRUE(rec.in_flight(v + 1, 16, true));
  rec.early(v + 1, 16, true, "g.lua:2");
  const RaceEvent e = rec.log().back();
  EXPECT_EQ(e.kind, EventKind::early);
  EXPECT_EQ(e.buf, Buffer::result);
  EXPECT_EQ(e.lo, 16u);  // the part of the store the get writes: v[2]
  EXPECT_EQ(e.hi, 24u);
  rec.call(make(Kind::flush_local, 1), 0, "g.lua:3");
  EXPECT_FALSE(rec.in_flight(v, 32, true));
}

}  // namespace
}  // namespace harness::races
