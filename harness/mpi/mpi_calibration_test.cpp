// mpi_calibration_test.cpp — the plain-C calibration's entries are well formed (no timing here):
// which replayed figures get one, its name beside the replay's, Google Benchmark's shape, and
// a reason instead of a time where there is none.
#include "mpi/mpi_calibration.hpp"

#include <gtest/gtest.h>

#include "reports/benchmark_runs.hpp"

namespace harness::mpi {
namespace {

using nlohmann::json;

json replayed(const std::string& pattern = "bench/latency", const std::string& target = "wait") {
  const std::string run =
      "bench/latency/lock/8/mpi:openmpi:osc=sm/progress:calls/op:put/"
      "min_time:0.050/repeats:3/manual_time";
  return {{"name", run + "_median"},
          {"run_name", run},
          {"run_type", "aggregate"},
          {"pattern", pattern},
          {"op", "put"},
          {"sync", "lock"},
          {"size", 8},
          {"metric", "latency"},
          {"target", target},
          {"backend", "mpi"},
          {"flavor", "allocate"},
          {"ranks", 2},
          {"impl", "openmpi 4.1.4 osc=sm"}};
}

TEST(Calibration, LatencyFiguresMapToTheProgramsArguments) {
  const CalibrationConfig c = calibration_config(replayed());
  EXPECT_EQ(c.why_not, "");
  EXPECT_EQ(c.args, (std::vector<std::string>{"--op", "put", "--sync", "lock", "--size", "8",
                                              "--flavor", "allocate"}));
  EXPECT_NE(calibration_config(replayed("bench/latency", "compute")).why_not, "");
  EXPECT_NE(calibration_config(replayed("bench/fence_ring")).why_not, "");
  json pairs = replayed();  // -o dtype=long_int: the C loop would time a put of bytes
  pairs["variant"] = "dtype=long_int";
  EXPECT_NE(calibration_config(pairs).why_not.find("dtype=long_int"), std::string::npos);
}

TEST(Calibration, PingPongFiguresTimeTheSameSendRecvRoundTrip) {
  json e = replayed("bench/pingpong", "");
  for (const char* k : {"op", "sync", "flavor"}) e.erase(k);
  const CalibrationConfig c = calibration_config(e);
  EXPECT_EQ(c.why_not, "");
  EXPECT_EQ(c.args, (std::vector<std::string>{"--pattern", "pingpong", "--size", "8"}));
  e["ranks"] = 4;
  EXPECT_NE(calibration_config(e).why_not, "");
}

TEST(Calibration, RepetitionsBecomeGoogleBenchmarkEntriesBesideTheReplay) {
  const json out =
      calibration_entries(replayed(), "calibration[impl=openmpi:osc=sm]",
                          R"({"iterations": 1000, "real_time_ns": [60.0, 50.0, 70.0]})", "");
  ASSERT_EQ(out.size(), 3u + 5u);  // three repetitions, mean/median/stddev/min/max
  for (const auto& e : out) {
    EXPECT_EQ(e["calibration"], "plain_c");
    EXPECT_EQ(e["impl"], "openmpi 4.1.4 osc=sm plain C");
    EXPECT_EQ(e["replayed_impl"], "openmpi 4.1.4 osc=sm");
    EXPECT_EQ(e["case"], "calibration[impl=openmpi:osc=sm]");
    EXPECT_EQ(e["run_name"],
              "bench/latency/lock/8/mpi:openmpi:osc=sm/progress:calls/op:put/"
              "plain_c/min_time:0.050/repeats:3");
    EXPECT_EQ(e["size"], 8);
    EXPECT_EQ(e["time_unit"], "us");
  }
  const auto runs = reports::benchmark_runs(out);
  ASSERT_EQ(runs.size(), 1u);
  ASSERT_TRUE(runs[0].time_ns());
  EXPECT_DOUBLE_EQ(runs[0].time_ns()->median, 60.0);
  EXPECT_DOUBLE_EQ(runs[0].time_ns()->min, 50.0);
  EXPECT_EQ(runs[0].times_ns.size(), 3u);
}

TEST(Calibration, NoFigureIsAnErrorWithItsReasonNeverAZero) {
  for (const auto& [line, why] : std::vector<std::pair<std::string, std::string>>{
           {"", "rmabench-calibrate-openmpi exited with code 1"},
           {"Segmentation fault", ""},
           {R"({"iterations": 10, "real_time_ns": []})", ""},
           {R"({"iterations": 10, "real_time_ns": [-1]})", ""}}) {
    const json out = calibration_entries(replayed(), "c", line, why);
    ASSERT_EQ(out.size(), 1u) << line;
    EXPECT_EQ(out[0]["error_occurred"], true) << line;
    EXPECT_FALSE(out[0]["error_message"].get<std::string>().empty()) << line;
    EXPECT_FALSE(out[0].contains("real_time")) << line;
    EXPECT_FALSE(reports::timed_entry(out[0])) << line;
  }
}

}  // namespace
}  // namespace harness::mpi
