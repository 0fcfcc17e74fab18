// plain_figure_test.cpp — which replayed figures get a plain-C one, and its entries' fields
// (no timing here): beside the replay by name, its own impl, a reason instead of a time where
// there is none.
#include "worker/plain_figure.hpp"

#include <gtest/gtest.h>

#include "reports/benchmark_runs.hpp"

namespace harness::worker {
namespace {

using nlohmann::json;

ReplayedFigure latency() {
  ReplayedFigure f;
  f.pattern = "bench/latency";
  f.op = "put";
  f.sync = "lock";
  f.flavor = "allocate";
  f.target = "wait";
  f.size = 8;
  f.ranks = 2;
  return f;
}

TEST(PlainFigure, LatencyFiguresBecomeTheLoopOfTheSameOpAndSync) {
  const PlainChoice c = plain_choice(latency());
  EXPECT_EQ(c.why_not, "");
  EXPECT_EQ(c.pattern.pattern, "latency");
  EXPECT_EQ(c.pattern.op, "put");
  EXPECT_EQ(c.pattern.sync, "lock");
  EXPECT_EQ(c.pattern.flavor, "allocate");
  EXPECT_EQ(c.pattern.size, 8u);
  ReplayedFigure no_flavor = latency();
  no_flavor.flavor.clear();  // the script's default window
  EXPECT_EQ(plain_choice(no_flavor).pattern.flavor, "allocate");
}

TEST(PlainFigure, WhatTheLoopCannotTimeHasAReason) {
  ReplayedFigure f = latency();
  f.target = "compute";
  EXPECT_NE(plain_choice(f).why_not.find("compute"), std::string::npos);
  f = latency();
  f.pattern = "bench/fence_ring";
  EXPECT_NE(plain_choice(f).why_not.find("bench/fence_ring"), std::string::npos);
  f = latency();
  f.variant = "dtype=long_int";  // the loop would time a put of bytes
  EXPECT_NE(plain_choice(f).why_not.find("dtype=long_int"), std::string::npos);
  f = latency();
  f.ranks = 4;
  EXPECT_NE(plain_choice(f).why_not, "");
  f = latency();
  f.size = 0;
  EXPECT_NE(plain_choice(f).why_not, "");
}

TEST(PlainFigure, PingPongFiguresTimeTheSameSendRecvRoundTrip) {
  ReplayedFigure f;
  f.pattern = "bench/pingpong";
  f.op = f.sync = "script";
  f.target = "compute";  // no passive target: both ranks run every iteration
  f.size = 64;
  f.ranks = 2;
  const PlainChoice c = plain_choice(f);
  EXPECT_EQ(c.why_not, "");
  EXPECT_EQ(c.pattern.pattern, "pingpong");
  EXPECT_EQ(c.pattern.size, 64u);
}

TEST(PlainFigure, ItsEntriesStandBesideTheReplayUnderTheirOwnImpl) {
  const std::string replayed = "bench/latency/lock/8/mpi:mpich/progress:calls/min_time:0.050";
  EXPECT_EQ(plain_figure_name("bench/latency/lock/8/mpi:mpich/progress:calls"),
            "bench/latency/lock/8/mpi:mpich/progress:calls/plain_c");
  json e = {{"name", "x"}, {"impl", "mpich 4.0.2"}, {"messages_expected", 4}, {"real_time", 2.5}};
  mark_plain_entry(e, replayed);
  EXPECT_EQ(e["calibration"], "plain_c");
  EXPECT_EQ(e["replayed"], replayed);
  EXPECT_EQ(e["replayed_impl"], "mpich 4.0.2");
  EXPECT_EQ(e["impl"], "mpich 4.0.2 plain C");
  EXPECT_FALSE(e.contains("messages_expected"));  // the script's count is not the loop's
  EXPECT_FALSE(e.value("messages_reason", "").empty());
}

TEST(PlainFigure, NoLoopIsAnErrorWithItsReasonNeverAZero) {
  const json replayed = {
      {"name", "bench/latency/lock/8/mpi:mpich/target:compute/min_time:0.050/manual_time"},
      {"run_name", "bench/latency/lock/8/mpi:mpich/target:compute/min_time:0.050/manual_time"},
      {"case", "bench/latency[impl=mpich]"},
      {"pattern", "bench/latency"},
      {"size", 8},
      {"impl", "mpich 4.0.2"},
      {"real_time", 3.0}};
  const json e = no_plain_entry(replayed, "no plain-C loop with the target in mode compute");
  EXPECT_EQ(e["run_name"],
            "bench/latency/lock/8/mpi:mpich/target:compute/plain_c/min_time:0.050/manual_time");
  EXPECT_EQ(e["replayed"], replayed["run_name"]);
  EXPECT_EQ(e["case"], replayed["case"]);
  EXPECT_EQ(e["error_occurred"], true);
  EXPECT_EQ(e["error_message"], "no plain-C loop with the target in mode compute");
  EXPECT_FALSE(e.contains("real_time"));
  EXPECT_FALSE(reports::timed_entry(e));
}

}  // namespace
}  // namespace harness::worker
