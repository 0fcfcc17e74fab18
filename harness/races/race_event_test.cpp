// race_event_test.cpp — the race log's codec: an event survives the trip through JSON, the
// JSON is the wire form logs have always had (same keys, same values), and input the codec
// cannot read is an error that names it.
#include "races/race_event.hpp"

#include <stdexcept>

#include <gtest/gtest.h>

#include "races/recorder.hpp"

namespace harness::races {
namespace {

using nlohmann::json;
using K = EventKind;

RaceEvent ev(K k, const char* at) {
  RaceEvent e;
  e.kind = k;
  e.w = 0;
  e.at = at;
  return e;
}

// One event of each shape the recorder writes.
std::vector<RaceEvent> samples() {
  std::vector<RaceEvent> out;
  RaceEvent win = ev(K::win, "");
  win.du = 8;
  win.dyn = true;
  out.push_back(win);
  RaceEvent fence = ev(K::fence, "f:1");
  fence.a = rma::assert_nostore | rma::assert_noput;
  out.push_back(fence);
  RaceEvent put = ev(K::put, "p:1");
  put.mode = AccessMode::write;
  put.t = 1;
  put.d = 3;
  put.n = 8;
  out.push_back(put);
  RaceEvent layout = put;
  layout.kind = K::rget;
  layout.mode = AccessMode::read;
  layout.n = 0;  // a layout's bytes are its runs
  layout.runs = std::vector<Run>{{-4, 4}, {8, 4}};
  layout.cov = true;
  layout.grid = false;
  out.push_back(layout);
  RaceEvent cas = ev(K::compare_and_swap, "c:1");
  cas.mode = AccessMode::accumulate;
  cas.t = 0;
  cas.n = 8;
  cas.dt = rma::Dtype::i64;
  cas.v = 3;
  cas.cv = 0;
  cas.ret = true;
  cas.old = 2;
  out.push_back(cas);
  RaceEvent fao = cas;
  fao.kind = K::fetch_and_op;
  fao.op = rma::Op::sum;
  fao.cv = 0;
  fao.ret = false;
  fao.old = 0;
  out.push_back(fao);
  RaceEvent lock = ev(K::lock, "l:1");
  lock.t = 2;
  lock.x = true;
  lock.a = rma::assert_nocheck;
  out.push_back(lock);
  RaceEvent post = ev(K::post, "po:1");
  post.g = {1, 2};
  out.push_back(post);
  RaceEvent send = ev(K::send, "s:1");
  send.w = -1;
  send.t = 1;
  send.tag = 7;
  out.push_back(send);
  RaceEvent barrier = ev(K::barrier, "b");
  barrier.w = -1;
  out.push_back(barrier);
  RaceEvent store = ev(K::store, "st:1");
  store.mode = AccessMode::store;
  store.t = 1;
  store.lo = 8;
  store.hi = 16;
  out.push_back(store);
  RaceEvent early = ev(K::early, "e:2");
  early.mode = AccessMode::load;
  early.buf = Buffer::result;
  early.call = call::Kind::get_accumulate;
  early.call_at = "e:1";
  early.t = 1;
  early.hi = 4;
  out.push_back(early);
  return out;
}

TEST(RaceEvent, AnEventSurvivesTheTripThroughJson) {
  for (const RaceEvent& e : samples()) {
    const json j = to_json(e);
    EXPECT_EQ(from_json(j), e) << j.dump();
    EXPECT_EQ(from_json(json::parse(j.dump())), e) << j.dump();
  }
  EXPECT_EQ(from_log(to_log(samples())), samples());
}

TEST(RaceEvent, TheJsonIsTheWireFormLogsHaveAlwaysHad) {
  const auto s = samples();
  const std::vector<json> want = {
      {{"k", "win"}, {"w", 0}, {"du", 8}, {"dyn", true}},
      {{"k", "fence"}, {"w", 0}, {"a", 6}, {"at", "f:1"}},
      {{"k", "put"}, {"w", 0}, {"t", 1}, {"d", 3}, {"n", 8}, {"m", "w"}, {"at", "p:1"}},
      {{"k", "rget"},
       {"w", 0},
       {"t", 1},
       {"d", 3},
       {"r", {{-4, 4}, {8, 4}}},
       {"cov", true},
       {"grid", false},
       {"m", "r"},
       {"at", "p:1"}},
      {{"k", "compare_and_swap"},
       {"w", 0},
       {"t", 0},
       {"d", 0},
       {"n", 8},
       {"m", "a"},
       {"op", "cas"},
       {"dt", "i64"},
       {"v", 3},
       {"cv", 0},
       {"ret", true},
       {"old", 2},
       {"at", "c:1"}},
      {{"k", "fetch_and_op"},
       {"w", 0},
       {"t", 0},
       {"d", 0},
       {"n", 8},
       {"m", "a"},
       {"op", "sum"},
       {"dt", "i64"},
       {"v", 3},
       {"at", "c:1"}},
      {{"k", "lock"}, {"w", 0}, {"t", 2}, {"x", true}, {"a", 1}, {"at", "l:1"}},
      {{"k", "post"}, {"w", 0}, {"a", 0}, {"g", {1, 2}}, {"at", "po:1"}},
      {{"k", "send"}, {"t", 1}, {"tag", 7}, {"at", "s:1"}},
      {{"k", "barrier"}, {"at", "b"}},
      {{"k", "store"}, {"w", 0}, {"t", 1}, {"lo", 8}, {"hi", 16}, {"at", "st:1"}},
      {{"k", "early"},
       {"at", "e:2"},
       {"m", "l"},
       {"buf", "result"},
       {"call", "get_accumulate"},
       {"call_at", "e:1"},
       {"w", 0},
       {"t", 1},
       {"lo", 0},
       {"hi", 4}},
  };
  ASSERT_EQ(s.size(), want.size());
  for (std::size_t i = 0; i < s.size(); ++i) EXPECT_EQ(to_json(s[i]), want[i]) << i;
}

// What the recorder ships for a few calls, key for key as before the typed events.
TEST(RaceEvent, TheRecordersLogIsTheWireForm) {
  Recorder rec(0);
  rec.window(2, 0, false);
  call::Call put;
  put.kind = call::Kind::put;
  put.target = 1;
  put.disp = 4;
  put.count = 2;
  put.dtype = rma::Dtype::i32;
  rec.call(put, 2, "x:1");
  call::Call test;
  test.kind = call::Kind::test;
  rec.call(test, 2, "x:2");
  rec.barrier("x:3");
  const json want = json::array(
      {{{"k", "win"}, {"w", 2}, {"du", 1}, {"dyn", false}},
       {{"k", "put"}, {"w", 2}, {"t", 1}, {"d", 4}, {"n", 8}, {"m", "w"}, {"at", "x:1"}},
       {{"k", "wait"}, {"w", 2}, {"at", "x:2"}},
       {{"k", "barrier"}, {"at", "x:3"}}});
  EXPECT_EQ(rec.to_json(), want);
}

// The kinds' names are MPI's call names, and the four that are no call.
TEST(RaceEvent, KindsAreNamedAsTheCalls) {
  EXPECT_EQ(to_string(of(call::Kind::lock_all)), "lock_all");
  EXPECT_EQ(to_string(K::win), "win");
  EXPECT_EQ(to_string(K::early), "early");
  EXPECT_EQ(call_of(K::flush), call::Kind::flush);
  EXPECT_FALSE(call_of(K::load));
}

std::string error_of(const json& j) {
  try {
    from_json(j);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(RaceEvent, WhatTheCodecCannotReadIsAnErrorNamingIt) {
  EXPECT_NE(error_of({{"k", "teleport"}, {"at", "x:1"}}).find("unknown kind"), std::string::npos);
  EXPECT_NE(error_of({{"k", "teleport"}}).find("teleport"), std::string::npos);
  EXPECT_NE(error_of({{"at", "x:1"}}).find("unknown kind"), std::string::npos);
  EXPECT_NE(error_of(json::array()).find("not an object"), std::string::npos);
  EXPECT_NE(error_of({{"k", "put"}, {"m", "q"}}).find("unknown mode \"q\""), std::string::npos);
  EXPECT_NE(error_of({{"k", "accumulate"}, {"m", "a"}, {"op", "avg"}}).find("unknown op"),
            std::string::npos);
  EXPECT_NE(error_of({{"k", "accumulate"}, {"m", "a"}, {"dt", "f128"}}).find("unknown type"),
            std::string::npos);
  EXPECT_NE(error_of({{"k", "early"}, {"call", "jump"}}).find("unknown call"), std::string::npos);
  EXPECT_NE(error_of({{"k", "early"}, {"buf", "both"}}).find("unknown buffer"), std::string::npos);
  // A value of the wrong type: nlohmann::json's own error, as the checker always gave.
  EXPECT_THROW(from_json({{"k", "put"}, {"w", "zero"}}), json::type_error);
  EXPECT_THROW(from_log(json::array({{{"k", "fence"}}, {{"k", "nope"}}})), std::runtime_error);
}

// A missing optional key keeps its default, and a rank that sent no log has an empty one.
TEST(RaceEvent, MissingKeysAndLogsReadAsBefore) {
  const RaceEvent e = from_json({{"k", "load"}, {"lo", 4}});
  EXPECT_EQ(e.kind, K::load);
  EXPECT_EQ(e.mode, AccessMode::load);
  EXPECT_EQ(e.w, -1);
  EXPECT_EQ(e.lo, 4u);
  EXPECT_EQ(e.at, "");
  EXPECT_TRUE(from_log(json()).empty());
}

}  // namespace
}  // namespace harness::races
